"""LNCC with missing values (MAR): the profile likelihood over the observed values.

Cross-checked against a generic optimiser over the raw NBC parameters (brute_force_lncc.py), on
random small data sets with missing training cells and missing test values, through
:class:`PairCounts` directly and through ``LNCC.fit`` / ``critical_alpha`` on data with NaN;
the verdicts of ``dominance`` equal ``alpha > critical_alpha`` with alpha on a critical level and
one ulp either side.
"""
import numpy as np
import pandas as pd
import pytest

from credal_core import LNCC
from credal_core.likelihood.pairwise import PairCounts, critical_alpha_pairs
from tests._depth import cases
from tests.credal_core.brute_force_lncc import lncc_critical_alpha_observed, observed_counts

ABS_TOL = 1e-4


def _case(seed, n_test=1):
    """Small random data with missing cells: X (object, None = missing), y, classes, test rows."""
    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 4))
    m = int(rng.integers(1, 4))
    sizes = rng.integers(2, 4, size=m)
    rows = int(rng.integers(K + 2, 15))
    y = rng.integers(0, K, rows)
    y[:K] = np.arange(K)
    tables = [[rng.dirichlet(np.full(v, 0.5)) for v in sizes] for _ in range(K)]
    X = np.empty((rows, m), dtype=object)
    for i in range(rows):
        for j in range(m):
            X[i, j] = f"v{rng.choice(sizes[j], p=tables[y[i]][j])}"
    X[rng.random((rows, m)) < rng.choice([0.15, 0.35])] = None
    X_test = np.empty((n_test, m), dtype=object)
    for i in range(n_test):
        for j in range(m):
            X_test[i, j] = None if rng.random() < 0.3 else f"v{rng.integers(sizes[j])}"
    classes = list(range(K))
    return X, y, classes, X_test


def _pair_counts(n_c, n_cf, inst, a, b):
    """PairCounts of one instance from the brute force's count arrays (built by hand)."""
    missing = np.array([f is None for f in inst])
    pick = [0 if f is None else f for f in inst]
    c = [np.array([n_cf[j][k, pick[j]] for j in range(len(inst))], float) for k in (a, b)]
    d = [np.array([n_cf[j][k].sum() for j in range(len(inst))], float) for k in (a, b)]
    return PairCounts([n_c[a]], [c[0]], [n_c[b]], [c[1]], [d[0]], [d[1]], [missing])


SEEDS = range(cases(30))


@pytest.mark.parametrize("include", [True, False])
def test_pair_counts_with_missing_values_match_brute_force(include):
    failures, compared, strict, segments = [], 0, 0, 0
    for seed in SEEDS:
        X, y, classes, X_test = _case(seed)
        n_c, n_cf, inst = observed_counts(X, y, classes, list(X_test[0]))
        for a in classes:
            for b in classes:
                if a >= b:
                    continue
                pc = _pair_counts(n_c, n_cf, inst, a, b)
                segments += int(pc.seg1[0] or pc.seg2[0])
                got_ab, got_ba = critical_alpha_pairs(pc, include)
                for got, (hi, lo) in ((got_ab[0], (a, b)), (got_ba[0], (b, a))):
                    want = lncc_critical_alpha_observed(n_c, n_cf, inst, hi, lo, include_instance=include,
                                                        seed=seed)
                    compared += 1
                    strict += want < 1 - ABS_TOL
                    if not (np.isfinite(got) and abs(got - want) <= ABS_TOL):
                        failures.append(f"seed={seed} {hi} over {lo}: package {got:.8g}, brute force "
                                        f"{want:.8g}; n_c={n_c.tolist()} n_cf={[t.tolist() for t in n_cf]} "
                                        f"inst={inst}")
    assert not failures, f"{len(failures)} mismatches:\n" + "\n".join(failures[:8])
    # not vacuous: genuine thresholds, and the profile's segments (free conditionals) occur
    assert compared >= 4 * len(SEEDS) and strict >= len(SEEDS) and segments >= 3, (compared, strict, segments)


