"""The LNCC's fast ``dominance`` path against its exact definition ``alpha > critical_alpha``.

``LNCC._dominance`` settles most verdicts in the compiled certificates (numba) and the rest by the
exact route (``pairwise.dominance_verdicts``): from the exact root of r = 1 (``_settle_at_root``),
then the search that stops once the verdicts are proven; ``critical_alpha`` always runs the exact
search.  The verdicts must be identical, on both paths (numba on and off), on random data sets with
many features and classes, small and large training sets, values unseen in training, and alphas
placed exactly on (and one ulp off) critical levels, where only the rounding margins keep a
certificate from claiming a verdict it cannot prove.
"""
import numpy as np
import pandas as pd
import pytest

import credal_core.likelihood.pairwise as pairwise_module
import credal_core.naive.lncc as lncc_module
from credal_core import LNCC


def _naive_bayes_case(rng, n_train, n_classes, n_features, n_values, n_test=150):
    y = rng.integers(0, n_classes, n_train)
    y[:n_classes] = np.arange(n_classes)                      # every class occurs
    concentration = rng.choice([0.3, 1.0, 5.0])
    cond = rng.dirichlet(np.full(n_values, concentration), size=(n_classes, n_features))
    X = np.empty((n_train, n_features), dtype=np.int64)
    for c in range(n_classes):
        rows = np.flatnonzero(y == c)
        for j in range(n_features):
            X[rows, j] = rng.choice(n_values, rows.size, p=cond[c, j])
    # test rows: some from the model, some uniform (value n_values is never seen in training)
    X_test = np.vstack([X[rng.integers(0, n_train, n_test // 2)],
                        rng.integers(0, n_values + 1, (n_test - n_test // 2, n_features))])
    return X, y, X_test


def _alphas(rng, crit, off):
    levels = crit[:, off]
    levels = levels[(levels > 0) & (levels < 1)]
    out = [0.75, 1.0, float(rng.uniform())]
    if levels.size:
        picks = rng.choice(levels, 3)
        out += [float(picks[0]), float(np.nextafter(picks[1], 2.0)), float(np.nextafter(picks[2], -1.0))]
    return out


# The paths: the compiled certificates first (numba, when installed), the exact route alone.
PATHS = [{"CREDAL_NUMBA": "1"}, {"CREDAL_NUMBA": "0"}]

# (seed, training rows, classes, features, values per feature)
CASES = [(seed, n_train, n_classes, n_features, n_values)
         for seed, (n_train, n_classes, n_features, n_values) in enumerate(
             [(12, 2, 10, 2), (25, 2, 10, 2), (60, 4, 25, 3), (300, 3, 20, 4), (40, 5, 30, 2),
              (2000, 3, 20, 4), (20000, 3, 15, 5), (150, 2, 40, 3), (800, 4, 12, 6), (5000, 2, 30, 2)])]


@pytest.mark.parametrize("seed, n_train, n_classes, n_features, n_values", CASES)
def test_fast_dominance_equals_exact_critical_alpha(seed, n_train, n_classes, n_features, n_values):
    rng = np.random.default_rng(1000 + seed)
    X, y, X_test = _naive_bayes_case(rng, n_train, n_classes, n_features, n_values)
    for include in (True, False):
        model = LNCC(include_instance=include).fit(X, y)
        crit = model.critical_alpha(X_test)
        off = ~np.eye(crit.shape[1], dtype=bool)
        for alpha in _alphas(rng, crit, off):
            for order in PATHS:
                with pytest.MonkeyPatch.context() as patch:
                    for name, value in order.items():
                        patch.setenv(name, value)
                    dom = model.set_params(alpha=alpha).dominance(X_test)
                mismatch = dom[:, off] != (alpha > crit)[:, off]
                assert not mismatch.any(), (include, alpha, order, int(mismatch.sum()))


@pytest.mark.parametrize("numba", ["1", "0"])
def test_every_stage_of_the_fast_path_is_exercised(monkeypatch, numba):
    """The comparison above is only worth something if each route decides some verdicts: the
    compiled certificates (with numba), the settling at the root, the search with the instance that
    stops once the verdicts are proven, and the exact levels without it."""
    monkeypatch.setenv("CREDAL_NUMBA", numba)
    if numba == "1" and not lncc_module.numba_enabled():
        pytest.skip("numba is not installed: only the exact route exists")
    seen = {"root": 0, "search with the instance": 0, "exact without it": 0}
    if numba == "1":
        seen["kernel"] = 0
    certify, settle, search, exact = (lncc_module.certify, pairwise_module._settle_at_root,
                                      pairwise_module.dominance_pairs, pairwise_module.critical_alpha_pairs)

    def spy_certify(*args, **kwargs):
        dom, unknown = certify(*args, **kwargs)
        n_classes = unknown.shape[1]
        seen["kernel"] += int((~unknown[:, np.triu(np.ones((n_classes, n_classes), bool), 1)]).sum())
        return dom, unknown

    def spy_settle(*args, **kwargs):
        out = settle(*args, **kwargs)
        seen["root"] += int(out[2].sum())
        return out

    def spy_search(pc, *args, **kwargs):
        seen["search with the instance"] += pc.n1.size
        return search(pc, *args, **kwargs)

    def spy_exact(pc, include_instance=True):
        seen["exact without it"] += pc.n1.size * (not include_instance)
        return exact(pc, include_instance)

    monkeypatch.setattr(lncc_module, "certify", spy_certify)
    monkeypatch.setattr(pairwise_module, "_settle_at_root", spy_settle)
    monkeypatch.setattr(pairwise_module, "dominance_pairs", spy_search)
    monkeypatch.setattr(pairwise_module, "critical_alpha_pairs", spy_exact)
    rng = np.random.default_rng(7)
    for n_train in (40, 3000):
        X, y, X_test = _naive_bayes_case(rng, n_train, 3, 20, 4, n_test=400)
        for include in (True, False):
            model = LNCC(include_instance=include).fit(X, y)
            model.dominance(X_test)
            # alpha on a critical level: only the exact route may decide that row (without the
            # instance nothing else ever reaches it)
            crit = model.critical_alpha(X_test[:1])[0]
            model.set_params(alpha=float(crit[crit < 1].min())).dominance(X_test[:1])
    assert min(seen.values()) > 0, seen


@pytest.mark.parametrize("include_instance", [True, False])
def test_two_declared_empty_classes_do_not_break_the_fast_path(include_instance):
    # two classes with zero counts: the class-term maximiser once divided 0 by 0 on Python floats
    X = pd.DataFrame({"f": ["x", "y", "x", "y", "x"], "g": ["u", "u", "v", "v", "v"]})
    y = ["a", "a", "b", "b", "a"]
    classes = ["a", "b", "c", "d"]
    crit = LNCC(include_instance=include_instance).partial_fit(X, y, classes=classes).critical_alpha(X)
    off = ~np.eye(4, dtype=bool)
    for alpha in (0.05, 0.3, 0.75, 0.99):
        model = LNCC(alpha=alpha, include_instance=include_instance).partial_fit(X, y, classes=classes)
        assert np.array_equal(model.dominance(X)[:, off], (alpha > crit)[:, off])
        assert model.predict_set(X).any(axis=1).all()
