"""The LNCC's compiled certificates (``credal_core.naive._lncc_kernels``) against the exact route.

With numba (the default) ``LNCC._dominance`` settles most verdicts in the compiled kernel and leaves
the rest to the exact route (``credal_core.likelihood.pairwise.dominance_verdicts``); with
``CREDAL_NUMBA=0`` the exact route does everything.  Both must
give identical verdicts, equal to the exact definition ``alpha > critical_alpha``, on random data
sets (small and large training sets, zero counts, values unseen in training, many classes) and at
levels α placed exactly on (and one ulp off) critical levels, where only the rounding margins keep
a certificate from claiming what it cannot prove.
"""
import numpy as np
import pytest

from credal_core import LNCC
from credal_core._base import maximal_set, top_cycle
from credal_core._compiled import numba_enabled
from credal_core.naive import _lncc_kernels


@pytest.fixture
def numba_on(monkeypatch):
    monkeypatch.setenv("CREDAL_NUMBA", "1")
    if not numba_enabled():
        pytest.skip("numba is not installed: only the numpy path exists")


def _case(rng, n_train, n_classes, n_features, n_values, informative, n_test=300):
    y = rng.integers(0, n_classes, n_train)
    y[:n_classes] = np.arange(n_classes)                      # every class occurs
    concentration = rng.choice([0.3, 1.0, 5.0])
    shape = (n_classes, n_features) if informative else (1, n_features)
    cond = np.broadcast_to(rng.dirichlet(np.full(n_values, concentration), size=shape),
                           (n_classes, n_features, n_values))
    X = np.empty((n_train, n_features), dtype=np.int64)
    for c in range(n_classes):
        rows = np.flatnonzero(y == c)
        for j in range(n_features):
            X[rows, j] = rng.choice(n_values, rows.size, p=cond[c, j])
    fresh = np.empty((n_test, n_features), dtype=np.int64)
    y_test = rng.integers(0, n_classes, n_test)
    for c in range(n_classes):
        rows = np.flatnonzero(y_test == c)
        for j in range(n_features):
            fresh[rows, j] = rng.choice(n_values, rows.size, p=cond[c, j])
    # a few uniform rows, where the value n_values was never seen in training
    fresh[: n_test // 10] = rng.integers(0, n_values + 1, (n_test // 10, n_features))
    return X, y, fresh


# (seed, training rows, classes, features, values per feature, informative)
CASES = [(0, 300, 3, 20, 4, True), (1, 300, 3, 20, 4, False), (2, 10000, 3, 20, 4, False),
         (3, 10000, 3, 20, 4, True), (4, 30, 2, 10, 2, True), (5, 60, 4, 25, 3, False),
         (6, 2000, 5, 12, 6, True), (7, 150, 2, 40, 3, False), (8, 20000, 2, 15, 5, False),
         (9, 12, 3, 8, 3, True)]


@pytest.mark.parametrize("seed, n_train, n_classes, n_features, n_values, informative", CASES)
def test_compiled_and_numpy_paths_give_the_exact_verdicts(numba_on, monkeypatch, seed, n_train, n_classes,
                                                          n_features, n_values, informative):
    rng = np.random.default_rng(500 + seed)
    X, y, X_test = _case(rng, n_train, n_classes, n_features, n_values, informative)
    off = ~np.eye(n_classes, dtype=bool)
    for include in (True, False):
        model = LNCC(include_instance=include).fit(X, y)
        crit = model.critical_alpha(X_test)                   # the exact search, no kernel
        levels = crit[:, off]
        levels = np.unique(levels[(levels > 0) & (levels < 1)])
        alphas = [0.3, 0.75, 0.95, 1.0]
        if levels.size:
            picks = rng.choice(levels, 3)
            alphas += [float(picks[0]), float(np.nextafter(picks[1], 2.0)),
                       float(np.nextafter(picks[2], -1.0))]
        for alpha in alphas:
            model.set_params(alpha=alpha)
            monkeypatch.setenv("CREDAL_NUMBA", "1")
            compiled = model.dominance(X_test)
            sets = model.predict_set(X_test)
            monkeypatch.setenv("CREDAL_NUMBA", "0")
            numpy_path = model.dominance(X_test)
            assert np.array_equal(compiled, numpy_path), (include, alpha)
            assert np.array_equal(sets, model.predict_set(X_test)), (include, alpha)
            assert np.array_equal(compiled[:, off], (alpha > crit)[:, off]), (include, alpha)


@pytest.mark.parametrize("include", [True, False])
@pytest.mark.parametrize("informative", [True, False])
def test_the_kernel_settles_most_rows_and_only_proven_verdicts(numba_on, include, informative):
    """The kernel alone: its verdicts where it claims one equal the exact route's, and it leaves few
    rows open (otherwise the comparison above would test the exact route only)."""
    rng = np.random.default_rng(11 + include + 2 * informative)
    X, y, X_test = _case(rng, 300, 3, 20, 4, informative, n_test=2000)
    model = LNCC(alpha=0.75, include_instance=include).fit(X, y)
    codes = model._encode(X_test)
    dom, unknown = _lncc_kernels.certify(codes, model.tables_, include, np.log(0.75))
    unknown = unknown | np.swapaxes(unknown, 1, 2)            # (a, b) open: both directions
    assert unknown.any(axis=(1, 2)).mean() < 0.05
    expected = model._exact_distinct(codes)
    off = ~np.eye(3, dtype=bool) & ~unknown
    assert np.array_equal(dom[off], expected[off])
    assert dom[off].any()                                       # some dominance is claimed


@pytest.mark.parametrize("seed, n_train, n_classes, n_features, n_values, informative",
                         [CASES[1], CASES[2], CASES[5], CASES[6]])
def test_sets_only_skips_pairs_only_where_one_class_dominates_every_other(numba_on, seed, n_train,
                                                                         n_classes, n_features, n_values,
                                                                         informative):
    """``certify(sets_only=True)`` (``predict_set``'s path): a row either has the full verdicts, or
    one class proven to dominate every other one, with the pairs without it left false and not open;
    the maximal sets are those of the full dominance."""
    rng = np.random.default_rng(700 + seed)
    X, y, X_test = _case(rng, n_train, n_classes, n_features, n_values, informative, n_test=1000)
    for include in (True, False):
        model = LNCC(alpha=0.75, include_instance=include).fit(X, y)
        codes = model._encode(X_test)
        full, full_open = _lncc_kernels.certify(codes, model.tables_, include, np.log(0.75))
        dom, open_ = _lncc_kernels.certify(codes, model.tables_, include, np.log(0.75), sets_only=True)
        differs = (dom != full).any(axis=(1, 2)) | (open_ != full_open).any(axis=(1, 2))
        winner = (dom.sum(axis=2) == n_classes - 1) & ~dom.any(axis=1)       # beats all, beaten by none
        assert winner[differs].sum(axis=1).tolist() == [1] * int(differs.sum())
        for i in np.flatnonzero(differs):
            t = int(np.flatnonzero(winner[i])[0])
            assert np.array_equal(dom[i, t], full[i, t]) and np.array_equal(dom[i, :, t], full[i, :, t])
            others = np.delete(np.arange(n_classes), t)
            assert not dom[i][np.ix_(others, others)].any() and not open_[i].any()
        if n_classes > 2 and include:
            assert differs.any()                                  # the skip happens
        assert np.array_equal(model.predict_set(X_test), maximal_set(model.dominance(X_test)))


def test_alpha_zero_and_one(numba_on):
    rng = np.random.default_rng(3)
    X, y, X_test = _case(rng, 200, 3, 10, 3, True)
    model = LNCC(alpha=0.0).fit(X, y)
    assert not model.dominance(X_test).any()                    # critical levels are >= 0
    crit = LNCC(alpha=1.0).fit(X, y).critical_alpha(X_test)
    off = ~np.eye(3, dtype=bool)
    assert np.array_equal(LNCC(alpha=1.0).fit(X, y).dominance(X_test)[:, off], (1.0 > crit)[:, off])


def _top_cycle_reference(dom):
    """The classes no class beats through a chain it is not beaten back by, one row at a time
    (breadth-first reachability, independent of the Floyd-Warshall code)."""
    n, C, _ = dom.shape
    out = np.ones((n, C), bool)
    for i in range(n):
        reach = np.zeros((C, C), bool)
        for a in range(C):
            todo, seen = [a], {a}
            while todo:
                x = todo.pop()
                for b in np.flatnonzero(dom[i, x]):
                    reach[a, b] = True
                    if b not in seen:
                        seen.add(b)
                        todo.append(b)
        for b in range(C):
            out[i, b] = not any(reach[a, b] and not reach[b, a] for a in range(C))
    return out


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_top_cycle_compiled_and_numpy(numba_on, monkeypatch, n_classes):
    rng = np.random.default_rng(n_classes)
    dom = rng.random((400, n_classes, n_classes)) < 0.3        # cycles included
    idx = np.arange(n_classes)
    dom[:, idx, idx] = False
    expected = _top_cycle_reference(dom)
    monkeypatch.setenv("CREDAL_NUMBA", "1")
    compiled = top_cycle(dom)
    monkeypatch.setenv("CREDAL_NUMBA", "0")
    assert np.array_equal(top_cycle(dom), expected)
    assert np.array_equal(compiled, expected)


def _reviewed_case(seed):
    """The generator of the review that found the near-branch bracket defect (2026-11-26)."""
    rng = np.random.default_rng(seed)
    n_classes, m, v = int(rng.integers(2, 6)), int(rng.integers(2, 25)), int(rng.integers(2, 5))
    n_train = int(rng.choice([8, 20, 60, 200, 1000, 5000]))
    informative, n_test = bool(rng.integers(2)), int(rng.choice([5, 40, 200]))
    y = rng.integers(0, n_classes, n_train)
    y[:n_classes] = np.arange(n_classes)
    conc = rng.choice([0.3, 1.0, 5.0])
    shape = (n_classes, m) if informative else (1, m)
    cond = np.broadcast_to(rng.dirichlet(np.full(v, conc), size=shape), (n_classes, m, v))
    X = np.empty((n_train, m), dtype=np.int64)
    for c in range(n_classes):
        rows = np.flatnonzero(y == c)
        for j in range(m):
            X[rows, j] = rng.choice(v, rows.size, p=cond[c, j])
    T = rng.integers(0, v + 1, (n_test, m))
    yt = rng.integers(0, n_classes, n_test)
    for c in range(n_classes):
        rows = np.flatnonzero(yt == c)[: n_test // 2]
        for j in range(m):
            T[rows, j] = rng.choice(v, rows.size, p=cond[c, j])
    return X, y, T


@pytest.mark.parametrize("seed", [58, 264, 270, 286])
def test_tiny_alphas_where_u0_lies_beyond_the_reach(numba_on, monkeypatch, seed):
    """The compiled kernel once took the far end of its search interval for the root u0 when u0 lay
    beyond it (one Newton step put u0 near, the far end's sign was never checked) and answered
    "neither" at tiny α where the exact route says "b dominates a" (critical levels down to 1e-271):
    the verdicts must be alpha > critical_alpha at those levels too."""
    X, y, T = _reviewed_case(seed)
    model = LNCC(include_instance=True).fit(X, y)
    monkeypatch.setenv("CREDAL_NUMBA", "0")
    crit = model.critical_alpha(T)
    off = ~np.eye(crit.shape[1], dtype=bool)
    tiny = np.unique(crit[:, off][(crit[:, off] > 0) & (crit[:, off] < 1e-20)])
    assert tiny.size                                        # the case still has such levels
    alphas = [1e-300, 1e-100, 1e-30, 1e-21, *tiny[:3], *np.nextafter(tiny[:3], 1.0)]
    monkeypatch.setenv("CREDAL_NUMBA", "1")
    for alpha in alphas:
        model.set_params(alpha=float(alpha))
        expected = (alpha > crit) & off
        np.testing.assert_array_equal(model.dominance(T), expected, err_msg=f"seed {seed} alpha {alpha!r}")
        np.testing.assert_array_equal(model.predict_set(T), maximal_set(expected))


@pytest.mark.parametrize("flag", ["1", "0"])
def test_the_kernel_refuses_constants_other_than_those_compiled_in(monkeypatch, flag):
    """numba's cache notices changes of _lncc_kernels.py only: the kernel checks that the shared
    constants (_lncc_constants) it is given are those it was compiled with."""
    monkeypatch.setenv("CREDAL_NUMBA", flag)
    rng = np.random.default_rng(0)
    X, y, X_test = _case(rng, 40, 3, 5, 3, True, n_test=20)
    model = LNCC().fit(X, y)
    codes = model._encode(X_test)
    with np.errstate(all="ignore"):         # the kernel as plain Python (numba off): numpy's scalars warn
        dom, _ = _lncc_kernels.certify(codes, model.tables_, True, np.log(0.75))     # the current values
    assert dom.shape == (20, 3, 3)
    changed = _lncc_kernels._constants()
    changed[1] = 0.5                                                             # another reach
    monkeypatch.setattr(_lncc_kernels, "_constants", lambda: changed)
    with pytest.raises(RuntimeError, match="stale numba cache"):
        _lncc_kernels.certify(codes, model.tables_, True, np.log(0.75))
