"""Cached computations of the Home page's live example, shared by all sessions."""
from __future__ import annotations

import streamlit as st

from app_support.cached_samples import cached_sample
from app_support.home.figures import set_size_bar
from credal_core.experiments.holdout_example import holdout_example

SAMPLE = "synthetic_nb"
N_TRAIN = 200  # train on the first 200 rows, test on the last 100
S_GRID = tuple(round(0.1 * k, 1) for k in range(1, 101))     # every value of the slider


@st.cache_resource(show_spinner=False)
def live_example() -> dict[float, dict]:
    """:func:`credal_core.experiments.holdout_example.holdout_example` on ``SAMPLE`` at every s of the
    slider, computed once for all sessions (read only: never mutate)."""
    X, y = cached_sample(SAMPLE)
    return holdout_example(X, y, N_TRAIN, S_GRID)


@st.cache_resource(show_spinner=False, max_entries=len(S_GRID))
def set_size_figure(s: float):
    """The bar chart at ``s``, built once and shared (read only)."""
    view = live_example()[s]
    return set_size_bar(view["sets"], view["contains_truth"],
                        title=f"Size of the NCC set on each of the {len(view['sets'])} test instances")
