"""The "Profile likelihood in a network" page's views, cached and shared by all sessions (read only).

The graph of a data set (:func:`graph_view`: the TAN is learned once) and the profile of a ratio for one
row and two classes (:func:`ratio_chart`) are computed once per setting; a move of the cut-off β only
recomputes the β-region (``NetworkProfile.region``) and the figure, once per β.
"""
from __future__ import annotations

import dataclasses
import functools

import pandas as pd
import streamlit as st
from streamlit import dataframe_util

from app_support.cached_samples import cached_sample
from app_support.data import sample_class_column
from app_support.network_likelihood.figures import profile_figure
from app_support.network_likelihood.model import RatioView, graph_parents, ratio_view

__all__ = ["sample_view", "graph_view", "ratio_profile", "ratio_chart", "arrow_table"]

BASE_BETA = 0.15             # the β the profile is first computed at (its region is recomputed per β)


@st.cache_resource(show_spinner=False, max_entries=32)
def sample_view(name: str) -> dict:
    """A shipped sample as the page uses it: features (text column names), the class as text, its
    column's name, the classes sorted, and each row's values as the caption shows them."""
    X, y = cached_sample(name)
    X.columns = [str(c) for c in X.columns]
    return {"X": X, "y": y.astype(str), "class_name": str(sample_class_column(name)),
            "classes": sorted(str(c) for c in y.dropna().unique()),
            "rows": [", ".join(f"{k} = {v}" for k, v in values.items()) for _, values in X.iterrows()]}


@st.cache_resource(show_spinner=False, max_entries=256)
def graph_view(name: str, kind: str, edges: str) -> dict:
    """The parent sets of the chosen graph (:func:`~app_support.network_likelihood.model.graph_parents`)
    and their table; a ValueError (a malformed edge list) is raised, not cached."""
    data = sample_view(name)
    parents = graph_parents(kind, data["X"], data["y"], data["class_name"], edges)
    table = pd.DataFrame({"node": list(parents), "parents": [", ".join(p) or "—" for p in parents.values()]})
    return {"parents": parents, "table": table, "arrow": arrow_table(table)}


def arrow_table(frame: pd.DataFrame):
    """``frame`` as the Arrow table ``st.dataframe`` makes of it (Streamlit's own conversion, so the page
    receives the same bytes): converted once and cached with its view, not on every run."""
    return dataframe_util.convert_pandas_df_to_arrow_table(frame)


@st.cache_resource(show_spinner=False, max_entries=256)
def ratio_profile(name: str, kind: str, edges: str, row: int, a: str, b: str) -> tuple[RatioView, object]:
    """:func:`~app_support.network_likelihood.model.ratio_view` at :data:`BASE_BETA`: what does not move
    with β (the profile, its curve and path, the MLE), and its table of cells as Arrow
    (:func:`arrow_table`); a ValueError (e.g. a cycle) is raised, not cached."""
    data = sample_view(name)
    view = ratio_view(data["X"], data["y"], data["class_name"], graph_view(name, kind, edges)["parents"], row,
                      a, b, BASE_BETA)
    return view, arrow_table(view.profile.cells)


@functools.lru_cache(maxsize=1024)
def ratio_chart(name: str, kind: str, edges: str, row: int, a: str, b: str, beta: float) -> dict:
    """:func:`~app_support.network_likelihood.model.ratio_view` at ``beta`` (the profile shared over β,
    its β-region recomputed) and its figure.  Looked up in microseconds (Streamlit's cache hashes its
    seven arguments on every call); a miss goes to Streamlit's cache, which computes it once for all."""
    return _ratio_chart(name, kind, edges, row, a, b, beta)


@st.cache_resource(show_spinner=False, max_entries=1024)
def _ratio_chart(name: str, kind: str, edges: str, row: int, a: str, b: str, beta: float) -> dict:
    base, _ = ratio_profile(name, kind, edges, row, a, b)
    view = dataclasses.replace(base, region=base.profile.region(beta))
    figure = profile_figure(view.curve["gamma"], view.curve["likelihood"], view.path["gamma"],
                            view.path["likelihood"], view.region, view.mle, beta,
                            title=f"Profile likelihood of P({a}, rest) / P({b}, rest)")
    return {"view": view, "figure": figure}
