"""Cached computations of the page "Compare on your data" (streamlit caching around credal_core).

An upload is read by the shared :func:`app_support.uploads.load_table`."""
from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from app_support.jobs import bar_progress, queued_job
from app_support.text import cite_chart
from credal_core.cli.classifiers import ALIASES
from credal_core.data.csv_loader import neutralise_formulas
from credal_core.experiments.compare import (
    DEFAULT_CLASSIFIERS,
    ClassifierSpec,
    available_classifiers,
    compare_classifiers,
)
from credal_core.plots.critical_difference import critical_difference_figure
from credal_core.plots.paper_001 import FIG7_CLASSIFIERS, fig5_frame, fig6_frame, fig7_figures  # noqa: F401
from credal_core.reject_cv import D_GRID, reject_cross_validation
from credal_core.stats import across_datasets
from credal_core.stats_bayesian import correlated_t_tests, signed_rank_test, signed_rank_tests

# Classifiers offered but not compared by default: the conformal baselines (issue 28), the LTANC and
# the precise counterparts of CMA and CDT (the command line's aliases, so the labels line up)
OPTIONAL_ALIASES = ("conformal-nbc", "mondrian-nbc", "conformal-aode", "mondrian-aode", "ltanc", "bma-naive",
                    "tree")
OPTIONAL_CLASSIFIERS = tuple(available_classifiers([ALIASES[a].spec() for a in OPTIONAL_ALIASES]))
DEFAULT_LABELS = tuple(spec.label for spec in available_classifiers(DEFAULT_CLASSIFIERS))
ALL_CLASSIFIERS = tuple(available_classifiers(DEFAULT_CLASSIFIERS)) + OPTIONAL_CLASSIFIERS
# Matched determinacy: the credal classifier whose determinacy the conformal sets match (an alias)
MATCH_CHOICES = {"none": "no (fixed significance)", "ncc": "NCC", "cma": "CMA", "cdt": "CDT",
                 "comp-aode*": "COMP-AODE*", "bma-aode*": "BMA-AODE*"}
# the classifiers with exact lower posteriors for the reject option (001 §3.5)
REJECT_CLASSIFIERS = ("NCC", "CMA", "BMA-AODE*", "COMP-AODE*", "CDT")
S_ESTIMATORS = ("NCC", "NaiveBayes", "CMA", "CredalDecisionTree", "BMANaive", "InfoGainTree")


def specs(labels: list[str], s: float, eps: float, alpha: float, *, significance: float = 0.1,
          match: str = "none") -> tuple[ClassifierSpec, ...]:
    """The chosen classifiers with this page's parameters: s for the NBC / NCCs and the s-parametrised
    CMA, CDT and their precise counterparts, ε for NCC_ε, α for the LNCC and the LTANC; the conformal
    sets' significance, or the credal classifier whose determinacy they match (``match``, an alias)."""
    out = []
    for spec in ALL_CLASSIFIERS:
        if spec.label in labels:
            params = dict(spec.params)
            if spec.estimator in S_ESTIMATORS:
                params["s"] = s
            if spec.label.startswith("NCC_ε"):
                params["epsilon"] = eps
            if spec.estimator in ("LNCC", "LTANC"):
                params["alpha"] = alpha
            if spec.estimator.endswith(":ConformalClassifier"):
                params["significance"] = significance
                if match != "none":
                    params["match"] = match
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
                                                            settings["alpha"], **_conformal(settings)),
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


def _conformal(settings: dict) -> dict:
    return {"significance": float(settings.get("signif", 0.1)), "match": settings.get("match", "none")}


@st.cache_data(show_spinner=False, max_entries=64)
def bayesian_tests(results_key: str, indicator: str, rope: float, n_folds: int, *, _scores: pd.DataFrame,
                   _folds: pd.DataFrame) -> dict:
    """The Bayesian tests (``credal_core.stats_bayesian``) on one indicator: ``signed_rank`` across the
    data sets (one row per pair of ``_scores``' columns) and ``correlated_t`` per data set (from the
    per-fold rows ``_folds``, ρ = 1/k); shared by all sessions under ``results_key``."""
    across = (signed_rank_tests(_scores, rope=rope) if _scores.shape[0] >= 2 and _scores.shape[1] >= 2
              else None)
    return {"signed_rank": across,
            "correlated_t": correlated_t_tests(_folds, indicator, n_folds=n_folds, rope=rope)}


@st.cache_data(show_spinner=False, max_entries=256)
def signed_rank_sample(results_key: str, indicator: str, rope: float, a: str, b: str, *,
                       _scores: pd.DataFrame):
    """The posterior draws (n × 3: left, rope, right) of the signed-rank test of ``a`` against ``b``."""
    return signed_rank_test(_scores[a].to_numpy(float), _scores[b].to_numpy(float), rope=rope).sample


@st.cache_resource(show_spinner=False, max_entries=64)
def fig7_views(results_key: str, *, _summaries: dict) -> dict:
    """001 Fig. 7 (:func:`credal_core.plots.paper_001.fig7_figures`) under u65 and u80, titles linking
    the paper; shared by all sessions under ``results_key`` (None where it cannot be drawn)."""
    views = fig7_figures(_summaries, title=lambda indicator, cd: cite_chart(
        f"001 Fig. 7 · {indicator}: average ranks; CD = {cd:.2f}"))
    return {k: None if v is None else v[0] for k, v in views.items()}


@st.cache_data(show_spinner=False, max_entries=64)
def reject_table(data_key: str, _X: pd.DataFrame, _y: pd.Series, numeric: tuple, non_mar: tuple,
                 settings_json: str, title: str = "") -> pd.DataFrame:
    """The reject option (001 §3.5) under the page's protocol
    (:func:`credal_core.reject_cv.reject_cross_validation` over :data:`D_GRID`): per fold every
    chosen classifier of :data:`REJECT_CLASSIFIERS` is fitted on the prepared training rows and
    scored on the test rows; the mean over folds per (classifier, d, precise / credal).  A classifier
    refusing a fold is left out of that fold (e.g. COMP-AODE* where its lower posterior is not available;
    the NCC's is exact on any number of classes, missing values included: see
    ``credal_core._ncc_lower_split``).  The folds
    run in the worker processes behind the shared queue, like the comparison: Stop cancels the folds
    not started."""
    settings = json.loads(settings_json)
    chosen = [spec for spec in specs(settings["clf"], settings["s"], settings["eps"], settings["alpha"])
              if spec.label in REJECT_CLASSIFIERS]
    if not chosen:
        return pd.DataFrame(columns=["model", "d", "classifier", "cost", "rejected", "error", "folds"])
    with queued_job("reject-option run") as pool:
        bar = st.progress(0.0, text=f"{title}: reject option…")
        try:
            return reject_cross_validation(
                _X, _y, specs=chosen, numeric=list(numeric), discretiser=settings["disc"],
                n_bins=settings["bins"], missing=settings["missing"], non_mar=list(non_mar),
                n_splits=settings["folds"], n_repeats=settings["repeats"], seed=settings["seed"],
                d_grid=D_GRID, scheduler=pool, progress=bar_progress(bar, f"{title}: reject option", "folds"))
        finally:               # a Stop: no half-filled bar left behind
            bar.empty()
