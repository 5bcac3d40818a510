"""Cached computations of the page "Classifier selection" (004); arguments are plain hashable values."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from app_support.cached_samples import cached_sample
from credal_core.experiments.paper_004 import accuracy_vs_k, comparison_table
from credal_core.resampling import repeated_holdout
from credal_core.selection.threshold import ThresholdSelector, best_two_subsets, sequential_forward_selection

# the samples of app_support.data this page offers (004's Balloons and TIC, and two of ours)
DATASETS = ("balloons", "weather", "synthetic_nb", "tic_tac_toe")
_SQUARES = ("top_left", "top_middle", "top_right", "middle_left", "middle_middle", "middle_right",
            "bottom_left", "bottom_middle", "bottom_right")
# 004 Table 1, 1-based feature numbers in UCI order: Balloons (1,2,3,4) / (1,3,4); TIC (1,5,7,8) / (1,2,5,7,8)
PAPER_SUBSETS = {
    "balloons": (("color", "size", "act", "age"), ("color", "act", "age")),
    "tic_tac_toe": (tuple(_SQUARES[i - 1] for i in (1, 5, 7, 8)),
                    tuple(_SQUARES[i - 1] for i in (1, 2, 5, 7, 8))),
}
PAPER_NAMES = {"balloons": "Balloons", "tic_tac_toe": "TIC"}     # keys of 004 Table 2


def load_dataset(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    if name not in DATASETS:
        raise ValueError(f"unknown data set {name!r}; choose one of {list(DATASETS)}")
    X, y = cached_sample(name)
    return X, np.asarray(y)


@st.cache_data(show_spinner="Sequential forward selection…")
def sfs_subsets(name: str) -> tuple[tuple, tuple, pd.DataFrame]:
    """The best and second-best subsets found by SFS on the whole data set (as 004 did)."""
    X, y = load_dataset(name)
    table = sequential_forward_selection(X, y)
    best, second = best_two_subsets(table)
    return best, second, table


@st.cache_data(show_spinner=False)
def split(name: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One random 70/30 split (004 Example 1), seeded."""
    _, y = load_dataset(name)
    return next(repeated_holdout(y, n_repeats=1, test_size=0.3, stratify=False, seed=seed))


@st.cache_resource(show_spinner=False, max_entries=64)
def fitted_selector(name: str, f1: tuple, f2: tuple, seed: int, k: int, distance: str,
                    training_thresholds: str) -> ThresholdSelector:
    """The selector learned on the training part of split ``seed`` (shared: never mutate it)."""
    X, y = load_dataset(name)
    train, _ = split(name, seed)
    return ThresholdSelector(features_1=list(f1), features_2=list(f2), k=k, distance=distance,
                             training_thresholds=training_thresholds).fit(X.iloc[train], y[train])


@st.cache_data(show_spinner="Running the 70/30 splits…", max_entries=32)
def accuracy_curve(name: str, f1: tuple, f2: tuple, n_repeats: int, training_thresholds: str) -> pd.DataFrame:
    X, y = load_dataset(name)
    return accuracy_vs_k(X, y, features_1=list(f1), features_2=list(f2), n_repeats=n_repeats,
                         training_thresholds=training_thresholds)


@st.cache_data(show_spinner="Running the splits with k chosen by cross-validation…", max_entries=16)
def table2(name: str, f1: tuple, f2: tuple, n_repeats: int, training_thresholds: str) -> pd.DataFrame:
    X, y = load_dataset(name)
    label = PAPER_NAMES[name] if name in PAPER_SUBSETS and (f1, f2) == PAPER_SUBSETS[name] else name
    return comparison_table({label: (X, y, list(f1), list(f2))}, n_repeats=n_repeats,
                            training_thresholds=training_thresholds)
