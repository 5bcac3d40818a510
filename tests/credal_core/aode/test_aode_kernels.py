"""The compiled kernels of the AODE family (numba) against the numpy path, on random data.

Both paths run the same operations in the same order (see ``credal_core.aode._kernels``): on this
platform their floats are equal; the tolerances below (1e-12 relative) only admit the ulps of a
different ``exp`` / ``log``, and of the in-sample log-likelihoods, which the kernel computes from
products of probabilities (~1e-14 relative: on these data sets of at most a few hundred rows no BMA /
COMP margin is that small); every verdict (label, set, dominance, pruning) must be equal.  The
expected values come from the numpy path, which the brute-force suites of this folder check.
"""
import numpy as np
import pandas as pd
import pytest

from credal_core._base import maximal_set
from credal_core._compiled import numba_enabled
from credal_core.aode import AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE, _kernels
from credal_core.aode._dominance import REL_TIE, bma_dominance, comp_dominance
from credal_core.aode._spode import SpodeTables
from credal_core.data.pairs import pair_counts

MODELS = [
    ("AODE", lambda: AODE()),
    ("AODE joint", lambda: AODE(combine="joint")),
    ("AODE Weka", lambda: AODE(combine="joint", estimator="laplace", frequency_limit=1)),
    ("AODE m-estimate", lambda: AODE(estimator="m-estimate", m=2.0, frequency_limit=2)),
    ("BMA-AODE", lambda: BMAAODE()),
    ("COMP-AODE", lambda: CompAODE(epsilon=0.05)),
    ("BMA-AODE*", lambda: CredalBMAAODE(epsilon=0.05)),
    ("COMP-AODE*", lambda: CredalCompAODE(epsilon=0.05)),
]


def _need_numba(monkeypatch):
    monkeypatch.setenv("CREDAL_NUMBA", "1")
    if not numba_enabled():
        pytest.skip("numba is not installed: only the numpy path exists")


def _random_data(rng, *, text: bool, p_missing: float):
    n = int(rng.integers(5, 120))
    k = int(rng.integers(1, 7))
    n_classes = int(rng.integers(2, 5))
    cards = rng.integers(1, 5, size=k)
    y = rng.integers(0, n_classes, n)
    y[:2] = [0, 1]
    X = rng.integers(0, cards, size=(n, k))
    test = rng.integers(0, cards + 1, size=(40, k))            # some values unseen in training
    if text or p_missing:
        X = X.astype(object)
        test = test.astype(object)
        for arr, p in ((X, p_missing), (test, max(p_missing, 0.1) if p_missing else 0.0)):
            arr[rng.random(arr.shape) < p] = None
        if p_missing:
            test[-1] = None                                     # every parent missing: naive Bayes
        if text:
            to_text = np.vectorize(lambda v: None if v is None else f"v{v}", otypes=[object])
            X, test = to_text(X), to_text(test)
            if rng.random() < 0.5:                              # pyarrow-backed text columns
                names = [f"a{j}" for j in range(k)]
                X = pd.DataFrame(X, columns=names).astype("str")
                test = pd.DataFrame(test, columns=names).astype("str")
    labels = np.array([f"c{c}" for c in y], dtype=object) if text else y
    return X, labels, test


def _results(model, X, y, test):
    model.fit(X, y)
    out = {"proba": model.predict_proba(test), "label": model.predict(test)}
    for name in ("log_likelihoods_", "weights_", "kept_", "feasible_", "credal_feasible_"):
        if hasattr(model, name):
            out[name] = getattr(model, name)
    if hasattr(model, "predict_set"):
        out["set"] = model.predict_set(test)
        out["dominance"] = model.dominance(test)
        # predict_set may skip pairs (COMP-AODE*'s sets-only rows): the same sets as the full relation
        np.testing.assert_array_equal(out["set"], maximal_set(out["dominance"]))
    return out


@pytest.mark.parametrize("seed", range(30))
def test_estimators_equal_on_both_paths(monkeypatch, seed):
    _need_numba(monkeypatch)
    rng = np.random.default_rng(seed)
    X, y, test = _random_data(rng, text=seed % 2 == 1, p_missing=(0.0, 0.15, 0.4)[seed % 3])
    for name, make in MODELS:
        if name == "COMP-AODE*" and (np.shape(X)[1] + 1) * 0.05 > 1:
            continue
        got = {}
        for flag in ("0", "1"):
            monkeypatch.setenv("CREDAL_NUMBA", flag)
            try:
                got[flag] = _results(make(), X, y, test)
            except ValueError as exc:                           # e.g. epsilon too large for k̃
                got[flag] = str(exc)
        numpy_path, compiled = got["0"], got["1"]
        assert type(numpy_path) is type(compiled), name
        if isinstance(numpy_path, str):
            assert numpy_path == compiled, name
            continue
        for key, want in numpy_path.items():
            if want.dtype.kind == "f":
                scale = 1.0 + np.abs(numpy_path.get("log_likelihoods_", np.zeros(1))).max()
                rtol = 1e-12 * (scale if key in ("proba", "weights_") else 1.0)
                np.testing.assert_allclose(compiled[key], want, rtol=rtol, atol=1e-300,
                                           err_msg=f"{name} {key}")
            else:
                np.testing.assert_array_equal(compiled[key], want, err_msg=f"{name} {key}")


