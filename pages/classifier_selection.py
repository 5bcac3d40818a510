"""Page "Classifier selection": dynamic selection between two naive Bayes classifiers on the plane of
their critical perturbation thresholds (paper 004, Li, De Bock & de Cooman)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_support.cache_selection import (
    DATASETS,
    PAPER_SUBSETS,
    accuracy_curve,
    fitted_selector,
    load_dataset,
    sfs_subsets,
    split,
    table2,
)
from app_support.figures_selection import accuracy_vs_k_figure, threshold_plane_figure
from app_support.routing import hand_over_to_navigation
from credal_core.experiments.paper_004 import PAPER_FIG3_BALLOONS

hand_over_to_navigation()   # a shared link opened first must still run through app.py

# ---------------------------------------------------------------- constants
DATA_LABELS = {"balloons": "Balloons (UCI, 76 rows — 004's data set)", "weather": "Weather (14 rows)",
               "synthetic_nb": "Synthetic naive Bayes (300 rows, 3 classes)",
               "tic_tac_toe": "Tic-Tac-Toe endgame (UCI, 958 rows — 004's TIC; slower)"}
DISTANCE_LABELS = {"euclidean": "Euclidean", "chebyshev": "Chebyshev"}
MODE_LABELS = {"resubstitution": "resubstitution (004)", "cross_validation": "out-of-fold (5-fold CV)"}
K_MIN, K_MAX, K_DEFAULT = 1, 30, 3
ROW_DEFAULT = 4          # Balloons, split 0: C1 and C2 disagree; k = 4 adds 4 tied rows and flips the choice
RUNS_MIN, RUNS_MAX, RUNS_STEP, RUNS_DEFAULT = 10, 100, 10, 100
SEED_MAX = 9_999
# widget keys (prefixed: session state is shared by all pages)
K_DATA, K_F1, K_F2, K_K, K_DIST, K_SEED = "cs_data", "cs_f1", "cs_f2", "cs_k", "cs_dist", "cs_seed"
K_SOURCE, K_ROW, K_RUNS, K_MODE, K_TABLE2 = "cs_source", "cs_row", "cs_runs", "cs_mode", "cs_table2"
SOURCES = {"test": "a row of the test set", "typed": "typed in"}


# ---------------------------------------------------------------- URL -> widget state (first run only)
def url_int(name: str, default: int, lo: int, hi: int) -> int:
    try:
        value = int(st.query_params.get(name, default))
    except (TypeError, ValueError):
        return default
    return value if lo <= value <= hi else default


def url_choice(name: str, options, default):
    value = st.query_params.get(name, default)
    return value if value in options else default


def url_features(name: str, columns: list[str], default: tuple) -> list[str]:
    raw = st.query_params.get(name)
    if raw is None:
        return list(default)
    chosen = [c for c in str(raw).split(",") if c in columns]
    return chosen if chosen else list(default)


def init_state() -> None:
    """Fill session state from the URL once per data set, so a shared link reproduces the view."""
    if K_DATA not in st.session_state:
        st.session_state[K_DATA] = url_choice("data", DATASETS, "balloons")
    for key, name, default, lo, hi in ((K_K, "k", K_DEFAULT, K_MIN, K_MAX), (K_SEED, "seed", 0, 0, SEED_MAX),
                                       (K_ROW, "row", ROW_DEFAULT, 0, 10_000),
                                       (K_RUNS, "runs", RUNS_DEFAULT, RUNS_MIN, RUNS_MAX)):
        if key not in st.session_state:
            value = url_int(name, default, lo, hi)
            st.session_state[key] = value - value % RUNS_STEP if key == K_RUNS else value
    for key, name, options, default in ((K_DIST, "dist", DISTANCE_LABELS, "euclidean"),
                                        (K_MODE, "mode", MODE_LABELS, "resubstitution"),
                                        (K_SOURCE, "source", SOURCES, "test")):
        if key not in st.session_state:
            st.session_state[key] = url_choice(name, options, default)
    if K_TABLE2 not in st.session_state:
        st.session_state[K_TABLE2] = st.query_params.get("table2") == "1"


def default_subsets(name: str) -> tuple[tuple, tuple]:
    if name in PAPER_SUBSETS:
        return PAPER_SUBSETS[name]
    best, second, _ = sfs_subsets(name)
    return best, second


def init_features(name: str, columns: list[str]) -> None:
    """Feature and typed-instance widgets follow the data set; from the URL on the first visit."""
    if st.session_state.get("cs_features_for") == name:
        return
    first_visit = "cs_features_for" not in st.session_state
    best, second = default_subsets(name)
    st.session_state[K_F1] = url_features("f1", columns, best) if first_visit else list(best)
    st.session_state[K_F2] = url_features("f2", columns, second) if first_visit else list(second)
    typed = str(st.query_params.get("x", "")).split("|") if first_visit else []
    X, _ = load_dataset(name)
    for j, col in enumerate(columns):
        values = sorted(X[col].unique())
        wanted = typed[j] if j < len(typed) else None
        st.session_state[f"cs_x_{name}_{col}"] = wanted if wanted in values else values[0]
    st.session_state["cs_features_for"] = name


def to_url() -> None:
    s = st.session_state
    name = s[K_DATA]
    X, _ = load_dataset(name)
    params = {"data": name, "f1": ",".join(s[K_F1]), "f2": ",".join(s[K_F2]), "k": str(s[K_K]),
              "dist": s[K_DIST], "seed": str(s[K_SEED]), "mode": s[K_MODE], "runs": str(s[K_RUNS]),
              "source": s[K_SOURCE]}
    if s[K_SOURCE] == "test":
        params["row"] = str(s[K_ROW])
    else:
        params["x"] = "|".join(str(s.get(f"cs_x_{name}_{c}", "")) for c in X.columns)
    if s[K_TABLE2]:
        params["table2"] = "1"
    if {k: st.query_params.get(k) for k in st.query_params} != params:
        st.query_params.from_dict(params)


def on_data_change() -> None:
    st.session_state[K_ROW] = 0


def show_accuracy_curve(curve: pd.DataFrame, runs: int, k: int, is_paper: bool) -> None:
    """004 Fig. 3 for the current data and features, with the peaks in words."""
    figure = accuracy_vs_k_figure(curve, k=k if k <= 20 else None,
                                  paper=PAPER_FIG3_BALLOONS if is_paper else None)
    st.plotly_chart(figure, key="accuracy_chart")
    acc = curve.pivot(index="k", columns="classifier", values="accuracy")
    best_k = {c: int(acc[c].idxmax()) for c in ("selector (Euclidean)", "selector (Chebyshev)")}
    st.markdown(
        f"Over {runs} splits: C1 **{acc['C1'].iloc[0]:.4f}**, C2 **{acc['C2'].iloc[0]:.4f}**; the Euclidean "
        f"selector peaks at k = {best_k['selector (Euclidean)']} "
        f"(**{acc['selector (Euclidean)'].max():.4f}**), the Chebyshev one at k = "
        f"{best_k['selector (Chebyshev)']} (**{acc['selector (Chebyshev)'].max():.4f}**)."
        + (" 004 reports C1 0.776502, C2 0.746948 and, at k = 3, 0.788961 (Euclidean) and 0.788485 "
           "(Chebyshev); its splits are not published, so only the pattern can be compared."
           if is_paper else "")
    )


# ---------------------------------------------------------------- the page
st.title("Classifier selection")
st.markdown(
    "Two naive Bayes classifiers **C1** and **C2** look at different features. For a new instance, which "
    "one should we trust? Paper 004 measures how **robust** each prediction is: the *critical "
    "perturbation threshold* is the largest amount $s$ of imprecision (an imprecise Dirichlet model "
    "around the Laplace-smoothed counts) that the classifier can absorb without its answer becoming "
    "indeterminate. Every training instance becomes a point (threshold of C1, threshold of C2) on the "
    "**threshold plane**; a new instance is handed to the classifier that was right more often among "
    "its $k$ nearest training points."
)
st.latex(
    r"P(c)=\frac{n(c)+1+s\,t(c)}{n+|\mathcal C|+s},\qquad "
    r"P(f_i\mid c)=\frac{n(c,f_i)+1+s\,t_{i,c}(f_i)}{n(c)+|\mathcal F_i|+s}"
    r"\qquad (t,\ t_{i,c}\ \text{any probability mass functions})"
)
st.latex(r"s^*(x)=\sup\{s\ge 0:\ \text{every such NBC predicts the Laplace NBC's class } \hat c(x)\}")
st.latex(
    r"\text{use C2 for } x \iff \sum_{i\in N_k(x)}[\,C_2(x_i)=y_i\,]"
    r" \;>\; \sum_{i\in N_k(x)}[\,C_1(x_i)=y_i\,]"
)
st.markdown(
    "where $N_k(x)$ are the $k$ training instances whose points $(s_1^*(x_i), s_2^*(x_i))$ are nearest to "
    "$(s_1^*(x), s_2^*(x))$ — Euclidean or Chebyshev ($\\max(|\\Delta s_1|, |\\Delta s_2|)$) distance; "
    "ties of the two counts go to C1. On categorical data many training instances share the same point, "
    "so the $k$-th nearest point is often one of several at the same distance. 004 does not say which to "
    "take; here **all of them** count, so $N_k(x)$ may hold more than $k$ rows and the choice never "
    "depends on the order of the rows in the file:"
)
st.latex(r"N_k(x)=\{\,i:\ d(x,x_i)\le d_{(k)}(x)\,\},\qquad d_{(k)}(x)=\text{the }k\text{-th smallest "
         r"of the distances } d(x,x_i)")
st.info(
    "**Try this:** the default view is Balloons (004's data set; C1 = all four features, C2 = colour, "
    "act, age), split 0, test row 4, where C1 says F and C2 says T (the truth). At k = 3 its three "
    "nearest training rows sit exactly on its own point of the plane; C2 was right on 2 of them, C1 on 1, "
    "so the selector hands the instance to C2 and is right. Drag **k** to 4: the next point is shared by "
    "4 more rows, all of them count, and on those 7 rows C1 was right 4 times against 3 for C2 — C1 is "
    "used and the answer is wrong. Watch the green diamonds (Euclidean) and purple stars (Chebyshev) "
    "spread as k grows. The curve at the bottom is 004 Fig. 3: the selectors beat both classifiers at "
    "small k."
)

init_state()
c1, c2, c3 = st.columns(3)
with c1:
    name = st.selectbox("Data set", list(DATASETS), format_func=DATA_LABELS.get, key=K_DATA,
                        on_change=on_data_change)
X, y = load_dataset(name)
columns = list(X.columns)
init_features(name, columns)
with c2:
    f1 = st.multiselect("Features of C1", columns, key=K_F1,
                        help="Default: 004 Table 1 (Balloons) or the best subset found by sequential "
                             "forward selection (SFS) on the whole data set.")
with c3:
    f2 = st.multiselect("Features of C2", columns, key=K_F2,
                        help="Default: 004 Table 1 (Balloons) or the second-best subset found by SFS.")

c1, c2, c3, c4 = st.columns(4)
with c1:
    k = st.slider("k (nearest training points)", K_MIN, K_MAX, key=K_K,
                  help="004 Fig. 3 varies k from 2 to 20; its best value on Balloons is 3.")
with c2:
    distance = st.radio("Distance used for the decision", list(DISTANCE_LABELS), key=K_DIST,
                        format_func=DISTANCE_LABELS.get, horizontal=True,
                        help="The plot shows the neighbours under both distances.")
with c3:
    seed = st.number_input("Split (seed of the random 70/30 split)", 0, SEED_MAX, step=1, key=K_SEED)
with c4:
    mode = st.radio("Training thresholds", list(MODE_LABELS), key=K_MODE, format_func=MODE_LABELS.get,
                    help="Resubstitution (as 004 reads): thresholds and hits of the training rows come "
                         "from C1 and C2 learned on the whole training set. Out-of-fold: each training "
                         "row is scored by classifiers learned without it.")

classes = sorted(map(str, pd.unique(pd.Series(y))))
if len(classes) > 2:
    st.info(f"This data set has {len(classes)} classes ({', '.join(classes)}). A classifier is *right* on "
            "an instance when it predicts exactly its class; each threshold is the largest s for which the "
            "NCC still returns only the classifier's class, i.e. the smallest over all rival classes.")

if not f1 or not f2:
    to_url()
    st.warning("Choose at least one feature for C1 and for C2.")
    st.stop()
f1t, f2t = tuple(c for c in columns if c in f1), tuple(c for c in columns if c in f2)
if f1t == f2t:
    st.warning("C1 and C2 use the same features: they always agree, so the selector simply returns C1 "
               "(ties of the success rates go to C1). Choose different subsets to see a selection.")

train, test = split(name, int(seed))
try:
    selectors = {d: fitted_selector(name, f1t, f2t, int(seed), int(k), d, mode) for d in DISTANCE_LABELS}
except ValueError as err:
    to_url()
    st.error(f"The selector cannot be learned on the training part of split {seed}: {err} "
             "Try another split or other features.")
    st.stop()
selector = selectors[distance]

# ---- the instance
st.header("1. A test instance on the threshold plane")
source = st.radio("Test instance", list(SOURCES), format_func=SOURCES.get, key=K_SOURCE, horizontal=True)
if source == "test":
    if st.session_state[K_ROW] >= len(test):
        st.session_state[K_ROW] = 0
    row = st.number_input(f"Row of the test set (0 … {len(test) - 1})", 0, len(test) - 1, step=1, key=K_ROW)
    instance = X.iloc[[test[int(row)]]]
    truth = str(y[test[int(row)]])
else:
    cols = st.columns(min(len(columns), 4))
    values = {}
    for j, col in enumerate(columns):
        with cols[j % len(cols)]:
            values[col] = st.selectbox(col, sorted(X[col].unique()), key=f"cs_x_{name}_{col}")
    instance = pd.DataFrame([values], columns=columns)
    truth = None
to_url()

info = {d: s.explain(instance).iloc[0] for d, s in selectors.items()}
chosen = info[distance]
training = selector.training_table()
fig = threshold_plane_figure(training, test_point=(chosen["threshold_1"], chosen["threshold_2"]),
                             neighbours={d: info[d]["neighbours"] for d in DISTANCE_LABELS},
                             k=min(selector.k_, len(train)))
st.plotly_chart(fig, key="plane_chart")
counts = training["outcome"].value_counts()
st.caption(
    f"{len(train)} training rows (70%) of split {seed}; identical points are merged (bigger marker = more "
    f"rows). Both right: {counts.get('both right', 0)}, only C1: {counts.get('only C1', 0)}, "
    f"only C2: {counts.get('only C2', 0)}, neither: {counts.get('neither', 0)}. Every training row at a "
    "distance at most the k-th smallest is a neighbour: when rows tie at that distance, more than k rows "
    "are counted (and the row order never matters)."
)

described = ", ".join(f"{c} = {instance.iloc[0][c]}" for c in columns)
kk = min(selector.k_, len(train))     # a k above the number of training rows uses them all
if selector.k_ > len(train):
    st.caption(f"k = {selector.k_} is more than the {len(train)} training rows: all of them are the "
               "neighbours.")
n1, n2, used = int(chosen["hits_1"]), int(chosen["hits_2"]), int(chosen["n_neighbours"])
verdict = (f"C2 was right more often ({n2} of {used} against {n1}), so the selector uses **C2**"
           if chosen["chosen"] == "C2" else
           f"C1 was right at least as often ({n1} of {used} against {n2} for C2; ties go to C1), so the "
           "selector uses **C1**")
tied = sum(d == chosen["distances"][-1] for d in chosen["distances"])
neighbourhood = f"its {kk} nearest training points ({DISTANCE_LABELS[distance]} distance"
neighbourhood += ")" if used == kk else (f"; {used} rows, because {tied} of them tie at the distance of "
                                         f"neighbour number {kk} and all of them count)")
truth_text = "" if truth is None else (f" The true class is **{truth}**: the selector is "
                                       f"{'right' if str(chosen['prediction']) == truth else 'wrong'}.")
st.markdown(
    f"**The instance** ({described}) has critical thresholds **s₁ = {chosen['threshold_1']:.4f}** for C1 "
    f"(which predicts **{chosen['prediction_1']}**) and **s₂ = {chosen['threshold_2']:.4f}** for C2 (which "
    f"predicts **{chosen['prediction_2']}**). Among {neighbourhood} {verdict}: the prediction is "
    f"**{chosen['prediction']}**.{truth_text}"
)
st.table(pd.DataFrame({
    "distance": [DISTANCE_LABELS[d] for d in DISTANCE_LABELS],
    "C1 right on neighbours": [f"{info[d]['success_1']:.0%}" for d in DISTANCE_LABELS],
    "C2 right on neighbours": [f"{info[d]['success_2']:.0%}" for d in DISTANCE_LABELS],
    "neighbours used": [int(info[d]["n_neighbours"]) for d in DISTANCE_LABELS],
    "classifier used": [info[d]["chosen"] for d in DISTANCE_LABELS],
    "prediction": [str(info[d]["prediction"]) for d in DISTANCE_LABELS],
    "neighbour rows (training positions)": [", ".join(map(str, info[d]["neighbours"]))
                                            for d in DISTANCE_LABELS],
}).set_index("distance"))

# ---- accuracy vs k
st.header("2. Accuracy vs k over random 70/30 splits (004 Fig. 3)")
runs = st.slider("Number of random splits", RUNS_MIN, RUNS_MAX, step=RUNS_STEP, key=K_RUNS,
                 help="004 averages over 100 random 70/30 splits.")
to_url()
try:
    curve = accuracy_curve(name, f1t, f2t, int(runs), mode)
except ValueError as err:
    curve = None
    st.error(f"The accuracy curve cannot be computed for these settings: {err}")
is_paper = name == "balloons" and (f1t, f2t) == PAPER_SUBSETS["balloons"]
if curve is not None:
    show_accuracy_curve(curve, int(runs), int(k), is_paper)

# ---- Table 2
st.header("3. 004 Table 2: k chosen by cross-validation")
show_table = st.toggle("Compute Table 2 for this data set (k chosen by 5-fold CV on each training set — "
                       "slower)", key=K_TABLE2)
to_url()
try:
    table = table2(name, f1t, f2t, int(runs), mode) if show_table else None
except ValueError as err:
    table = None
    st.error(f"Table 2 cannot be computed for these settings: {err}")
if table is not None:
    shown = table.copy()
    for c in ("C1", "C2", "selector (Euclidean)", "selector (Chebyshev)"):
        shown[c] = shown[c].map(lambda v: f"{v:.4f}")
    st.table(shown.set_index(["data set", "source"]))
    if name in PAPER_SUBSETS and (f1t, f2t) == PAPER_SUBSETS[name]:
        st.caption("The paper's splits are not published: compare the pattern (the selectors above both "
                   "classifiers) rather than the third decimal.")
    else:
        st.caption("004 Table 2 has no row for this data set and these features: only ours is shown.")
