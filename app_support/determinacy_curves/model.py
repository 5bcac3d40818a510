"""Cached computations of the page "Determinacy curves" (000 §5.1, Fig. 5, Table 1), shared by all
sessions: one run per set of settings (keyed by the settings' JSON), its summaries, figures and tables
(built once per run: a class opening the page after the teacher's run builds nothing)."""
from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from app_support.data import load_sample
from app_support.determinacy_curves.figures import (
    INDICATOR_LABELS,
    determinacy_vs_d_figure,
    indicator_vs_parameter_figure,
    table1_view,
)
from app_support.figures import shared_figure
from app_support.jobs import queued_job
from credal_core.experiments import closest_pairs, summarise
from credal_core.experiments.determinacy import run_study

# the Table 1 view's percentages, one decimal (st.dataframe's column_config: no Styler built on every run)
TABLE1_FORMAT = {column: st.column_config.NumberColumn(format="%.1f")
                 for column in ("Det", "Sgl-acc", "D-acc", "NBC-I", "u65", "u80")}


@st.cache_data(show_spinner=False, max_entries=48)
def run_experiment(settings_json: str) -> pd.DataFrame:
    """Every run's indicators for one set of settings (the key is the settings' JSON), shared by all
    sessions; computed in the worker processes (app_support.jobs), with a progress bar.

    The bar is created and emptied inside this function: Streamlit replays a cached function's elements
    on a cache hit, and an emptied bar replays as nothing.
    """
    settings = json.loads(settings_json)
    X, y = load_sample(settings["data"]) if settings["source"] == "sample" else (None, None)
    with queued_job("run") as pool:
        bar = st.progress(0.0, text="Running the experiment…")
        try:
            results = run_study(settings, X, y, scheduler=pool, progress=lambda done, total: bar.progress(
                done / total, text=f"Running the experiment… {done} of {total} tasks"))
        finally:               # a refused setting or a Stop: no half-filled bar left behind
            bar.empty()
    return results


@st.cache_data(show_spinner=False, max_entries=48)
def summaries(settings_json: str, _results: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Summary and close pairs of the run with these settings (the settings are the key: the run's
    thousands of rows are not hashed on every rerun)."""
    return summarise(_results), closest_pairs(_results)


@st.cache_resource(show_spinner=False, max_entries=48)
def indicator_figures(settings_json: str, _summary: pd.DataFrame) -> dict:
    """The indicator-vs-ε/α figure of every indicator, built once per run and shared by all sessions
    (read only; plotly's dict of each computed once): choosing an indicator is a lookup."""
    return {indicator: shared_figure(indicator_vs_parameter_figure(_summary, indicator))
            for indicator in INDICATOR_LABELS}


@st.cache_resource(show_spinner=False, max_entries=48)
def results_view(settings_json: str, _summary: pd.DataFrame, _close: pd.DataFrame) -> dict:
    """What the page shows of one run, built once and shared by all sessions (read only): the figure
    against d, the Table 1 view, the closest pair per d and the naive Bayes accuracy per d."""
    closest = _close.drop_duplicates("d")[["d", "epsilon", "alpha", "NCC Det", "LNCC Det"]]
    nbc = _summary[_summary["classifier"] == "NBC"].sort_values("d")
    return {"d_figure": shared_figure(determinacy_vs_d_figure(_summary)),
            "table": table1_view(_summary, _close),
            "closest": list(closest.itertuples(index=False)),
            "nbc_accuracy": list(zip(nbc["d"], nbc["nbc_accuracy_mean"]))}
