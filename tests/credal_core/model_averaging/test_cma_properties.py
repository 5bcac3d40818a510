"""Theory guarantees of CMA / BMANaive (hypothesis), and declared categories against the reference."""
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credal_core.model_averaging import CMA, BMANaive
from tests._depth import examples
from tests.credal_core._helpers import coded_table
from tests.credal_core.model_averaging.reference_subsets import SubsetAverage


def data():
    return coded_table(rows=(4, 30), max_features=5)


@settings(max_examples=examples(40), deadline=None)
@given(data(), st.floats(0.01, 0.49), st.floats(0.01, 0.49), st.sampled_from([0.5, 1.0, 3.0]))
def test_nested_sets_and_the_bma_label(d, t1, t2, s):
    X, y = d
    if len(np.unique(y)) < 2:
        return
    lo, hi = sorted((t1, t2))
    wide, narrow = CMA(s=s, t_min=lo).fit(X, y), CMA(s=s, t_min=hi).fit(X, y)
    sw, sn = wide.predict_set(X), narrow.predict_set(X)
    assert (sw >= sn).all()                                   # a larger credal set: larger sets
    label = np.searchsorted(wide.classes_, BMANaive(s=s).fit(X, y).predict(X))
    assert sw[np.arange(len(X)), label].all() and sn[np.arange(len(X)), label].all()
    low = wide.lower_posterior(X, label)
    for t in (lo, 0.5, 1 - lo):                               # every prior in the set is above the lower one
        post = BMANaive(s=s, t=t).fit(X, y).predict_proba(X)[np.arange(len(X)), label]
        assert np.all(low <= post + 1e-12)


@settings(max_examples=examples(25), deadline=None)
@given(data(), st.randoms(use_true_random=False))
def test_feature_order_does_not_matter(d, rnd):
    X, y = d
    if len(np.unique(y)) < 2:
        return
    perm = list(range(X.shape[1]))
    rnd.shuffle(perm)
    a = CMA().fit(X, y).predict_set(X)
    b = CMA().fit(X.iloc[:, perm].set_axis(range(X.shape[1]), axis=1), y).predict_set(
        X.iloc[:, perm].set_axis(range(X.shape[1]), axis=1))
    assert np.array_equal(a, b)


def test_declared_categories_enter_the_priors():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 2, (12, 2))
    y = rng.integers(0, 2, 12)
    y[:2] = [0, 1]
    frame = pd.DataFrame({f"f{j}": pd.Categorical(X[:, j], categories=[0, 1, 2]) for j in range(2)})
    x = np.array([1, 0])
    ref = SubsetAverage(X, y, x, [3, 3], 2, 1.0).joint(np.full(2, 0.5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        declared = BMANaive(categories="declared").fit(frame, y)
        seen = BMANaive().fit(frame, y)
    row = pd.DataFrame({f"f{j}": pd.Categorical([x[j]], categories=[0, 1, 2]) for j in range(2)})
    np.testing.assert_allclose(declared.predict_proba(row)[0], ref / ref.sum(), rtol=1e-10)
    assert not np.allclose(seen.predict_proba(row)[0], ref / ref.sum(), rtol=1e-6)
    assert declared.form_.log_theta[0].shape == (2, 4)        # three declared values + the unseen slot


@pytest.mark.parametrize("missing_everywhere", [True, False])
def test_a_feature_missing_at_test_time_leaves_the_product(missing_everywhere):
    rng = np.random.default_rng(4)
    X = pd.DataFrame(rng.integers(0, 3, (30, 3)).astype(float))
    y = rng.integers(0, 2, 30)
    model = CMA().fit(X, y)
    row = X.iloc[[0]].copy()
    row.iloc[0, 1] = np.nan
    theta, beta = model.form_.gather(model.encode(row))
    assert (theta[:, 1, 0] == 0).all() and beta[1, 0] == 0     # factor t + (1 - t) = 1 at every prior
    if missing_everywhere:
        X2 = X.copy()
        X2[1] = np.nan
        with pytest.warns(UserWarning, match="missing in every training row"):
            CMA().fit(X2, y)
