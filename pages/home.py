"""Home page: what credal classification is, and a tiny live NBC-vs-NCC example."""

from __future__ import annotations

import math
import urllib.parse

import streamlit as st

from app_support.home.model import N_TRAIN, S_GRID, live_example, set_size_figure
from app_support.lessons.catalogue import step_link
from app_support.page import columns_for_present, page_setup, present_mode, show_chart, sync
from app_support.registry import by_section
from app_support.url_state import Number, UrlState

STATE = UrlState(Number("s", 2.0, S_GRID[0], S_GRID[-1], step=0.1))


def percent(x: float) -> str:
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.0f}%"


page_setup("Credal classification explorer", STATE, prefix="home_")

st.markdown(
    """
A **[naive Bayes classifier](/glossary#nbc) (NBC)** always returns *one* class: the most probable one.
When the training data are too few to tell two classes apart, that single answer can be a guess.

The **[naive credal classifier](/glossary#ncc) (NCC)** replaces the single prior of the NBC by the
*[imprecise Dirichlet model](/glossary#idm)* (IDM): all Dirichlet priors worth $s$
[hidden instances](/glossary#s).
It returns every class that no other class beats under **all** those priors, so it answers with
a *set* of classes whenever the data do not justify a single one. Class $a$
[dominates](/glossary#dominance) class $b$
for the observed features $\\mathbf{f}$ iff
"""
)
st.latex(
    r"a \succ b \iff \inf_{t \in \mathcal{T}} \frac{P_t(a, \mathbf{f})}{P_t(b, \mathbf{f})} > 1,"
)
# one explanation, written once: why a larger s never shrinks the set is Lesson 1's step 5
LESSON_1 = "/lessons?" + urllib.parse.urlencode(step_link("naive-credal", 0))
LARGER_S = "/lessons?" + urllib.parse.urlencode(step_link("naive-credal", 4))
st.markdown(
    "where $P_t$ is the naive-Bayes probability learned with the prior $s\\,t$ and $\\mathcal{T}$ "
    "([the set of spreads](/glossary#t-set)) holds every way of spreading the $s$ hidden instances over "
    f"classes and feature values. Step by step, with a question at each: [Lesson 1]({LESSON_1}); why a "
    f"larger $s$ can only grow the set: [its step 5]({LARGER_S})."
)

st.subheader("Live example")
st.markdown(
    "Synthetic naive-Bayes data (`sample_data/synthetic_nb.csv`): 3 classes, 8 features. "
    f"Both classifiers learn from the first {N_TRAIN} rows and are tested on the last 100. "
    "NBC uses $s = 1$; NCC uses the $s$ you choose."
)


@st.fragment
def live_example_section() -> None:
    """The slider and what depends on it: moving s reruns only this part, from results shared by all."""
    present = present_mode()
    left, right = columns_for_present((1, 1), stacked=True)     # on a projector: the chart beside them
    slider_col = left if present else left.columns([1, 2])[0]
    s = slider_col.slider("s (hidden instances of the IDM)", S_GRID[0], S_GRID[-1], step=0.1,
                          format="%.1f", key="home_s", on_change=sync(STATE, "home_"),
                          help="The prior strength of the NCC. The NBC always uses s = 1.")
    s = STATE["s"].parse(str(s))                  # on the grid: 0.30000000000000004 -> 0.3
    view = live_example()[s]
    scores, split = view["scores"], view["split"]
    c1, c2, c3, c4 = [col for row in ([left.columns(2), left.columns(2)] if present else [left.columns(4)])
                      for col in row]
    c1.metric("NCC determinacy", percent(scores["determinacy"]),
              help="Share of test instances for which NCC returns a single class.")
    c2.metric("NCC single accuracy", percent(scores["single_accuracy"]),
              help="Accuracy of NCC on the instances where it returns a single class.")
    c3.metric("NBC accuracy", percent(split["accuracy"]),
              help="Accuracy of the NBC (s = 1) on all test instances.")
    c4.metric("NBC accuracy on NCC's sets", percent(split["accuracy_indeterminate"]),
              help=f"Accuracy of the NBC on the {view['indeterminate']} test instances where NCC returns "
                   "two or more classes (— if there are none).")
    show_chart(set_size_figure(s), key="set_sizes", where=right)


live_example_section()
st.info("**Try this:** drag s up and watch [determinacy](/glossary#determinacy) fall while the "
        "[single accuracy](/glossary#single-accuracy) rises.")

# the other pages, section by section, as the navigation lists them (app_support/registry.py)
for section, entries in by_section().items():
    links = [entry for entry in entries if not entry.default]
    if section and links:
        st.subheader(section)
        for entry in links:
            st.page_link(entry.path, label=f"{entry.title}: {entry.description}", icon=entry.icon)
