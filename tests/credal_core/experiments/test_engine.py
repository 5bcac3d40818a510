"""The evaluation engine (:mod:`credal_core.experiments.engine`): splits, fold runs, the one aggregation rule.

Expected values are computed independently: by hand for :func:`summarise`, from the resampling
generators and plain numpy for :func:`make_splits` and :func:`run_folds`.
"""
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

from credal_core.experiments.engine import FoldTask, make_splits, run_folds, summarise
from credal_core.resampling import repeated_holdout, repeated_stratified_kfold

NAN = np.nan
Y = np.array(["a"] * 7 + ["b"] * 5 + ["c"] * 3)


# ---------------------------------------------------------------- summarise
@pytest.fixture
def frame():
    # LNCC rows have no s (NaN key); one fold of NBC; one undefined single accuracy (NaN)
    return pd.DataFrame([
        {"classifier": "NCC", "s": 1.0, "fold": 0, "acc": 0.50, "single": 0.9},
        {"classifier": "LNCC", "s": NAN, "fold": 0, "acc": 0.60, "single": NAN},
        {"classifier": "NCC", "s": 1.0, "fold": 1, "acc": 0.70, "single": 0.7},
        {"classifier": "NBC", "s": 2.0, "fold": 0, "acc": 0.80, "single": 0.8},
        {"classifier": "LNCC", "s": NAN, "fold": 1, "acc": 0.90, "single": 0.6},
        {"classifier": "NCC", "s": 1.0, "fold": 2, "acc": 0.90, "single": 0.8},
        {"classifier": "LNCC", "s": NAN, "fold": 2, "acc": 0.30, "single": 0.4},
    ])


def test_summarise_means_ddof1_sd_and_runs_by_hand(frame):
    out = summarise(frame, ["classifier", "s"], ["acc", "single"])
    assert list(out.columns) == ["classifier", "s", "acc_mean", "acc_std", "acc_runs", "single_mean",
                                 "single_std", "single_runs"]
    # groups in order of first appearance, the NaN key of the LNCC kept as its own group
    assert out["classifier"].tolist() == ["NCC", "LNCC", "NBC"]
    assert out["s"].iloc[0] == 1.0 and np.isnan(out["s"].iloc[1]) and out["s"].iloc[2] == 2.0
    # NCC acc 0.5, 0.7, 0.9: mean 0.7, squared deviations 0.04 + 0 + 0.04 over n - 1 = 2 -> sd 0.2
    # LNCC acc 0.6, 0.9, 0.3: mean 0.6, (0.09 + 0.09) / 2 -> sd 0.3; NBC: one fold, sd undefined
    np.testing.assert_allclose(out["acc_mean"], [0.7, 0.6, 0.8], atol=1e-15)
    np.testing.assert_allclose(out["acc_std"], [0.2, 0.3, NAN], atol=1e-15)
    assert out["acc_runs"].tolist() == [3, 3, 1]
    # LNCC single: fold 0 undefined, left out (not 0): mean of 0.6, 0.4 = 0.5, sd sqrt(0.02) over 2 folds
    np.testing.assert_allclose(out["single_mean"], [0.8, 0.5, 0.8], atol=1e-15)
    np.testing.assert_allclose(out["single_std"], [0.1, np.sqrt(0.02), NAN], atol=1e-15)
    assert out["single_runs"].tolist() == [3, 2, 1]


def test_summarise_ignores_keys_and_indicators_absent_from_the_results(frame):
    out = summarise(frame, ["classifier", "epsilon"], ["acc", "brier"])
    assert list(out.columns) == ["classifier", "acc_mean", "acc_std", "acc_runs"]
    np.testing.assert_allclose(out["acc_mean"], [0.7, 0.6, 0.8], atol=1e-15)


def test_summarise_of_a_single_group_is_the_sample_statistics():
    values = np.random.default_rng(3).random(11)
    out = summarise(pd.DataFrame({"g": "x", "v": values}), ["g"], ["v"])
    assert out["v_mean"].item() == pytest.approx(values.sum() / 11)
    assert out["v_std"].item() == pytest.approx(np.sqrt(((values - values.mean()) ** 2).sum() / 10))