def test_pool_underflow_and_no_spode_rows_take_the_numpy_path_on_both(monkeypatch):
    """300 features that each copy the class and an m-estimate of weight 1e-300: the other class's
    pooled value underflows to 0 (the kernel flags the row and the log-space recomputation runs);
    an all-missing row has no SPODE (naive Bayes fallback)."""
    _need_numba(monkeypatch)
    y = np.repeat([0, 1], 20)
    X = np.repeat(y[:, None], 300, axis=1).astype(float)
    test = np.vstack([X[[0, 1, 39]], np.full((1, 300), np.nan)])
    for combine in ("posterior", "joint"):
        got = {}
        for flag in ("0", "1"):
            monkeypatch.setenv("CREDAL_NUMBA", flag)
            model = AODE(combine=combine, estimator="m-estimate", m=1e-300).fit(X, y)
            got[flag] = model.predict_log_proba(test)
        assert np.all(np.isfinite(got["0"])) and got["0"].min() < -745, combine   # below exp's range
        np.testing.assert_allclose(got["1"], got["0"], rtol=1e-12)


def _in_sample_both_paths(monkeypatch, X, y, **params):
    """(LL_j by numpy, LL_j by the kernel, the numpy path's log posterior of each row's class (n, k))."""
    codes, y = np.asfortranarray(X), np.asarray(y)
    n_values, n_classes = X.max(axis=0) + 1, int(y.max()) + 1
    got = {}
    for flag in ("0", "1"):
        monkeypatch.setenv("CREDAL_NUMBA", flag)
        tables = SpodeTables(codes, y, n_classes, n_values, **params)
        got[flag] = tables.training_log_likelihoods(codes, y)
    monkeypatch.setenv("CREDAL_NUMBA", "0")
    log_post = tables.training_log_posteriors(codes)[np.arange(len(y)), :, y]
    return got["0"], got["1"], log_post, tables.log_joint_ckn(codes)


@pytest.mark.parametrize("depth, n, seed", [(300.0, 400, s) for s in range(5)]
                         + [(0.05, 3000, s) for s in range(2)])