def test_a_segment_of_the_profile_matches_brute_force():
    # class a: 6 rows; feature 1 present in one of them only, with the instance's value (c = n_j = 1
    # < n(a)), feature 2 present everywhere with c = 4: u stops at -1 with r > 1 and the
    # supremum over {r <= 1} lies on the segment where that conditional alone moves
    n_c = np.array([6, 5])
    n_cf = [np.array([[1, 0], [1, 3]]), np.array([[4, 2], [1, 4]])]
    inst = (0, 0)
    pc = _pair_counts(n_c, n_cf, inst, 0, 1)
    assert pc.seg1[0]
    for include in (True, False):
        got = critical_alpha_pairs(pc, include)[0][0]
        want = lncc_critical_alpha_observed(n_c, n_cf, inst, 0, 1, include_instance=include, n_random=10)
        assert got == pytest.approx(want, abs=ABS_TOL)
        assert want < 0.9


def _fit(X, y, include):
    return LNCC(include_instance=include).fit(pd.DataFrame(X), y)


@pytest.mark.parametrize("include", [True, False])
def test_fit_on_data_with_nan_matches_brute_force(include):
    failures = []
    for seed in range(100, 100 + cases(10)):
        X, y, classes, X_test = _case(seed, n_test=2)
        X_nan = np.where(X == None, np.nan, X)      # noqa: E711 (elementwise comparison)
        model = _fit(X_nan, y, include)
        order = list(model.classes_)
        crit = model.critical_alpha(pd.DataFrame(np.where(X_test == None, np.nan, X_test)))  # noqa: E711
        for row in range(len(X_test)):
            n_c, n_cf, inst = observed_counts(X, y, order, list(X_test[row]))
            for a in range(len(order)):
                for b in range(len(order)):
                    if a == b:
                        continue
                    want = lncc_critical_alpha_observed(n_c, n_cf, inst, a, b, include_instance=include,
                                                        seed=seed)
                    if abs(crit[row, a, b] - want) > ABS_TOL:
                        failures.append((seed, row, a, b, crit[row, a, b], want))
    assert not failures, failures[:8]


@pytest.mark.parametrize("include", [True, False])
def test_dominance_with_missing_values_is_alpha_above_the_critical_level(include):
    rng = np.random.default_rng(5)
    n, m = 400, 8
    y = rng.integers(0, 3, n)
    noisy = rng.integers(0, 4, (n, m))
    X = np.where(rng.random((n, m)) < 0.7, y[:, None] + rng.integers(0, 2, (n, m)), noisy)
    X = X.astype(object)
    X[rng.random((n, m)) < 0.1] = np.nan
    model = _fit(X[:300], y[:300], include)
    test = X[300:].copy()
    test[:50][rng.random((50, m)) < 0.3] = np.nan          # rows with and without missing values
    test = pd.DataFrame(test)
    crit = model.critical_alpha(test)
    off = ~np.eye(3, dtype=bool)
    levels = crit[:, off][(crit[:, off] > 0) & (crit[:, off] < 1)]
    assert levels.size > 20
    for level in rng.choice(levels, 4):
        for alpha in (float(level), float(np.nextafter(level, 2.0)), float(np.nextafter(level, -1.0)), 0.75):
            dom = model.set_params(alpha=alpha).dominance(test)
            assert np.array_equal(dom[:, off], (alpha > crit)[:, off])
    assert model.predict_set(test).any(axis=1).all()


