"""Cached computations of the page "Compare on your data" (streamlit caching around credal_core).

An upload is read by the shared :func:`app_support.uploads.load_table`."""
from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from app_support.compare.critical_difference import critical_difference_figure
from app_support.jobs import queued_job
from credal_core.data.csv_loader import neutralise_formulas
from credal_core.experiments.compare import ClassifierSpec, available_classifiers, compare_classifiers
from credal_core.stats import across_datasets


def specs(labels: list[str], s: float, eps: float, alpha: float) -> tuple[ClassifierSpec, ...]:
    """The chosen classifiers with this page's parameters (s for the NCCs, ε for NCC_ε, α for LNCC)."""
    out = []
    for spec in available_classifiers():
        if spec.label in labels:
            params = dict(spec.params)
            if spec.estimator in ("NCC", "NaiveBayes"):
                params["s"] = s
            if spec.label.startswith("NCC_ε"):
                params["epsilon"] = eps
            if spec.estimator == "LNCC":
                params["alpha"] = alpha
            out.append(ClassifierSpec(spec.label, spec.estimator, params))
    return tuple(out)


@st.cache_data(show_spinner=False, max_entries=64)
def run_comparison(data_key: str, _X: pd.DataFrame, _y: pd.Series, numeric: tuple, non_mar: tuple,
                   settings_json: str, title: str) -> pd.DataFrame:
    """Per-fold indicators of every chosen classifier on one data set, shared by all sessions and computed
    in the worker processes (app_support.jobs); ``data_key`` names the file and the columns taken, so the
    table (``_X``, ``_y``) is not hashed on every rerun.  The bar lives and dies in here: a cache hit
    replays nothing."""
    settings = json.loads(settings_json)
    with queued_job("comparison") as pool:
        bar = st.progress(0.0, text=f"{title}: cross-validating…")
        try:
            return compare_classifiers(
                _X, _y, numeric=list(numeric), specs=specs(settings["clf"], settings["s"], settings["eps"],
                                                            settings["alpha"]),
                n_splits=settings["folds"], n_repeats=settings["repeats"], discretiser=settings["disc"],
                n_bins=settings["bins"], missing=settings["missing"], non_mar=list(non_mar),
                seed=settings["seed"], scheduler=pool,
                progress=lambda done, total: bar.progress(done / total,
                                                          text=f"{title}: fold {done} of {total}"))
        finally:               # a refused data set or a Stop: no half-filled bar left behind
            bar.empty()


def csv_bytes(frame: pd.DataFrame) -> bytes:
    return neutralise_formulas(frame).to_csv(index=False).encode("utf-8")


def results_key(protocol: str, prepared: list[tuple]) -> str:
    """What section 4's results depend on: the protocol and, per data set (``prepared`` rows: title,
    key, X, y, numeric columns, non-MAR columns, columns taken), everything ``run_comparison`` is
    keyed on. ``across_views`` is shared by all sessions under this key."""
    return json.dumps([protocol, [(title, f"{key}|{selection}", list(numeric), list(non_mar))
                                  for title, key, _, _, numeric, non_mar, selection in prepared]],
                      ensure_ascii=False)


@st.cache_resource(show_spinner=False, max_entries=64)
def across_views(results_key: str, indicators: tuple[str, ...], *, _summaries: dict) -> dict:
    """Section 4 of the page for every indicator of ``indicators``, computed once per set of results and
    shared by all sessions (``results_key`` names the protocol and the data sets that ``_summaries``,
    data set → ``summarise_comparison`` table, come from): choosing another indicator is a lookup.

    Per indicator: ``result`` (``across_datasets``) and, when the tests ran, ``scores`` (in percent, one
    decimal), the critical-difference ``figure`` and the CSVs ``scores_csv`` and ``pairs_csv``.
    """
    views = {}
    for indicator in indicators:
        result = across_datasets(_summaries, indicator)
        view = {"result": result}
        if result.friedman is not None:
            view.update(scores=(100 * result.scores).round(1),
                        figure=critical_difference_figure(result.friedman.average_ranks,
                                                          result.critical_difference),
                        scores_csv=csv_bytes(result.scores.reset_index(names="dataset")),
                        pairs_csv=csv_bytes(result.pairs))
        views[indicator] = view
    return views
