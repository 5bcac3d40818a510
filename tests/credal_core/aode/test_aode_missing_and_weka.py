"""Missing values (MAR), Webb's joint average, Weka's estimators, declared classes and categories.

Every expected value comes from brute_force_aode (row-by-row counting, no shared code) or from Weka
3.6 itself (skipped when it is not installed).
"""
import math

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from credal_core.aode import AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE, SpodeTables
from tests.credal_core.aode import brute_force_aode as bf
from tests.credal_core.aode.weka_runner import weka_aode_proba_many

ALL = [AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE]
WEKA_FORM = dict(combine="joint", estimator="laplace", frequency_limit=1)


def data_with_holes(rng, n=None, k=None, n_classes=None, p_missing=0.2):
    n = n or int(rng.integers(4, 22))
    k = k or int(rng.integers(1, 5))
    n_classes = n_classes or int(rng.integers(2, 4))
    cards = rng.integers(1, 4, size=k)
    X = [[None if rng.random() < p_missing else f"v{rng.integers(0, cards[j])}" for j in range(k)]
         for _ in range(n)]
    y = [f"c{rng.integers(0, n_classes)}" for _ in range(n)]
    y[0], y[1] = "c0", "c1"
    test = [[None if rng.random() < 0.3 else f"v{rng.integers(0, 4)}" for _ in range(k)] for _ in range(6)]
    test.append([None] * k)                                    # every parent missing: naive Bayes
    return X, y, test


def frame(rows, k):
    return pd.DataFrame(rows, columns=[f"a{j}" for j in range(k)], dtype=object)


@pytest.mark.parametrize("seed", range(40))
def test_aode_forms_and_estimators_with_missing_values_match_literal_counting(seed):
    rng = np.random.default_rng(seed)
    X, y, test = data_with_holes(rng)
    k = len(X[0])
    if all(row[j] is None for row in X for j in range(k)):
        pytest.skip("no value present")
    classes = sorted(set(y))
    cases = [dict(), dict(combine="joint"), WEKA_FORM,
             dict(combine="joint", estimator="m-estimate", m=2.0, frequency_limit=2),
             dict(estimator="laplace", frequency_limit=2)]
    for params in cases:
        model = AODE(**params).fit(frame(X, k), y)
        kw = {key: v for key, v in params.items() if key != "combine"}
        want = bf.aode_proba(X, y, classes, test, combine=params.get("combine", "posterior"), **kw)
        np.testing.assert_allclose(model.predict_proba(frame(test, k)), want, rtol=1e-10, atol=1e-15,
                                   err_msg=str(params))


def test_complete_data_posterior_form_is_unchanged_and_the_two_forms_differ():
    rng = np.random.default_rng(5)
    X = [[f"v{rng.integers(0, 3)}" for _ in range(4)] for _ in range(40)]
    y = [f"c{(int(r[0][1]) + int(r[1][1])) % 2}" for r in X]
    want = bf.aode_proba(X, y, ["c0", "c1"], X)
    np.testing.assert_allclose(AODE().fit(X, y).predict_proba(X), want, rtol=1e-10)
    joint = AODE(combine="joint").fit(X, y).predict_proba(X)
    assert np.abs(joint - want).max() > 1e-3


@pytest.mark.parametrize("seed", range(15))
def test_bma_and_comp_weights_with_missing_parents_use_the_null_model_rows(seed):
    """LL_j counts a training row whose parent j is missing as the null model does (log n_c/n)."""
    rng = np.random.default_rng(300 + seed)
    X, y, test = data_with_holes(rng, k=int(rng.integers(2, 5)))
    k = len(X[0])
    classes = sorted(set(y))
    joints = bf.spode_joints(X, y, classes, X)
    ll = np.zeros(k)
    for (jt, _, _), row, c in zip(joints, X, y):
        for j in range(k):
            if row[j] is None:
                ll[j] += math.log(y.count(c) / len(y))
            else:
                ll[j] += math.log(jt[j, classes.index(c)] / jt[j].sum())
    bma = BMAAODE().fit(frame(X, k), y)
    np.testing.assert_allclose(bma.log_likelihoods_, ll, rtol=1e-10)
    np.testing.assert_allclose(bma.predict_proba(frame(test, k)),
                               bf.aode_proba(X, y, classes, test, weights=bma.weights_), rtol=1e-9)
    comp = CompAODE().fit(frame(X, k), y)
    np.testing.assert_allclose(comp.predict_proba(frame(test, k)),
                               bf.aode_proba(X, y, classes, test, weights=comp.weights_), rtol=1e-9)


