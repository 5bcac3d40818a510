"""The LNCC on hard data: features independent of the class, small training sets (close calls).

Most class pairs are then decided by the compiled certificates of ``LNCC._dominance`` (per-row
power sums with bounded remainders, a certified shape of the profile likelihood and bracketed
roots; numba) or, without numba, by the exact route.  The verdicts of both paths must equal
``alpha > critical_alpha`` (the exact search) with alpha on critical levels and one ulp either
side, and ``critical_alpha`` must match the generic optimiser over the raw parameters on many
small cases.
"""
import numpy as np
import pandas as pd
import pytest

import credal_core.naive.lncc as lncc_module
from credal_core import LNCC
from credal_core._compiled import numba_enabled
from tests._depth import cases
from tests.credal_core._helpers import class_pairs, encoded_rows
from tests.credal_core.brute_force import encode_instance, lncc_critical_alpha_matrix


def _uninformative(rng, n_rows, n_classes, n_features, n_values):
    y = rng.integers(0, n_classes, n_rows)
    y[:n_classes] = np.arange(n_classes)
    marginals = rng.dirichlet(np.ones(n_values), size=n_features)
    X = np.column_stack([rng.choice(n_values, n_rows, p=p) for p in marginals])
    return X, y


@pytest.mark.parametrize("n_train, include", [(30, True), (30, False), (300, True), (300, False),
                                              (3000, True), (3000, False)])
def test_taylor_stage_verdicts_equal_the_exact_levels(n_train, include, monkeypatch):
    rng = np.random.default_rng(n_train + include)
    X, y = _uninformative(rng, n_train + 300, 3, 20, 4)
    decided = []
    stage = lncc_module.certify

    def spy(*args, **kwargs):
        dom, unknown = stage(*args, **kwargs)
        decided.append(1 - unknown[:, np.triu(np.ones((3, 3), bool), 1)].mean())
        return dom, unknown

    monkeypatch.setattr(lncc_module, "certify", spy)
    model = LNCC(include_instance=include).fit(X[:n_train], y[:n_train])
    X_test = X[n_train:]
    crit = model.critical_alpha(X_test)
    off = ~np.eye(3, dtype=bool)
    levels = crit[:, off][(crit[:, off] > 0) & (crit[:, off] < 1)]
    alphas = [0.75, 0.3, 0.95]
    for level in rng.choice(levels, 3):
        alphas += [float(level), float(np.nextafter(level, 2.0)), float(np.nextafter(level, -1.0))]
    for alpha in alphas:
        # the compiled certificates first (numba), then the exact route alone: the same verdicts
        for flag in ("1", "0"):
            monkeypatch.setenv("CREDAL_NUMBA", flag)
            dom = model.set_params(alpha=alpha).dominance(X_test)
            mismatch = dom[:, off] != (alpha > crit)[:, off]
            assert not mismatch.any(), (alpha, flag, int(mismatch.sum()))
    # the certificates are exercised: they settle most close calls on this data (not on 30 rows
    # with instance, where zero counts and bimodal profiles are common)
    monkeypatch.setenv("CREDAL_NUMBA", "1")
    if numba_enabled():
        assert np.mean(decided) > (0.2 if n_train == 30 else 0.8), decided


def test_small_uninformative_cases_match_brute_force():
    failures, compared, strict = [], 0, 0
    n_seeds = cases(16)
    for seed in range(n_seeds):
        rng = np.random.default_rng(500 + seed)
        n_classes, n_features = int(rng.integers(2, 4)), int(rng.integers(1, 4))
        X, y = _uninformative(rng, int(rng.integers(8, 25)), n_classes, n_features, 3)
        frame = pd.DataFrame(X.astype(str))
        labels = np.array([f"c{v}" for v in y], dtype=object)
        include = bool(seed % 2)
        model = LNCC(include_instance=include).fit(frame, labels)
        order = list(model.classes_)
        test = frame.iloc[:2]
        crit = model.critical_alpha(test)
        dom = model.dominance(test)
        for row, (n_c, n_cf, inst, _) in encoded_rows(encode_instance, frame, labels, order, test):
            brute = lncc_critical_alpha_matrix(n_c, n_cf, inst, include_instance=include, seed=seed)
            for a, b in class_pairs(len(order)):
                compared += 1
                strict += brute[a, b] < 1 - 1e-4
                if abs(crit[row, a, b] - brute[a, b]) > 1e-4:
                    failures.append((seed, row, a, b, crit[row, a, b], brute[a, b]))
                # the fast verdicts at 0.75 agree with the brute force away from its tolerance
                if abs(brute[a, b] - 0.75) > 1e-4 and dom[row, a, b] != (0.75 > brute[a, b]):
                    failures.append(("verdict", seed, row, a, b, brute[a, b]))
    assert not failures, failures[:8]
    assert compared >= 8 * n_seeds and strict >= n_seeds, (compared, strict)
