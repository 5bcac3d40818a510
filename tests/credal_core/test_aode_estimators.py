"""AODE, BMA-AODE, COMP-AODE against literal recomputations of paper 001's definitions."""
import math

import numpy as np
import pandas as pd
import pytest

from credal_core.aode import AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE
from credal_core.aode.bma import bma_posterior_weights
from tests.credal_core import brute_force_aode as bf

ALL = [AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE]


def random_data(rng, n=None, k=None, n_classes=None):
    n = n or int(rng.integers(3, 25))
    k = k or int(rng.integers(1, 5))
    n_classes = n_classes or int(rng.integers(2, 4))
    cards = rng.integers(1, 4, size=k)
    X = [[f"v{rng.integers(0, cards[j])}" for j in range(k)] for _ in range(n)]
    y = [f"c{rng.integers(0, n_classes)}" for _ in range(n)]
    y[0], y[1] = "c0", "c1"                                   # at least two classes
    return X, y


@pytest.mark.parametrize("seed", range(60))
def test_spode_posteriors_and_ll_match_literal_counting(seed):
    rng = np.random.default_rng(seed)
    X, y = random_data(rng)
    k = len(X[0])
    test = [[f"v{rng.integers(0, 5)}" for _ in range(k)] for _ in range(6)]   # incl. unseen values
    model = CompAODE().fit(X, y)
    classes = list(model.classes_)
    want = np.stack(bf.spode_posteriors(X, y, classes, test))
    got = model.spode_posteriors(test)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(model.log_likelihoods_, bf.conditional_log_likelihoods(X, y, classes),
                               rtol=1e-10)
    assert model.null_log_likelihood_ == pytest.approx(-len(y) * bf.class_entropy(y), rel=1e-12)


@pytest.mark.parametrize("seed", range(30))
def test_weights_and_pooled_posteriors(seed):
    rng = np.random.default_rng(100 + seed)
    X, y = random_data(rng)
    test = X[:5]
    for cls in (AODE, BMAAODE, CompAODE):
        m = cls().fit(X, y)
        assert m.weights_.shape == (len(X[0]),)
        assert m.weights_.min() >= 0 and m.weights_.sum() == pytest.approx(1.0, abs=1e-12)
        proba = m.predict_proba(test)
        np.testing.assert_allclose(proba, np.einsum("nkc,k->nc", m.spode_posteriors(test), m.weights_),
                                   rtol=1e-12)
    aode = AODE().fit(X, y)
    np.testing.assert_allclose(aode.predict_proba(test), aode.spode_posteriors(test).mean(axis=1),
                               rtol=1e-12)


@pytest.mark.parametrize("seed", range(30))
def test_bma_and_compression_weights_by_hand(seed):
    rng = np.random.default_rng(200 + seed)
    X, y = random_data(rng)
    k = len(X[0])
    classes = sorted(set(y))
    ll = bf.conditional_log_likelihoods(X, y, classes)
    # BMA: eq. 3 with uniform prior, pruning L_j < L_max / 1e4
    lik = np.array([math.exp(v) for v in ll])
    keep = lik >= lik.max() / 1e4 * (1 - 1e-12)
    want = np.where(keep, lik, 0) / lik[keep].sum()
    np.testing.assert_allclose(BMAAODE().fit(X, y).weights_, want, rtol=1e-9, atol=1e-300)
    # COMP: eqs. 6-7
    eps = 0.01
    ll0 = -len(y) * bf.class_entropy(y)
    raw = [1 - (v + math.log((1 - eps) / k)) / (ll0 + math.log(eps)) for v in ll]
    comp = CompAODE(epsilon=eps).fit(X, y)
    np.testing.assert_allclose(comp.compression_raw_, raw, rtol=1e-10)
    pos = np.maximum(raw, 0)
    want = pos / pos.sum() if pos.sum() > 0 else np.full(k, 1 / k)
    np.testing.assert_allclose(comp.weights_, want, rtol=1e-10)
    # eq. 10: the interval holds the eq. 5 point and its ends are the extreme priors eps, 1 - k eps
    lo, hi = comp.compression_interval_.T
    assert np.all(lo <= comp.compression_raw_ + 1e-12) and np.all(comp.compression_raw_ <= hi + 1e-12)
    np.testing.assert_allclose(hi, [1 - (v + math.log(1 - k * eps)) / (ll0 + math.log(eps)) for v in ll],
                               rtol=1e-10)


