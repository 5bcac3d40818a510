"""Page "Classifier selection": dynamic selection between two naive Bayes classifiers on the plane of
their critical perturbation thresholds (paper 004, Li, De Bock & de Cooman)."""

from __future__ import annotations

import streamlit as st

from app_support.classifier_selection.counts import (
    COUNTS,
    format_table,
    is_table,
    parse_table,
    table_name,
    table_of,
)
from app_support.classifier_selection.counts import threshold as table_threshold
from app_support.classifier_selection.figures import DISTANCE_LABELS
from app_support.classifier_selection.model import (
    DATA,
    DATASETS,
    DISTANCES,
    K_MAX,
    K_MIN,
    PAPER_SUBSETS,
    TABLE,
    class_names,
    column_values,
    curve_frame,
    curve_view,
    decision,
    decision_words,
    default_subsets,
    load_dataset,
    split,
    table2,
    url_state,
)
from app_support.long_runs import interrupted, long_run
from app_support.page import page_setup, show_chart, write_url
from app_support.pair_tables import counts_table
from app_support.text import cite, cite_plain
from app_support.url_state import UrlState

DATA_LABELS = {"balloons": cite_plain("Balloons (UCI, 76 rows, as in 004)"), "weather": "Weather (14 rows)",
               "synthetic_nb": "Synthetic naive Bayes (300 rows, 3 classes)",
               "tic_tac_toe": cite_plain("Tic-Tac-Toe endgame (UCI, 958 rows; slower; TIC in 004)"),
               COUNTS: "A two-class count table (lesson 6)"}
MODE_LABELS = {"resubstitution": cite_plain("resubstitution (004)"),
               "cross_validation": "out-of-fold (5-fold CV)"}
SOURCE_LABELS = {"test": "a row of the test set", "typed": "typed in"}
KEY, T2 = "cs_", "cs_t2_"     # session-state prefixes: the widgets, Table 2's long run


def typed_key(name: str, col: str) -> str:
    return f"{KEY}x_{name}_{col}"


def to_url() -> None:
    """Mirror the view in the URL (row for a test row, x for a typed one, table2 only when on)."""
    s, name = st.session_state, data_name()
    values = {f.name: s.get(KEY + f.name) for f in STATE}       # one look-up each (a class reruns it a lot)
    values = {k: v for k, v in values.items() if v is not None}
    values["x"] = tuple(s.get(typed_key(name, c), "") for c in column_values(name))
    values.pop("x" if values.get("source") == "test" else "row", None)
    if values.get("data") != COUNTS:
        values.pop("counts", None)
    if not values.get("table2"):
        values.pop("table2", None)
    write_url(STATE, values)


def data_name() -> str:
    """The chosen data set's name: a sample's, or a count table's (its text is checked when it comes in)."""
    choice = st.session_state[KEY + "data"]
    return table_name(parse_table(st.session_state[KEY + "counts"])) if choice == COUNTS else choice


def on_data_change() -> None:
    """A new data set: its default features, its first test row and first values (a count table: the
    instance x|x… it is about, typed in)."""
    name = data_name()
    st.session_state[KEY + "f1"], st.session_state[KEY + "f2"] = map(list, default_subsets(name))
    st.session_state[KEY + "row"] = 0
    for col, values in column_values(name).items():
        st.session_state[typed_key(name, col)] = values[0]
    if is_table(name):
        st.session_state[KEY + "source"] = "typed"
    st.session_state.pop(KEY + "note", None)


def on_table_change() -> None:
    """A count table typed in: kept if it reads (a new table: its defaults), else the last one and a note."""
    text = st.session_state[KEY + "counts"]
    try:
        parse_table(text)
    except ValueError as err:
        st.session_state[KEY + "counts"] = st.session_state[KEY + "table_ok"]
        st.session_state[KEY + "note"] = f"The count table typed in cannot be read: {err}. Kept the last one."
        return
    on_data_change()


