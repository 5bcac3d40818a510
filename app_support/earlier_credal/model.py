"""URL state and cached computations of the page "Credal model averaging, trees and the reject option".

Every number comes from ``credal_core``: CMA's inclusion intervals (``CMA.inclusion_interval_``), the
SPODE weights of BMA-AODE (``credal_core.aode.summary.spode_table``), the credal decision tree
(``CredalDecisionTree.tree_frame``, ``predict_set``, ``intervals``) and the reject option's costs
(``credal_core.reject.reject_costs_of``, paper 001 §3.5).  Shared by all sessions: read, never mutate.

What a slider move needs is cached per parameter set and shared by every session of the process: the
cross-validation of each reject-option model on its own parameter (:func:`model_folds`: the IDM models
per s, the AODE* per ε, so a move of one slider never refits the others), and the views the page shows
(figures built once, :func:`app_support.figures.shared_figure`). Under ``scripts/serve.sh`` (which sets
``CREDAL_WARM=1``) the first view of a data set also starts :func:`warm_steps`: a background thread that
computes the views at every step of the s slider and then of the ε slider, nearest first from the values
shown, at a tenth of one core (:func:`app_support.long_runs.warm_in_background`) — a class walking
the sliders then finds every step computed.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.dataframe_util import convert_pandas_df_to_arrow_table

from app_support.cached_samples import cached_sample
from app_support.data import sample_names
from app_support.earlier_credal.figures import (
    inclusion_figure,
    reject_figure,
    spode_weights_figure,
    tree_figure,
)
from app_support.figures import shared_figure
from app_support.long_runs import warm_in_background
from app_support.url_state import Choice, Number, UrlState
from credal_core import NCC, CountTables
from credal_core.aode import CredalBMAAODE, CredalCompAODE
from credal_core.aode.summary import spode_table
from credal_core.data.counts import labels_as_text
from credal_core.experiments.engine import make_splits
from credal_core.model_averaging import CMA
from credal_core.reject import reject_costs_of
from credal_core.tree import CredalDecisionTree

__all__ = ["DATA", "url_state", "sample_rows", "fitted", "inclusion_view", "tree_view", "instance_view",
           "path_to", "model_folds", "fold_data", "integer_coded", "reject_view", "REJECT_MODELS", "D_GRID",
           "S_GRID", "EPS_GRID",
           "inclusion_charts", "tree_chart", "reject_section", "warm_steps"]

DATA = Choice("data", tuple(sample_names()), "weather")      # read first: the row's bound follows it
D_GRID = tuple(round(0.01 * k, 2) for k in range(1, 50))    # d in (0, 1/2)
S_DEFAULT, EPS_DEFAULT = 1.0, 0.01
S_GRID = tuple(round(0.1 * k, 1) for k in range(1, 51))     # the steps of the s slider, 0.1 to 5
EPS_GRID = tuple(round(0.001 * k, 3) for k in range(1, 101))  # the steps of the ε slider, 0.001 to 0.1
# the credal classifier and the name of the precise counterpart whose posterior ``predict_proba`` gives
REJECT_MODELS = {"NCC": "NBC (Perks)", "CMA": "BMA over subsets", "BMA-AODE*": "BMA-AODE",
                 "COMP-AODE*": "COMP-AODE", "CDT": "tree frequencies"}


def url_state(n_rows: int) -> UrlState:
    """The page's query parameters; ``row`` (the instance shown in the tree) follows the data's rows."""
    return UrlState(
        DATA,
        Number("s", S_DEFAULT, 0.1, 5.0, step=0.1),
        Number("eps", EPS_DEFAULT, 0.001, 0.1, step=0.001),
        Number("row", 0, 0, n_rows - 1, integer=True),
        Number("depth", 3, 1, 10, integer=True),
        Number("d", 0.2, 0.01, 0.49, step=0.01),
    )


@st.cache_data(show_spinner=False)
def sample_rows(name: str) -> int:
    return len(cached_sample(name)[0])


@st.cache_resource(show_spinner=False, max_entries=256)
def _idm_fitted(name: str, s: float) -> dict:
    """CMA and the CDT (IDM strength ``s``) fitted on all rows of a sample (shared: read only)."""
    X, y = cached_sample(name)
    return {"cma": CMA(s=s).fit(X, y), "cdt": CredalDecisionTree(s=s).fit(X, y)}


@st.cache_resource(show_spinner=False, max_entries=256)
def _aode_fitted(name: str, eps: float) -> dict:
    """BMA-AODE* and COMP-AODE* (ε) fitted on all rows of a sample (shared: read only)."""
    X, y = cached_sample(name)
    return {"bma": CredalBMAAODE(epsilon=eps).fit(X, y), "comp": CredalCompAODE(epsilon=eps).fit(X, y)}


def fitted(name: str, s: float, eps: float) -> dict:
    """CMA, the CDT (IDM strength ``s``) and BMA-AODE* / COMP-AODE* (ε) fitted on all rows of a sample;
    the IDM models cached per s and the AODE* per ε (a move of one slider never refits the others)."""
    return {**_idm_fitted(name, s), **_aode_fitted(name, eps)}


@st.cache_resource(show_spinner=False, max_entries=256)
def _inclusion_frame(name: str, s: float) -> pd.DataFrame:
    cma = _idm_fitted(name, s)["cma"]
    features = [str(f) for f in cma.tables_.feature_names]
    return pd.DataFrame({"feature": features, "bma": cma.inclusion_probability_,
                         "lower": cma.inclusion_interval_[:, 0], "upper": cma.inclusion_interval_[:, 1]})


@st.cache_resource(show_spinner=False, max_entries=256)
def _spodes_frame(name: str, eps: float) -> pd.DataFrame:
    models = _aode_fitted(name, eps)
    spodes = spode_table(models["bma"], models["comp"])[["super_parent", "bma_weight", "comp_weight"]]
    return spodes.assign(super_parent=spodes["super_parent"].astype(str))


def inclusion_view(name: str, s: float, eps: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per feature: CMA's posterior probability of inclusion at t = 1/2 (BMA over subsets) and its
    interval over the credal set (s only); per SPODE (super-parent): BMA-AODE's and COMP-AODE's weights
    (ε only). Copies of the cached frames."""
    return _inclusion_frame(name, s).copy(), _spodes_frame(name, eps).copy()


