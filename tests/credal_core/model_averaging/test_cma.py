"""CMA and BMANaive against every feature subset and every extreme prior enumerated (reference_subsets)."""
import warnings

import numpy as np
import pandas as pd
import pytest

from credal_core._base import TIE
from credal_core.model_averaging import CMA, BMANaive
from credal_core.model_averaging import cma as cma_module
from credal_core.model_averaging.cma import _max_log_sum, cma_min_log_ratio
from tests._depth import cases
from tests.credal_core._helpers import checked_sets, class_with_noise
from tests.credal_core._sklearn_checks import assert_passes_sklearn_checks
from tests.credal_core.model_averaging.reference_subsets import SubsetAverage


def random_case(rng, missing=0.0):
    """Training rows (values seen coded 0..V-1, -1 missing), labels, one test row (V = unseen)."""
    n, k, n_classes = rng.integers(4, 16), rng.integers(1, 5), rng.integers(2, 5)
    X = np.column_stack([rng.integers(0, rng.integers(2, 4), n) for _ in range(k)])
    if missing:
        X = np.where(rng.random(X.shape) < missing, -1, X)
    X = np.column_stack([np.where(col < 0, -1, np.unique(col[col >= 0], return_inverse=True)[1][
        np.cumsum(col >= 0) - 1]) if (col >= 0).any() else col for col in X.T])
    n_values = [int(max(X[:, j].max() + 1, 1)) for j in range(k)]
    y = rng.integers(0, n_classes, n)
    x = np.array([rng.integers(-1, v + 1) if missing else rng.integers(0, v + 1) for v in n_values])
    return X, y, x, n_values, int(n_classes)


def frame(X):
    return pd.DataFrame(np.where(X < 0, np.nan, X), columns=[f"f{j}" for j in range(X.shape[1])])


def test_frame_coding_matches_reference():
    rng = np.random.default_rng(0)
    X, y, x, n_values, C = random_case(rng)
    model = BMANaive().fit(frame(X), y, classes=list(range(C)))
    codes = model.encode(frame(x[None, :]))
    expect = np.where(x >= np.array(n_values), -1, x)
    assert np.array_equal(codes[0], expect)


