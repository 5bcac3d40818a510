"""ThresholdSelector's ``categories=`` (the |F_j| policy of C1, C2 and every fold's NBC).

* ``"declared"`` keeps a pandas Categorical's unused category: |F_j| grows, the thresholds change,
  and the selector equals the one fitted with the same categories as explicit per-feature lists
  (fixed subsets, and SFS with k by cross-validation and out-of-fold thresholds);
* its thresholds and classes are those of ``NaiveBayes(prior="laplace", categories="declared")``
  fitted on the same columns (with missing values too); SFS equals refitting such NBCs per fold;
* ``"seen"`` stays the default (``get_params``, and ``"declared"`` without Categorical columns is
  ``"seen"``); a bad policy is refused.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from credal_core.naive.naive_bayes import NaiveBayes
from credal_core.selection.threshold import ThresholdSelector, sequential_forward_selection
from tests.credal_core.selection.brute_force_selection import refit_sfs

F1, F2 = ["f0", "f1"], ["f0", "f2"]


def declared_case(seed: int, n: int = 40, holes: float = 0.0):
    """Categorical columns; ``f0`` declares a value ("v9") that no row holds."""
    rng = np.random.default_rng(seed)
    cols = {}
    for j in range(4):
        values = [f"v{v}" for v in range(3 if j == 3 else 2)]
        declared = values + (["v9"] if j == 0 else [])
        cols[f"f{j}"] = pd.Categorical(rng.choice(values, n + 10), categories=declared)
    frame = pd.DataFrame(cols)
    if holes:
        frame = frame.mask(rng.random(frame.shape) < holes)
    y = np.array([f"c{k}" for k in rng.integers(0, 2, n + 10)])
    y[:2] = ["c0", "c1"]
    return frame.iloc[:n].reset_index(drop=True), y[:n], frame.iloc[n:].reset_index(drop=True)


def as_lists(X: pd.DataFrame) -> list[list]:
    return [list(X[c].cat.categories) for c in X.columns]


def _fit(X, y, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return ThresholdSelector(**kwargs).fit(X, y)


def _same(a: ThresholdSelector, b: ThresholdSelector, X_test):
    assert np.array_equal(a.training_thresholds_, b.training_thresholds_)
    assert np.array_equal(a.training_correct_, b.training_correct_)
    assert a.k_ == b.k_ and (a.features_1_, a.features_2_) == (b.features_1_, b.features_2_)
    for ma, mb in ((a.classifier_1_, b.classifier_1_), (a.classifier_2_, b.classifier_2_)):
        assert [list(c) for c in ma.tables_.categories] == [list(c) for c in mb.tables_.categories]
        assert all(np.array_equal(p, q) for p, q in zip(ma.feature_count_, mb.feature_count_))
    pd.testing.assert_frame_equal(a.explain(X_test), b.explain(X_test))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mode", ["resubstitution", "cross_validation"])
def test_declared_keeps_the_unused_category_and_equals_explicit_lists(seed, mode):
    X, y, X_test = declared_case(seed)
    kw = dict(features_1=F1, features_2=F2, k=3, training_thresholds=mode)
    seen = _fit(X, y, **kw)
    declared = _fit(X, y, categories="declared", **kw)
    listed = _fit(X, y, categories=as_lists(X), **kw)
    # |F_0| counts the declared, never-seen "v9": one more than the values seen
    assert len(seen.classifier_1_.tables_.categories[0]) == 2
    assert len(declared.classifier_1_.tables_.categories[0]) == 3
    assert list(declared.classifier_2_.tables_.categories[0]) == ["v0", "v1", "v9"]
    assert not np.array_equal(seen.training_thresholds_, declared.training_thresholds_)
    _same(declared, listed, X_test)


@pytest.mark.parametrize("holes", [0.0, 0.15])
def test_declared_thresholds_are_those_of_naive_bayes_with_declared_categories(holes):
    X, y, X_test = declared_case(4, holes=holes)
    sel = _fit(X, y, features_1=F1, features_2=F2, categories="declared")
    info = sel.explain(X_test)
    for i, cols in enumerate((F1, F2), start=1):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            nb = NaiveBayes(prior="laplace", categories="declared").fit(X[cols], y)
        # resubstitution: the training points are the thresholds of the NBC on all training rows
        assert np.array_equal(sel.training_thresholds_[:, i - 1], nb.perturbation_threshold(X[cols]))
        assert np.array_equal(info[f"threshold_{i}"].to_numpy(), nb.perturbation_threshold(X_test[cols]))
        assert np.array_equal(info[f"prediction_{i}"].to_numpy(), nb.predict(X_test[cols]))


def test_declared_sfs_equals_refitting_naive_bayes_with_declared_categories():
    X, y, _ = declared_case(5, n=30)
    classes = np.unique(y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for policy in ("declared", as_lists(X)):
            ours = sequential_forward_selection(X, y, n_folds=3, categories=policy)
            pd.testing.assert_frame_equal(ours, refit_sfs(X, y, classes, n_folds=3, categories=policy))
        seen = sequential_forward_selection(X, y, n_folds=3)
    assert not np.array_equal(seen["accuracy"], ours["accuracy"])   # |F_0| changes some accuracy


@pytest.mark.parametrize("mode", ["resubstitution", "cross_validation"])
def test_declared_equals_lists_with_sfs_and_k_by_cross_validation(mode):
    X, y, X_test = declared_case(6, n=36)
    kw = dict(k="cv", k_grid=(2, 3, 5), n_folds=3, training_thresholds=mode)
    declared = _fit(X, y, categories="declared", **kw)
    _same(declared, _fit(X, y, categories=as_lists(X), **kw), X_test)
    pd.testing.assert_frame_equal(declared.sfs_table_, _fit(X, y, categories=as_lists(X), **kw).sfs_table_)
    assert declared.cv_accuracy_ is not None


def test_declared_without_categorical_columns_is_seen():
    X, y, X_test = declared_case(7)
    plain = X.astype(object)
    _same(_fit(plain, y, features_1=F1, features_2=F2, categories="declared"),
          _fit(plain, y, features_1=F1, features_2=F2), X_test.astype(object))


def test_categories_is_a_parameter():
    sel = ThresholdSelector()
    assert sel.get_params()["categories"] == "seen"
    lists = [["a", "b"], ["x"]]
    copy = clone(ThresholdSelector(categories=lists))
    assert copy.get_params()["categories"] == lists
    assert ThresholdSelector().set_params(categories="declared").categories == "declared"


@pytest.mark.parametrize("policy, message", [("all", "categories must be"), (3, "categories must be"),
                                             ([["v0", "v1"]], "categories lists 1 features")])
def test_bad_categories_are_refused(policy, message):
    X, y, _ = declared_case(8)
    with pytest.raises(ValueError, match=message):
        ThresholdSelector(features_1=F1, features_2=F2, categories=policy).fit(X, y)


def test_a_value_outside_the_listed_categories_is_refused():
    X, y, _ = declared_case(9)
    lists = as_lists(X)
    lists[1] = ["v0"]
    with pytest.raises(ValueError, match="not among its declared categories"):
        ThresholdSelector(features_1=F1, features_2=F2, categories=lists).fit(X, y)
