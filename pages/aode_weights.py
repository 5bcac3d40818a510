"""Page "AODE compression weights": per-SPODE log-likelihoods, BMA posterior weights and compression
coefficients with their credal intervals (paper 001 §2.2-2.5), one instance's dominance tests, and
the five AODE-family classifiers compared under repeated cross-validation (on demand)."""

from __future__ import annotations

import streamlit as st

from app_support.aode_weights.model import (
    DATA,
    EPS_MAX,
    EPS_MIN,
    EPS_STEP,
    comparison,
    comparison_view,
    instance_view,
    sample_rows,
    url_state,
    weights_view,
)
from app_support.data import sample_names
from app_support.long_runs import interrupted, long_run
from app_support.page import page_setup, show_chart, sync, write_url
from app_support.text import cite
from app_support.url_state import UrlState

DATA_LABELS = {"synthetic_nb": "synthetic_nb (300 rows, 8 features, 3 classes)",
               "weather": "weather (14 rows, 4 features, play yes/no)"}
KEY = "aw_"        # session-state prefix of this page's widgets


def state():
    """The URL state of the data set chosen now (the bounds of n and row follow its rows)."""
    return url_state(sample_rows(st.session_state[KEY + "data"]))


def on_data_change() -> None:
    """A new data set: all its rows, its first row, at most 5 folds (3 below 50 rows); then the URL."""
    n_rows = sample_rows(st.session_state[KEY + "data"])
    st.session_state[KEY + "n"], st.session_state[KEY + "row"] = n_rows, 0
    st.session_state[KEY + "folds"] = min(st.session_state[KEY + "folds"], 5 if n_rows >= 50 else 3)
    sync(state(), KEY)()


page_setup("AODE compression weights", UrlState(DATA), prefix=KEY)   # the data set first,
STATE = state()
page_setup(None, STATE, prefix=KEY)                                                   # then what follows it
write_url(STATE, {f.name: st.session_state[KEY + f.name] for f in STATE})   # the values in use
st.markdown(
    cite("[AODE](/glossary#aode) averages $k$ **[SPODEs](/glossary#spode)** — naive-Bayes-like models in "
         "which one feature $A_j$ (the "
    "*super-parent*) is a parent of all the others. Paper 001 asks how to *weight* them: by [Bayesian "
    "model averaging](/glossary#bma) (**BMA-AODE**) or by "
    "**[compression coefficients](/glossary#compression)** "
    "(**COMP-AODE**), and then makes both "
    "credal (**BMA-AODE\\***, **COMP-AODE\\***) by letting the prior over the SPODEs range over a set.")
)
st.caption(
    cite("This AODE is paper 001's: the mean of the SPODEs' *posteriors* P(c | a, s_j), every feature a "
    "super-parent. It is not Webb et al.'s / Weka's AODE, which averages the *joints* P(c, a | s_j) and "
    "leaves out SPODEs whose super-parent value was seen fewer than m times in training (Weka: m = 1).")
)
st.latex(r"LL_j = \sum_{i=1}^n \log P(c^{(i)} \mid \mathbf a^{(i)}, s_j)"
         r"\qquad w^{\rm BMA}_j \propto e^{LL_j}\ \ (\text{pruned below } L_{\max}/10^4)")
st.latex(r"\pi_j = 1 - \frac{LL_j + \log\frac{1-\epsilon}{k}}{-nH(C) + \log\epsilon},\qquad "
         r"w^{\rm COMP}_j = \frac{\pi_j^{+}}{\sum_l \pi_l^{+}}")
st.latex(r"\pi_j \in \Big[1 - \frac{LL_j + \log\epsilon}{-nH(C)+\log\epsilon},\ "
         r"1 - \frac{LL_j + \log(1-k\epsilon)}{-nH(C)+\log\epsilon}\Big]")
st.info(
    "**Try this:** with *synthetic_nb*, set **training rows** to 10, then 200: BMA's largest weight "
    "jumps from about 0.14 to 0.94 — the SPODEs' log-likelihoods drift apart by many nats as $n$ grows, "
    "and $e^{LL_j}$ turns that into near-certainty about one model — while every compression weight stays "
    "near $1/k = 0.125$. Then raise **ε**: the credal intervals of $\\pi_j$ shrink and BMA-AODE\\* "
    "becomes more determinate (section 3)."
)
name = st.selectbox("Data set", sample_names(), key=KEY + "data", format_func=lambda s: DATA_LABELS.get(s, s),
                    on_change=on_data_change, help="Shipped sample data (sample_data/).")
n_rows = sample_rows(name)