@st.cache_data(show_spinner=False, max_entries=64)
def tree_view(name: str, s: float) -> pd.DataFrame:
    """The credal decision tree, one row per node (``CredalDecisionTree.tree_frame``)."""
    return _idm_fitted(name, s)["cdt"].tree_frame()


def path_to(frame: pd.DataFrame, instance: dict) -> list[int]:
    """The nodes an instance passes from the root (``frame``: ``tree_frame``; ``instance``: feature →
    value as text): at each split, the child labelled ``feature = value``; it stops where no child has
    the value (a missing or unseen value: the CDT then answers from that node or with every class)."""
    node, path = int(frame.loc[frame["parent"] < 0, "node"].iloc[0]), []
    while True:
        path.append(node)
        split = frame.loc[frame["node"] == node, "split"].iloc[0]
        if split is None or pd.isna(split):
            return path
        label = f"{split} = {instance.get(split)}"
        child = frame[(frame["parent"] == node) & (frame["value"] == label)]
        if child.empty:
            return path
        node = int(child["node"].iloc[0])


@st.cache_data(show_spinner=False, max_entries=256)
def instance_view(name: str, s: float, row: int) -> dict:
    """One row of the sample: its values, true class, the CDT's set and IDM intervals, and its path."""
    X, y = cached_sample(name)
    cdt = _idm_fitted(name, s)["cdt"]
    x = X.iloc[[row]]
    lower, upper = cdt.intervals(x)
    classes = [str(c) for c in cdt.classes_]
    members = np.asarray(cdt.predict_set(x))[0]
    values = {str(k): str(v) for k, v in x.iloc[0].items()}
    return {"values": values, "truth": str(y.iloc[row]), "set": [c for c, m in zip(classes, members) if m],
            "intervals": pd.DataFrame({"class": classes, "lower": lower[0], "upper": upper[0]}),
            "path": path_to(tree_view(name, s), values)}


