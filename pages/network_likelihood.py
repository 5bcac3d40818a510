"""Profile likelihood in a network: 003 Theorem 1 on a naive graph, the learned TAN or typed edges."""

from __future__ import annotations

import streamlit as st

from app_support.data import sample_names
from app_support.network_likelihood.model import GRAPHS, MAX_EDGES_TEXT
from app_support.network_likelihood.views import graph_view, ratio_chart, ratio_profile, sample_view
from app_support.page import page_setup, show_chart, sync
from app_support.text import cite
from app_support.url_state import Choice, Number, Text, UrlState

GRAPH_LABELS = {"naive": "naive (class → every feature)", "tan": "TAN learned from the data (Chow-Liu)",
                "edges": "my own edges"}
STATE = UrlState(
    Choice("data", tuple(sample_names()), "weather"),
    Choice("graph", GRAPHS, "tan"),
    Text("edges", max_len=MAX_EDGES_TEXT),
    Number("row", 0, 0, 1_000_000, step=1, integer=True),
    Text("a", max_len=200),
    Text("b", max_len=200),
    Number("beta", 0.15, 0.01, 0.99, step=0.01),
)
P = "nl_"
values = page_setup("Profile likelihood in a network", STATE, prefix=P)
on_change = sync(STATE, P)

st.markdown(cite("Paper 003's Theorem 1 gives the [profile likelihood](/glossary#profile-likelihood) of "
                 "a ratio "
            "γ = P(C = a, rest) / P(C = b, rest) on **any** Bayesian network learned from complete data: "
            "a curve traced by θ[α] = ⟨d + α q⟩ (each table's counts d plus α times the exponents q of γ). "
            "The shaded band is the likelihood-based confidence region {γ : lik(γ) > β}."))
left, right = st.columns(2)
name = left.selectbox("Data set", sample_names(), key=P + "data", on_change=on_change)
data = sample_view(name)
X, class_name, classes = data["X"], data["class_name"], data["classes"]
kind = right.radio("Graph", GRAPHS, key=P + "graph", format_func=GRAPH_LABELS.get, on_change=on_change,
                   horizontal=True)
if kind == "edges":
    st.text_input("Edges (parent -> child, separated by commas)", key=P + "edges", on_change=on_change,
                  placeholder=f"{X.columns[0]} -> {class_name}, {class_name} -> {X.columns[-1]}")
for key, default in (("a", classes[0]), ("b", classes[1])):
    if st.session_state.get(P + key) not in classes:
        st.session_state[P + key] = default
c1, c2, c3, c4 = st.columns(4)
if not 0 <= st.session_state.get(P + "row", 0) < len(X):      # a link's row beyond this data set
    st.session_state[P + "row"] = 0
row = c1.number_input("Instance (row of the data)", 0, len(X) - 1, key=P + "row", step=1, on_change=on_change)
a = c2.selectbox("Class a", classes, key=P + "a", on_change=on_change)
b = c3.selectbox("Class b", classes, key=P + "b", on_change=on_change)


def beta_slider() -> float:
    return c4.slider("Cut-off β", 0.01, 0.99, key=P + "beta", step=0.01, on_change=on_change)


st.caption("Instance: " + data["rows"][int(row)])
edges = st.session_state.get(P + "edges", "") if kind == "edges" else ""
problem = "Choose two different classes." if a == b else None
if problem is None:
    try:
        graph = graph_view(name, kind, edges)
        base, cells = ratio_profile(name, kind, edges, int(row), a, b)
    except ValueError as err:
        problem = str(err)
if problem is not None:
    beta_slider()
    (st.warning if a == b else st.error)(problem)
    st.stop()


@st.fragment
def beta_view() -> None:
    """What moves with β (a move reruns this part only): the slider, the region, the chart."""
    beta = beta_slider()
    chart = ratio_chart(name, kind, edges, int(row), a, b, round(float(beta), 2))
    view = chart["view"]
    m1, m2, m3 = st.columns(3)
    m1.metric("MLE of γ", f"{view.mle:.4g}")
    m2.metric(f"Region {{lik > {beta:g}}}", f"[{view.region[0]:.3g}, {view.region[1]:.3g}]")
    m3.metric("lik(γ = 1)", f"{view.at_one:.4f}")
    show_chart(chart["figure"], key=P + "chart")


beta_view()
st.markdown(f"α ranges over [{base.profile.alpha_range[0]:g}, {base.profile.alpha_range[1]:g}]; "
            "the table lists the cells γ touches: the count d, its row's total, and the exponent q.")
with st.expander("Graph (parents of each node)"):          # the tables as Arrow, converted once (cached)
    st.dataframe(graph["arrow"], hide_index=True)
st.dataframe(cells, hide_index=True)
