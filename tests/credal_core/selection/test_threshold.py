"""ThresholdSelector (paper 004): checked against slow, independent re-implementations.

* the training points of the threshold plane against brute_force.perturbation_threshold (bisection on
  s with the raw vertex-enumeration dominance test) for the classifiers on each feature subset;
* the whole decision (neighbours, success rates, choice, prediction) against a loop-per-instance
  k-nearest-neighbour selector written here from 004 §4 with the tie rule "every point at a distance
  <= the k-th smallest";
* that rule makes the choice independent of the training-row order (refits on permuted rows);
* k by cross-validation (both kinds of training thresholds) against refitting the selector with
  every fixed k on the same folds;
* SFS (1 and 2 repeats) against an independent Laplace naive Bayes written here with plain counts,
  and 004's Balloons;
* the two guarantees of the issue: C1 == C2's subsets gives C1; k = all training points gives the
  globally better classifier.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from credal_core.naive.naive_bayes import NaiveBayes
from credal_core.resampling import repeated_stratified_kfold
from credal_core.selection.threshold import ThresholdSelector, best_two_subsets, sequential_forward_selection
from tests._depth import cases
from tests.credal_core.brute_force import encode_instance, perturbation_threshold

BALLOONS = Path(__file__).resolve().parents[3] / "sample_data" / "balloons.csv"
F1_BALLOONS, F2_BALLOONS = ["color", "size", "act", "age"], ["color", "act", "age"]      # 004 Table 1


def random_selection_case(seed: int, n_rows=(6, 16), n_features=(2, 4), n_classes=None):
    """Random categorical data, two random non-empty feature subsets, and a few test rows."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(n_features[0], n_features[1] + 1))
    n = int(rng.integers(n_rows[0], n_rows[1] + 1))
    K = int(n_classes or rng.integers(2, 4))
    y = np.array([f"c{k}" for k in rng.integers(0, K, size=n)])
    y[:2] = ["c0", "c1"]
    cols = {f"f{j}": [f"v{v}" for v in rng.integers(0, rng.integers(2, 4), size=n + 3)] for j in range(m)}
    frame = pd.DataFrame(cols)
    X, X_test = frame.iloc[:n].reset_index(drop=True), frame.iloc[n:].reset_index(drop=True)
    names = list(X.columns)
    f1 = sorted(rng.choice(names, size=int(rng.integers(1, m + 1)), replace=False).tolist())
    f2 = sorted(rng.choice(names, size=int(rng.integers(1, m + 1)), replace=False).tolist())
    return X, y, X_test, f1, f2


# ---------------------------------------------------------------- slow reference implementations
def laplace_predict(X_train, y_train, classes, X_test):
    """Laplace NBC (004 §2) from plain counts; ties go to the first class in ``classes`` order."""
    out = []
    n = len(y_train)
    # per class and column once (not per test row): the class masks, the columns and their value counts
    in_cs = [y_train == c for c in classes]
    columns = {col: (X_train[col].to_numpy(), len(set(X_train[col]))) for col in X_train.columns}
    for _, row in X_test.iterrows():
        scores = []
        for in_c in in_cs:
            p = (in_c.sum() + 1) / (n + len(classes))
            for col, (values, n_values) in columns.items():
                p *= (np.sum(in_c & (values == row[col])) + 1) / (in_c.sum() + n_values)
            scores.append(p)
        scores = np.array(scores)
        out.append(classes[int(np.flatnonzero(scores >= scores.max() * (1 - 1e-12))[0])])
    return np.array(out)


_BRUTE: dict = {}


def _brute_threshold(n_c, n_cf, inst, n_values):
    """perturbation_threshold remembered per process, keyed by its exact inputs (the counts): duplicated
    rows and C1 == C2 give the same counts, and the bisection with vertex enumeration is costly."""
    key = (tuple(n_c.tolist()), tuple((m.shape, tuple(m.ravel().tolist())) for m in n_cf), inst, n_values)
    if key not in _BRUTE:
        _BRUTE[key] = perturbation_threshold(n_c, n_cf, inst, n_values)
    return _BRUTE[key]


