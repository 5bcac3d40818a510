"""URL state and cached computations of the page "AODE compression weights" (paper 001).

Everything here depends on parameters only and is shared by all sessions: the models and tables of
one ε (cheap, computed on first use of that ε), the figures built from them, and the five-classifier
comparison, which runs through the evaluation engine in the server's worker processes
(:mod:`app_support.jobs`) and is cached by its parameters.  Under ``scripts/serve.sh`` the first view of a
data set also computes the views at every step of the ε slider in the background, nearest first
(:func:`eps_steps`, :func:`app_support.long_runs.warm_in_background`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.dataframe_util import convert_pandas_df_to_arrow_table, has_range_index

from app_support.aode_weights.figures import (
    compression_figure,
    fmt,
    posteriors_figure,
    text_table,
    weights_figure,
)
from app_support.cached_samples import cached_sample
from app_support.data import sample_names
from app_support.jobs import bar_progress, queued_job
from app_support.long_runs import warm_in_background
from app_support.url_state import Choice, Number, UrlState
from credal_core.aode import CredalBMAAODE, CredalCompAODE
from credal_core.aode.summary import instance_explanation, spode_table
from credal_core.experiments.compare import (
    DEFAULT_CLASSIFIERS,
    ClassifierSpec,
    compare_classifiers,
    summarise_comparison,
)

__all__ = ["AODE_FAMILY", "EPS_MIN", "EPS_MAX", "EPS_STEP", "EPS_GRID", "eps_steps", "url_state",
           "aode_specs", "sample_rows", "fitted", "weights_view", "instance_view", "comparison",
           "comparison_view"]

EPS_MIN, EPS_MAX, EPS_STEP, EPS_DEFAULT = 0.001, 0.1, 0.001, 0.01
EPS_GRID = tuple(round(EPS_STEP * k, 3) for k in range(1, round(EPS_MAX / EPS_STEP) + 1))   # slider steps
AODE_FAMILY = ("AODE", "BMA-AODE", "COMP-AODE", "BMA-AODE*", "COMP-AODE*")
SHOWN_INDICATORS = {"accuracy": "accuracy", "brier": "brier", "determinacy": "determinacy",
                    "single_accuracy": "single acc.", "set_accuracy": "set acc.",
                    "indeterminate_size": "indet. size", "discounted_accuracy": "disc. acc.",
                    "u65": "u65", "u80": "u80"}


# ---------------------------------------------------------------- URL state
DATA = Choice("data", tuple(sample_names()), "synthetic_nb")   # read first: n and row follow its rows


def url_state(n_rows: int) -> UrlState:
    """The page's query parameters; the bounds of ``n`` (training rows, default all) and ``row``
    follow the chosen data set's ``n_rows``."""
    return UrlState(
        DATA,
        Number("eps", EPS_DEFAULT, EPS_MIN, EPS_MAX, step=EPS_STEP),
        Number("n", n_rows, 4, n_rows, integer=True),
        Number("row", 0, 0, n_rows - 1, integer=True),
        Number("folds", 5, 2, 10, integer=True),
        Number("repeats", 2, 1, 10, integer=True),
    )


def aode_specs(epsilon: float) -> tuple[ClassifierSpec, ...]:
    """The five AODE-family classifiers of the comparison (the product's labels), with this ε where
    the classifier has one (AODE and BMA-AODE have none)."""
    specs = {s.label: s for s in DEFAULT_CLASSIFIERS}
    out = []
    for label in AODE_FAMILY:
        spec = specs[label]
        if "epsilon" in spec.make().get_params():
            spec = ClassifierSpec(label, spec.estimator, {**spec.params, "epsilon": float(epsilon)})
        out.append(spec)
    return tuple(out)


# ---------------------------------------------------------------- one ε: models, tables, figures
SPODE_COLUMNS = {"super_parent": "super-parent", "LL": "LL_j", "bma_posterior": "BMA posterior (unpruned)",
                 "bma_weight": "BMA weight", "pi_raw": "π_j raw", "pi_low": "π_j lower",
                 "pi_high": "π_j upper", "comp_weight": "COMP weight", "feasible": "feasible (π_j > 0)",
                 "credal_feasible": "credal-feasible (upper > 0)"}
PAIR_COLUMNS = {"a": "class a", "b": "class b", "bma_min_ratio": "BMA-AODE* min ratio",
                "bma_dominates": "a ≻ b (BMA*)", "comp_min_ratio": "COMP-AODE* min ratio",
                "comp_dominates": "a ≻ b (COMP*)", "comp_prior": "minimising prior (COMP*)"}


