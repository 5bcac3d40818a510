"""The Determinacy page's core call (:mod:`credal_core.experiments.determinacy`): parsing, refusals, run."""
from pathlib import Path

import pandas as pd
import pytest

from credal_core.experiments.determinacy import (
    MAX_SIZE,
    MAX_TRAINING_SETS,
    check_settings,
    parse_sizes,
    run_study,
)
from credal_core.experiments.evaluate import ClassifierGrid
from credal_core.experiments.sweeps import artificial_experiment, dataset_experiment

WEATHER = Path(__file__).resolve().parents[3] / "sample_data" / "weather.csv"
ARTIFICIAL = {"source": "artificial", "m": 4, "classes": 2, "theta": 2, "train": 3, "test": 60,
              "sizes": "20, 10", "eps": (0.1, 0.3), "alpha": (0.5, 0.9), "s": 1.0, "inst": True, "seed": 3}
SAMPLE = {"source": "sample", "protocol": "cv", "folds": 3, "repeats": 2, "dsizes": "", "eps": (0.2,),
          "alpha": (0.7,), "s": 2.0, "inst": False, "seed": 1}


@pytest.mark.parametrize("text,sizes", [("25, 50; 100", (25, 50, 100)), ("100,25 ,25", (25, 100)), ("", ()),
                                        (" 7 ", (7,)), ("1,2,3,4,5,6,7,8", tuple(range(1, 9)))])
def test_parse_sizes(text, sizes):
    assert parse_sizes(text, "Sizes") == sizes


@pytest.mark.parametrize("text,message", [("25, x", "Sizes must be whole numbers"), ("2.5", "whole numbers"),
                                          ("1,2,3,4,5,6,7,8,9", "at most 8"), ("0, 5", "must be positive"),
                                          ("5001", "above 5,000")])
def test_parse_sizes_refuses(text, message):
    with pytest.raises(ValueError, match=message):
        parse_sizes(text, "Sizes")


@pytest.mark.parametrize("change,message", [
    ({"sizes": " "}, "at least one sample size"),
    ({"sizes": "1, 10"}, r"d=1 is smaller than the number of classes \(2\)"),
    ({"test": 0}, "at least one instance"),
    ({"theta": 25, "train": 25, "sizes": "25, 50, 100"}, "1,875 training sets of up to 100 rows"),
    ({"sizes": f"{MAX_SIZE + 1}"}, f"up to {MAX_SIZE + 1:,} rows"),
    ({"eps": (), "alpha": ()}, "the grid is empty"),
    ({"alpha": (1.5,)}, "alpha"),
])
def test_check_settings_refuses_in_words(change, message):
    with pytest.raises(ValueError, match=message):
        check_settings({**ARTIFICIAL, **change})


def test_check_settings_accepts_000s_full_protocol_and_a_sample():
    # 000 §5.1: 20 θ × 30 training sets × 3 sizes = 1,800, the largest run the page allows
    assert 20 * 30 * 3 == MAX_TRAINING_SETS
    check_settings({**ARTIFICIAL, "theta": 20, "train": 30, "sizes": "25, 50, 100"})
    check_settings({**ARTIFICIAL, "sizes": f"{MAX_SIZE}"})
    check_settings(SAMPLE)
    with pytest.raises(ValueError, match="Training sizes must be whole numbers"):
        check_settings({**SAMPLE, "dsizes": "ten"})


def test_run_study_artificial_is_the_sweep_with_the_pages_settings():
    runs = run_study(ARTIFICIAL)
    grid = ClassifierGrid(epsilons=(0.1, 0.3), alphas=(0.5, 0.9), s_values=(1.0,), include_instance=True)
    want = artificial_experiment(sample_sizes=(10, 20), n_theta=2, n_train=3, n_test=60, n_features=4,
                                 n_classes=2, grid=grid, seed=3)
    pd.testing.assert_frame_equal(runs, want)
    assert len(runs) == 2 * 2 * 3 * (1 + 2 + 2)          # sizes × θ × training sets × settings
    assert sorted(runs["d"].unique()) == [10, 20]
    with pytest.raises(ValueError, match="the test set needs"):       # checked before any work
        run_study({**ARTIFICIAL, "test": 0})


def test_run_study_sample_is_the_sweep_on_the_data_set():
    frame = pd.read_csv(WEATHER, dtype=str)
    y = frame.pop(frame.columns[-1]).to_numpy()
    runs = run_study(SAMPLE, frame, y)
    grid = ClassifierGrid(epsilons=(0.2,), alphas=(0.7,), s_values=(2.0,), include_instance=False)
    pd.testing.assert_frame_equal(runs, dataset_experiment(frame, y, protocol="cv", n_splits=3, n_repeats=2,
                                                           sample_sizes=None, grid=grid, seed=1))
    assert len(runs) == 3 * 2 * 3 and runs["split"].nunique() == 6        # folds × repeats × settings
    assert set(runs["s"].dropna()) == {2.0}