def brute_thresholds(X_train, y_train, classes, X_rows):
    return np.array([_brute_threshold(*encode_instance(X_train, y_train, classes, list(r)))
                     for r in X_rows.itertuples(index=False)])


def loop_selector(train_pairs, train_correct, test_pairs, pred_1, pred_2, k, distance):
    """004 §4 one instance at a time: the neighbours are every training point whose distance is at most
    the k-th smallest (all the ties at the boundary), listed by (distance, row); compare hits."""
    chosen, preds, neighbours = [], [], []
    for point, p1, p2 in zip(test_pairs, pred_1, pred_2):
        dists = []
        for i, q in enumerate(train_pairs):
            dx, dy = abs(point[0] - q[0]), abs(point[1] - q[1])
            dists.append(((dx * dx + dy * dy) ** 0.5 if distance == "euclidean" else max(dx, dy), i))
        ranked = sorted(dists)
        boundary = ranked[min(k, len(ranked)) - 1][0]
        near = [i for d, i in ranked if d <= boundary]
        hits_1 = sum(bool(train_correct[i][0]) for i in near)
        hits_2 = sum(bool(train_correct[i][1]) for i in near)
        use_2 = hits_2 > hits_1
        chosen.append("C2" if use_2 else "C1")
        preds.append(p2 if use_2 else p1)
        neighbours.append(tuple(near))
    return chosen, preds, neighbours


# ---------------------------------------------------------------- the threshold plane
@pytest.mark.parametrize("mode", ["resubstitution", "cross_validation"])
def test_training_points_match_brute_force_thresholds(mode):
    checked = positive = 0
    for seed in range(25 if mode == "resubstitution" else 12):
        X, y, _, f1, f2 = random_selection_case(seed, n_rows=(5, 10), n_features=(2, 3))
        sel = ThresholdSelector(features_1=f1, features_2=f2, k=2, training_thresholds=mode).fit(X, y)
        classes = list(sel.classes_)
        folds = ([(np.arange(len(y)), np.arange(len(y)))] if mode == "resubstitution" else
                 list(repeated_stratified_kfold(y, n_splits=5, n_repeats=1, seed=0)))
        for train, test in folds:
            for col, feats in enumerate((f1, f2)):
                Xtr, ytr = X.iloc[train][feats].reset_index(drop=True), y[train]
                want = brute_thresholds(Xtr, ytr, classes, X.iloc[test][feats])
                np.testing.assert_allclose(sel.training_thresholds_[test, col], want, rtol=1e-6, atol=1e-9,
                                           err_msg=f"seed {seed} classifier {col + 1}")
                right = laplace_predict(Xtr, ytr, np.array(classes), X.iloc[test][feats]) == y[test]
                # an exact tie (threshold 0) may be broken either way by rounding: skip those rows
                sure = want > 1e-9
                np.testing.assert_array_equal(sel.training_correct_[test, col][sure], right[sure])
                checked += test.size
                positive += int(sure.sum())
    assert positive > checked // 2


def test_test_points_match_brute_force_thresholds():
    for seed in range(20):
        X, y, X_test, f1, f2 = random_selection_case(100 + seed, n_rows=(5, 10), n_features=(2, 3))
        sel = ThresholdSelector(features_1=f1, features_2=f2, k=3).fit(X, y)
        got = sel.explain(X_test)
        for col, feats in enumerate((f1, f2)):
            want = brute_thresholds(X[feats], y, list(sel.classes_), X_test[feats])
            np.testing.assert_allclose(got[f"threshold_{col + 1}"], want, rtol=1e-6, atol=1e-9)