def _pair_cell(value) -> str:
    """A cell of the dominance table: a minimising prior (an array) as its values, else :func:`fmt`."""
    if isinstance(value, np.ndarray):
        return ", ".join(f"{v:.3f}" for v in value)
    return fmt(value)


def as_sent(frame: pd.DataFrame) -> dict:
    """What ``st.table(frame)`` sends, made once for a cached view: ``st.table(**as_sent(frame))`` then sends
    the same element without converting the frame on every rerun (the Arrow table Streamlit makes of it, and
    the index hidden when it is a default range, as Streamlit decides for a frame)."""
    return {"data": convert_pandas_df_to_arrow_table(frame), "hide_index": bool(has_range_index(frame))}


@st.cache_data(show_spinner=False)
def sample_rows(name: str) -> int:
    return len(cached_sample(name)[0])


@st.cache_data(show_spinner=False)
def training_rows(name: str, n_train: int):
    """A seeded subset of ``n_train`` rows (all rows when n_train is the data size)."""
    order = np.random.default_rng(0).permutation(sample_rows(name))
    return np.sort(order[:n_train])


@st.cache_resource(show_spinner=False, max_entries=64)
def _fitted_base(name: str, n_train: int) -> tuple[CredalBMAAODE, CredalCompAODE]:
    """Both models fitted on the chosen rows' own values (their ``fit`` encodes them, as everywhere) at
    ε = EPS_MIN; every other ε is moved from these (see :func:`fitted`).  The SPODE tables are counted
    once: COMP-AODE* is fitted, BMA-AODE* adopts its ``spodes_`` (``fit_spodes``: the same state as
    ``fit`` on the same rows, which a test checks)."""
    X, y = cached_sample(name)
    rows = training_rows(name, n_train)
    comp = CredalCompAODE(epsilon=EPS_MIN).fit(X.iloc[rows], y.iloc[rows])
    bma = CredalBMAAODE(epsilon=EPS_MIN)
    if bma.spode_settings() != comp.spode_settings():      # never with the defaults: count again
        return bma.fit(X.iloc[rows], y.iloc[rows]), comp
    return bma.fit_spodes(comp.spodes_), comp


@st.cache_resource(show_spinner=False, max_entries=256)
def fitted(name: str, n_train: int, epsilon: float) -> tuple[CredalBMAAODE, CredalCompAODE]:
    """CredalBMAAODE and CredalCompAODE fitted on the chosen rows (shared: never mutate them).

    ε enters neither the SPODE tables nor LL_j, LL_0 or BMA's weights: another ε is the models fitted
    once, moved to it by their own ``with_epsilon`` (the tables shared, the ε-dependent weights
    recomputed; equal to a fresh fit, which a test checks on the whole ε grid).  An ε too large for the
    credal sets raises ``fit``'s ValueError.
    """
    bma0, comp0 = _fitted_base(name, n_train)
    if epsilon == bma0.epsilon:
        return bma0, comp0                       # the base fit itself (shared and read only alike)
    return bma0.with_epsilon(epsilon), comp0.with_epsilon(epsilon)


@st.cache_resource(show_spinner=False, max_entries=512)
def weights_view(name: str, n_train: int, epsilon: float) -> dict:
    """Section 1 of one (data, n, ε), ready to show: the SPODE table (raw and as text), both
    figures, and the null model's log-likelihood.  Shared objects: read, never mutate."""
    warm_in_background(f"aode_weights {name} {n_train}", lambda: eps_steps(name, n_train, epsilon, 0))
    bma, comp = fitted(name, n_train, epsilon)
    table = spode_table(bma, comp)
    text = text_table(table, SPODE_COLUMNS)
    return {"table": table, "text": text, "text_shown": as_sent(text), "weights": weights_figure(table),
            "compression": compression_figure(table), "null_ll": float(comp.null_log_likelihood_)}


@st.cache_resource(show_spinner=False, max_entries=1024)
def _instance_parts(name: str, n_train: int, row: int) -> dict:
    """What section 2 shows of one instance whatever ε is: its text, its true class, BMA-AODE's
    prediction (its weights do not depend on ε) and the SPODE posteriors' figure."""
    X, y = cached_sample(name)
    bma, comp = _fitted_base(name, n_train)
    x = X.iloc[[row]]
    proba = bma.predict_proba(x)[0]
    posteriors = comp.spode_posteriors(x)[0]
    frame = pd.DataFrame(np.where(np.isnan(posteriors), 0.0, posteriors),
                         index=[str(f) for f in comp.tables_.feature_names],
                         columns=[str(c) for c in comp.classes_])
    return {"instance": ", ".join(f"`{c}` = `{v}`" for c, v in X.iloc[row].items()),
            "truth": str(y.iloc[row]), "posteriors": posteriors_figure(frame, {}),
            "bma": (str(bma.classes_[proba.argmax()]), float(proba.max()))}


