"""Home page: what credal classification is, and a tiny live NBC-vs-NCC example."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from app_support.data import load_sample
from app_support.figures import set_size_bar
from app_support.page import page_setup, sync
from app_support.url_state import Number, UrlState
from credal_core import NCC, NaiveBayes
from credal_core.metrics import credal_scores, precise_accuracy_split

SAMPLE = "synthetic_nb"
N_TRAIN = 200  # train on the first 200 rows, test on the last 100
S_GRID = tuple(round(0.1 * k, 1) for k in range(1, 101))     # every value of the slider
STATE = UrlState(Number("s", 2.0, S_GRID[0], S_GRID[-1], step=0.1))


@st.cache_resource(show_spinner=False)
def live_example() -> dict[float, dict]:
    """The live example at every s of the slider, computed once for all sessions (one NCC fit, 100
    predictions): the credal sets, the indicators and the NBC's accuracy where the NCC hesitates."""
    X, y = load_sample(SAMPLE)
    codes = np.column_stack([pd.factorize(X[c])[0] for c in X.columns])   # the NCC reads integer codes
    y_true = y.to_numpy()[N_TRAIN:]                                         # fastest (a lookup table)
    nbc_pred = NaiveBayes(s=1.0).fit(X.iloc[:N_TRAIN], y.iloc[:N_TRAIN]).predict(X.iloc[N_TRAIN:])
    ncc = NCC(s=S_GRID[0]).fit(codes[:N_TRAIN], y.to_numpy()[:N_TRAIN])
    views = {}
    for s in S_GRID:
        sets = np.asarray(ncc.set_params(s=s).predict_set(codes[N_TRAIN:]), dtype=bool)
        column = {label: j for j, label in enumerate(ncc.classes_.tolist())}
        views[s] = {"sets": sets, "scores": credal_scores(y_true, sets, ncc.classes_),
                    "split": precise_accuracy_split(y_true, nbc_pred, sets, ncc.classes_),
                    "indeterminate": int((sets.sum(axis=1) > 1).sum()),
                    "contains_truth": np.array([lab in column and bool(sets[i, column[lab]])
                                                for i, lab in enumerate(y_true)])}
    return views


@st.cache_resource(show_spinner=False, max_entries=len(S_GRID))
def set_size_figure(s: float):
    """The bar chart at ``s``, built once and shared (read only)."""
    view = live_example()[s]
    return set_size_bar(view["sets"], view["contains_truth"],
                        title=f"Size of the NCC set on each of the {len(view['sets'])} test instances")


def percent(x: float) -> str:
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.0f}%"


page_setup("Credal classification explorer", STATE, prefix="home_")

st.markdown(
    """
A **naive Bayes classifier (NBC)** always returns *one* class: the most probable one.
When the training data are too few to tell two classes apart, that single answer can be a guess.

The **naive credal classifier (NCC)** replaces the single prior of the NBC by the
*imprecise Dirichlet model* (IDM): all Dirichlet priors worth $s$ hidden instances.
It returns every class that no other class beats under **all** those priors, so it answers with
a *set* of classes whenever the data do not justify a single one. Class $a$ dominates class $b$
for the observed features $\\mathbf{f}$ iff
"""
)
st.latex(
    r"a \succ b \iff \inf_{t \in \mathcal{T}} \frac{P_t(a, \mathbf{f})}{P_t(b, \mathbf{f})} > 1,"
)
st.markdown(
    "where $P_t$ is the naive-Bayes probability learned with the prior $s\\,t$ and $\\mathcal{T}$ holds "
    "every way of spreading the $s$ hidden instances over classes and feature values. "
    "Larger $s$ means more caution: more classes survive, and the set grows."
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
    slider_col, _ = st.columns([1, 2])
    s = slider_col.slider("s (hidden instances of the IDM)", S_GRID[0], S_GRID[-1], step=0.1,
                          format="%.1f", key="home_s", on_change=sync(STATE, "home_"),
                          help="The prior strength of the NCC. The NBC always uses s = 1.")
    s = STATE["s"].parse(str(s))                  # on the grid: 0.30000000000000004 -> 0.3
    view = live_example()[s]
    scores, split = view["scores"], view["split"]
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("NCC determinacy", percent(scores["determinacy"]),
              help="Share of test instances for which NCC returns a single class.")
    c2.metric("NCC single accuracy", percent(scores["single_accuracy"]),
              help="Accuracy of NCC on the instances where it returns a single class.")
    c3.metric("NBC accuracy", percent(split["accuracy"]),
              help="Accuracy of the NBC (s = 1) on all test instances.")
    c4.metric("NBC accuracy on NCC's sets", percent(split["accuracy_indeterminate"]),
              help=f"Accuracy of the NBC on the {view['indeterminate']} test instances where NCC returns "
                   "two or more classes (— if there are none).")
    st.plotly_chart(set_size_figure(s), key="set_sizes")


live_example_section()
st.info("**Try this:** drag s up and watch determinacy fall while the single accuracy rises.")

st.subheader("Explore")
st.page_link("pages/profile_likelihood.py",
             label="Profile likelihood: the likelihood-based credal classifier (LNCC) on the papers' "
                   "examples, with a Monte Carlo cloud under the exact curve",
             icon=":material/show_chart:")
st.page_link("pages/intervals_vs_n.py", label="Intervals vs N: likelihood and IDM intervals as the sample "
             "grows, and how often each classifier admits ignorance", icon=":material/stacked_line_chart:")
st.page_link("pages/determinacy_curves.py", label="Determinacy curves: how often NCC_ε and LNCC_α commit "
             "to one class as the sample grows (paper 000's Fig. 5 and Table 1)",
             icon=":material/monitoring:")
st.page_link("pages/aode_weights.py", label="AODE compression weights: Bayesian model averaging against "
             "compression coefficients, and their credal versions", icon=":material/scale:")
st.page_link("pages/classifier_selection.py", label="Classifier selection: pick, per instance, the naive "
             "Bayes classifier that tolerates more imprecision", icon=":material/alt_route:")
st.page_link("pages/compare.py", label="Compare on your data: every classifier on your own CSV files, "
             "with tests across data sets", icon=":material/upload_file:")
st.page_link("pages/missing_values.py", label="Missing values: one instance with holes under missing at "
             "random, imputation and the conservative rule (NCC2), with the counts behind each verdict",
             icon=":material/help_center:")