@pytest.mark.parametrize("seed", range(12))
def test_credal_dominance_with_missing_parents_against_the_solvers(seed):
    """BMA-AODE*: linprog over the usable kept SPODEs; COMP-AODE*: SLSQP over eq. 9 with the
    unusable SPODEs out of the pool (their posterior terms 0)."""
    rng = np.random.default_rng(500 + seed)
    X, y, test = data_with_holes(rng, n=int(rng.integers(8, 25)), k=int(rng.integers(2, 4)), p_missing=0.25)
    k = len(X[0])
    classes = sorted(set(y))
    eps = 0.01
    bma = CredalBMAAODE(epsilon=eps).fit(frame(X, k), y)
    comp = CredalCompAODE(epsilon=eps).fit(frame(X, k), y)
    dom_b, dom_c = bma.dominance(frame(test, k)), comp.dominance(frame(test, k))
    ll0 = comp.null_log_likelihood_
    for i, (jt, usable, _) in enumerate(bf.spode_joints(X, y, classes, test)):
        post = jt / np.where(jt.sum(axis=1, keepdims=True) > 0, jt.sum(axis=1, keepdims=True), 1)
        keep = bma.kept_ & usable
        w = bma.weights_[keep]
        for a in range(len(classes)):
            for b in range(len(classes)):
                if a == b:
                    continue
                if keep.any():
                    lp = bf.bma_min_ratio_lp(w * post[keep, a], w * post[keep, b], eps)
                    if abs(lp - 1) > 1e-7:
                        assert dom_b[i, a, b] == (lp > 1)
                else:
                    assert not dom_b[i, a, b]
                zeroed = np.where(usable[:, None], post, 0.0)
                value, _ = bf.comp_min_difference_eq9(zeroed, comp.log_likelihoods_, ll0, eps, a, b,
                                                      n_random=3, seed=i)
                if abs(value) > 1e-9:
                    assert dom_c[i, a, b] == (value > 0)


@pytest.mark.parametrize("cls", ALL)
def test_declared_class_without_rows_stays_a_class(cls):
    X = pd.DataFrame({"a": list("xxyyxy"), "b": list("ppqqqp")})
    y = ["p", "p", "q", "q", "p", "q"]
    model = cls().fit(X, y, classes=["p", "q", "r"])
    assert list(model.classes_) == ["p", "q", "r"]
    proba = model.predict_proba(X)
    assert proba.shape == (6, 3) and np.all(proba[:, 2] > 0) and np.allclose(proba.sum(axis=1), 1)
    assert model.class_count_[2] == 0
    if hasattr(model, "predict_set"):
        assert model.predict_set(X).shape == (6, 3)
    with pytest.raises(ValueError, match="declared"):
        cls().fit(X, y, classes=["p"])


def test_declared_classes_and_categories_match_literal_counting():
    rng = np.random.default_rng(9)
    X, y, test = data_with_holes(rng, n=15, k=3, n_classes=2)
    values = [["v0", "v1", "v2", "v3", "v4"]] * 3
    classes = ["c0", "c1", "c2"]
    for params in (dict(), WEKA_FORM):
        model = AODE(categories=values, **params).fit(frame(X, 3), y, classes=classes)
        kw = {key: v for key, v in params.items() if key != "combine"}
        want = bf.aode_proba(X, y, classes, test, combine=params.get("combine", "posterior"),
                             values=values, **kw)
        np.testing.assert_allclose(model.predict_proba(frame(test, 3)), want, rtol=1e-10)
    cat = frame(X, 3).astype(pd.CategoricalDtype(values[0]))
    declared = AODE(categories="declared").fit(cat, y).predict_proba(frame(test, 3))
    np.testing.assert_allclose(declared, AODE(categories=values).fit(frame(X, 3), y).predict_proba(
        frame(test, 3)), rtol=1e-12)


def test_models_fitted_on_the_same_rows_share_their_spode_tables_explicitly():
    rng = np.random.default_rng(3)
    X, y, test = data_with_holes(rng, n=30, k=4, n_classes=3)
    X, test = frame(X, 4), frame(test, 4)
    tables = SpodeTables.from_data(X, y)
    bma, comp = CredalBMAAODE().fit_spodes(tables), CredalCompAODE().fit_spodes(tables)
    assert bma.spodes_ is comp.spodes_ is tables
    with pytest.raises(ValueError, match="estimator='paper'"):                # another estimator
        AODE(estimator="laplace").fit_spodes(tables)
    with pytest.raises(ValueError, match="log_likelihoods=True"):
        BMAAODE().fit_spodes(SpodeTables.from_data(X, y, log_likelihoods=False))
    got = bma.predict_set(test), comp.predict_set(test), comp.log_likelihoods_
    fresh_bma, fresh_comp = CredalBMAAODE().fit(X, y), CredalCompAODE().fit(X, y)
    assert fresh_bma.spodes_ is not fresh_comp.spodes_                         # nothing shared behind
    np.testing.assert_array_equal(got[0], fresh_bma.predict_set(test))
    np.testing.assert_array_equal(got[1], fresh_comp.predict_set(test))
    np.testing.assert_array_equal(got[2], fresh_comp.log_likelihoods_)
    for make in (AODE, BMAAODE, CompAODE):
        np.testing.assert_array_equal(make().fit_spodes(tables).predict_proba(test),
                                      make().fit(X, y).predict_proba(test))
    laplace = SpodeTables.from_data(X, y, estimator="laplace", log_likelihoods=False)
    weka = AODE(combine="joint", estimator="laplace", frequency_limit=1)
    np.testing.assert_array_equal(weka.fit_spodes(laplace).predict_proba(test),
                                  clone(weka).fit(X, y).predict_proba(test))