def _reject_maker(model_name: str, value: float):
    """A new reject-option model: the IDM ones (NCC, CMA, CDT) take s = ``value``, the AODE* ones ε."""
    return {"NCC": lambda: NCC(s=value), "CMA": lambda: CMA(s=value),
            "BMA-AODE*": lambda: CredalBMAAODE(epsilon=value),
            "COMP-AODE*": lambda: CredalCompAODE(epsilon=value),
            "CDT": lambda: CredalDecisionTree(s=value)}[model_name]()


def _folds(labels, n_splits: int, seed: int) -> list:
    folds = int(max(2, min(n_splits, pd.Series(labels).value_counts().min())))
    return list(make_splits(labels, protocol="cv", n_splits=folds, n_repeats=1, seed=seed))


def integer_coded(X: pd.DataFrame) -> np.ndarray | pd.DataFrame:
    """``X`` as an integer matrix whose codes keep each column's sorted order of values, or ``X`` itself
    when a column has a missing value or values that do not sort.

    The models sort each feature's values (``credal_core.data.encoding.union_categories``), so a model
    fitted on these codes has the same categories in the same order, and gives the same numbers, as one
    fitted on the text (``tests/app_support/earlier_credal`` checks it on every sample); integers are
    coded in one vectorised pass where text costs a hash pass per column and per call."""
    codes = np.empty(X.shape, dtype=np.int64)
    for j, (_, col) in enumerate(X.items()):
        if col.isna().any():
            return X
        values = col.unique().tolist()
        try:
            order = {v: k for k, v in enumerate(sorted(values))}
        except TypeError:
            return X
        codes[:, j] = [order[v] for v in col.tolist()]
    return codes


@st.cache_resource(show_spinner=False, max_entries=64)
def fold_data(name: str, n_splits: int = 5, seed: int = 0) -> tuple:
    """The reject option's cross-validation folds of a sample, cut and counted once for every parameter
    value: ((X_train, y_train, X_test, y_test, training count tables), ...) with X as
    :func:`integer_coded`, and the classes. Read only."""
    X, y = cached_sample(name)
    labels, classes = labels_as_text(y)
    data = integer_coded(X)
    take = (lambda rows: data[rows]) if isinstance(data, np.ndarray) else (lambda rows: data.iloc[rows])
    folds = tuple((take(split.train), labels[split.train], take(split.test), labels[split.test],
                   CountTables.from_data(take(split.train), labels[split.train], classes=classes))
                  for split in _folds(labels, n_splits, seed))
    return folds, classes


def _fit_on_fold(model, X_train, y_train, tables, classes):
    """``model`` fitted on a training fold: a model that learns from the count tables alone (the NCC, CMA)
    adopts the fold's tables, counted once (``fit_counts``: the state ``fit`` would compute from them)."""
    if hasattr(model, "fit_counts") and model.get_params().get("categories", "seen") == "seen":
        return model.fit_counts(tables)
    return model.fit(X_train, y_train, classes=classes)


@st.cache_resource(show_spinner=False, max_entries=4096)
def model_folds(name: str, model_name: str, value: float, n_splits: int = 5,
                seed: int = 0) -> tuple[pd.DataFrame | None, ...]:
    """One reject-option model (its parameter ``value``: s or ε) fitted on each training fold of
    :func:`reject_view`'s cross-validation (:func:`fold_data`), ``reject_costs_of`` on the test rows over
    :data:`D_GRID`; None for a fold where the model has no lower posterior. Read only."""
    folds, classes = fold_data(name, n_splits, seed)
    parts = []
    for X_train, y_train, X_test, y_test, tables in folds:
        try:
            model = _fit_on_fold(_reject_maker(model_name, value), X_train, y_train, tables, classes)
            parts.append(reject_costs_of(model, X_test, y_test, list(D_GRID)))
        except (ValueError, NotImplementedError):      # e.g. no lower posterior on this fold
            parts.append(None)
    return tuple(parts)