def test_algorithm1_agrees_where_it_does_not_overflow_and_ours_never_overflows():
    rng = np.random.default_rng(1)
    for _ in range(200):
        ll = rng.normal(-300, 100, size=rng.integers(1, 10))
        if ll.max() - ll.min() < 700:
            np.testing.assert_allclose(bma_posterior_weights(ll), bf.algorithm1(list(ll)), rtol=1e-9)
    w = bma_posterior_weights([-1e6, -10.0, -12.0])                  # Algorithm 1 overflows here
    with pytest.raises(OverflowError):
        bf.algorithm1([-1e6, -10.0, -12.0])
    assert np.all(np.isfinite(w)) and w[0] == 0 and w[1] == pytest.approx(1 / (1 + math.exp(-2)))


def test_bma_concentrates_as_n_grows():
    rng = np.random.default_rng(7)
    maxima, top = [], []
    for n in (30, 300, 3000):
        # a fixed distribution that is exactly SPODE f0: f1 and f2 both depend on (f0, class)
        yv = rng.integers(0, 2, n)
        f0 = rng.integers(0, 3, n)
        f1 = np.where(rng.random(n) < 0.8, (f0 + yv) % 3, rng.integers(0, 3, n))
        f2 = np.where(rng.random(n) < 0.8, (f0 * (yv + 1)) % 3, rng.integers(0, 3, n))
        X = pd.DataFrame({"f0": f0.astype(str), "f1": f1.astype(str), "f2": f2.astype(str)})
        bma = BMAAODE().fit(X, yv)
        maxima.append(bma.weights_.max())
        top.append(int(np.argmax(bma.weights_)))
        assert CompAODE().fit(X, yv).weights_.max() < 0.5   # compression keeps the weight spread
    assert maxima[0] < maxima[-1] and maxima[-1] > 1 - 1e-9 and top[-1] == 0


@pytest.mark.parametrize("cls", ALL)
def test_edge_cases_one_feature_constant_feature_class_seen_once(cls):
    X = pd.DataFrame({"a": ["x", "y", "x", "y", "x"], "const": ["k"] * 5})
    y = ["p", "q", "p", "p", "r"]                    # class r seen once
    m = cls().fit(X, y)
    test = pd.DataFrame({"a": ["x", "zzz"], "const": ["k", "unseen"]})
    proba = m.predict_proba(test)
    assert np.all(np.isfinite(proba)) and np.allclose(proba.sum(axis=1), 1)
    m1 = cls().fit(X[["a"]], y)
    assert np.all(np.isfinite(m1.predict_proba(test[["a"]])))
    if hasattr(m, "predict_set"):
        for model, t in ((m, test), (m1, test[["a"]])):
            sets = model.predict_set(t)
            assert sets.any(axis=1).all()
            idx = np.searchsorted(model.classes_, model.predict(t))
            assert sets[np.arange(len(t)), idx].all()


@pytest.mark.parametrize("cls", ALL)
def test_refusals_are_clear(cls):
    X = pd.DataFrame({"a": ["x", "y"]})
    with pytest.raises(ValueError, match="only one class"):
        cls().fit(X, ["p", "p"])
    with pytest.raises(ValueError, match="max_table_bytes"):
        cls(max_table_bytes=10).fit(X, ["p", "q"])
    with pytest.raises(ValueError, match="continuous"):
        cls().fit(pd.DataFrame({"a": [0.5, 1.5]}), ["p", "q"])