def count_table(pair, columns: list, f1t: tuple, f2t: tuple) -> None:
    """Section 0 of a count table: the table, and C1's and C2's thresholds of its instance on all rows."""
    st.header("0. The count table and its instance")
    st.markdown(counts_table(pair))
    instance = ", ".join(f"{c} = x" for c in columns)
    st.markdown(
        f"Trained on **all {pair.n_c + pair.n_not} rows** (no split), the Laplace NBCs' "
        f"[critical perturbation thresholds](/glossary#perturbation-threshold) of the instance ({instance}) "
        f"are **{table_threshold(pair, f1t):.3f}** for C1 ({', '.join(f1t)}) and "
        f"**{table_threshold(pair, f2t):.3f}** for C2 ({', '.join(f2t)}) — the thresholds "
        "[lesson 6](/lessons?lesson=classifier-selection) asks about. Sections 1 and 2 below train C1 and C2 "
        "on a random 70% of these rows instead, so their "
        "thresholds s₁, s₂ differ.")


page_setup("Classifier selection", UrlState(DATA, TABLE), prefix=KEY)    # the data set, then its fields
if st.session_state[KEY + "data"] == COUNTS:
    try:
        st.session_state[KEY + "table_ok"] = st.session_state[KEY + "counts"] = format_table(
            parse_table(st.session_state[KEY + "counts"]))                        # its canonical text
    except ValueError as err:                     # a link's table that does not read: the default data set
        st.session_state[KEY + "data"], st.session_state[KEY + "counts"] = DATA.default, TABLE.default
        st.warning(f"The count table in the link cannot be read: {err}. Showing "     # once, under the title
                   f"{DATA_LABELS[DATA.default]} instead.")
name = data_name()
X, y = load_dataset(name)
columns = list(X.columns)
STATE = url_state(tuple(columns), default_subsets(name), tuple(column_values(name).values()))
url = page_setup(None, STATE, prefix=KEY)
for col, value in zip(column_values(name), url["x"]):
    st.session_state.setdefault(typed_key(name, col), value)
st.markdown(
    cite(
        "Two [naive Bayes classifiers](/glossary#nbc) **C1** and **C2** look at different features. For "
        "a new instance, which "
    "one should we trust? Paper 004 measures how **robust** each prediction is: the [*critical "
    "perturbation threshold*](/glossary#perturbation-threshold) is the largest amount $s$ of imprecision "
    "(an [imprecise Dirichlet model](/glossary#idm) "
    "around the Laplace-smoothed counts) that the classifier can absorb without its answer becoming "
    "indeterminate. Every training instance becomes a point (threshold of C1, threshold of C2) on the "
    "**[threshold plane](/glossary#threshold-plane)**; a new instance is handed to the classifier that "
    "was right more often among "
    "its $k$ nearest training points.")
)
st.latex(r"P(c)=\frac{n(c)+1+s\,t(c)}{n+|\mathcal C|+s},\qquad "
         r"P(f_i\mid c)=\frac{n(c,f_i)+1+s\,t_{i,c}(f_i)}{n(c)+|\mathcal F_i|+s}"
         r"\qquad (t,\ t_{i,c}\ \text{any probability mass functions})")
st.latex(r"s^*(x)=\sup\{s\ge 0:\ \text{every such NBC predicts the Laplace NBC's class } \hat c(x)\}")
st.latex(r"\text{use C2 for } x \iff \sum_{i\in N_k(x)}[\,C_2(x_i)=y_i\,]"
         r" \;>\; \sum_{i\in N_k(x)}[\,C_1(x_i)=y_i\,]")
st.markdown(
    cite(
        "where $N_k(x)$ are the $k$ training instances whose points $(s_1^*(x_i), s_2^*(x_i))$ are "
        "nearest to "
    "$(s_1^*(x), s_2^*(x))$ — Euclidean or Chebyshev ($\\max(|\\Delta s_1|, |\\Delta s_2|)$) distance; "
    "ties of the two counts go to C1. On categorical data many training instances share the same point, "
    "so the $k$-th nearest point is often one of several at the same distance. 004 does not say which to "
    "take; here **all of them** count, so $N_k(x)$ may hold more than $k$ rows and the choice never "
    "depends on the order of the rows in the file:")
)
st.latex(r"N_k(x)=\{\,i:\ d(x,x_i)\le d_{(k)}(x)\,\},\qquad d_{(k)}(x)=\text{the }k\text{-th smallest "
         r"of the distances } d(x,x_i)")