_MEASURES = ["cost", "rejected", "error"]


@st.cache_resource(show_spinner=False, max_entries=256)
def reject_view(name: str, s: float, eps: float, n_splits: int = 5, seed: int = 0) -> pd.DataFrame:
    """The reject option (001 §3.5) by stratified ``n_splits``-fold cross-validation (fewer folds when a
    class has fewer rows): per fold each credal classifier of :data:`REJECT_MODELS` is fitted on the
    training rows and ``reject_costs_of`` scores the test rows over :data:`D_GRID` (:func:`model_folds`); the
    mean over folds. Columns: ``model``, ``d``, ``classifier`` ("precise" / "credal"), ``cost``,
    ``rejected``, ``error``, and ``label`` (the line's name); the models in the order one loop over the
    folds and, in each, the models meets them, each model's rows in ``reject_costs``'s order. Read only."""
    names = ["NCC", "CMA", "BMA-AODE*", "COMP-AODE*", "CDT"]
    folds = {m: model_folds(name, m, eps if m.endswith("AODE*") else s, n_splits, seed) for m in names}
    first = {m: next((k for k, part in enumerate(folds[m]) if part is not None), None) for m in names}
    present = sorted((m for m in names if first[m] is not None), key=lambda m: (first[m], names.index(m)))
    # every fold's rows are reject_costs's (d by d, precise then credal): the mean over folds row by row,
    # in numpy (a pandas concat and groupby of the parts cost as much as the five models' folds)
    blocks = []
    for m in present:
        parts = [part for part in folds[m] if part is not None]
        # column by column: a pandas selection of a list of columns costs more than all the sums
        total = np.column_stack([parts[0][measure].to_numpy(dtype=float) for measure in _MEASURES])
        for part in parts[1:]:
            total += np.column_stack([part[measure].to_numpy(dtype=float) for measure in _MEASURES])
        blocks.append((m, parts[0]["d"].to_numpy(), parts[0]["classifier"].to_numpy(), total / len(parts)))
    values = np.concatenate([block[3] for block in blocks])
    models = np.concatenate([np.full(len(block[1]), block[0], dtype=object) for block in blocks])
    kinds = np.concatenate([block[2] for block in blocks])
    return pd.DataFrame({
        "model": models, "d": np.concatenate([block[1] for block in blocks]), "classifier": kinds,
        **{measure: values[:, j] for j, measure in enumerate(_MEASURES)},
        "label": [f"{m} (credal)" if c == "credal" else f"{REJECT_MODELS[m]} (precise)"
                  for m, c in zip(models, kinds)]})


# ---------------------------------------------------------------- the page's views (built once, read only)
def inclusion_charts(name: str, s: float, eps: float) -> dict:
    """Section 1: CMA's inclusion intervals (they depend on s only) and the SPODE weights (on ε only), as
    two figures, each built once per value. The first view of a data set starts :func:`warm_steps`."""
    _start_warming(name, s, eps)
    return {"inclusion": _inclusion_chart(name, s), "spodes": _spodes_chart(name, eps)}


@st.cache_resource(show_spinner=False, max_entries=512)
def _inclusion_chart(name: str, s: float):
    return shared_figure(inclusion_figure(_inclusion_frame(name, s)))        # CMA(s): no ε in it


@st.cache_resource(show_spinner=False, max_entries=512)
def _spodes_chart(name: str, eps: float):
    return shared_figure(spode_weights_figure(_spodes_frame(name, eps)))     # AODE(ε): no s


@st.cache_resource(show_spinner=False, max_entries=1024)
def tree_chart(name: str, s: float, depth: int, row: int) -> dict:
    """Section 2: the tree to ``depth`` with instance ``row``'s path, and the tree's size in numbers."""
    frame = tree_view(name, s)
    instance = instance_view(name, s, row)
    return {"figure": shared_figure(tree_figure(frame, max_depth=depth, path=instance["path"])),
            "nodes": len(frame), "leaves": int(frame["split"].isna().sum()),
            "depth": int(frame["depth"].max()),
            "instance": instance, "intervals": instance["intervals"].round(3),
            "intervals_arrow": convert_pandas_df_to_arrow_table(instance["intervals"].round(3))}