# ---------------------------------------------------------------- the decision
def test_decision_matches_loop_reference():
    """Both distances on each case: the reference predictions of C1 and C2 do not depend on the
    distance and are computed once per case."""
    n_cases = {"euclidean": 0, "chebyshev": 0}
    differ, enlarged = dict(n_cases), dict(n_cases)
    for seed in range(30):
        X, y, X_test, f1, f2 = random_selection_case(1000 + seed)
        k = int(np.random.default_rng(seed).integers(1, len(y) + 3))
        pred_1 = NaiveBayes(prior="laplace").fit(X[f1], y).predict(X_test[f1])
        pred_2 = NaiveBayes(prior="laplace").fit(X[f2], y).predict(X_test[f2])
        for distance in n_cases:
            sel = ThresholdSelector(features_1=f1, features_2=f2, k=k, distance=distance).fit(X, y)
            info = sel.explain(X_test)
            pairs = info[["threshold_1", "threshold_2"]].to_numpy()
            chosen, preds, near = loop_selector(sel.training_thresholds_, sel.training_correct_, pairs,
                                                pred_1, pred_2, k, distance)
            assert info["chosen"].tolist() == chosen, (seed, distance)
            assert info["neighbours"].tolist() == near, (seed, distance)
            np.testing.assert_array_equal(sel.predict(X_test), preds)
            np.testing.assert_array_equal(sel.choose(X_test), [int(c[1]) for c in chosen])
            hits = np.array([sel.training_correct_[list(rows)].sum(axis=0) for rows in near])
            np.testing.assert_array_equal(info[["hits_1", "hits_2"]].to_numpy(), hits)
            sizes = np.array([len(rows) for rows in near])
            np.testing.assert_array_equal(info["n_neighbours"], sizes)
            np.testing.assert_allclose(info[["success_1", "success_2"]].to_numpy(), hits / sizes[:, None])
            distances, rows = sel.kneighbors(X_test)
            assert [tuple(r.tolist()) for r in rows] == near
            assert all(np.all(np.diff(d) >= 0) for d in distances)
            n_cases[distance] += 1
            differ[distance] += int(np.any(pred_1 != pred_2))
            enlarged[distance] += int(np.sum(sizes > min(k, len(y))))
    for distance in n_cases:
        assert differ[distance] > 5, distance     # the choice matters in many cases (not vacuous)
        assert enlarged[distance] > 5, distance   # and so do ties at the k-th distance


def _choices_after_permutations(X, y, X_test, f1, f2, k, distance, n_perm, rng):
    base = ThresholdSelector(features_1=f1, features_2=f2, k=k, distance=distance).fit(X, y)
    want = base.choose(X_test), base.predict(X_test)
    for _ in range(n_perm):
        p = rng.permutation(len(y))
        sel = ThresholdSelector(features_1=f1, features_2=f2, k=k, distance=distance).fit(
            X.iloc[p].reset_index(drop=True), y[p])
        yield want, (sel.choose(X_test), sel.predict(X_test))


def test_choices_do_not_depend_on_the_order_of_the_training_rows():
    """Balloons' 76 rows sit on 12 points of the plane: the boundary of a neighbourhood is nearly always
    a group of tied rows.  Under "the first k rows of the group" (a stable sort) 2 of 20 permutations
    changed the choice for k = 3; with every tied row in, no permutation may change any choice."""
    frame = pd.read_csv(BALLOONS, dtype=str)
    y = frame.pop("inflated").to_numpy()
    rng = np.random.default_rng(0)
    distinct = frame.drop_duplicates()
    compared = 0
    for k, distance in ((3, "euclidean"), (4, "chebyshev"), (5, "euclidean"), (7, "chebyshev")):
        perms = _choices_after_permutations(frame, y, distinct, F1_BALLOONS, F2_BALLOONS, k, distance, 3, rng)
        for want, got in perms:
            np.testing.assert_array_equal(got[0], want[0], err_msg=f"k={k} {distance}")
            np.testing.assert_array_equal(got[1], want[1], err_msg=f"k={k} {distance}")
            compared += 1
    for seed in range(12):
        X, y, X_test, f1, f2 = random_selection_case(3000 + seed, n_rows=(10, 20))
        k, distance = 1 + seed % 4, ("euclidean", "chebyshev")[seed % 2]
        perms = _choices_after_permutations(X, y, pd.concat([X, X_test]), f1, f2, k, distance, 2, rng)
        for want, got in perms:
            np.testing.assert_array_equal(got[0], want[0], err_msg=f"seed {seed}")
            np.testing.assert_array_equal(got[1], want[1], err_msg=f"seed {seed}")
            compared += 1
    assert compared == 4 * 3 + 12 * 2


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), k=st.integers(1, 25),
       distance=st.sampled_from(["euclidean", "chebyshev"]))