st.info(
    "**Try this:** section 0 shows the two thresholds of the count table's instance on all its rows (lesson "
    "6 asks about them). Predict what multiplying every count by 2 does to them (e.g. 8-6,5-2,3-4 → "
    "16-12,10-4,6-8: the same proportions, twice the rows), then type the new table." if is_table(name) else
    cite("**Try this:** the default view is Balloons (004's data set; C1 = all four features, C2 = colour, "
    "act, age), split 0, test row 4, where C1 says F and C2 says T (the truth). At k = 3 its three "
    "nearest training rows sit exactly on its own point of the plane; C2 was right on 2 of them, C1 on 1, "
    "so the selector hands the instance to C2 and is right. Drag **k** to 4: the next point is shared by "
    "4 more rows, all of them count, and on those 7 rows C1 was right 4 times against 3 for C2 — C1 is "
    "used and the answer is wrong. Watch the green diamonds (Euclidean) and purple stars (Chebyshev) "
    "spread as k grows. The curve at the bottom is 004 Fig. 3: the selectors beat both classifiers at "
    "small k.")
)

c1, c2, c3 = st.columns(3)
c1.selectbox("Data set", [*DATASETS, COUNTS], format_func=DATA_LABELS.get, key=KEY + "data",
             on_change=on_data_change)
f1 = c2.multiselect("Features of C1", columns, key=KEY + "f1",
                    help=cite(
                        "Default: 004 Table 1 (Balloons) or the best subset found by sequential forward "
                         "selection (SFS) on the whole data set."))
f2 = c3.multiselect("Features of C2", columns, key=KEY + "f2",
                    help=cite("Default: 004 Table 1 (Balloons) or the second-best subset found by SFS."))
c1, c2 = st.columns(2)
mode = c1.radio("Training thresholds", list(MODE_LABELS), key=KEY + "mode", format_func=MODE_LABELS.get,
                horizontal=True,
                help=cite(
                    "Resubstitution (as 004 reads): thresholds and hits of the training rows come from C1 "
                     "and C2 learned on the whole training set. Out-of-fold: each training row is scored by "
                     "classifiers learned without it."))
runs = c2.slider("Number of random 70/30 splits (sections 2 and 3)", 10, 100, step=10, key=KEY + "runs",
                 help=cite("004 averages over 100 random 70/30 splits."))
if is_table(name):
    st.text_input("Count table: n(c)-n(¬c), then n(c, x)-n(¬c, x) for each feature", key=KEY + "counts",
                  on_change=on_table_change,
                  help="Rows with exactly these counts: class c or ¬c; each feature x (the instance's value) "
                       "or o (any other). E.g. 8-6,5-2,3-4: 8 rows of c, 6 of ¬c; f1 = x on 5 of c and 2 of "
                       "¬c; f2 = x on 3 and 4.")
if KEY + "note" in st.session_state:
    st.warning(st.session_state[KEY + "note"])
classes = class_names(name)
if len(classes) > 2:
    st.info(f"This data set has {len(classes)} classes ({', '.join(classes)}). A classifier is *right* on "
            "an instance when it predicts exactly its class; each threshold is the largest s for which the "
            "[NCC](/glossary#ncc) still returns only the classifier's class, i.e. the smallest over all "
            "rival classes.")
if not f1 or not f2:
    to_url()            # (otherwise the fragment below writes the URL, once its widgets have their values)
    st.warning("Choose at least one feature for C1 and for C2.")
    st.stop()
f1t, f2t = tuple(c for c in columns if c in f1), tuple(c for c in columns if c in f2)
if f1t == f2t:
    st.warning("C1 and C2 use the same features: they always agree, so the selector simply returns C1 "
               "(ties of the success rates go to C1). Choose different subsets to see a selection.")
is_paper = name in PAPER_SUBSETS and (f1t, f2t) == PAPER_SUBSETS[name]
if is_table(name):
    count_table(table_of(name), columns, f1t, f2t)


