"""Comparing classifiers on one data set by repeated stratified cross-validation."""
import numpy as np
import pandas as pd
import pytest

from credal_core import NCC, NaiveBayes
from credal_core.data.csv_loader import read_csv_bytes
from credal_core.data.preparation import Preparation
from credal_core.experiments.compare import (
    ClassifierSpec,
    available_classifiers,
    compare_classifiers,
    summarise_comparison,
)
from credal_core.metrics import credal_scores
from credal_core.resampling import repeated_stratified_kfold

SPECS = (ClassifierSpec("NBC", "NaiveBayes"), ClassifierSpec("NCC", "NCC"),
         ClassifierSpec("LNCC_α=0.75", "LNCC", {"alpha": 0.75}))


def _numeric_data(seed=0, n=90):
    rng = np.random.default_rng(seed)
    y = rng.choice(["a", "b", "c"], n)
    x1 = rng.normal(size=n) + (y == "b") * 1.5
    x2 = rng.normal(size=n) - (y == "c") * 1.5
    colour = np.where(rng.random(n) < 0.7, np.where(y == "a", "red", "blue"), "green")
    x1_text = np.array([f"{v:.3f}" for v in x1], dtype=object)
    x1_text[rng.random(n) < 0.1] = None                        # some missing cells
    return pd.DataFrame({"x1": x1_text, "x2": [f"{v:.3f}" for v in x2], "colour": colour}), y


def test_every_fold_and_classifier_is_scored():
    X, y = _numeric_data()
    results = compare_classifiers(X, y, numeric=["x1", "x2"], specs=SPECS, n_splits=3, n_repeats=2, seed=4)
    assert len(results) == 3 * 2 * len(SPECS) and (results["error"] == "").all()
    nbc = results[results["classifier"] == "NBC"]
    assert (nbc["determinacy"] == 1).all() and np.allclose(nbc["single_accuracy"], nbc["accuracy"])
    credal = results[results["classifier"] != "NBC"]
    values = credal[["determinacy", "discounted_accuracy", "u65", "u80", "accuracy", "brier"]].to_numpy()
    assert np.all((values >= 0) & (values <= 1))
    summary = summarise_comparison(results)
    assert summary["folds"].tolist() == [6, 6, 6]
    assert summary.loc[0, "accuracy_mean"] == pytest.approx(nbc["accuracy"].mean())


def test_one_fold_equals_a_hand_run_of_preparation_and_estimators():
    X, y = _numeric_data(seed=1)
    results = compare_classifiers(X, y, numeric=["x1", "x2"], specs=SPECS[:2], n_splits=3, n_repeats=1,
                                  seed=9, discretiser="equal_frequency", n_bins=3, missing="category")
    train, test = next(repeated_stratified_kfold(y, n_splits=3, n_repeats=1, seed=9))
    prep = Preparation(numeric=["x1", "x2"], discretiser="equal_frequency", n_bins=3, missing="category")
    X_train = prep.fit_transform(X.iloc[train], y[train])
    X_test = prep.transform(X.iloc[test])
    nbc = NaiveBayes().fit(X_train, y[train])
    ncc = NCC().fit(X_train, y[train])
    first = results[(results["repeat"] == 0) & (results["fold"] == 0)].set_index("classifier")
    assert first.loc["NBC", "accuracy"] == pytest.approx(np.mean(nbc.predict(X_test) == y[test]))
    want = credal_scores(y[test], ncc.predict_set(X_test), ncc.classes_)
    assert first.loc["NCC", "determinacy"] == pytest.approx(want["determinacy"])
    assert first.loc["NCC", "u80"] == pytest.approx(want["u80"])


def test_a_classifier_that_refuses_is_reported_not_fatal():
    X, y = _numeric_data(seed=2)
    specs = (SPECS[0], ClassifierSpec("broken NCC", "NCC", {"s": -1.0}))
    results = compare_classifiers(X, y, numeric=["x1", "x2"], specs=specs, n_splits=2, n_repeats=1)
    broken = results[results["classifier"] == "broken NCC"]
    assert broken["accuracy"].isna().all() and broken["error"].str.contains("s must be").all()
    assert results[results["classifier"] == "NBC"]["accuracy"].notna().all()


def test_a_class_absent_from_a_training_fold_is_handled():
    X, y = _numeric_data(seed=3, n=40)
    y = y.copy()
    y[0] = "rare"                                   # one instance: absent from some training folds
    results = compare_classifiers(X, y, numeric=["x1", "x2"], specs=SPECS, n_splits=2, n_repeats=1)
    assert (results["error"] == "").all()
    assert results[["accuracy", "determinacy"]].notna().all().all()


def test_sample_file_through_the_loader():
    table = read_csv_bytes(open("sample_data/weather.csv", "rb").read())
    X = table.frame.drop(columns="play")
    results = compare_classifiers(X, table.frame["play"], specs=SPECS, n_splits=2, n_repeats=1)
    assert set(results["classifier"]) == {"NBC", "NCC", "LNCC_α=0.75"}


def test_bad_settings_are_refused():
    X, y = _numeric_data()
    with pytest.raises(ValueError, match="discretiser"):
        compare_classifiers(X, y, numeric=["x1"], specs=SPECS, discretiser="nope")
    with pytest.raises(ValueError, match="at least one classifier"):
        compare_classifiers(X, y, specs=())
    with pytest.raises(ValueError, match="fewer than two classes"):
        compare_classifiers(X, np.array(["a"] * len(X)), specs=SPECS)
    assert [s.label for s in available_classifiers(SPECS)] == ["NBC", "NCC", "LNCC_α=0.75"]
    assert available_classifiers((ClassifierSpec("x", "NoSuchEstimator"),)) == []


def test_preparation_is_fitted_on_each_training_fold_only(monkeypatch):
    import credal_core.experiments.compare as compare_module

    fitted = []

    class Recording(Preparation):
        def fit(self, X, y):
            fitted.append(np.asarray(X.index))
            return super().fit(X, y)

    monkeypatch.setattr(compare_module, "Preparation", Recording)
    X, y = _numeric_data(seed=5)
    compare_classifiers(X, y, numeric=["x1", "x2"], specs=SPECS[:1], n_splits=3, n_repeats=2, seed=2)
    folds = list(repeated_stratified_kfold(np.asarray(y), n_splits=3, n_repeats=2, seed=2))
    fold_fits = [f for f in fitted if f.size]                    # the first call only checks settings
    assert len(fold_fits) == len(folds)
    for seen, (train, test) in zip(fold_fits, folds):
        assert np.array_equal(np.sort(seen), np.sort(train))     # never a test row
        assert np.intersect1d(seen, test).size == 0


def test_missing_class_labels_are_refused():
    X, y = _numeric_data()
    y = y.astype(object)
    y[3] = None
    with pytest.raises(ValueError, match="missing class labels"):
        compare_classifiers(X, y, specs=SPECS)