def test_same_subset_gives_c1(seed, k, distance):
    X, y, X_test, f1, _ = random_selection_case(seed)
    sel = ThresholdSelector(features_1=f1, features_2=f1, k=k, distance=distance).fit(X, y)
    c1 = NaiveBayes(prior="laplace").fit(X[f1], y)
    np.testing.assert_array_equal(sel.predict(X_test), c1.predict(X_test[f1]))
    np.testing.assert_array_equal(sel.choose(X_test), 1)        # equal success rates: ties go to C1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), distance=st.sampled_from(["euclidean", "chebyshev"]),
       extra=st.integers(0, 5))
def test_k_all_points_picks_globally_better_classifier(seed, distance, extra):
    X, y, X_test, f1, f2 = random_selection_case(seed)
    sel = ThresholdSelector(features_1=f1, features_2=f2, k=len(y) + extra, distance=distance).fit(X, y)
    c1, c2 = (NaiveBayes(prior="laplace").fit(X[f], y) for f in (f1, f2))
    hits_1, hits_2 = (np.sum(c.predict(X[f]) == y) for c, f in ((c1, f1), (c2, f2)))
    better, feats = (c2, f2) if hits_2 > hits_1 else (c1, f1)
    np.testing.assert_array_equal(sel.predict(X_test), better.predict(X_test[feats]))
    np.testing.assert_array_equal(sel.choose(X_test), 2 if hits_2 > hits_1 else 1)


@pytest.mark.parametrize("mode", ["resubstitution", "cross_validation"])
def test_k_by_cross_validation_matches_refits_with_fixed_k(mode):
    """Each fold's selector is refitted from scratch (with ``cross_validation`` its own training
    thresholds come from an inner 5-fold split of the fold's training rows, seeded alike)."""
    grid = (1, 2, 3, 5, 8)
    for seed in range(3 if mode == "resubstitution" else 2):
        X, y, _, f1, f2 = random_selection_case(500 + seed, n_rows=(12, 18))
        for distance in ("euclidean", "chebyshev"):
            sel = ThresholdSelector(features_1=f1, features_2=f2, k="cv", k_grid=grid, distance=distance,
                                    random_state=seed, training_thresholds=mode).fit(X, y)
            want = np.zeros(len(grid))
            for train, test in repeated_stratified_kfold(y, n_splits=5, n_repeats=1, seed=seed):
                for i, k in enumerate(grid):
                    inner = ThresholdSelector(features_1=f1, features_2=f2, k=k, distance=distance,
                                              random_state=seed, training_thresholds=mode)
                    assert set(y[train]) == set(y), "pick seeds whose folds hold every class"
                    inner.fit(X.iloc[train], y[train])
                    want[i] += np.sum(inner.predict(X.iloc[test]) == y[test])
            np.testing.assert_allclose(sel.cv_accuracy_["accuracy"], want / len(y))
            assert sel.k_ == grid[int(np.argmax(want))]


# ---------------------------------------------------------------- SFS
def test_sfs_scores_match_independent_naive_bayes():
    """1 and 2 repeats in one test: the first repeat's folds are the same, and each (subset, fold)'s
    reference hits are computed once (keyed by the subset and the fold's exact rows)."""
    X, y, *_ = random_selection_case(7, n_rows=(20, 20), n_features=(3, 3))
    classes = np.array(sorted(set(y)))
    reference: dict = {}

    def fold_hits(feats, tr, te):
        key = (tuple(feats), tuple(tr.tolist()), tuple(te.tolist()))
        if key not in reference:
            predicted = laplace_predict(X.iloc[tr][feats], y[tr], classes, X.iloc[te][feats])
            reference[key] = np.sum(predicted == y[te])
        return reference[key]

    for n_repeats in (1, 2):
        _check_sfs_scores(X, y, n_repeats, fold_hits)