@st.fragment
def instance_and_curve() -> None:
    """k, distance, split and the instance: sections 1 and 2 rerun alone (cached per value)."""
    if st.session_state.get(T2 + "running") and interrupted(T2, False):
        st.rerun()        # this move stopped Table 2: redraw the page, whose section 3 says so
    c1, c2, c3 = st.columns(3)
    k = c1.slider("k (nearest training points)", K_MIN, K_MAX, key=KEY + "k",
                  help=cite("004 Fig. 3 varies k from 2 to 20; its best value on Balloons is 3."))
    distance = c2.radio("Distance used for the decision", list(DISTANCES), key=KEY + "dist",
                        format_func=DISTANCE_LABELS.get, horizontal=True,
                        help="The plot shows the neighbours under both distances.")
    seed = c3.number_input("Split (seed of the random 70/30 split)", 0, 9_999, step=1, key=KEY + "seed")
    train, test = split(name, int(seed))

    st.header("1. A test instance on the threshold plane")
    source = st.radio("Test instance", list(SOURCE_LABELS), format_func=SOURCE_LABELS.get, key=KEY + "source",
                      horizontal=True)
    if source == "test":
        if st.session_state[KEY + "row"] >= len(test):
            st.session_state[KEY + "row"] = 0
        row = st.number_input(f"Row of the test set (0 … {len(test) - 1})", 0, len(test) - 1, step=1,
                              key=KEY + "row")
        instance, truth = tuple(X.iloc[test[int(row)]]), str(y[test[int(row)]])
    else:
        cols = st.columns(min(len(columns), 4))
        instance = tuple(cols[j % len(cols)].selectbox(col, values, key=typed_key(name, col))
                         for j, (col, values) in enumerate(column_values(name).items()))
        truth = None
    to_url()
    try:
        view = decision(name, f1t, f2t, int(seed), int(k), mode, instance)
    except ValueError as err:
        st.error(f"The selector cannot be learned on the training part of split {seed}: {err} "
                 "Try another split or other features.")
        return
    show_chart(view["plane"], key="plane_chart")
    counts = view["counts"]
    st.caption(
        f"{len(train)} training rows (70%) of split {seed}; identical points are merged (bigger marker = "
        f"more rows). Both right: {counts.get('both right', 0)}, only C1: {counts.get('only C1', 0)}, "
        f"only C2: {counts.get('only C2', 0)}, neither: {counts.get('neither', 0)}. Every training row at a "
        "distance at most the k-th smallest is a neighbour: when rows tie at that distance, more than k "
        "rows are counted (and the row order never matters).")
    if k > len(train):
        st.caption(f"k = {k} is more than the {len(train)} training rows: all of them are the neighbours.")
    st.markdown(decision_words(name, f1t, f2t, int(seed), int(k), mode, instance, distance, truth))
    st.table(view["table"], hide_index=False)      # Arrow, converted once per view (the index: distance)

    st.header(cite("2. Accuracy vs k over random 70/30 splits (004 Fig. 3)"))
    settings = (name, f1t, f2t, int(runs), mode)
    try:
        curve_frame(*settings)          # shared by the process: no copy, no replay per student
    except ValueError as err:
        st.error(f"The accuracy curve cannot be computed for these settings: {err}")
        return
    shown = curve_view(*settings, int(k))
    show_chart(shown["figure"], key="accuracy_chart")
    st.markdown(cite(shown["text"]))


@st.fragment
def table_2() -> None:
    """Section 3: 004 Table 2 on demand, a long run in the worker processes (with a Stop button)."""
    st.header(cite("3. 004 Table 2: k chosen by cross-validation"))
    show = st.toggle("Compute Table 2 for this data set (k chosen by 5-fold CV on each training set — "
                     "slower)", key=KEY + "table2", on_change=to_url)
    if not show:
        return
    if interrupted(T2, st.session_state.pop(T2 + "again", False)):
        st.warning("Table 2 was stopped before it finished.")
        st.button("Compute Table 2 again", key=T2 + "button",
                  on_click=lambda: st.session_state.update({T2 + "again": True}))
        return
    try:
        with long_run(T2, "Stop", "Stops the computation of Table 2 (nothing is kept)."):
            table = table2(name, f1t, f2t, int(runs), mode)
    except ValueError as err:
        st.error(f"Table 2 cannot be computed for these settings: {err}")
        return
    shown = table.copy()
    for c in ("C1", "C2", "selector (Euclidean)", "selector (Chebyshev)"):
        shown[c] = shown[c].map(lambda v: f"{v:.4f}")
    st.table(shown.set_index(["data set", "source"]))
    st.caption("The paper's splits are not published: compare the pattern (the selectors above both "
               "classifiers) rather than the third decimal." if is_paper else
               "004 Table 2 has no row for this data set and these features: only ours is shown.")


instance_and_curve()
table_2()
