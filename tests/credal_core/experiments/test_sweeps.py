"""Sweeps: reproducible, parallel-invariant, refusing bad settings, with 000 Table 1's shape."""
import numpy as np
import pandas as pd
import pytest

from credal_core.experiments.evaluate import ClassifierGrid
from credal_core.experiments.paper_000 import PAPER_TABLE1, closest_pairs, determinacy_by_d, table1
from credal_core.experiments.sweeps import artificial_experiment, dataset_experiment, summarise
from credal_core.metrics import credal_scores

SMALL = dict(sample_sizes=(10, 30), n_theta=2, n_train=3, n_test=400, n_features=5,
             grid=ClassifierGrid(epsilons=(0.1, 0.3), alphas=(0.5, 0.9)))


def test_same_seed_same_table_and_other_seed_other_table():
    a = artificial_experiment(seed=3, **SMALL)
    b = artificial_experiment(seed=3, **SMALL)
    pd.testing.assert_frame_equal(a, b)
    c = artificial_experiment(seed=4, **SMALL)
    assert not a["determinacy"].equals(c["determinacy"])
    assert len(a) == 2 * 2 * 3 * (1 + 2 + 2)        # sizes × θ × training sets × settings


def test_local_cores_give_the_same_table_as_one_process():
    one = artificial_experiment(seed=5, n_jobs=1, **SMALL)
    two = artificial_experiment(seed=5, n_jobs=2, **SMALL)
    pd.testing.assert_frame_equal(one, two)


def test_progress_reports_every_task_and_a_raising_callback_cancels():
    seen = []
    artificial_experiment(progress=lambda done, total: seen.append((done, total)), **SMALL)
    assert seen == [(i, 4) for i in range(1, 5)]

    class Stop(Exception):
        pass

    def stop_after_first(done, total):
        raise Stop

    with pytest.raises(Stop):
        artificial_experiment(progress=stop_after_first, **SMALL)


@pytest.mark.parametrize("kwargs,message", [
    ({"sample_sizes": ()}, "at least one sample size"),
    ({"sample_sizes": (1, 10)}, "smaller than the number of classes"),
    ({"n_test": 0}, "n_test"),
    ({"n_theta": 0}, "n_theta"),
    ({"sample_sizes": (2.5,)}, "integer"),
])
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        artificial_experiment(**{**SMALL, **kwargs})


def test_reduced_table1_has_the_papers_shape():
    # 000 §5.1: "the determinacy of NCC steeply increases with d, unlike that of LNCC".
    # one process: starting worker processes is CPU no assertion here depends on (the parallel run's
    # equality with this one is test_local_cores_give_the_same_table_as_one_process)
    results = artificial_experiment(n_theta=6, n_train=4, n_test=2000, seed=11, n_jobs=1)
    fig5 = determinacy_by_d(results)
    ncc_rise = (fig5[100] - fig5[25])[fig5.index.str.startswith("NCC")]
    lncc_rise = (fig5[100] - fig5[25])[fig5.index.str.startswith("LNCC")]
    assert ncc_rise.min() > lncc_rise.max()
    for name, row in fig5.iterrows():
        if name.startswith("NCC"):
            assert row[25] < row[50] < row[100]
    # NCC_ε sets shrink as ε grows, LNCC_α sets as α grows: determinacy ordered within each d
    for d in (25, 50, 100):
        ncc = fig5.loc[[f"NCC_ε={e:g}" for e in (0.05, 0.15, 0.25, 0.35)], d].to_numpy()
        lncc = fig5.loc[[f"LNCC_α={a:g}" for a in (0.35, 0.55, 0.75, 0.95)], d].to_numpy()
        assert np.all(np.diff(ncc) >= 0) and np.all(np.diff(lncc) >= 0)
    # determinacy drop: the credal classifiers isolate instances hard for the NBC (Sgl-acc > NBC-I)
    summary = summarise(results)
    credal = summary[summary["classifier"] != "NBC"]
    assert np.all(credal["single_accuracy_mean"] > credal["nbc_i_mean"])
    table = table1(results)
    assert list(table["setting"]) == list(PAPER_TABLE1["setting"])
    assert table["paper Det"].tolist() == PAPER_TABLE1["Det"].tolist()
    pairs = closest_pairs(results)
    assert set(pairs["d"]) == {25, 50, 100} and np.all(pairs["gap"] >= 0)