@st.fragment
def models_and_instance() -> None:
    """ε, training rows, sections 1 and 2: moving a slider reruns this part only (cached per value)."""
    if st.session_state.get(KEY + "running") and interrupted(KEY, False):
        st.rerun()        # this move stopped a comparison: redraw the page, whose section 3 says so
    c1, c2 = st.columns(2)
    epsilon = c1.slider("ε (prior lower bound of every SPODE; prior of the null model)", EPS_MIN, EPS_MAX,
                        step=EPS_STEP, format="%.3f", key=KEY + "eps", on_change=sync(STATE, KEY),
                        help=cite("0.01 in paper 001. The credal sets need (k+1)·ε ≤ 1."))
    n_train = c2.slider("Training rows (a fixed random subset)", 4, n_rows, key=KEY + "n",
                        on_change=sync(STATE, KEY), help="The models of sections 1 and 2 are fitted on this "
                                                         "many rows.")
    try:
        view = weights_view(name, int(n_train), float(epsilon))
    except ValueError as exc:              # e.g. one class in a tiny subset, or epsilon too large
        st.error(f"Cannot fit the models: {exc}")
        return
    table, k = view["table"], len(view["table"])

    st.header("1. One weight per SPODE")
    show_chart(view["weights"], key="weights_chart", width="stretch")
    st.markdown(
        f"BMA's largest weight is **{table['bma_weight'].max():.3f}**; compression's is "
        f"**{table['comp_weight'].max():.3f}** (uniform would be {1 / k:.3f}). Null model: "
        f"$LL_0 = -nH(C) = {view['null_ll']:.2f}$ on n = {n_train} rows.")
    show_chart(view["compression"], key="compression_chart", width="stretch")
    st.caption("Dots: π_j under COMP-AODE's prior (eq. 5); bars: its range over COMP-AODE*'s "
               "[credal set](/glossary#credal-set) "
               "(eq. 10; with a single feature eq. 9 fixes its prior at 1−ε and the range is a point). A "
               "SPODE whose upper end is ≤ 0 is dropped by COMP-AODE*. A kept SPODE whose lower end is < 0 "
               "gets a negative weight at some priors, and its vote then counts against the class it "
               "prefers: that is eq. 12 as printed, which we keep (it needs LL_j < LL_0, i.e. a SPODE "
               "fitting worse than the [null model](/glossary#null-model); none does on the shipped "
               "sample data).")
    st.table(**view["text_shown"])

    st.header("2. One instance: the dominance tests")
    row = st.number_input("Row of the data set", 0, n_rows - 1, key=KEY + "row", on_change=sync(STATE, KEY),
                          step=1)
    info = instance_view(name, int(n_train), float(epsilon), int(row))
    st.markdown(f"Instance: {info['instance']} (true class `{info['truth']}`)")
    show_chart(info["posteriors"], key="posteriors_chart", width="stretch")
    st.latex(r"a \succ b \iff \min_{P(S)} \frac{\sum_j P(a\mid \tilde{\mathbf a}, s_j)\,w_j(P)}"
             r"{\sum_j P(b\mid \tilde{\mathbf a}, s_j)\,w_j(P)} > 1")
    st.table(**info["pairs_shown"])
    (bma_label, bma_p), (comp_label, comp_p) = info["bma"], info["comp"]
    st.success(f"BMA-AODE* returns {{{', '.join(info['bma_set'])}}} (BMA-AODE: `{bma_label}`, "
               f"P = {bma_p:.3f}); COMP-AODE* returns {{{', '.join(info['comp_set'])}}} "
               f"(COMP-AODE: `{comp_label}`, P = {comp_p:.3f}).")
    st.caption("BMA-AODE*'s minimum is at a vertex of the credal set (one SPODE at 1−(k̃−1)ε, the rest at "
               "ε); COMP-AODE*'s is computed in closed form "
               "([water-filling](/glossary#water-filling); [Dinkelbach](/glossary#dinkelbach)'s method "
               "for the "
               "ratio shown), no numerical solver. A verdict “a ≻ b” needs the minimum to beat 1 by more "
               "than a relative 10⁻¹²: a margin that small is treated as a tie, which can keep an extra "
               "class in the set but never removes one.")


@st.fragment
def comparison_section() -> None:
    """Section 3: the five classifiers under repeated CV, run on demand in the worker processes."""
    st.header("3. The five classifiers under repeated stratified cross-validation")
    c3, c4, c5 = st.columns([2, 2, 1], vertical_alignment="bottom")
    folds = c3.slider("Folds", 2, 10, key=KEY + "folds", on_change=sync(STATE, KEY))
    repeats = c4.slider("Repeats", 1, 10, key=KEY + "repeats", on_change=sync(STATE, KEY))
    run = c5.button("Run comparison", key=KEY + "run", type="primary",
                    help="Cross-validates the five classifiers with the ε chosen above, on all rows.")
    epsilon = float(st.session_state[KEY + "eps"])
    if interrupted(KEY, run):
        st.warning("The last comparison was stopped before it finished; press **Run comparison** to "
                   "start it again.")
    if run and folds > n_rows:     # the splitter deals each class round-robin: it only needs folds <= rows
        st.error(f"{folds} folds is more than the {n_rows} rows of the data set; choose fewer folds.")
    elif run:
        try:
            with long_run(KEY, "Stop", "Stops the cross-validation (nothing is kept)."):
                summary = comparison(name, epsilon, int(folds), int(repeats))
            st.session_state[KEY + "result"] = (name, epsilon, int(folds), int(repeats), summary)
        except ValueError as exc:
            st.error(f"Cannot cross-validate: {exc}")
    shown = st.session_state.get(KEY + "result")
    if shown is None or shown[0] != name:
        st.caption(f"Press **Run comparison** to cross-validate AODE, BMA-AODE, COMP-AODE, BMA-AODE* and "
                   f"COMP-AODE* on all {n_rows} rows of {name} with the ε above (a few seconds; the result "
                   "is kept for everyone who asks for the same settings).")
        return
    data, eps, k, r, summary = shown
    st.markdown(f"**{data}**, all {n_rows} rows, ε = {eps:.3f}: {k}-fold stratified cross-validation × {r} "
                f"(seed 0) — **mean over the {k * r} folds ± standard deviation**.")
    st.table(comparison_view(summary).set_index("classifier"))
    st.caption("Each number is the mean over folds of the fold's indicator, ± its standard deviation over "
               "the folds (the product's one rule: the Compare page gives the same numbers for the same "
               "protocol); an indicator undefined in a fold (e.g. set accuracy with no indeterminate "
               "prediction) is left out of that fold's mean, and “—” means no fold defines it. Accuracy "
               "of a credal classifier is its precise counterpart's. Brier = mean (1 − P(true class))². "
               "[u65](/glossary#utility), u80: utility-discounted accuracy, u(½) = 0.65 / 0.80.")


models_and_instance()
comparison_section()