def test_memory_budget_is_checked_before_allocating():
    # 40 features x 500 values x 2 classes would need 8 * 2 * 20040^2 bytes = 6.4 GB: refused at once
    rng = np.random.default_rng(0)
    X = pd.DataFrame({f"f{j}": [f"v{i}" for i in rng.permutation(500)] for j in range(40)})
    with pytest.raises(ValueError, match="MiB"):
        AODE().fit(X, np.arange(500) % 2)


def test_epsilon_too_large_for_the_credal_sets():
    X = pd.DataFrame({f"f{j}": list("xyxyxy") for j in range(5)})
    y = list("pqpqpp")
    with pytest.raises(ValueError, match=r"\(k\+1\)"):
        CredalCompAODE(epsilon=0.2).fit(X, y)
    with pytest.raises(ValueError, match="epsilon"):
        CredalBMAAODE(epsilon=-0.1).fit(X, y)
    with pytest.raises(ValueError, match="epsilon"):
        CompAODE(epsilon=1.0).fit(X, y)
    assert CompAODE(epsilon=0.2).fit(X, y).compression_interval_ is None


def test_credal_predict_is_the_precise_counterparts_label():
    d = pd.read_csv("sample_data/synthetic_nb.csv", dtype=str)
    X, y = d.drop(columns="class"), d["class"]
    for credal, precise in ((CredalBMAAODE(), BMAAODE()), (CredalCompAODE(), CompAODE())):
        np.testing.assert_array_equal(credal.fit(X, y).predict(X), precise.fit(X, y).predict(X))
        np.testing.assert_allclose(credal.predict_proba(X), precise.predict_proba(X))


def test_chunked_counting_and_gathering_equal_one_pass(monkeypatch):
    from credal_core.aode import _spode
    rng = np.random.default_rng(11)
    X, y = random_data(rng, n=60, k=4, n_classes=3)
    whole = CompAODE().fit(X, y)
    monkeypatch.setattr(_spode, "_CHUNK_CELLS", 7)            # many tiny chunks
    chunked = CompAODE().fit(X, y)
    np.testing.assert_array_equal(chunked.spodes_.log_table, whole.spodes_.log_table)
    np.testing.assert_allclose(chunked.spode_posteriors(X), whole.spode_posteriors(X), rtol=1e-13)


def test_instance_explanation_agrees_with_dominance_and_the_lp():
    from credal_core.aode.summary import instance_explanation, spode_table
    d = pd.read_csv("sample_data/synthetic_nb.csv", dtype=str)
    X, y = d.drop(columns="class").iloc[:60], d["class"].iloc[:60]
    bma, comp = CredalBMAAODE().fit(X, y), CredalCompAODE().fit(X, y)
    table = spode_table(bma, comp)
    assert table["bma_weight"].sum() == pytest.approx(1) and table["comp_weight"].sum() == pytest.approx(1)
    for row in range(0, 60, 7):
        info = instance_explanation(bma, comp, X.iloc[[row]])
        post = info["posteriors"].to_numpy()
        w = bma.weights_
        for _, pair in info["pairs"].iterrows():
            a, b = list(bma.classes_).index(pair["a"]), list(bma.classes_).index(pair["b"])
            kept = bma.kept_
            lp = bf.bma_min_ratio_lp(w[kept] * post[kept, a], w[kept] * post[kept, b], 0.01)
            assert pair["bma_min_ratio"] == pytest.approx(lp, rel=1e-7)
            assert pair["bma_dominates"] == (lp > 1)
            assert pair["comp_dominates"] == (pair["comp_min_ratio"] > 1)
            prior = pair["comp_prior"]
            assert prior.min() >= 0.01 - 1e-12 and prior.sum() == pytest.approx(1 - 0.01)
        assert set(info["bma_set"]) >= {str(bma.predict(X.iloc[[row]])[0])}
