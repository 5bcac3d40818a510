"""URL state and cached computations of the page "Credal model averaging, trees and the reject option".

Every number comes from ``credal_core``: CMA's inclusion intervals (``CMA.inclusion_interval_``), the
SPODE weights of BMA-AODE (``credal_core.aode.summary.spode_table``), the credal decision tree
(``CredalDecisionTree.tree_frame``, ``predict_set``, ``intervals``) and the reject option's costs
(``credal_core.reject.reject_costs_of``, paper 001 §3.5).  Shared by all sessions: read, never mutate.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from app_support.cached_samples import cached_sample
from app_support.data import sample_names
from app_support.url_state import Choice, Number, UrlState
from credal_core import NCC
from credal_core.aode import CredalBMAAODE, CredalCompAODE
from credal_core.aode.summary import spode_table
from credal_core.data.counts import labels_as_text
from credal_core.experiments.engine import make_splits
from credal_core.model_averaging import CMA
from credal_core.reject import reject_costs_of
from credal_core.tree import CredalDecisionTree

__all__ = ["DATA", "url_state", "sample_rows", "fitted", "inclusion_view", "tree_view", "instance_view",
           "path_to", "reject_view", "REJECT_MODELS", "D_GRID"]

DATA = Choice("data", tuple(sample_names()), "weather")      # read first: the row's bound follows it
D_GRID = tuple(round(0.01 * k, 2) for k in range(1, 50))    # d in (0, 1/2)
# the credal classifier and the name of the precise counterpart whose posterior ``predict_proba`` gives
REJECT_MODELS = {"NCC": "NBC (Perks)", "CMA": "BMA over subsets", "BMA-AODE*": "BMA-AODE",
                 "COMP-AODE*": "COMP-AODE", "CDT": "tree frequencies"}


def url_state(n_rows: int) -> UrlState:
    """The page's query parameters; ``row`` (the instance shown in the tree) follows the data's rows."""
    return UrlState(
        DATA,
        Number("s", 1.0, 0.1, 5.0, step=0.1),
        Number("eps", 0.01, 0.001, 0.1, step=0.001),
        Number("row", 0, 0, n_rows - 1, integer=True),
        Number("depth", 3, 1, 10, integer=True),
        Number("d", 0.2, 0.01, 0.49, step=0.01),
    )


@st.cache_data(show_spinner=False)
def sample_rows(name: str) -> int:
    return len(cached_sample(name)[0])


@st.cache_resource(show_spinner=False, max_entries=64)
def fitted(name: str, s: float, eps: float) -> dict:
    """CMA, the CDT (IDM strength ``s``) and BMA-AODE* / COMP-AODE* (ε) fitted on all rows of a sample."""
    X, y = cached_sample(name)
    return {"cma": CMA(s=s).fit(X, y), "cdt": CredalDecisionTree(s=s).fit(X, y),
            "bma": CredalBMAAODE(epsilon=eps).fit(X, y), "comp": CredalCompAODE(epsilon=eps).fit(X, y)}


@st.cache_data(show_spinner=False, max_entries=64)
def inclusion_view(name: str, s: float, eps: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per feature: CMA's posterior probability of inclusion at t = 1/2 (BMA over subsets) and its
    interval over the credal set; per SPODE (super-parent): BMA-AODE's and COMP-AODE's weights."""
    models = fitted(name, s, eps)
    cma = models["cma"]
    features = [str(f) for f in cma.tables_.feature_names]
    inclusion = pd.DataFrame({"feature": features, "bma": cma.inclusion_probability_,
                              "lower": cma.inclusion_interval_[:, 0], "upper": cma.inclusion_interval_[:, 1]})
    spodes = spode_table(models["bma"], models["comp"])[["super_parent", "bma_weight", "comp_weight"]]
    return inclusion, spodes.assign(super_parent=spodes["super_parent"].astype(str))


@st.cache_data(show_spinner=False, max_entries=64)
def tree_view(name: str, s: float) -> pd.DataFrame:
    """The credal decision tree, one row per node (``CredalDecisionTree.tree_frame``)."""
    return fitted(name, s, 0.01)["cdt"].tree_frame()


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
    cdt = fitted(name, s, 0.01)["cdt"]
    x = X.iloc[[row]]
    lower, upper = cdt.intervals(x)
    classes = [str(c) for c in cdt.classes_]
    members = np.asarray(cdt.predict_set(x))[0]
    values = {str(k): str(v) for k, v in x.iloc[0].items()}
    return {"values": values, "truth": str(y.iloc[row]), "set": [c for c, m in zip(classes, members) if m],
            "intervals": pd.DataFrame({"class": classes, "lower": lower[0], "upper": upper[0]}),
            "path": path_to(tree_view(name, s), values)}


@st.cache_data(show_spinner=False, max_entries=64)
def reject_view(name: str, s: float, eps: float, n_splits: int = 5, seed: int = 0) -> pd.DataFrame:
    """The reject option (001 §3.5) by stratified ``n_splits``-fold cross-validation (fewer folds when a
    class has fewer rows): per fold each credal classifier of :data:`REJECT_MODELS` (the NCC on
    two-class data only) is fitted on the training rows and ``reject_costs_of`` scores the test rows over
    :data:`D_GRID`; the mean over folds. Columns: ``model``, ``d``, ``classifier`` ("precise" /
    "credal"), ``cost``, ``rejected``, ``error``, and ``label`` (the line's name)."""
    X, y = cached_sample(name)
    labels, classes = labels_as_text(y)
    folds = int(max(2, min(n_splits, pd.Series(labels).value_counts().min())))
    makers = {"CMA": lambda: CMA(s=s), "BMA-AODE*": lambda: CredalBMAAODE(epsilon=eps),
              "COMP-AODE*": lambda: CredalCompAODE(epsilon=eps), "CDT": lambda: CredalDecisionTree(s=s)}
    if classes.size == 2:
        makers = {"NCC": lambda: NCC(s=s), **makers}
    parts = []
    for split in make_splits(labels, protocol="cv", n_splits=folds, n_repeats=1, seed=seed):
        for model_name, make in makers.items():
            try:
                model = make().fit(X.iloc[split.train], labels[split.train], classes=classes)
                part = reject_costs_of(model, X.iloc[split.test], labels[split.test], list(D_GRID))
            except (ValueError, NotImplementedError):      # e.g. no lower posterior on this fold
                continue
            parts.append(part.assign(model=model_name))
    frame = pd.concat(parts, ignore_index=True).groupby(["model", "d", "classifier"], sort=False,
                                                         as_index=False)[["cost", "rejected", "error"]].mean()
    frame["label"] = [f"{m} (credal)" if c == "credal" else f"{REJECT_MODELS[m]} (precise)"
                      for m, c in zip(frame["model"], frame["classifier"])]
    return frame