@pytest.mark.parametrize("missing", [0.0, 0.2])
def test_bma_equals_average_over_every_subset(missing):
    rng = np.random.default_rng(1 + int(missing * 10))
    for _ in range(cases(40)):
        X, y, x, n_values, C = random_case(rng, missing)
        if all(v == 0 for v in n_values):
            continue
        s, t = float(rng.choice([0.5, 1.0, 2.0])), float(rng.choice([0.5, 0.3]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = BMANaive(s=s, t=t).fit(frame(X), y, classes=list(range(C)))
        ref = SubsetAverage(X, y, x, n_values, C, s).joint(np.full(len(n_values), t))
        got = model.predict_proba(frame(x[None, :]))[0]
        np.testing.assert_allclose(got, ref / ref.sum(), rtol=1e-9, atol=1e-14)


@pytest.mark.parametrize("missing", [0.0, 0.2])
def test_cma_minimum_ratio_and_lower_posterior_at_the_extreme_priors(missing):
    rng = np.random.default_rng(11 + int(missing * 10))
    checked = 0
    for _ in range(cases(40)):
        X, y, x, n_values, C = random_case(rng, missing)
        s, t_min = float(rng.choice([0.5, 1.0, 2.0])), float(rng.choice([0.1, 0.25, 0.4]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = CMA(s=s, t_min=t_min).fit(frame(X), y, classes=list(range(C)))
        ref = SubsetAverage(X, y, x, n_values, C, s)
        vertex_joints = np.array([ref.joint(v) for v in ref.vertices(t_min, 1 - t_min)])   # (2^k, C)
        inner = np.array([ref.joint(rng.uniform(t_min, 1 - t_min, len(n_values))) for _ in range(20)])
        codes = model.encode(frame(x[None, :]))
        theta, beta = model.form_.gather(codes)
        dom = model.dominance_codes(codes)[0]
        for a in range(C):
            for b in range(C):
                if a == b:
                    continue
                want = np.log(vertex_joints[:, a] / vertex_joints[:, b]).min()
                got = cma_min_log_ratio(theta, beta, model.form_.log_prior, t_min, 1 - t_min, a, b)[0]
                assert got == pytest.approx(want, abs=1e-9)
                assert np.all(np.log(inner[:, a] / inner[:, b]) >= want - 1e-9)
                if abs(want) > 1e-8:
                    assert dom[a, b] == (want > 0)
                    checked += 1
        post = vertex_joints / vertex_joints.sum(axis=1, keepdims=True)
        inner_post = inner / inner.sum(axis=1, keepdims=True)
        for c in range(C):
            low = model.lower_posterior(frame(x[None, :]), target=[c])[0]
            assert low == pytest.approx(post[:, c].min(), rel=1e-9)
            assert np.all(inner_post[:, c] >= low - 1e-12)
    assert checked > cases(40)


def test_inclusion_interval_against_the_subsets():
    rng = np.random.default_rng(8)
    for _ in range(cases(20)):
        X, y, x, n_values, C = random_case(rng, 0.1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = CMA(t_min=0.2).fit(frame(X), y, classes=list(range(C)))
        ref = SubsetAverage(X, y, x, n_values, C, 1.0)
        subsets = np.array(ref.subsets)
        for j in range(len(n_values)):
            values = []
            for t in ref.vertices(0.2, 0.8):
                logp = (subsets * np.log(t) + (1 - subsets) * np.log1p(-t)).sum(axis=1) + ref.log_marg
                w = np.exp(logp - logp.max())
                values.append(w[subsets[:, j] == 1].sum() / w.sum())
            assert model.inclusion_interval_[j] == pytest.approx([min(values), max(values)], abs=1e-10)
        assert np.all(model.inclusion_interval_[:, 0] <= model.inclusion_probability_ + 1e-15)
        assert np.all(model.inclusion_probability_ <= model.inclusion_interval_[:, 1] + 1e-15)


def test_branch_and_bound_equals_enumeration(monkeypatch):
    rng = np.random.default_rng(5)
    for _ in range(cases(60)):
        rivals, m = rng.integers(1, 4), rng.integers(1, 9)
        base = rng.normal(size=rivals)
        r_lo, r_hi = rng.normal(size=(rivals, m)), rng.normal(size=(rivals, m))
        want = _max_log_sum(base, r_lo, r_hi)
        monkeypatch.setattr(cma_module, "_ENUMERATE", 0)
        got = _max_log_sum(base, r_lo, r_hi)
        monkeypatch.setattr(cma_module, "_ENUMERATE", 14)
        assert got == pytest.approx(want, abs=1e-12)


def test_sets_predict_and_the_bma_limit():
    X, y = class_with_noise(60, 6)
    model = CMA().fit(X, y)
    sets = checked_sets(model, X)
    labels = model.predict(X)
    assert np.array_equal(labels, BMANaive().fit(X, y).predict(X))
    assert sets[np.arange(len(X)), np.searchsorted(model.classes_, labels)].all()
    assert sets.sum(axis=1).max() > 1 and (sets.sum(axis=1) == 1).any()
    narrow = CMA(t_min=0.5).fit(X, y)            # a single prior: BMA's ranking, determinate
    assert (narrow.predict_set(X).sum(axis=1) == 1).all()
    wider = CMA(t_min=0.01).fit(X, y).predict_set(X)
    assert (wider >= sets).all()                 # larger credal set: sets never shrink


def test_tie_never_dominates():
    X = pd.DataFrame({"a": ["x", "y", "x", "y"]})
    model = CMA().fit(X, [0, 0, 1, 1])
    assert not model.dominance(X).any()
    assert TIE > 0


@pytest.mark.parametrize("params", [{"t_min": 0.0}, {"t_min": 0.6}, {"s": 0.0}, {"t_min": True}])
def test_bad_parameters(params):
    X = pd.DataFrame({"a": ["x", "y"]})
    with pytest.raises(ValueError, match="t_min|s must"):
        CMA(**params).fit(X, [0, 1])


@pytest.mark.parametrize("estimator", [BMANaive(), CMA(), CMA(t_min=0.3, s=2.0)], ids=repr)
def test_sklearn_estimator_checks(estimator):
    assert_passes_sklearn_checks(estimator)


def test_partial_fit_and_fit_counts_equal_fit():
    rng = np.random.default_rng(9)
    X = pd.DataFrame(rng.integers(0, 3, (90, 4)).astype(str))
    y = rng.integers(0, 3, 90)
    whole = CMA().fit(X, y)
    parts = CMA()
    for chunk in np.array_split(np.arange(90), 3):
        parts.partial_fit(X.iloc[chunk], y[chunk], classes=[0, 1, 2])
    adopted = CMA().fit_counts(whole.tables_)
    for model in (parts, adopted):
        assert np.array_equal(model.predict_set(X), whole.predict_set(X))
        np.testing.assert_allclose(model.inclusion_interval_, whole.inclusion_interval_)