def test_in_sample_kernel_on_made_up_tables(monkeypatch, depth, n, seed):
    """The kernel on made-up log tables, with missing children and parents, against the definition
    computed in log space with numpy.  Cells down to e^-300: a SPODE's product of 6 cells falls below
    the floor on about half the rows and SPODEs, some with every class tiny and the posteriors far
    from certain (the log-space branch).  Near-flat cells (down to e^-0.05) on 3,000 rows: every
    row's r is ~2, so each SPODE's running product of (1 + r) passes 1e200 several times (without
    its renormalisation it would overflow: |LL_j| > 709)."""
    _need_numba(monkeypatch)
    rng = np.random.default_rng(seed)
    k, n_classes = 6, 3
    width = 3 * k
    tt = -rng.uniform(0.0, depth, size=(width, width, n_classes)) * (rng.random((width, 1, 1)) < 0.5)
    idx = (rng.integers(0, 3, size=(k, n)) + 3 * np.arange(k)[:, None]).astype(np.int64)
    idx[rng.random((k, n)) < 0.1] = -1
    y = rng.integers(0, n_classes, n)
    null = np.log(rng.dirichlet(np.ones(n_classes)))
    ll = np.zeros(k)
    _kernels.training_log_likelihoods(np.exp(tt), tt, idx, y, null, ll, False)
    logs_only = np.zeros(k)
    _kernels.training_log_likelihoods(tt[:1, :1], tt, idx, y, null, logs_only, True)

    reference = np.zeros(k)
    below = []
    for i in range(n):
        present = idx[:, i] >= 0
        for j in range(k):
            if not present[j]:
                reference[j] += null[y[i]]
                continue
            joints = tt[idx[j, i], idx[present, i], :].sum(axis=0)                 # (C,)
            below.append(joints.min() < np.log(_kernels.PRODUCT_FLOOR))
            top = joints.max()
            reference[j] += joints[y[i]] - top - np.log(np.exp(joints - top).sum())
    if depth > 1.0:
        assert 0.2 < np.mean(below) < 0.8
    else:
        assert not any(below) and reference.max() < -1000.0
    np.testing.assert_allclose(ll, reference, rtol=1e-12)
    np.testing.assert_allclose(logs_only, reference, rtol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_in_sample_log_likelihoods_near_certain_and_against_the_data(monkeypatch, seed):
    """Near-separable data with a few rows labelled against most features: each branch of the
    kernel's row term -log(1 + r) runs (r < 0.01: ``log1p``, whose tiny terms keep their relative
    precision; r above 1e50: ``log1p`` of a huge ratio; in between: the running product), and the
    log-likelihoods equal the numpy path's to 1e-12 relative.  Where every row is near-certain the
    numpy path's log-sum-exp rounds the tiny terms (to 0 or to the ulp of 1): there the reference is
    :math:`-\\sum_i \\log1p(\\sum_{c \\ne y_i} \\exp(J_c - J_{y_i}))` from the numpy path's joints."""
    _need_numba(monkeypatch)
    rng = np.random.default_rng(seed)
    n, k = 300, int(rng.integers(30, 60))
    y = rng.integers(0, 3, n)
    X = np.where(rng.random((n, k)) < 0.9, y[:, None], rng.integers(0, 3, (n, k)))
    flip = rng.choice(n, 5, replace=False)
    y_flipped = y.copy()
    y_flipped[flip] = (y[flip] + 1) % 3
    numpy_ll, compiled_ll, log_post, joints = _in_sample_both_paths(monkeypatch, X, y_flipped)
    assert joints.min() > np.log(_kernels.PRODUCT_FLOOR)       # no row leaves the product branch
    r = np.expm1(-log_post)
    assert (r < 0.01).any() and (r > 1e50).any() and ((r >= 0.01) & (r <= 1e50)).any()
    np.testing.assert_allclose(compiled_ll, numpy_ll, rtol=1e-12)
    clean = np.setdiff1d(np.arange(n), flip)
    _, compiled_ll, _, joints = _in_sample_both_paths(monkeypatch, X[clean], y[clean])
    yc = y[clean]
    joint_y = joints[yc, :, np.arange(len(yc))]                                 # (n, k)
    others = np.exp(joints.transpose(2, 1, 0) - joint_y[:, :, None])          # (n, k, C)
    others[np.arange(len(yc)), :, yc] = 0.0
    reference = -np.log1p(others.sum(axis=2)).sum(axis=0)
    assert reference.max() > -1e-6                              # some SPODE near-certain on every row
    np.testing.assert_allclose(compiled_ll, reference, rtol=1e-10)


@pytest.mark.parametrize("seed", range(20))
def test_kernels_equal_the_numpy_functions(monkeypatch, seed):
    """Each kernel against the numpy function it replaces, on random codes with missing and unseen
    values (pair counts exactly; joints and log-likelihoods to 1e-12; dominance verdicts exactly)."""
    _need_numba(monkeypatch)
    rng = np.random.default_rng(100 + seed)
    n, k, n_classes = int(rng.integers(1, 200)), int(rng.integers(1, 8)), int(rng.integers(2, 6))
    n_values = rng.integers(1, 5, size=k)
    codes = np.asfortranarray(rng.integers(0, n_values, size=(n, k)))
    codes[rng.random((n, k)) < 0.2] = -2
    y = rng.integers(0, n_classes, n)
    test = np.asfortranarray(rng.integers(-2, n_values, size=(60, k)))    # -2 missing, -1 unseen
    estimator = ("paper", "laplace", "m-estimate")[seed % 3]
    monkeypatch.setenv("CREDAL_NUMBA", "0")
    ref = SpodeTables(codes, y, n_classes, n_values, estimator=estimator, m=1.5)
    counts_numpy = pair_counts(codes, y, n_classes, n_values)
    joints_numpy = ref.log_joint_ckn(test)
    ll_numpy = ref.training_log_likelihoods(codes, y)
    monkeypatch.setenv("CREDAL_NUMBA", "1")
    tables = SpodeTables(codes, y, n_classes, n_values, estimator=estimator, m=1.5)
    np.testing.assert_array_equal(pair_counts(codes, y, n_classes, n_values), counts_numpy)
    np.testing.assert_array_equal(tables.log_table, ref.log_table)
    usable = tables.usable(test)
    np.testing.assert_allclose(tables.log_joint_ckn(test)[:, usable.T], joints_numpy[:, usable.T], rtol=1e-12)
    np.testing.assert_allclose(tables.training_log_likelihoods(codes, y), ll_numpy, rtol=1e-12)

    # dominance on the kept SPODEs' posteriors, unusable ones as the estimators pass them
    keep = rng.random(k) < 0.8
    keep[rng.integers(0, k)] = True
    kk = int(keep.sum())
    post = np.exp(_log_normalise(joints_numpy[:, keep, :])).transpose(2, 1, 0)       # (n, k̃, C)
    ok = usable[:, keep]
    weights = rng.dirichlet(np.ones(kk))
    epsilon = float(rng.uniform(0.0, 1.0 / kk))
    got = np.empty((len(test), n_classes, n_classes), dtype=bool)
    _kernels.bma_dominance_rows(tables.kernel_table(), tables.slot_index(test), np.flatnonzero(keep),
                                np.ascontiguousarray(usable.T), weights, epsilon, REL_TIE, got)
    np.testing.assert_array_equal(got, bma_dominance(post, weights, epsilon, ok))
    base = rng.uniform(0.5, 20.0, size=kk)
    if rng.random() < 0.3:
        base[0] = -rng.uniform(0.0, 3.0)                       # a negative weight at some priors
    equality = bool(rng.random() < 0.5)
    eps = float(rng.uniform(1e-4, 1.0 / (k + 1)))
    total = 1.0 - (k - kk + 1) * eps if not equality else 1.0 - eps * (1 + k - kk)
    zeroed = post * ok[:, :, None]
    got = np.empty((len(test), n_classes, n_classes), dtype=bool)
    _kernels.comp_dominance_rows(tables.kernel_table(), tables.slot_index(test), np.flatnonzero(keep),
                                 np.ascontiguousarray(usable.T), base, base + np.log(total / kk), eps, total,
                                 equality, REL_TIE, False, got)
    np.testing.assert_array_equal(got, comp_dominance(zeroed, base, eps, total, equality))
    # sets only: a subset of the pairs, with every dominated class still dominated (same sets)
    part = np.empty_like(got)
    _kernels.comp_dominance_rows(tables.kernel_table(), tables.slot_index(test), np.flatnonzero(keep),
                                 np.ascontiguousarray(usable.T), base, base + np.log(total / kk), eps, total,
                                 equality, REL_TIE, True, part)
    assert not (part & ~got).any()
    np.testing.assert_array_equal(part.any(axis=1), got.any(axis=1))
    np.testing.assert_array_equal(maximal_set(part), maximal_set(got))


def _log_normalise(logs):
    top = logs.max(axis=0, keepdims=True)
    shifted = logs - top
    return shifted - np.log(np.exp(shifted).sum(axis=0, keepdims=True))


def test_large_tables_use_the_numpy_path(monkeypatch):
    _need_numba(monkeypatch)
    codes = np.asfortranarray(np.array([[0, 1], [1, 0], [1, 1]]))
    tables = SpodeTables(codes, np.array([0, 1, 1]), 2, [2, 2])
    assert tables.kernel_table() is not None
    monkeypatch.setattr(_kernels, "KERNEL_MAX_TABLE_BYTES", 8)
    assert SpodeTables(codes, np.array([0, 1, 1]), 2, [2, 2]).kernel_table() is None
    monkeypatch.setenv("CREDAL_NUMBA", "0")
    assert tables.kernel_table() is None


def test_arrow_text_columns_factorize_as_pandas_does():
    """The pyarrow fast path of the encoder gives pandas' own factorisation (codes, values), with
    missing values, empty and non-ASCII strings, and columns of several chunks."""
    from credal_core.data.counts import _factorize

    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(0)
    values = np.array(["", "a", "b", "ä", "日本", "a b", None], dtype=object)
    for trial in range(10):
        part = [pd.Series(values[rng.integers(0, len(values), 50)], dtype="str")
                for _ in range(1 + trial % 3)]
        col = pd.concat(part, ignore_index=True)
        assert getattr(col.dtype, "storage", None) == "pyarrow"
        codes, uniques = _factorize("x", col)
        want_codes, want_uniques = pd.factorize(col, use_na_sentinel=True)
        np.testing.assert_array_equal(codes, want_codes)
        assert list(uniques) == list(np.asarray(want_uniques)) and uniques.dtype == object


def test_the_numpy_path_warns_once_and_the_compiled_one_never(monkeypatch):
    """Without numba the AODE family's first fit says so once (naming the [fast] extra and the cost);
    later fits are silent; with numba no warning at all."""
    import warnings

    from credal_core.aode import AODE, CredalCompAODE, _ensemble

    X = np.array([["a", "x"], ["b", "y"], ["a", "y"], ["b", "x"]] * 5)
    y = ["p", "q", "p", "q"] * 5
    monkeypatch.setattr(_ensemble, "_WARNED", [])
    monkeypatch.setenv("CREDAL_NUMBA", "0")
    with pytest.warns(RuntimeWarning, match=r"\[fast\]") as record:
        AODE().fit(X, y)
    assert len(record) == 1 and "2-3x slower" in str(record[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        CredalCompAODE().fit(X, y)
        monkeypatch.setattr(_ensemble, "_WARNED", [])
        monkeypatch.setenv("CREDAL_NUMBA", "1")
        if _ensemble.numba_enabled():
            AODE().fit(X, y)