@pytest.mark.parametrize("include", [True, False])
@pytest.mark.parametrize("training_missing", [True, False])
def test_repeated_rows_get_the_verdicts_of_their_distinct_row(include, training_missing):
    """Rows repeated in a table (as in real data): the verdicts of each copy are those of the row
    alone and ``alpha > critical_alpha`` (the missing-values path solves each distinct row once),
    with missing values in the training rows, or in the test rows only."""
    rng = np.random.default_rng(11)
    n, m = 300, 5
    y = rng.integers(0, 3, n)
    X = np.where(rng.random((n, m)) < 0.7, y[:, None], rng.integers(0, 3, (n, m))).astype(object)
    holes = rng.random((n, m)) < 0.15
    model = _fit(np.where(holes, np.nan, X) if training_missing else X, y, include)
    X[holes] = np.nan
    distinct = X[:12]
    copies = rng.integers(0, 12, 200)
    table = pd.DataFrame(distinct[copies])
    dom = model.dominance(table)
    alone = np.stack([model.dominance(pd.DataFrame(distinct[[i]]))[0] for i in range(12)])
    assert np.array_equal(dom, alone[copies])
    off = ~np.eye(3, dtype=bool)
    assert np.array_equal(dom[:, off], (model.alpha > model.critical_alpha(table))[:, off])
    assert alone.sum() > 0 and (~alone[:, off]).sum() > 0     # some verdicts of each kind


@pytest.mark.parametrize("include", [True, False])
@pytest.mark.parametrize("seed, where", [(0, "training"), (1, "training"), (2, "test rows"), (3, "both")])
def test_missing_values_settled_at_the_root_equal_the_critical_levels(monkeypatch, include, seed, where):
    """The exact route settles most rows with missing values from u0 and L(u0) (``_settle_at_root``
    with exactly evaluated end values); every verdict equals ``alpha > critical_alpha`` (the exact
    profile), with alpha at critical levels, one ulp either side, and a few fixed values."""
    from credal_core.likelihood import pairwise as pairwise_module

    settled = []
    settle = pairwise_module._settle_at_root

    def spy(pc, ends, log_alpha, shift):
        out = settle(pc, ends, log_alpha, shift)
        settled.append(out[2])
        return out

    monkeypatch.setattr(pairwise_module, "_settle_at_root", spy)
    rng = np.random.default_rng(seed)
    n, m = 500, int(rng.integers(4, 12))
    y = rng.integers(0, 3, n)
    noisy = rng.integers(0, 4, (n, m))
    X = np.where(rng.random((n, m)) < 0.6, y[:, None] + rng.integers(0, 2, (n, m)), noisy).astype(object)
    holes = rng.random((n, m)) < 0.12
    train, test = X[:350].copy(), X[350:].copy()
    if where in ("training", "both"):
        train[holes[:350]] = np.nan
    if where in ("test rows", "both"):
        test[holes[350:]] = np.nan
    model = _fit(train, y[:350], include)
    test = pd.DataFrame(test)
    crit = model.critical_alpha(test)
    off = ~np.eye(3, dtype=bool)
    levels = crit[:, off][(crit[:, off] > 0) & (crit[:, off] < 1)]
    alphas = [0.05, 0.5, 0.75, 0.95]
    for level in rng.choice(levels, 3):       # on the level, one ulp and just outside the margin
        alphas += [float(level), float(np.nextafter(level, 2.0)), float(np.nextafter(level, -1.0)),
                   float(level) * (1 + 1e-6), float(level) * (1 - 1e-6)]
    for alpha in alphas:
        settled.clear()
        dom = model.set_params(alpha=alpha).dominance(test)
        assert np.array_equal(dom[:, off], (alpha > crit)[:, off]), alpha
    assert settled and np.concatenate(settled).mean() > 0.5
    # the bracket of the maximum that the settling compares L(u0) with holds its maximum
    if include:
        from credal_core.likelihood.pairwise import _pair_ends, profile_maxima
        from credal_core.naive.lncc import _pair_counts

        codes = model._encode(test)
        for a, b in ((0, 1), (0, 2), (1, 2)):
            pc = _pair_counts(model.tables_, codes, a, b)
            curve = np.flatnonzero(~(pc.seg1 | pc.seg2))
            sub = pc.take(curve)
            ends = _pair_ends(sub, 1.0)
            top = profile_maxima(sub)[0].max(axis=1)
            assert np.all(ends["m_lo"] <= top + 1e-9 * np.abs(top))
            assert np.all(top <= ends["m_up"] + 1e-9 * np.abs(top))


