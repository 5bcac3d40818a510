"""The selector's fast paths against slow references, with missing values and declared classes.

* the cached SFS (per-(fold, feature) log terms, no refits) gives exactly the table of an SFS that
  refits a NaiveBayes per subset and fold (identical subsets and accuracies, ties included);
* the selector's thresholds and C1/C2 classes are exactly those of freshly fitted NaiveBayes models;
* with missing values (MAR) the thresholds and classes equal a brute force over the observed
  features with counts over the rows where each feature is present;
* declared classes (``fit(classes=...)``) stay classes of C1, C2 and SFS.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from credal_core.data.counts import MISSING
from credal_core.naive.naive_bayes import NaiveBayes
from credal_core.selection import sfs as sfs_module
from credal_core.selection.encoded import EncodedData
from credal_core.selection.threshold import ThresholdSelector, sequential_forward_selection
from tests._depth import cases
from tests.credal_core.selection.brute_force_selection import (
    encode_instance_mar,
    laplace_class_mar,
    perturbation_threshold_mar,
    refit_sfs,
)


def missing_case(seed: int, *, n_rows=(8, 16), n_features=(2, 4), missing=0.15, n_values=(2, 4), n_test=4):
    """Random categorical data with a share ``missing`` of NaN cells (train and test)."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(n_features[0], n_features[1] + 1))
    n = int(rng.integers(n_rows[0], n_rows[1] + 1))
    K = int(rng.integers(2, 4))
    y = np.array([f"c{k}" for k in rng.integers(0, K, size=n)])
    y[:2] = ["c0", "c1"]
    cols = {}
    for j in range(m):
        values = np.array([f"v{v}" for v in rng.integers(0, rng.integers(*n_values), size=n + n_test)],
                          dtype=object)
        values[rng.random(n + n_test) < missing] = np.nan
        cols[f"f{j}"] = values
    frame = pd.DataFrame(cols)
    names = list(frame.columns)
    f1 = sorted(rng.choice(names, size=int(rng.integers(1, m + 1)), replace=False).tolist())
    f2 = sorted(rng.choice(names, size=int(rng.integers(1, m + 1)), replace=False).tolist())
    return frame.iloc[:n].reset_index(drop=True), y, frame.iloc[n:].reset_index(drop=True), f1, f2


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():          # a feature missing in every row of a fold
        warnings.simplefilter("ignore", UserWarning)
        return fn(*args, **kwargs)


# ---------------------------------------------------------------- cached SFS == refitting SFS
@pytest.mark.parametrize("missing", [0.0, 0.2])
def test_cached_sfs_equals_refitting_every_subset(missing, monkeypatch):
    calls = {"ordered": 0}
    ordered = sfs_module._FoldScorer.ordered_joint

    def counting(self, subset, rows):
        calls["ordered"] += rows.size
        return ordered(self, subset, rows)

    monkeypatch.setattr(sfs_module._FoldScorer, "ordered_joint", counting)
    compared, n_seeds = 0, cases(8)
    for seed in range(n_seeds):
        # binary features on few rows: exact ties of the NBC's joints are common
        X, y, _, _, _ = missing_case(seed, n_rows=(10, 24), n_features=(2, 5), missing=missing,
                                     n_values=(2, 3) if seed % 2 else (2, 5))
        n_repeats = 1 + seed % 2
        classes = np.array(sorted(set(y)))
        got = _quiet(sequential_forward_selection, X, y, n_folds=4, n_repeats=n_repeats, seed=seed)
        want = _quiet(refit_sfs, X, y, classes, n_folds=4, n_repeats=n_repeats, seed=seed)
        assert got["features"].tolist() == want["features"].tolist(), seed
        assert got["accuracy"].tolist() == want["accuracy"].tolist(), seed      # exactly, not approx
        assert got["on_path"].tolist() == want["on_path"].tolist(), seed
        assert got["step"].tolist() == want["step"].tolist(), seed
        compared += len(got)
    assert compared > 6 * n_seeds
    assert calls["ordered"] > 0          # near ties were met and re-summed in the refit order


@pytest.mark.parametrize("seed", [15, 22, 29])
def test_exact_ties_are_broken_as_the_refitted_model_breaks_them(seed, monkeypatch):
    """Cases (found by search) where summing the terms in SFS's order instead of column order breaks an
    exact tie of two classes differently: the re-summing of near ties is what keeps the scores equal."""
    X, y, *_ = missing_case(seed, n_rows=(8, 30), n_features=(3, 6), missing=0.1 * (seed % 3),
                            n_values=(2, 4))
    want = _quiet(refit_sfs, X, y, np.array(sorted(set(y))), n_folds=4, n_repeats=1, seed=seed)
    got = _quiet(sequential_forward_selection, X, y, n_folds=4, n_repeats=1, seed=seed)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    monkeypatch.setattr(sfs_module, "NEAR_TIE", -1.0)             # no re-summing: the scores differ
    unsafe = _quiet(sequential_forward_selection, X, y, n_folds=4, n_repeats=1, seed=seed)
    assert unsafe["accuracy"].tolist() != want["accuracy"].tolist()