def test_summarise_means_match_a_hand_computation():
    results = artificial_experiment(seed=2, **SMALL)
    summary = summarise(results)
    pick = results[(results["setting"] == "NCC_ε=0.1") & (results["d"] == 10)]
    row = summary[(summary["setting"] == "NCC_ε=0.1") & (summary["d"] == 10)].iloc[0]
    assert row["determinacy_mean"] == pytest.approx(pick["determinacy"].mean())
    assert row["determinacy_std"] == pytest.approx(pick["determinacy"].std(ddof=1))
    assert row["nbc_i_runs"] == pick["nbc_i"].notna().sum()
    assert row["single_accuracy_mean"] == pytest.approx(pick["single_accuracy"].dropna().mean())


def _weather():
    frame = pd.read_csv("sample_data/weather.csv")
    return frame.drop(columns="play"), frame["play"]


def test_dataset_experiment_cv_and_holdout():
    X, y = _weather()
    cv = dataset_experiment(X, y, protocol="cv", n_splits=2, n_repeats=3, seed=1,
                            grid=ClassifierGrid(epsilons=(0.0,), alphas=(0.75,)))
    assert cv["split"].nunique() == 6 and set(cv["setting"]) == {"NBC", "NCC_ε=0", "LNCC_α=0.75"}
    scores = cv[["determinacy", "discounted_accuracy", "u65", "u80"]].to_numpy()
    assert np.all((scores >= 0) & (scores <= 1))
    again = dataset_experiment(X, y, protocol="cv", n_splits=2, n_repeats=3, seed=1,
                               grid=ClassifierGrid(epsilons=(0.0,), alphas=(0.75,)))
    pd.testing.assert_frame_equal(cv, again)
    hold = dataset_experiment(X, y, protocol="holdout", n_repeats=4, sample_sizes=(4, 8), seed=2)
    assert set(hold["d"]) == {4, 8} and hold["split"].nunique() == 4


def test_dataset_experiment_equals_a_fold_by_fold_public_api_run():
    from credal_core import NCC
    from credal_core.resampling import repeated_stratified_kfold
    X, y = _weather()
    results = dataset_experiment(X, y, protocol="cv", n_splits=3, n_repeats=1, seed=8,
                                 grid=ClassifierGrid(epsilons=(0.2,), alphas=()))
    ncc = results[results["classifier"] == "NCC"].reset_index(drop=True)
    classes = np.unique(y)
    codes = np.unique(y.astype(str), return_inverse=True)[1]
    compared = 0
    for i, (train, test) in enumerate(repeated_stratified_kfold(codes, n_splits=3, n_repeats=1, seed=8)):
        model = NCC(epsilon=0.2).partial_fit(X.iloc[train], y.iloc[train], classes=classes)
        # declare every value of the file, as the engine does
        sets = model.predict_set(X.iloc[test])
        if all(len(np.unique(X.iloc[train][c])) == len(np.unique(X[c])) for c in X.columns):
            want = credal_scores(y.iloc[test], sets, model.classes_)
            assert ncc.loc[i, "determinacy"] == pytest.approx(want["determinacy"])
            assert ncc.loc[i, "discounted_accuracy"] == pytest.approx(want["discounted_accuracy"])
            compared += 1
    assert compared >= 1


@pytest.mark.parametrize("kwargs,message", [
    ({"protocol": "bootstrap"}, "protocol"),
    ({"sample_sizes": (500,)}, "exceeds the smallest training fold"),
    ({"sample_sizes": (1,)}, "smaller than the number of classes"),
    ({"sample_sizes": ()}, "at least one sample size"),
])
def test_bad_dataset_settings_are_refused(kwargs, message):
    X, y = _weather()
    with pytest.raises(ValueError, match=message):
        dataset_experiment(X, y, n_splits=2, n_repeats=1, **kwargs)


def test_whole_folds_of_unequal_size_form_one_curve_point():
    X, y = _weather()                                      # 14 rows, 5 folds: training folds of 11 or 12
    grid = ClassifierGrid(epsilons=(0.1,), alphas=())
    results = dataset_experiment(X, y, n_splits=5, n_repeats=2, grid=grid)
    assert results["d"].nunique() == 1 and set(results["n_train"]) == {11, 12}
    assert len(summarise(results)) == 2                    # NBC and NCC_ε=0.1: one row each