def test_a_column_missing_everywhere_is_left_out_with_a_note():
    X = pd.DataFrame({"a": list("xxyyxy"), "gone": [None] * 6})
    y = list("ppqqpq")
    with pytest.warns(UserWarning, match="missing in every training row"):
        model = AODE().fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X), AODE().fit(X[["a"]], y).predict_proba(X[["a"]]),
                               rtol=1e-12)


# --- Weka 3.6 itself --------------------------------------------------------------------------------

WEKA_SEEDS = range(6)
WEKA_OPTIONS = [
    ("", WEKA_FORM),
    ("-F 3", dict(WEKA_FORM, frequency_limit=3)),
    ("-M -W 2 -F 2", dict(combine="joint", estimator="m-estimate", m=2, frequency_limit=2))]
WEKA_VALUES = [["v0", "v1", "v2", "v3"]] * 5                  # Weka's header declares them all
WEKA_CLASSES = ["c0", "c1", "c2"]


def weka_case(seed):
    return data_with_holes(np.random.default_rng(700 + seed), n=60, k=5, n_classes=3, p_missing=0.15)


@pytest.fixture(scope="module")
def weka_probabilities():
    """Weka's output for every (seed, options) case below, from one JVM (start-up costs seconds)."""
    keys = [(seed, options) for seed in WEKA_SEEDS for options, _ in WEKA_OPTIONS]
    jobs = [(*weka_case(seed), WEKA_VALUES, WEKA_CLASSES, options) for seed, options in keys]
    return dict(zip(keys, weka_aode_proba_many(jobs)))


@pytest.mark.parametrize("seed", WEKA_SEEDS)
@pytest.mark.parametrize("options,params", WEKA_OPTIONS)
def test_weka_aode_probabilities_with_missing_values(seed, options, params, weka_probabilities):
    X, y, test = weka_case(seed)
    values, classes = WEKA_VALUES, WEKA_CLASSES
    weka = weka_probabilities[(seed, options)]
    assert weka.shape == (len(test), 3)
    model = AODE(categories=values, **params).fit(frame(X, 5), y, classes=classes)
    ours = model.predict_proba(frame(test, 5))
    np.testing.assert_allclose(ours, weka, rtol=1e-9, atol=1e-15)
    want = bf.aode_proba(X, y, classes, test, values=values,
                         **{key: v for key, v in params.items() if key != "combine"}, combine="joint")
    np.testing.assert_allclose(want, weka, rtol=1e-9, atol=1e-15)     # the brute force is Webb's too


def test_instance_explanation_with_a_missing_parent_leaves_its_spode_out():
    from credal_core.aode.summary import instance_explanation
    d = pd.read_csv("sample_data/synthetic_nb.csv", dtype=str)
    X, y = d.drop(columns="class").iloc[:60], d["class"].iloc[:60]
    bma, comp = CredalBMAAODE().fit(X, y), CredalCompAODE().fit(X, y)
    x = X.iloc[[3]].copy()
    x.iloc[0, 0] = None
    info = instance_explanation(bma, comp, x)
    rows = X.to_numpy().tolist()
    classes = sorted(set(y))
    joints, usable, _ = bf.spode_joints(rows, list(y), classes, x.to_numpy().tolist())[0]
    assert not usable[0] and usable[1:].all()
    post = joints / np.maximum(joints.sum(axis=1, keepdims=True), 1e-300)   # row 0 (unusable) is 0
    keep = bma.kept_ & usable
    w = bma.weights_[keep]
    for _, pair in info["pairs"].iterrows():
        a, b = classes.index(pair["a"]), classes.index(pair["b"])
        lp = bf.bma_min_ratio_lp(w * post[keep, a], w * post[keep, b], 0.01)
        assert pair["bma_min_ratio"] == pytest.approx(lp, rel=1e-7)
        assert pair["bma_dominates"] == (lp > 1)
        assert pair["comp_dominates"] == comp.dominance(x)[0, a, b]
    assert info["posteriors"].iloc[0].eq(0).all()