def _check_sfs_scores(X, y, n_repeats, fold_hits):
    table = sequential_forward_selection(X, y, n_folds=4, n_repeats=n_repeats, seed=3)
    folds = list(repeated_stratified_kfold(y, n_splits=4, n_repeats=n_repeats, seed=3))
    assert len(folds) == 4 * n_repeats
    for _, row in table.iterrows():
        feats = list(row["features"])
        hits = sum(fold_hits(feats, tr, te) for tr, te in folds)
        # the share of right answers over all n_repeats * n test predictions
        assert row["accuracy"] == pytest.approx(hits / (n_repeats * len(y)))
        assert 0 <= row["accuracy"] <= 1
    # greedy: each kept subset is the best of its step and contains the previous one
    path = table[table["on_path"]]
    assert path["step"].tolist() == [1, 2, 3]
    for step, group in table.groupby("step"):
        assert group.loc[group["on_path"], "accuracy"].iloc[0] == group["accuracy"].max()
    kept = [set(f) for f in path["features"]]
    assert all(a < b for a, b in zip(kept, kept[1:]))


def test_sfs_on_balloons_gives_the_papers_two_subsets():
    """004 Example 1 / Table 1: C1 = features (1, 2, 3, 4), C2 = (1, 3, 4)."""
    frame = pd.read_csv(BALLOONS, dtype=str)
    y = frame.pop("inflated").to_numpy()
    best, second = best_two_subsets(sequential_forward_selection(frame, y))
    assert best == ("color", "size", "act", "age")
    assert second == ("color", "act", "age")
    sel = ThresholdSelector(k=3).fit(frame, y)        # no subsets given: SFS chooses them
    assert (sel.features_1_, sel.features_2_) == (list(best), list(second))


# ---------------------------------------------------------------- classes, inputs, errors
def test_three_classes_and_explanations():
    X, y, X_test, f1, f2 = random_selection_case(11, n_rows=(30, 30), n_features=(4, 4), n_classes=3)
    sel = ThresholdSelector(features_1=f1, features_2=f2, k=4, distance="chebyshev").fit(X, y)
    assert list(sel.classes_) == ["c0", "c1", "c2"]
    info = sel.explain(X_test)
    assert len(info) == len(X_test) and (info["n_neighbours"] >= 4).all()
    assert info["neighbours"].map(len).eq(info["n_neighbours"]).all()
    assert np.isfinite(info[["threshold_1", "threshold_2", "success_1", "success_2"]].to_numpy()).all()
    table = sel.training_table()
    assert set(table["outcome"]) <= {"both right", "only C1", "only C2", "neither"}
    assert np.isfinite(table[["threshold_1", "threshold_2"]].to_numpy()).all()


def test_positions_and_arrays_work_like_names():
    X, y, X_test, f1, f2 = random_selection_case(12)
    cols = list(X.columns)
    by_name = ThresholdSelector(features_1=f1, features_2=f2).fit(X, y)
    by_pos = ThresholdSelector(features_1=[cols.index(c) for c in f1],
                               features_2=[cols.index(c) for c in f2]).fit(X.to_numpy(), y)
    np.testing.assert_array_equal(by_name.predict(X_test), by_pos.predict(X_test.to_numpy()))


@pytest.mark.parametrize("kwargs, message", [
    ({"distance": "manhattan"}, "distance must be"),
    ({"k": 0}, "k must be"),
    ({"k": 2.5}, "k must be"),
    ({"k_grid": ()}, "k_grid"),
    ({"features_1": ["f0"]}, "give both"),
    ({"features_1": ["nope"], "features_2": ["f0"]}, "neither a column"),
    ({"features_1": [], "features_2": ["f0"]}, "empty"),
    ({"training_thresholds": "oob"}, "training_thresholds"),
    ({"random_state": -1}, r"random_state must be an int in the range \[0, inf\)"),
    ({"random_state": 1.5}, r"random_state must be an int in the range \[0, inf\)"),
    ({"random_state": None}, r"random_state must be an int in the range \[0, inf\)"),
])
def test_bad_parameters_raise_clear_errors(kwargs, message):
    X, y, *_ = random_selection_case(3)
    with pytest.raises(ValueError, match=message):
        ThresholdSelector(**kwargs).fit(X, y)