def test_cached_sfs_equals_refitting_on_balloons_with_declared_classes():
    from tests.credal_core.selection.test_threshold import BALLOONS

    frame = pd.read_csv(BALLOONS, dtype=str)
    y = frame.pop("inflated").to_numpy()
    classes = np.array(["F", "T", "Z"])          # Z: declared, no row
    got = sequential_forward_selection(frame, y, classes=classes)
    want = refit_sfs(frame, y, classes)
    pd.testing.assert_frame_equal(got, want, check_exact=True)


# ---------------------------------------------------------------- thresholds == fresh NaiveBayes
@pytest.mark.parametrize("mode", ["resubstitution", "cross_validation"])
def test_selector_thresholds_equal_freshly_fitted_naive_bayes(mode):
    from credal_core.resampling import repeated_stratified_kfold

    for seed in range(10):
        X, y, X_test, f1, f2 = missing_case(200 + seed, missing=0.15 * (seed % 2))
        sel = _quiet(ThresholdSelector(features_1=f1, features_2=f2, training_thresholds=mode).fit, X, y)
        classes = sel.classes_
        folds = ([(np.arange(len(y)), np.arange(len(y)))] if mode == "resubstitution" else
                 list(repeated_stratified_kfold(y, n_splits=5, n_repeats=1, seed=0)))
        fitted: dict = {}        # C1 == C2 (same subset) in some cases: one reference fit per subset and fold
        for fold, (train, test) in enumerate(folds):
            for col, feats in enumerate((f1, f2)):
                if (fold, tuple(feats)) not in fitted:
                    fitted[fold, tuple(feats)] = _quiet(NaiveBayes(prior="laplace").fit, X.iloc[train][feats],
                                                        y[train], classes=classes)
                nb = fitted[fold, tuple(feats)]
                np.testing.assert_array_equal(sel.training_thresholds_[test, col],
                                              nb.perturbation_threshold(X.iloc[test][feats]))
                np.testing.assert_array_equal(sel.training_correct_[test, col],
                                              nb.predict(X.iloc[test][feats]) == y[test])
        info = sel.explain(X_test)
        for col, feats in enumerate((f1, f2)):
            nb = _quiet(NaiveBayes(prior="laplace").fit, X[feats], y, classes=classes)
            np.testing.assert_array_equal(info[f"threshold_{col + 1}"],
                                          nb.perturbation_threshold(X_test[feats]))
            np.testing.assert_array_equal(info[f"prediction_{col + 1}"], nb.predict(X_test[feats]))


# ---------------------------------------------------------------- missing values: brute force
def test_missing_values_thresholds_match_brute_force():
    checked = positive = with_missing = 0
    for seed in range(25):
        X, y, X_test, f1, f2 = missing_case(400 + seed, n_rows=(6, 11), n_features=(2, 3), missing=0.25)
        sel = _quiet(ThresholdSelector(features_1=f1, features_2=f2, k=2).fit, X, y)
        classes = list(sel.classes_)
        info = sel.explain(X_test)
        for col, feats in enumerate((f1, f2)):
            for rows, got_t, got_c in ((X, sel.training_thresholds_[:, col], None),
                                       (X_test, info[f"threshold_{col + 1}"].to_numpy(),
                                        info[f"prediction_{col + 1}"].to_numpy())):
                for i, row in enumerate(rows[feats].itertuples(index=False)):
                    counts = encode_instance_mar(X[feats], y, classes, list(row))
                    want = perturbation_threshold_mar(*counts)
                    assert got_t[i] == pytest.approx(want, rel=1e-6, abs=1e-9), (seed, col, i)
                    if want > 1e-9 and got_c is not None:
                        assert got_c[i] == classes[laplace_class_mar(*counts)]
                    checked += 1
                    positive += want > 1e-9
                    with_missing += any(f is None for f in counts[2])
    assert positive > checked // 2 and with_missing > checked // 4


def test_missing_test_values_are_left_out():
    """A row with a feature missing gets the threshold and class of the classifier without it."""
    X, y, X_test, f1, f2 = missing_case(7, n_rows=(20, 20), n_features=(3, 3), missing=0.0)
    f1 = ["f0", "f1", "f2"]
    sel = ThresholdSelector(features_1=f1, features_2=f1[:2], k=3).fit(X, y)
    X_miss = X_test.copy()
    X_miss["f2"] = None
    info = sel.explain(X_miss)
    without = NaiveBayes(prior="laplace").fit(X[["f0", "f1"]], y)
    np.testing.assert_array_equal(info["threshold_1"], without.perturbation_threshold(X_test[["f0", "f1"]]))
    np.testing.assert_array_equal(info["threshold_1"], info["threshold_2"])
    np.testing.assert_array_equal(sel.predict(X_miss), info["prediction"])


