"""Cached computations of the page "Determinacy curves" (000 §5.1, Fig. 5, Table 1), shared by all
sessions: one run per set of settings (keyed by the settings' JSON), its summaries, figures and tables
(built once per run: a class opening the page after the teacher's run builds nothing)."""
from __future__ import annotations

import functools
import json
import threading

import pandas as pd
import pyarrow as pa
import streamlit as st
from streamlit.dataframe_util import convert_pandas_df_to_arrow_table

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
from credal_core.experiments.paper_000 import PAPER_TABLE1

# the Table 1 view's percentages, one decimal (st.dataframe's column_config: no Styler built on every run)
TABLE1_FORMAT = {column: st.column_config.NumberColumn(format="%.1f")
                 for column in ("Det", "Sgl-acc", "D-acc", "NBC-I", "u65", "u80")}


@st.cache_data(show_spinner=False, max_entries=48)
def _computed_run(settings_json: str) -> pd.DataFrame:
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


MAX_RUNS = 48          # runs kept (each cache below)
_FINISHED: dict[str, pd.DataFrame] = {}
_FINISHED_LOCK = threading.Lock()


RUN_PLACEHOLDERS = 2   # what a run leaves on the page: the queue's message and the bar, both emptied


def run_experiment(settings_json: str) -> pd.DataFrame:
    """Every run's indicators for one set of settings (:func:`_computed_run`), kept once finished and
    shared by every session (read only): a rerun then neither copies the run's rows out of
    ``st.cache_data`` nor replays the run's elements — it writes the same :data:`RUN_PLACEHOLDERS` empty
    placeholders the replay wrote. ``run_experiment.clear()`` forgets every run."""
    with _FINISHED_LOCK:
        done = _FINISHED.get(settings_json)
    if done is not None:
        for _ in range(RUN_PLACEHOLDERS):
            st.empty()
        return done
    results = _computed_run(settings_json)
    with _FINISHED_LOCK:
        _FINISHED[settings_json] = results
        while len(_FINISHED) > MAX_RUNS:
            _FINISHED.pop(next(iter(_FINISHED)))
    return results


def _clear() -> None:
    with _FINISHED_LOCK:
        _FINISHED.clear()
    _computed_run.clear()


run_experiment.clear = _clear


@st.cache_resource(show_spinner=False, max_entries=MAX_RUNS)
def summaries(settings_json: str, _results: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Summary and close pairs of the run with these settings (the settings are the key: the run's
    thousands of rows are not hashed on every rerun), shared by every session (read only)."""
    return summarise(_results), closest_pairs(_results)


def arrow_table(frame: pd.DataFrame) -> pa.Table:
    """``frame`` as the Arrow table ``st.dataframe`` makes of it (Streamlit's own conversion), made once:
    the page then sends the same bytes without converting the frame on every rerun."""
    return convert_pandas_df_to_arrow_table(frame)


@functools.cache
def paper_table1_arrow() -> pa.Table:
    """The paper's printed Table 1 (``PAPER_TABLE1``) as ``st.dataframe`` sends it, made once."""
    return arrow_table(PAPER_TABLE1)


@st.cache_resource(show_spinner=False, max_entries=48)
def indicator_figures(settings_json: str, _summary: pd.DataFrame) -> dict:
    """The indicator-vs-ε/α figure of every indicator, built once per run and shared by all sessions
    (read only; plotly's dict of each computed once): choosing an indicator is a lookup."""
    return {indicator: shared_figure(indicator_vs_parameter_figure(_summary, indicator))
            for indicator in INDICATOR_LABELS}


@st.cache_resource(show_spinner=False, max_entries=48)
def results_view(settings_json: str, _summary: pd.DataFrame, _close: pd.DataFrame) -> dict:
    """What the page shows of one run, built once and shared by all sessions (read only): the figure
    against d, the Table 1 view (and as ``st.dataframe`` sends it), the closest pair per d and the naive
    Bayes accuracy per d."""
    closest = _close.drop_duplicates("d")[["d", "epsilon", "alpha", "NCC Det", "LNCC Det"]]
    nbc = _summary[_summary["classifier"] == "NBC"].sort_values("d")
    table = table1_view(_summary, _close)
    return {"d_figure": shared_figure(determinacy_vs_d_figure(_summary)),
            "table": table, "table_arrow": arrow_table(table),
            "closest": list(closest.itertuples(index=False)),
            "nbc_accuracy": list(zip(nbc["d"], nbc["nbc_accuracy_mean"]))}
