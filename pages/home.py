"""Home page: what credal classification is, and a tiny live NBC-vs-NCC example."""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from app_support.data import load_sample
from app_support.figures import set_size_bar
from app_support.routing import hand_over_to_navigation
from credal_core import NCC, NaiveBayes
from credal_core.metrics import credal_scores, precise_accuracy_split

hand_over_to_navigation()   # a shared link opened first must still run through app.py

SAMPLE = "synthetic_nb"
N_TRAIN = 200  # train on the first 200 rows, test on the last 100
S_MIN, S_MAX, S_STEP, S_DEFAULT = 0.1, 10.0, 0.1, 2.0


@st.cache_data(show_spinner=False)
def load_split(name: str, n_train: int):
    X, y = load_sample(name)
    return X.iloc[:n_train], y.iloc[:n_train], X.iloc[n_train:], y.iloc[n_train:]


@st.cache_resource(show_spinner=False)
def fitted_nbc(name: str, n_train: int) -> NaiveBayes:
    X_train, y_train, _, _ = load_split(name, n_train)
    return NaiveBayes(s=1.0).fit(X_train, y_train)


@st.cache_data(show_spinner=False)
def ncc_sets(name: str, n_train: int, s: float) -> tuple[np.ndarray, np.ndarray]:
    X_train, y_train, X_test, _ = load_split(name, n_train)
    ncc = NCC(s=s).fit(X_train, y_train)
    return np.asarray(ncc.predict_set(X_test), dtype=bool), np.asarray(ncc.classes_)


def s_from_url() -> float:
    """The value of ?s= if it is a number in range; otherwise (silently) the default."""
    try:
        value = float(st.query_params.get("s", S_DEFAULT))
    except (TypeError, ValueError):
        return S_DEFAULT
    if not math.isfinite(value) or not S_MIN <= value <= S_MAX:
        return S_DEFAULT
    return round(round(value / S_STEP) * S_STEP, 1)


def s_to_url() -> None:
    st.query_params["s"] = str(round(float(st.session_state["s"]), 1))


def percent(x: float) -> str:
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.0f}%"


st.title("Credal classification explorer")

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

if "s" not in st.session_state:
    st.session_state["s"] = s_from_url()

slider_col, _ = st.columns([1, 2])
with slider_col:
    s = st.slider(
        "s (hidden instances of the IDM)",
        min_value=S_MIN,
        max_value=S_MAX,
        step=S_STEP,
        format="%.1f",
        key="s",
        on_change=s_to_url,
        help="The prior strength of the NCC. The NBC always uses s = 1.",
    )

_, y_train, X_test, y_test = load_split(SAMPLE, N_TRAIN)
nbc = fitted_nbc(SAMPLE, N_TRAIN)
sets, classes = ncc_sets(SAMPLE, N_TRAIN, float(s))
y_true = np.asarray(y_test)
nbc_pred = np.asarray(nbc.predict(X_test))

scores = credal_scores(y_true, sets, classes)
split = precise_accuracy_split(y_true, nbc_pred, sets, classes)
n_indeterminate = int((sets.sum(axis=1) > 1).sum())

c1, c2, c3, c4 = st.columns(4)
c1.metric("NCC determinacy", percent(scores["determinacy"]),
          help="Share of test instances for which NCC returns a single class.")
c2.metric("NCC single accuracy", percent(scores["single_accuracy"]),
          help="Accuracy of NCC on the instances where it returns a single class.")
c3.metric("NBC accuracy", percent(split["accuracy"]),
          help="Accuracy of the NBC (s = 1) on all test instances.")
c4.metric("NBC accuracy where NCC is indeterminate", percent(split["accuracy_indeterminate"]),
          help=f"Accuracy of the NBC on the {n_indeterminate} test instances where NCC returns "
               "two or more classes (— if there are none).")

column = {label: j for j, label in enumerate(classes.tolist())}
contains_truth = np.array([lab in column and bool(sets[i, column[lab]]) for i, lab in enumerate(y_true)])
title = f"Size of the NCC set on each of the {len(y_true)} test instances"
figure = set_size_bar(sets, contains_truth, title=title)
st.plotly_chart(figure, key="set_sizes")

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