def test_encoded_data_keeps_missing_and_counts_present_rows():
    X, y, *_ = missing_case(3, n_rows=(30, 30), n_features=(3, 3), missing=0.3)
    classes = np.array(sorted(set(y)))
    data = EncodedData(X, y, classes)
    np.testing.assert_array_equal(data.codes == MISSING, X.isna().to_numpy())
    rows = np.arange(5, 30)
    counts = data.fold(rows)
    for j, name in enumerate(X.columns):
        _, table, _ = counts.feature(j)
        present = X[name].iloc[rows].notna().to_numpy()
        want = [np.sum(present & (y[rows] == c)) for c in classes]
        np.testing.assert_array_equal(table.sum(axis=1), want)                    # n_j(c)
    np.testing.assert_array_equal(counts.class_counts, [np.sum(y[rows] == c) for c in classes])


def test_feature_missing_in_every_training_row_is_left_out():
    X, y, X_test, _, _ = missing_case(9, n_rows=(15, 15), n_features=(3, 3), missing=0.0)
    X = X.copy()
    X["f2"] = np.nan
    with pytest.warns(UserWarning, match="missing in every training row"):
        sel = ThresholdSelector(features_1=["f0", "f2"], features_2=["f0"]).fit(X, y)
    info = sel.explain(X_test)
    np.testing.assert_array_equal(info["threshold_1"], info["threshold_2"])
    table = _quiet(sequential_forward_selection, X, y)
    assert len(table) == 6 and np.isfinite(table["accuracy"]).all()


# ---------------------------------------------------------------- declared classes
def test_declared_classes_are_kept():
    X, y, X_test, f1, f2 = missing_case(11, missing=0.1)
    declared = sorted(set(y)) + ["zz"]
    sel = _quiet(ThresholdSelector(features_1=f1, features_2=f2).fit, X, y, classes=declared)
    assert list(sel.classes_) == declared
    assert sel.classifier_1_.class_count_[-1] == 0
    info = sel.explain(X_test)
    for col, feats in enumerate((f1, f2)):
        for i, row in enumerate(X_test[feats].itertuples(index=False)):
            want = perturbation_threshold_mar(*encode_instance_mar(X[feats], y, declared, list(row)))
            assert info[f"threshold_{col + 1}"].iloc[i] == pytest.approx(want, rel=1e-6, abs=1e-9)
    auto = _quiet(ThresholdSelector(k=3).fit, X, y, classes=declared)
    want = _quiet(refit_sfs, X, y, np.array(declared))
    pd.testing.assert_frame_equal(auto.sfs_table_, want, check_exact=True)
    with pytest.raises(ValueError, match="not among the declared classes"):
        ThresholdSelector(features_1=f1, features_2=f2).fit(X, y, classes=["c0"])


# ---------------------------------------------------------------- neighbourhoods on distinct points
@pytest.mark.parametrize("distance", ["euclidean", "chebyshev"])
def test_neighbourhood_counts_equal_the_row_by_row_definition(distance):
    """Points on a small integer grid (many duplicates, many distinct points at equal distances) and
    continuous ones; every k from 1 to beyond the number of rows."""
    from credal_core.selection.plane import neighbourhood_counts

    rng = np.random.default_rng(0)
    boundary_ties = 0
    for case in range(40):
        n, t = int(rng.integers(1, 40)), int(rng.integers(1, 12))
        grid = case % 2 == 0
        train = rng.integers(0, 4, size=(n, 2)).astype(float) if grid else rng.random((n, 2)) * 3
        test = rng.integers(0, 4, size=(t, 2)).astype(float) if grid else rng.random((t, 2)) * 3
        correct = rng.random((n, 2)) < 0.5
        ks = np.arange(1, n + 3)
        hits, sizes, bounds = neighbourhood_counts(train, correct, test, distance, ks)
        for i, point in enumerate(test):
            dx, dy = np.abs(point[0] - train[:, 0]), np.abs(point[1] - train[:, 1])
            d = [float(np.sqrt(a * a + b * b)) if distance == "euclidean" else float(max(a, b))
                 for a, b in zip(dx, dy)]
            ranked = sorted(d)
            for j, k in enumerate(ks):
                edge = ranked[min(k, n) - 1]
                inside = [r for r in range(n) if d[r] <= edge]
                assert bounds[i, j] == edge
                assert sizes[i, j] == len(inside)
                np.testing.assert_array_equal(hits[i, j], correct[inside].sum(axis=0))
                boundary_ties += len(inside) > min(k, n)
    assert boundary_ties > 100
