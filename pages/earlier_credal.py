"""Page "Credal model averaging, trees and the reject option": paper 001 §3.4-3.5's earlier credal
classifiers — CMA's inclusion intervals beside BMA-AODE's SPODE weights, a credal decision tree with an
instance's path and set — and the expected cost of a reject option against d."""

from __future__ import annotations

import streamlit as st

from app_support.data import sample_names
from app_support.earlier_credal.model import (
    D_GRID,
    DATA,
    inclusion_charts,
    reject_section,
    sample_rows,
    tree_chart,
    url_state,
)
from app_support.page import page_setup, show_chart, sync, write_url
from app_support.text import cite, plain
from app_support.url_state import UrlState

KEY = "ec_"        # session-state prefix of this page's widgets


def state():
    """The URL state of the data set chosen now (the bound of row follows its rows)."""
    return url_state(sample_rows(st.session_state[KEY + "data"]))


def on_data_change() -> None:
    st.session_state[KEY + "row"] = 0
    sync(state(), KEY)()


page_setup("Credal model averaging, trees and the reject option", UrlState(DATA), prefix=KEY)
STATE = state()
page_setup(None, STATE, prefix=KEY)
write_url(STATE, {f.name: st.session_state[KEY + f.name] for f in STATE})
url_sync = sync(STATE, KEY)
FULL_RUN_DATA = st.session_state[KEY + "data"]
st.markdown(
    cite("Paper 001 §3.4 compares COMP-AODE\\* with the two earlier credal classifiers: **credal model "
    "averaging** ([CMA](/glossary#cma); Corani & Zaffalon 2008) — "
    "[Bayesian model averaging](/glossary#bma) over the naive Bayes classifiers "
    "on every subset of features, with each feature's prior probability of inclusion free in [0.1, 0.9] — "
    "and the **[credal decision tree](/glossary#cdt)** (CDT; Abellán & Moral 2005) — splits chosen by "
    "the upper entropy of "
    "the [imprecise Dirichlet model](/glossary#idm) (IDM), leaves with IDM class intervals."))
# Everything below reruns alone (st.fragment) when one of its widgets moves: the title, the URL's hand-over
# and the introduction above stay as they are; every view is cached per parameter set.
@st.fragment
def views() -> None:
    c1, c2, c3 = st.columns(3)
    name = c1.selectbox("Data set", sample_names(), key=KEY + "data", on_change=on_data_change,
                        help="Shipped sample data (sample_data/).")
    s = c2.slider("IDM strength s (CMA, CDT, NCC)", 0.1, 5.0, step=0.1, key=KEY + "s", on_change=url_sync)
    eps = c3.slider("ε of BMA-AODE* / COMP-AODE*", 0.001, 0.1, step=0.001, format="%.3f", key=KEY + "eps",
                    on_change=url_sync)
    if name != FULL_RUN_DATA:          # a new data set: the row's bound and the URL follow it in a full run
        st.rerun()
    s, eps = round(float(s), 2), round(float(eps), 3)

    # --- 1 · model averaging
    st.subheader("1 · Which features matter: CMA against BMA-AODE")
    charts = inclusion_charts(name, s, eps)
    left, right = st.columns(2)
    show_chart(where=left, figure=charts["inclusion"], key="ec_inclusion")
    show_chart(where=right, figure=charts["spodes"], key="ec_spodes")
    st.caption("Left: CMA averages the 2^k naive Bayes classifiers on feature subsets; the posterior "
               "probability that a feature is in the model is BMA's at prior 1/2 (dot) and ranges over the "
               "bar as the prior ranges over CMA's [credal set](/glossary#credal-set). Right: "
               "[AODE](/glossary#aode) averages one SPODE per super-parent feature; BMA's weights "
               "concentrate on the likeliest [SPODEs](/glossary#spode), compression weights stay closer "
               "to 1/k.")

    # --- 2 · the tree
    st.subheader("2 · A credal decision tree")
    n_rows = sample_rows(name)
    c1, c2 = st.columns(2)
    row = c1.number_input(f"Instance (row 0 to {n_rows - 1})", 0, n_rows - 1, key=KEY + "row",
                          on_change=url_sync)
    depth = c2.slider("Depth shown (the instance's path is always drawn)", 1, 10, key=KEY + "depth",
                      on_change=url_sync)
    tree = tree_chart(name, s, int(depth), int(row))
    instance = tree["instance"]
    st.markdown(f"Instance {int(row)}: "
                + plain(", ".join(f"{k} = {v}" for k, v in instance["values"].items()))
                + f" (true class **{plain(instance['truth'])}**). The CDT returns "
                + f"**{{{plain(', '.join(instance['set']))}}}**.")
    st.dataframe(tree["intervals_arrow"], hide_index=True, key="ec_intervals")
    st.caption(f"The tree has {tree['nodes']} nodes, {tree['leaves']} leaves, depth "
               f"{tree['depth']}. A leaf with counts n_c (total N) gives P(c) ∈ [n_c/(N+s), "
               "(n_c+s)/(N+s)]; class a [dominates](/glossary#dominance) b when n_a ≥ n_b + s "
               "(interval dominance, as the original). "
               "Blue: splits, "
               "green: leaves, grey: folded splits (raise the depth to open them).")
    show_chart(tree["figure"], key="ec_tree", keep_height=True)   # its height follows its depth: not capped

    # --- 3 · reject option
    st.subheader(cite("3 · Credal classification against a reject option (001 §3.5)"))
    st.markdown(
        "A precise classifier can **reject** an instance at a cost d (0 < d < 1/2; a right answer costs 0, "
        "a wrong one 1): it should reject when its top posterior p\\* is below 1 − d, since answering then "
        "costs more than d in expectation. A credal classifier ignores d: on a large data set it rarely "
        "returns two classes. Made aware of d, it rejects its prior-dependent instances (several classes) "
        "and those whose *lower* probability of its class is below 1 − d — a superset of the precise "
        "rejections when its precise counterpart is inside its credal set. Below, both expected costs "
        "against d (lower is better).")
    d = st.slider("Rejection cost d", 0.01, 0.49, step=0.01, key=KEY + "d", on_change=url_sync)
    d = min(D_GRID, key=lambda grid: abs(grid - float(d)))
    reject = reject_section(name, s, eps, d)
    show_chart(reject["figure"], key="ec_reject")
    st.dataframe(reject["table_arrow"], hide_index=True, key="ec_reject_table")
    st.caption(f"At d = {d:.2f}: mean over stratified cross-validation folds. Lower probabilities are exact: "
               "the IDM's for the [NCC](/glossary#ncc), the credal set of priors for CMA, BMA-AODE* and "
               "COMP-AODE*, the leaf's IDM interval for the CDT.")


views()