@st.cache_resource(show_spinner=False, max_entries=1024)
def reject_section(name: str, s: float, eps: float, d: float) -> dict:
    """Section 3 at the cost ``d`` (a step of :data:`D_GRID`): the costs against d with d marked, and
    each classifier's cost and share rejected at d beside its precise counterpart's."""
    costs = reject_view(name, s, eps)
    at_d = costs[np.abs(costs["d"].to_numpy() - d) < 1e-9]
    models = list(dict.fromkeys(at_d["model"]))
    cell = {(m, c): (cost, rejected) for m, c, cost, rejected
            in zip(at_d["model"], at_d["classifier"], at_d["cost"], at_d["rejected"])}
    table = pd.DataFrame({"classifier": models,
                          "precise counterpart": [REJECT_MODELS[m] for m in models],
                          **{f"{what}, {kind}": np.round([cell[m, kind][k] for m in models], digits)
                             for what, k, digits in (("cost", 0, 4), ("rejected", 1, 3))
                             for kind in ("precise", "credal")}})
    return {"figure": shared_figure(reject_figure(costs, d)), "table": table,
            "table_arrow": convert_pandas_df_to_arrow_table(table)}


# ---------------------------------------------------------------- the slider's steps, in the background
def _nearest_first(grid: tuple, value: float) -> list:
    return sorted(grid, key=lambda g: (round(abs(g - value), 9), g))      # ties: the lower first


def warm_steps(name: str, s: float, eps: float, d: float, depth: int,
               row: int) -> list[tuple[tuple[float, float], Callable[[], object]]]:
    """The views a move of the s slider (every step of :data:`S_GRID`, at ``eps``) and then of the ε
    slider (:data:`EPS_GRID`, at ``s``) needs, nearest first from the values given: ((s, ε), a call of
    the cached functions the page calls), so that computing them fills the page's own caches."""
    def step(s2: float, e: float) -> Callable[[], object]:
        def compute():
            inclusion_charts(name, s2, e)
            reject_section(name, s2, e, d)
            if e == eps:
                tree_chart(name, s2, depth, row)
        return compute
    grid = [(s2, eps) for s2 in _nearest_first(S_GRID, s)]
    grid += [(s, e) for e in _nearest_first(EPS_GRID, eps) if e != eps]
    return [((s2, e), step(s2, e)) for s2, e in grid]


def _start_warming(name: str, s: float, eps: float) -> None:
    """Once per process and data set (under ``scripts/serve.sh``): :func:`warm_steps` from these values in
    the background, at the page's defaults for d, depth and row."""
    def steps():
        defaults = url_state(sample_rows(name)).defaults()
        return [compute for _, compute in warm_steps(name, s, eps, defaults["d"], defaults["depth"],
                                                     defaults["row"])]
    warm_in_background(f"earlier_credal {name}", steps)


def default_warm() -> tuple[str, list]:
    """(key, steps): :func:`warm_steps` from the page's first view (its URL state's defaults), that view
    first; the key is the one the page starts its own warm with (:func:`_start_warming`)."""
    name = DATA.default
    values = url_state(sample_rows(name)).defaults()
    steps = warm_steps(name, values["s"], values["eps"], values["d"], values["depth"], values["row"])
    return f"earlier_credal {name}", [compute for _, compute in steps]


def default_warm_s() -> tuple[str, list]:
    """:func:`default_warm`'s first view and s steps only (a new s costs a class most: three models
    cross-validated), under its key; :func:`default_warm_eps` gives the rest."""
    key, steps = default_warm()
    return key, steps[:len(S_GRID)]


def default_warm_eps() -> tuple[None, list]:
    """:func:`default_warm`'s ε steps (no key of their own: they come with :func:`default_warm_s`'s)."""
    return None, default_warm()[1][len(S_GRID):]
