"""prepare(): the Compare page's preparation learned in each fit, for any estimator — the same folds give
the engine's figures, cut points come from the training rows only."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import cross_val_score

from credal_core import NCC, NaiveBayes
from credal_core.data.column_checks import ManyValuedIntegerWarning
from credal_core.data.discretise import equal_frequency_cut_points, mdl_cut_points
from credal_core.data.preparation import Preparation
from credal_core.data.prepare import PreparedClassifier, numeric_columns, prepare
from credal_core.datasets import load_dataset
from credal_core.experiments.compare import ClassifierSpec, compare_classifiers
from credal_core.experiments.engine import make_splits


def test_the_engines_fold_figures_equal_prepare_on_the_same_splits():
    X, y = load_dataset("iris", return_X_y=True)
    folds = compare_classifiers(X, y, numeric=list(X.columns), n_splits=3, n_repeats=1, seed=4, n_jobs=1,
                                specs=[ClassifierSpec("NBC", "NaiveBayes", {"s": 1.0})])
    labels = y.astype(str).to_numpy()
    for split, row in zip(make_splits(labels, n_splits=3, n_repeats=1, seed=4), folds.itertuples()):
        model = prepare(NaiveBayes(s=1.0)).fit(X.iloc[split.train], labels[split.train])
        accuracy = float(np.mean(model.predict(X.iloc[split.test]) == labels[split.test]))
        assert accuracy == row.accuracy


def test_cut_points_are_learned_from_the_training_rows_only():
    X, y = load_dataset("wine", return_X_y=True)
    train = np.arange(0, len(y), 2)
    model = prepare(NCC(), discretiser="equal_frequency", n_bins=3).fit(X.iloc[train], y.iloc[train])
    for name in X.columns:
        np.testing.assert_array_equal(model.preparation_.cuts_[name],
                                      equal_frequency_cut_points(X[name].to_numpy()[train], 3))
    model = prepare(NCC()).fit(X.iloc[train], y.iloc[train])
    np.testing.assert_array_equal(model.preparation_.cuts_["proline"],
                                  mdl_cut_points(X["proline"].to_numpy()[train], y.to_numpy()[train]))


def test_the_wrapper_equals_preparation_then_the_estimator():
    X, y = load_dataset("iris", return_X_y=True)
    prepared = prepare(NCC(s=2.0)).fit(X[:120], y[:120])
    manual_prep = Preparation(numeric=list(X.columns)).fit(X[:120].astype(object), y[:120].to_numpy())
    manual = NCC(s=2.0).fit(manual_prep.transform(X[:120]), y[:120])
    expected = manual.predict_set(manual_prep.transform(X[120:]))
    np.testing.assert_array_equal(prepared.predict_set(X[120:]), expected)
    assert list(prepared.classes_) == list(manual.classes_)


def test_auto_numeric_follows_the_loaders_rule():
    X = pd.DataFrame({"codes": [1, 2, 3] * 10, "ints": range(30), "floats": np.linspace(0, 1, 30),
                      "text": ["a", "b", "c"] * 10, "numbers_as_text": [str(v / 3) for v in range(30)]})
    assert numeric_columns(X) == ["ints", "floats", "numbers_as_text"]
    assert numeric_columns(load_dataset("monks1").data) == []


def test_works_inside_sklearn_cross_validation_and_clones():
    X, y = load_dataset("iris", return_X_y=True)
    model = prepare(NaiveBayes(), numeric="auto")
    assert clone(model).get_params()["numeric"] == "auto"
    assert cross_val_score(model, X, y, cv=3).mean() > 0.85


def test_conservative_missing_values_reach_the_ncc():
    X = pd.DataFrame({"a": ["x", None, "y", "x", "y", None] * 4, "b": ["p", "q"] * 12})
    y = ["c", "d", "c", "d", "c", "d"] * 4
    model = prepare(NCC(), missing="conservative", non_mar=["a"]).fit(X, y)
    assert model.estimator_.non_mar_testing == ["a"] and model.estimator_.non_mar_training == ["a"]
    assert prepare(NaiveBayes(), missing="conservative", non_mar=["a"]).fit(X, y).predict(X).shape == (24,)


def test_an_integer_column_left_categorical_warns():
    X = pd.DataFrame({"chol": np.arange(40) + 150, "sex": [0, 1] * 20})
    y = ["a", "b"] * 20
    with pytest.warns(ManyValuedIntegerWarning, match="'chol'"):
        model = prepare(NaiveBayes(), numeric="none").fit(X, y)
    assert len(model.warnings_) == 1
    assert prepare(NaiveBayes()).fit(X, y).warnings_ == []          # discretised: nothing to say


def test_bad_settings_are_clear_errors():
    X, y = load_dataset("weather", return_X_y=True)
    with pytest.raises(ValueError, match="numeric must be 'auto', 'none' or a list"):
        PreparedClassifier(NaiveBayes(), numeric="all").fit(X, y)
    with pytest.raises(ValueError, match="discretiser must be one of"):
        prepare(NaiveBayes(), discretiser="kmeans").fit(X, y)
