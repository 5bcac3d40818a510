"""One rule for classes: a pandas Categorical y declares its categories as classes (JNCC2's
convention), in every estimator's fit and in the experiments' labels (``labels_as_text``)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from credal_core import (
    AODE,
    BMAAODE,
    LNCC,
    NCC,
    CompAODE,
    CredalBMAAODE,
    CredalCompAODE,
    NaiveBayes,
    ThresholdSelector,
)
from credal_core.data.counts import CountTables, declared_classes, labels_as_text

ESTIMATORS = [NaiveBayes, NCC, lambda: NCC(epsilon=0.1), LNCC, AODE, BMAAODE, CompAODE, CredalBMAAODE,
              CredalCompAODE, lambda: ThresholdSelector(features_1=[0], features_2=[1], k=3)]


def _data(seed=0, n=40):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.choice(list("pq"), n), "b": rng.choice(list("uvw"), n)})
    labels = rng.choice(["x", "y"], n)
    return X, labels


def test_declared_classes_of_each_kind_of_label_column():
    cat = pd.Categorical(["x", "y"], categories=["z", "x", "y"])
    assert declared_classes(pd.Series(cat)).tolist() == ["z", "x", "y"]
    assert declared_classes(cat).tolist() == ["z", "x", "y"]
    assert declared_classes(pd.DataFrame({"c": cat})).tolist() == ["z", "x", "y"]
    assert declared_classes(["x", "y"]) is None
    assert declared_classes(np.array([0, 1])) is None
    assert declared_classes(pd.Series(["x", "y"])) is None


@pytest.mark.parametrize("make", ESTIMATORS)
def test_a_categorical_y_fits_as_the_same_labels_with_classes_declared(make):
    X, labels = _data()
    y = pd.Series(pd.Categorical(labels, categories=["x", "y", "z"]))
    by_categorical = make().fit(X, y)
    by_argument = make().fit(X, labels, classes=["x", "y", "z"])
    plain = make().fit(X, labels)
    assert by_categorical.classes_.tolist() == ["x", "y", "z"]
    assert plain.classes_.tolist() == ["x", "y"]
    method = "predict_proba" if hasattr(by_categorical, "predict_proba") else "predict"
    np.testing.assert_array_equal(getattr(by_categorical, method)(X), getattr(by_argument, method)(X))
    if hasattr(by_categorical, "predict_set"):
        np.testing.assert_array_equal(by_categorical.predict_set(X), by_argument.predict_set(X))


def test_categories_all_used_change_nothing():
    X, labels = _data(1)
    y = pd.Series(pd.Categorical(labels, categories=["y", "x"]))      # declared order is not the order
    a, b = NCC().fit(X, y), NCC().fit(X, labels)
    assert a.classes_.tolist() == b.classes_.tolist() == ["x", "y"]
    np.testing.assert_array_equal(a.predict_set(X), b.predict_set(X))


def test_partial_fit_with_categorical_chunks_equals_one_fit():
    X, labels = _data(2)
    y = pd.Series(pd.Categorical(labels, categories=["x", "y", "z"]))
    whole = NCC().fit(X, y)
    parts = NCC().partial_fit(X.iloc[:15], y.iloc[:15]).partial_fit(X.iloc[15:], y.iloc[15:])
    assert parts.classes_.tolist() == ["x", "y", "z"]
    np.testing.assert_array_equal(parts.class_count_, whole.class_count_)
    np.testing.assert_array_equal(parts.predict_set(X), whole.predict_set(X))


def test_explicit_classes_win_over_the_categorical_and_must_cover_the_labels():
    X, labels = _data(3)
    y = pd.Series(pd.Categorical(labels, categories=["x", "y", "z"]))
    assert NCC().fit(X, y, classes=["x", "y"]).classes_.tolist() == ["x", "y"]
    with pytest.raises(ValueError, match="not among the declared classes"):
        CountTables.from_data(X, y, classes=["x"])


def test_labels_as_text_sorts_as_text_and_adds_the_declared_ones():
    labels, classes = labels_as_text(pd.Series(pd.Categorical([10, 9, 10], categories=[9, 10, 11])))
    assert labels.tolist() == ["10", "9", "10"]
    assert classes.tolist() == ["10", "11", "9"]                    # text order, as np.unique of str
    labels, classes = labels_as_text(np.array([2.5, 1.0, 2.5]))      # any label is a class as text
    assert classes.tolist() == ["1.0", "2.5"]
    with pytest.raises(ValueError, match="missing label"):
        labels_as_text(["a", None, "b"])


def test_the_selectors_paths_declare_the_classes_of_a_categorical_y():
    from credal_core.experiments.paper_004 import _prepare
    from credal_core.selection.sfs import sequential_forward_selection

    rng = np.random.default_rng(0)                  # 15 rows: small enough for the empty class to matter
    X = pd.DataFrame({"a": rng.choice(list("pq"), 15), "b": rng.choice(list("uvw"), 15),
                      "c": rng.choice(list("rs"), 15)})
    labels = rng.choice(["x", "y"], 15)
    y = pd.Series(pd.Categorical(labels, categories=["x", "y", "z"]))
    by_categorical = sequential_forward_selection(X, y, n_folds=3, n_repeats=1)
    by_argument = sequential_forward_selection(X, labels, classes=["x", "y", "z"], n_folds=3, n_repeats=1)
    plain = sequential_forward_selection(X, labels, n_folds=3, n_repeats=1)
    pd.testing.assert_frame_equal(by_categorical, by_argument)
    assert not by_categorical.equals(plain)             # the empty class changes the pooled scores
    data, _ = _prepare(X, y, ["a"], ["b"])
    assert data.classes.tolist() == ["x", "y", "z"]


def test_the_home_example_declares_the_classes_of_a_categorical_y():
    from credal_core.experiments.holdout_example import holdout_example

    X, labels = _data(5, n=50)
    y = pd.Series(pd.Categorical(labels, categories=["x", "y", "z"]))
    view = holdout_example(X, y, n_train=30, s_values=(2.0,))[2.0]
    assert view["classes"].tolist() == ["x", "y", "z"]
    direct = NCC(s=2.0).fit(X.iloc[:30], labels[:30], classes=["x", "y", "z"]).predict_set(X.iloc[30:])
    np.testing.assert_array_equal(view["sets"], direct)