@pytest.mark.parametrize("shift", [1.0, 0.0])
def test_compiled_log_ratio_equals_numpy_with_missing_training_values(monkeypatch, shift):
    """The compiled log r and log p, log Λ of both classes (used by every exact route with missing
    training values) against the numpy expressions: log r's value, derivative and size, and the four
    side logs, at random interior points of 600 rows' domains and at the ends u = 0 and 1."""
    from credal_core._compiled import numba_enabled
    from credal_core.likelihood.pairwise import log_ratio, side_logs
    from credal_core.naive.lncc import _pair_counts as lncc_pair_counts

    if not numba_enabled():
        pytest.skip("numba is not installed: only the numpy path exists")
    rng = np.random.default_rng(21)
    n, m = 400, 9
    y = rng.integers(0, 3, n)
    X = np.where(rng.random((n, m)) < 0.6, y[:, None], rng.integers(0, 4, (n, m))).astype(object)
    X[rng.random((n, m)) < 0.2] = np.nan
    model = _fit(X[:300], y[:300], shift == 1.0)
    test = X[np.r_[300:400, 300:400, 300:400, 300:400, 300:400, 300:400]].copy()
    test[rng.random(test.shape) < 0.2] = np.nan
    pc = lncc_pair_counts(model.tables_, model._encode(pd.DataFrame(test)), 0, 2)
    assert pc.has_den
    top = pc.u_max if shift else pc.u_max - 1.0
    u = pc.u_min + (top - pc.u_min) * rng.uniform(0.01, 0.99, pc.n1.size)
    idx = rng.permutation(pc.n1.size)
    got = {}
    for flag in ("0", "1"):
        monkeypatch.setenv("CREDAL_NUMBA", flag)
        got[flag] = log_ratio(pc, idx, u[idx], shift)
        got[flag] += side_logs(pc, idx, u[idx], shift)
        for end in (0.0, 1.0):
            got[flag] += side_logs(pc, idx, np.full(idx.size, end), shift)
        for end in (pc.u_min, top):                          # the domain's ends: log 0, 1/0
            got[flag] += log_ratio(pc, idx, end[idx], shift)
    assert len(got["0"]) == 3 + 4 * 3 + 3 * 2
    for want, have in zip(got["0"], got["1"]):
        np.testing.assert_allclose(have, want, rtol=1e-12, atol=1e-12)
    assert np.all(np.isfinite(got["0"][3]))


@pytest.mark.parametrize("include", [True, False])
def test_missing_values_with_a_declared_class_without_rows(include):
    """A class declared at fit but absent from the data, with missing values: every verdict equals
    ``alpha > critical_alpha``, and the other pairs are still settled at the root."""
    rng = np.random.default_rng(4)
    n, m = 300, 6
    y = rng.integers(0, 3, n)
    X = np.where(rng.random((n, m)) < 0.6, y[:, None], rng.integers(0, 3, (n, m))).astype(object)
    X[rng.random((n, m)) < 0.1] = np.nan
    model = LNCC(include_instance=include).fit(pd.DataFrame(X[:200]), y[:200], classes=[0, 1, 2, 3])
    test = pd.DataFrame(X[200:])
    crit = model.critical_alpha(test)
    off = ~np.eye(4, dtype=bool)
    for alpha in (0.1, 0.5, 0.9):
        dom = model.set_params(alpha=alpha).dominance(test)
        assert np.array_equal(dom[:, off], (alpha > crit)[:, off]), alpha


def test_complete_counts_given_explicitly_change_nothing():
    rng = np.random.default_rng(0)
    n1, n2 = 30.0, 25.0
    c1 = rng.integers(0, 31, (50, 6)).astype(float)
    c2 = rng.integers(0, 26, (50, 6)).astype(float)
    plain = PairCounts(np.full(50, n1), c1, np.full(50, n2), c2)
    explicit = PairCounts(np.full(50, n1), c1, np.full(50, n2), c2, np.full((50, 6), n1),
                          np.full((50, 6), n2), np.zeros((50, 6), bool))
    for include in (True, False):
        for x, w in zip(critical_alpha_pairs(plain, include), critical_alpha_pairs(explicit, include)):
            np.testing.assert_array_equal(x, w)