@st.cache_resource(show_spinner=False, max_entries=1024)
def instance_view(name: str, n_train: int, epsilon: float, row: int) -> dict:
    """Section 2 of one instance: the dominance tests (as text), the SPODE posteriors' figure, both
    credal sets and both precise predictions with their probability."""
    X, _ = cached_sample(name)
    bma, comp = fitted(name, n_train, epsilon)
    x = X.iloc[[row]]                       # one row of text values: the models encode it
    info = instance_explanation(bma, comp, x)
    proba_comp = comp.predict_proba(x)[0]
    parts = _instance_parts(name, n_train, row)
    pairs = text_table(info["pairs"], PAIR_COLUMNS, _pair_cell)
    return {"instance": parts["instance"], "truth": parts["truth"], "pairs": pairs,
            "pairs_shown": as_sent(pairs),
            "posteriors": parts["posteriors"], "bma_set": info["bma_set"], "comp_set": info["comp_set"],
            "bma": parts["bma"],
            "comp": (str(comp.classes_[proba_comp.argmax()]), float(proba_comp.max()))}


def eps_steps(name: str, n_train: int, epsilon: float, row: int) -> list:
    """A move of the ε slider, at every step of :data:`EPS_GRID` nearest first from ``epsilon``: calls of
    :func:`weights_view` and :func:`instance_view` (an ε too large for the data's credal sets is
    skipped, as the page then says)."""
    def step(eps: float):
        def compute():
            try:
                weights_view(name, n_train, eps)
                instance_view(name, n_train, eps, row)
            except ValueError:
                pass
        return compute
    nearest = sorted(EPS_GRID, key=lambda e: (round(abs(e - epsilon), 9), e))     # ties: the lower first
    return [step(eps) for eps in nearest if eps != epsilon]


# ---------------------------------------------------------------- the comparison (a long run)
@st.cache_data(show_spinner=False, max_entries=256)
def comparison(name: str, epsilon: float, folds: int, repeats: int) -> pd.DataFrame:
    """Mean over folds and sd of every indicator of the five classifiers (``summarise_comparison``),
    under ``repeats`` × stratified ``folds``-fold CV of the whole data set, seed 0; shared by all
    sessions, computed once per parameters (a second session asking meanwhile waits for it).

    Runs in the worker processes after a place in the shared queue.  The progress bar (and the
    queue's message) are created and emptied inside: a cached function's elements are replayed on a
    cache hit, and an emptied element replays as nothing.
    """
    X, y = cached_sample(name)
    with queued_job("comparison") as pool:
        bar = st.progress(0.0, text="Cross-validating…")
        try:
            results = compare_classifiers(X, y, specs=aode_specs(epsilon), n_splits=folds, n_repeats=repeats,
                                          seed=0, scheduler=pool,
                                          progress=bar_progress(bar, "Cross-validating", "folds"))
        finally:
            bar.empty()
    return summarise_comparison(results)


def comparison_view(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary as text cells "mean ± sd" (— where no fold defines the indicator)."""
    out = {"classifier": summary["classifier"].tolist()}
    for key, label in SHOWN_INDICATORS.items():
        out[label] = [_mean_sd(m, s) for m, s in zip(summary[f"{key}_mean"], summary[f"{key}_std"])]
    out["folds"] = summary["folds"].astype(int).tolist()
    return pd.DataFrame(out)


def _mean_sd(mean: float, sd: float) -> str:
    if pd.isna(mean):
        return "—"
    return f"{mean:.3f}" if pd.isna(sd) else f"{mean:.3f} ± {sd:.3f}"


def default_warm() -> tuple[str, list]:
    """(key, steps): the page's first view (its URL state's defaults) and then every step of its ε
    slider, nearest first (:func:`eps_steps`); the key is the one :func:`weights_view` starts its own
    warm with, so that a warm started ahead is not started again."""
    name = DATA.default
    values = url_state(sample_rows(name)).defaults()
    n_train, epsilon, row = int(values["n"]), float(values["eps"]), int(values["row"])

    def first_view():
        weights_view(name, n_train, epsilon)
        instance_view(name, n_train, epsilon, row)
    return f"aode_weights {name} {n_train}", [first_view, *eps_steps(name, n_train, epsilon, row)]
