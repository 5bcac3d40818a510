"""Cached computations of the page "Missing values" (streamlit caching around
``credal_core.naive.ncc_explain``): an uploaded table made categorical, and one teaching scenario —
training cells hidden, one instance with missing values, its set under every treatment."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st
from streamlit.dataframe_util import convert_pandas_df_to_arrow_table

from app_support.data import load_sample
from app_support.figures import shared_figure
from app_support.missing_values.figures import set_grid
from app_support.missing_values.state import MAX_STEPS
from app_support.uploads import LIMITS, load_table
from credal_core.data.csv_loader import CsvProblem, default_class_column
from credal_core.data.dataset import choose_columns
from credal_core.data.preparation import Preparation
from credal_core.naive.ncc_explain import explain_dominance, hide_cells, treatment_sets

__all__ = ["MAX_FEATURES", "MAX_STEPS", "sample", "upload_columns", "upload_data", "scenario",
           "dominance_view", "hide_values", "arrow_table"]

MAX_FEATURES = 30     # the counts table has one row per feature: more is not a lecture view


@st.cache_resource(show_spinner=False)
def sample(name: str) -> tuple[pd.DataFrame, pd.Series]:
    """A shipped sample (X, y), read once per process and shared (read only: not copied per run)."""
    return load_sample(name)


def upload_columns(data: bytes, name: str) -> tuple[list, str, str]:
    """(columns, default class column, "") of an uploaded CSV / ARFF, or ([], "", the problem)."""
    table, problem = load_table(data, name)
    if problem:
        return [], "", problem
    return list(table.frame.columns), default_class_column(table), ""


def arrow_table(frame: pd.DataFrame) -> pa.Table:
    """``frame`` as the Arrow table ``st.dataframe`` makes of it (Streamlit's own conversion), made once
    for a cached view: the page then sends the same bytes without converting the frame on every rerun."""
    return convert_pandas_df_to_arrow_table(frame)


@st.cache_resource(show_spinner=False, max_entries=256)
def hide_values(data_key: str, _X: pd.DataFrame, feature: str) -> tuple[str, ...]:
    """The values of ``feature`` in the table named ``data_key`` (``_X``, not hashed), as text, sorted:
    the choices of "Value hidden"."""
    return tuple(sorted(_X[feature].dropna().astype(str).unique().tolist()))


@st.cache_data(show_spinner=False, max_entries=16)
def upload_data(data: bytes, name: str, class_column: str) -> tuple:
    """(X, y, notes, "") of an upload: categorical features (numbers cut at their median, paper 004's
    split; missing cells kept), at most :data:`MAX_FEATURES`; or (None, None, [], the problem)."""
    table, problem = load_table(data, name)
    if problem:
        return None, None, [], problem
    try:
        choice = choose_columns(table, class_column, max_levels=LIMITS.max_levels)
    except CsvProblem as exc:
        return None, None, [], str(exc)
    notes = list(choice.notes)
    X = choice.X.iloc[:, :MAX_FEATURES]
    if choice.X.shape[1] > MAX_FEATURES:
        notes.append(f"only the first {MAX_FEATURES} feature columns are used")
    numeric = [c for c in choice.numeric if c in X.columns]
    if numeric:
        notes.append(f"numeric columns cut at their median: {', '.join(map(str, numeric))}")
    X = Preparation(numeric=numeric, discretiser="median", missing="ignore").fit_transform(X, choice.y)
    X = X.astype(object).where(X.notna(), np.nan)
    X.columns = [str(c) for c in X.columns]
    return X.reset_index(drop=True), choice.y.astype(str).reset_index(drop=True), notes, ""


# shared by every session (st.cache_resource: not copied per run; read only): a class moving the same
# sliders meets each other's values, and a rerun then costs the page's drawing only
@st.cache_resource(show_spinner=False, max_entries=512)
def scenario(data_key: str, _X: pd.DataFrame, _y: pd.Series, *, row: int, missing: tuple, leave_out: bool,
             hide: float, mechanism: str, hide_feature: str, hide_value: str, seed: int, s: float) -> dict:
    """The instance (row ``row`` with the features ``missing`` blanked) and its classes under each
    treatment, the training cells of ``hide_feature`` hidden first (never the instance's own row).

    ``data_key`` names the data set, so the table (``_X``, ``_y``) is not hashed on every rerun.
    Returns a dict (read only): ``treatments``, ``instance``, ``truth``, ``hidden`` (cells hidden),
    ``holes`` (missing training cells per feature), ``warnings``, and what the page shows of them:
    ``shown`` (the instance, ``?`` where missing, with its class), ``grid`` (the figure), ``summary``,
    and the two tables as ``st.dataframe`` sends them (``shown_arrow``, ``summary_arrow``).
    """
    X = _X
    if hide > 0 and hide_feature in X.columns:
        X = hide_cells(X, hide_feature, hide, mechanism=mechanism, value=hide_value, seed=seed, protect=row)
    hidden = int(X.isna().sum().sum() - _X.isna().sum().sum())
    instance = _X.iloc[[row]].astype(object).copy()
    for name in missing:
        instance[name] = np.nan
    keep = np.ones(len(X), dtype=bool)
    if leave_out:
        keep[row] = False
    X_train, y_train = X[keep], _y[keep]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        treatments = treatment_sets(X_train, y_train, instance, s=s, max_steps=MAX_STEPS)
    truth = _y.iloc[row]
    classes = list(treatments[1].model.classes_)
    shown = instance.astype(object).where(instance.notna(), "?").assign(**{"(class)": truth}).astype(str)
    summary = pd.DataFrame({
        "treatment": [t.name for t in treatments],
        "classes returned": ["{" + ", ".join(map(str, t.members)) + "}" for t in treatments],
        "size": [len(t.members) for t in treatments],
        "contains the truth": ["yes" if str(truth) in map(str, t.members) else "no" for t in treatments]})
    grid = shared_figure(set_grid([t.name for t in treatments], [t.members for t in treatments], classes,
                                  truth=truth))
    return {"treatments": treatments, "instance": instance, "truth": truth, "hidden": hidden,
            "holes": X_train.isna().sum().to_dict(), "classes": sorted(set(_y.astype(str))),
            "warnings": sorted({str(w.message) for w in caught if issubclass(w.category, UserWarning)}),
            "shown": shown, "summary": summary, "grid": grid,
            "shown_arrow": arrow_table(shown), "summary_arrow": arrow_table(summary)}


RENAMED = {"n(a, v)": "n({a}, v)", "n_j(a)": "n_j({a})", "n(b, v)": "n({b}, v)", "n_j(b)": "n_j({b})",
           "missing m_j(b)": "missing ({b})", "n(b, v) used": "N_B({b}, v)"}


@st.cache_resource(show_spinner=False, max_entries=1024)
def dominance_view(_view: dict, key: tuple, index: int, a: str, b: str) -> tuple:
    """(explanation, table shown, that table as ``st.dataframe`` sends it) of "does ``a`` dominate ``b``"
    under treatment ``index`` of ``_view`` (the :func:`scenario` whose arguments are ``key``; read only)."""
    chosen = _view["treatments"][index]
    labels = [str(c) for c in chosen.model.classes_]
    e = explain_dominance(chosen.model, chosen.instance, chosen.model.classes_[labels.index(a)],
                          chosen.model.classes_[labels.index(b)])
    table = e.table.drop(columns=["instance", "training missing", "missing m_j(a)"]).rename(
        columns={k: v.format(a=a, b=b) for k, v in RENAMED.items()})
    table = table.astype({"value used": str})
    return e, table, arrow_table(table)


# ---------------------------------------------------------------- the s slider's steps, computed ahead
S_GRID = tuple(round(0.1 * k, 1) for k in range(1, 101))       # the steps of the s slider, 0.1 to 10


def s_steps(data_key: str, X: pd.DataFrame, y: pd.Series, arguments: dict) -> list:
    """A move of the s slider from the view with these ``arguments`` (those of :func:`scenario`), at every
    step of :data:`S_GRID` nearest first: calls of :func:`scenario` and of :func:`dominance_view` for the
    treatment and classes the page shows first (the last treatment explained; class a the first member of
    the NBC's set, b the first other class), which fill the page's own caches (a case the page cannot
    compute is skipped, as the page then says)."""
    def step(s: float):
        def compute():
            args = {**arguments, "s": s}
            try:
                view = scenario(data_key, X, y, **args)
            except ValueError:
                return
            treatments = view["treatments"]
            labels = [str(c) for c in treatments[1].model.classes_]
            explained = [i for i, t in enumerate(treatments) if t.kind != "nbc"]
            a = str(treatments[0].members[0])
            a = a if a in labels else labels[0]
            b = next(c for c in labels if c != a)
            dominance_view(view, (data_key, *sorted(args.items())), int(explained[-1]), a, b)
        return compute
    nearest = sorted(S_GRID, key=lambda g: (round(abs(g - arguments["s"]), 9), g))     # ties: the lower first
    return [step(s) for s in nearest]


def default_warm() -> tuple[str, list]:
    """(key, steps): the s steps of the page's first view (its URL state's defaults, the weather data)."""
    from app_support.missing_values.state import STATE
    values = STATE.defaults()
    X, y = sample(values["data"])
    features = [str(c) for c in X.columns]
    hide_values_ = hide_values(f"sample-{values['data']}", X, values["hfeat"])
    arguments = dict(row=int(values["row"]) - 1, missing=tuple(f for f in features if f in values["missing"]),
                     leave_out=bool(values["loo"]), hide=float(values["hide"]), mechanism=values["mech"],
                     hide_feature=values["hfeat"],
                     hide_value=values["hval"] if values["hval"] in hide_values_ else hide_values_[0],
                     seed=int(values["seed"]), s=float(values["s"]))
    return f"missing_values {values['data']}", s_steps(f"sample-{values['data']}", X, y, arguments)