# ---------------------------------------------------------------- make_splits
def test_cv_splits_are_the_seeded_folds_labelled_by_repeat_and_fold():
    splits = make_splits(Y, protocol="cv", n_splits=3, n_repeats=2, seed=4)
    pairs = list(repeated_stratified_kfold(Y, n_splits=3, n_repeats=2, seed=4))
    assert [(s.repeat, s.fold, s.index) for s in splits] == [(0, 0, 0), (0, 1, 1), (0, 2, 2),
                                                             (1, 0, 3), (1, 1, 4), (1, 2, 5)]
    for split, (train, test) in zip(splits, pairs, strict=True):
        np.testing.assert_array_equal(split.train, train)
        np.testing.assert_array_equal(split.test, test)
    for repeat in (0, 1):                       # each repeat's test folds partition the rows
        tests = np.concatenate([s.test for s in splits if s.repeat == repeat])
        np.testing.assert_array_equal(np.sort(tests), np.arange(Y.size))


def test_holdout_splits_are_one_fold_per_repeat():
    splits = make_splits(Y, protocol="holdout", n_repeats=4, test_size=0.3, stratify=False, seed=9)
    pairs = list(repeated_holdout(Y, n_repeats=4, test_size=0.3, stratify=False, seed=9))
    assert [(s.repeat, s.fold, s.index) for s in splits] == [(i, 0, i) for i in range(4)]
    for split, (train, test) in zip(splits, pairs, strict=True):
        np.testing.assert_array_equal(split.train, train)
        np.testing.assert_array_equal(split.test, test)
        assert np.intersect1d(split.train, split.test).size == 0
        assert split.train.size + split.test.size == Y.size


def test_make_splits_refuses_an_unknown_protocol():
    with pytest.raises(ValueError, match="protocol must be 'cv' or 'holdout'"):
        make_splits(Y, protocol="bootstrap")


# ---------------------------------------------------------------- run_folds
def _share_fold(task: FoldTask) -> list[dict]:
    """Two rows per split: the share of class "a" in the test part, and the sum of the test indices."""
    test = task.split.test
    return [{"what": "share", "value": float(np.mean(task.data[test] == task.settings))},
            {"what": "sum", "value": float(test.sum())}]


def _slow_first_fold(task: FoldTask) -> list[dict]:
    time.sleep(0.05 * (3 - task.split.index) if task.split.index < 3 else 0)   # early splits finish last
    return _share_fold(task)


def test_run_folds_gives_tidy_rows_in_split_order():
    splits = make_splits(Y, protocol="cv", n_splits=3, n_repeats=2, seed=1)
    seen = []
    out = run_folds(_share_fold, Y, splits, "a", n_jobs=1,
                    progress=lambda done, total: seen.append((done, total)))
    assert list(out.columns) == ["repeat", "fold", "split", "n_train", "n_test", "what", "value"]
    assert len(out) == 2 * len(splits) and seen == [(i, 6) for i in range(1, 7)]
    assert out["split"].tolist() == [i for i in range(6) for _ in range(2)]
    assert out["what"].tolist() == ["share", "sum"] * 6
    for (train, test), (repeat, fold) in zip(repeated_stratified_kfold(Y, n_splits=3, n_repeats=2, seed=1),
                                             [(r, f) for r in range(2) for f in range(3)]):
        rows = out[(out["repeat"] == repeat) & (out["fold"] == fold)]
        assert rows["n_train"].tolist() == [train.size] * 2 and rows["n_test"].tolist() == [test.size] * 2
        assert rows["value"].tolist() == pytest.approx([np.mean(Y[test] == "a"), test.sum()])


def test_run_folds_order_does_not_depend_on_completion_order():
    splits = make_splits(Y, protocol="holdout", n_repeats=5, seed=2)
    here = run_folds(_share_fold, Y, splits, "b", n_jobs=1)
    with ThreadPoolExecutor(max_workers=3) as pool:
        there = run_folds(_slow_first_fold, Y, splits, "b", scheduler=pool)
    pd.testing.assert_frame_equal(here, there)
    assert here["split"].tolist() == [i for i in range(5) for _ in range(2)]