def test_one_class_and_wrong_columns():
    X, y, X_test, f1, f2 = random_selection_case(4)
    with pytest.raises(ValueError, match="one class"):
        ThresholdSelector(features_1=f1, features_2=f2).fit(X, np.full(len(y), "c0"))
    sel = ThresholdSelector(features_1=f1, features_2=f2).fit(X, y)
    with pytest.raises(ValueError, match="columns"):
        sel.predict(X_test.rename(columns=lambda c: c + "_x"))


def test_unseen_values_do_not_raise():
    X, y, X_test, f1, f2 = random_selection_case(5)
    X_test = X_test.copy()
    X_test[f1[0]] = "never-seen"
    info = ThresholdSelector(features_1=f1, features_2=f2).fit(X, y).explain(X_test)
    assert np.isfinite(info[["threshold_1", "threshold_2"]].to_numpy()).all()


def test_sklearn_estimator_checks():
    from tests.credal_core._sklearn_checks import assert_passes_sklearn_checks

    assert_passes_sklearn_checks(ThresholdSelector(features_1=[0], features_2=[1]))


# ---------------------------------------------------------------- every k in one pass
@pytest.mark.parametrize("distance", ["euclidean", "chebyshev"])
def test_explain_each_k_is_what_a_selector_fitted_with_that_k_explains(distance):
    ks = list(range(1, 31))
    checked = [1, 2, 3, 4, 6, 9, 13, 19, 25, 30]         # refitting for every k is slow: a spread sample
    for seed in range(cases(5)):
        X, y, X_test, f1, f2 = random_selection_case(300 + seed, n_rows=(8, 20), n_features=(2, 3))
        base = ThresholdSelector(features_1=f1, features_2=f2, k=1, distance=distance).fit(X, y)
        each = base.explain_each_k(X_test, ks)
        assert len(each) == len(ks)
        for k, got in zip(ks, each):
            if k not in checked:
                continue
            fresh = ThresholdSelector(features_1=f1, features_2=f2, k=k, distance=distance).fit(X, y)
            want = fresh.explain(X_test)
            pd.testing.assert_frame_equal(got, want)
            pd.testing.assert_frame_equal(base.explain(X_test, k=k), want)
        pd.testing.assert_frame_equal(base.explain(X_test), base.explain(X_test, k=1))


def test_explain_each_k_refuses_a_k_that_is_not_a_count():
    X, y, X_test, f1, f2 = random_selection_case(7, n_rows=(8, 12), n_features=(2, 3))
    sel = ThresholdSelector(features_1=f1, features_2=f2, k=2).fit(X, y)
    for bad in ([0], [2.5], [], [True]):
        with pytest.raises(ValueError, match="k must be whole numbers"):
            sel.explain_each_k(X_test, bad)


def test_the_selector_is_a_categorical_classifier_without_probabilities():
    """On the one base (issue 23): its fitted attributes and class rule, but no predict_proba (the
    Compare page scores no Brier loss for a selection)."""
    from credal_core._base import CategoricalClassifier
    X, y, X_test, f1, f2 = random_selection_case(5)
    sel = ThresholdSelector(features_1=f1, features_2=f2).fit(X, y, classes=sorted(set(y)) + ["never"])
    assert isinstance(sel, CategoricalClassifier)
    assert "never" in list(sel.classes_) and list(sel.classes_) == list(sel.classifier_1_.classes_)
    assert sel.n_features_in_ == X.shape[1]
    for name in ("predict_proba", "predict_log_proba", "joint_log_likelihood_codes"):
        assert not hasattr(sel, name)
