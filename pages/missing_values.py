"""Page "Missing values": one instance with missing values, its NCC set as features move from missing at
random (MAR) to not MAR, side by side with MAR and imputation, and the counts behind each verdict."""

from __future__ import annotations

import hashlib

import streamlit as st

from app_support.missing_values import state as url
from app_support.missing_values.model import (
    dominance_view,
    hide_values,
    sample,
    scenario,
    upload_columns,
    upload_data,
)
from app_support.missing_values.state import DATA, MAX_STEPS, MECHANISMS, UPLOAD
from app_support.missing_values.text import MISSING_COUNTS, MISSING_HIDE_HELP, MISSING_INTRO, MISSING_TRY
from app_support.page import page_setup, show_chart, sync
from app_support.text import cite, plain
from app_support.uploads import LIMITS

KEY = "mv_"
STATE = url.STATE           # declared once, with the lessons' links into this page
on_change = sync(STATE, KEY)


def valid(name: str, options: list, fallback=None):
    """Keep the widget ``name``'s value among ``options`` (a link or another data set may not fit)."""
    key = KEY + name
    if st.session_state.get(key) not in options:
        st.session_state[key] = fallback if fallback in options else options[0]


def on_data_change() -> None:
    """A new data set: the lecture's scenario for the weather data; otherwise the first row with its first
    feature blanked and nothing hidden in training."""
    for name in ("hval", "a", "b", "tr"):
        st.session_state.pop(KEY + name, None)
    data = st.session_state[KEY + "data"]
    if data == "weather":
        for name in ("row", "missing", "hide", "mech", "hfeat", "hval"):
            default = STATE[name].default
            st.session_state[KEY + name] = list(default) if isinstance(default, tuple) else default
    else:
        first = [] if data == UPLOAD else [str(sample(data)[0].columns[0])]
        st.session_state[KEY + "row"], st.session_state[KEY + "missing"] = 1, first
        st.session_state[KEY + "hfeat"], st.session_state[KEY + "hide"] = (first or [""])[0], 0.0
    on_change()


# ================================================================ the page
page_setup("Missing values", STATE, prefix=KEY)
st.markdown(cite(MISSING_INTRO))
st.latex(r"a \succ b \iff \min_{\text{completions } v \text{ of the non-MAR values}}\ \inf_{t}"
         r"\frac{P_t(a, \tilde{\mathbf f}_{\text{obs}}, v)}{P_t(b, \tilde{\mathbf f}_{\text{obs}}, v)} > 1")

st.subheader("1 · Data")
data_col, hide_col = st.columns([1, 2])
data = data_col.selectbox("Data set", DATA, key=KEY + "data", on_change=on_data_change,
                          format_func=lambda d: "upload a CSV or ARFF file…" if d == UPLOAD else d)
if data == UPLOAD:
    upload = data_col.file_uploader("CSV or ARFF file (first row = names)",
                                    type=["csv", "txt", "tsv", "arff"], key=KEY + "upload",
                                    help=f"Up to {LIMITS.max_rows:,} rows and "
                                    f"{LIMITS.max_bytes // 2**20} MB; the file stays in this session.")
    if upload is None:
        st.info("Upload a file with categorical (or numeric) columns and a class column to start.")
        st.stop()
    columns, default_class, problem = upload_columns(upload.getvalue(), upload.name)
    if problem:
        st.error(f"**{plain(upload.name)}** cannot be used: {plain(problem)}.")
        st.stop()
    valid("class", columns, default_class)
    class_column = data_col.selectbox("Class column", columns, key=KEY + "class")
    X, y, notes, problem = upload_data(upload.getvalue(), upload.name, class_column)
    if problem:
        st.error(f"{plain(problem)}. Choose another class column.")
        st.stop()
    for note in notes:
        data_col.caption(f"{plain(note)[:1].upper()}{plain(note)[1:]}.")
    # the name too: its extension decides CSV or ARFF parsing
    data_key = f"upload-{hashlib.sha256(upload.getvalue()).hexdigest()[:16]}-{upload.name}-{class_column}"
else:
    X, y = sample(data)
    data_key = f"sample-{data}"
features = [str(c) for c in X.columns]
data_col.caption(f"{len(X)} rows, {len(features)} features, classes: "
                 f"{plain(', '.join(map(str, sorted(set(y)))))}.")

with hide_col:
    st.markdown("**Hide training cells** (to see each treatment under a known mechanism)")
    h1, h2 = st.columns(2)
    if st.session_state.get(KEY + "hfeat") not in features:    # a link or an upload without this feature
        st.session_state[KEY + "hide"] = 0.0
    valid("hfeat", features)
    hide_feature = h1.selectbox("Feature", features, key=KEY + "hfeat", on_change=on_change)
    mechanism = h1.radio("Mechanism", tuple(MECHANISMS), format_func=MECHANISMS.get, key=KEY + "mech",
                         on_change=on_change, help=MISSING_HIDE_HELP)
    values = list(hide_values(data_key, X, hide_feature))
    valid("hval", values)
    hide_value = h2.selectbox("Value hidden (not at random)", values, key=KEY + "hval", on_change=on_change,
                              disabled=mechanism != "mnar")
    hide = h2.slider("Probability of hiding a cell", 0.0, 1.0, step=0.05, key=KEY + "hide",
                     on_change=on_change, help=MISSING_HIDE_HELP)
    seed = h2.number_input("Seed", 0, 9_999, step=1, key=KEY + "seed", on_change=on_change)

# ---- sections 2-4 rerun alone when one of their widgets moves (the data and the hidden cells above do not
# change then: a change of those reruns the whole page); their views are cached per parameter set
@st.fragment
def instance_and_treatments() -> None:
    st.subheader("2 · The instance")
    i1, i2, i3 = st.columns([1, 2, 1])
    if not 1 <= st.session_state.get(KEY + "row", 1) <= len(X):
        st.session_state[KEY + "row"] = 1
    row = int(i1.number_input(f"Row (1–{len(X)})", 1, len(X), step=1, key=KEY + "row", on_change=on_change))
    st.session_state[KEY + "missing"] = [f for f in st.session_state.get(KEY + "missing", [])
                                         if f in features]
    missing = i2.multiselect("Features missing in the instance", features, key=KEY + "missing",
                             on_change=on_change, help="These values of the row are blanked before it is "
                             "classified; their order is the order in which they are declared not MAR below.")
    s = i3.slider("s (hidden instances of the IDM)", 0.1, 10.0, step=0.1, key=KEY + "s", on_change=on_change)
    leave_out = i1.toggle("Leave the row out of training", key=KEY + "loo", on_change=on_change)
    s = STATE["s"].parse(str(s))
    arguments = dict(row=row - 1, missing=tuple(f for f in features if f in missing),
                     leave_out=bool(leave_out), hide=float(hide), mechanism=mechanism,
                     hide_feature=hide_feature, hide_value=hide_value, seed=int(seed), s=float(s))
    try:
        view = scenario(data_key, X, y, **arguments)
    except ValueError as problem:
        st.error(f"**This case cannot be computed:** {plain(problem)}. Pick another row or hide fewer cells.")
        st.stop()
    treatments = view["treatments"]
    st.dataframe(view["shown_arrow"], hide_index=True, key="mv_instance")
    holes = {f: n for f, n in view["holes"].items() if n}
    st.caption(f"Cells hidden in training by the mechanism: {view['hidden']}. Missing training cells per "
               "feature: "
               + (plain(", ".join(f"{f} {n}" for f, n in holes.items())) if holes else "none")
               + ("." if leave_out else "; the row itself is part of the training data."))
    for message in view["warnings"]:
        st.caption(f"Note: {plain(message)}.")

    st.subheader("3 · The treatments side by side")
    classes = list(treatments[1].model.classes_)
    show_chart(view["grid"], key="mv_grid")
    st.dataframe(view["summary_arrow"], hide_index=True, key="mv_summary")
    conservative = [t for t in treatments if t.kind == "conservative"]
    if conservative:
        st.caption("Rows 'not MAR' declare the listed features not missing at random, in training and in the "
                   "instance, one more per row: the instance's missing features first, then the features "
                   f"with holes in training (at most {MAX_STEPS} rows). Each set contains the one above it.")
    else:
        st.caption("No value is missing (in the instance or in training): every treatment is the same NCC. "
                   "Blank a feature of the instance above.")
    st.info(MISSING_TRY if data == "weather" else "**Try this:** blank a feature of the instance, then hide "
            "the training cells holding its value (not at random) and watch the MAR rows become confident.")

    st.subheader("4 · The counts behind each verdict")
    st.markdown(MISSING_COUNTS)
    st.latex(r"\frac{P(a,\tilde{\mathbf f})}{P(b,\tilde{\mathbf f})} \ge \min_x "
             r"\frac{N(a) + s(1-x)}{N(b) + s x}"
             r"\prod_j \frac{N(a, v_j)}{N_j(a) + s(1-x)} \cdot \frac{N_j(b) + s x}{N_B(b, v_j) + s x}")
    explained = [i for i, t in enumerate(treatments) if t.kind != "nbc"]
    if st.session_state.get(KEY + "tr") not in explained:
        st.session_state[KEY + "tr"] = explained[-1]
    c1, c2, c3 = st.columns([2, 1, 1])
    chosen_index = c1.selectbox("Treatment", explained, format_func=lambda i: treatments[i].name,
                                key=KEY + "tr", on_change=on_change)
    chosen = treatments[chosen_index]
    labels = [str(c) for c in classes]
    valid("a", labels, str(treatments[0].members[0]))
    valid("b", [c for c in labels if c != st.session_state[KEY + "a"]])
    a = c2.selectbox("Class a (does it dominate…)", labels, key=KEY + "a", on_change=on_change)
    b = c3.selectbox("…class b?", [c for c in labels if c != a], key=KEY + "b", on_change=on_change)
    e, _, table = dominance_view(view, (data_key, *sorted(arguments.items())), int(chosen_index), a, b)
    st.dataframe(table, hide_index=True, key="mv_counts",
                 column_config={"treatment": st.column_config.TextColumn(width="medium"),
                                "factor": st.column_config.NumberColumn("factor at x*", format="%.4f")})
    if e.log_ratio == float("-inf"):
        why = "a zero count n(a, v) makes the ratio 0 under the least favourable prior"
    else:
        why = (f"the least favourable prior gives x* = {e.x_star:.3f} of s to {plain(b)}; class factor "
               f"{e.class_factor:.4f} × the feature factors = **{e.ratio:.4f}**")
    completion = ", ".join(f"{plain(f)} = {plain(v)}" for f, v in e.completion.items())
    st.markdown(f"Under **{plain(chosen.name)}**: {why}"
                + (f"; least favourable completion: {completion}" if completion else "") + ". "
                + (f"**{plain(a)} dominates {plain(b)}** (the ratio exceeds 1 for every prior"
                   + (" and every completion" if completion else "") + ")." if e.dominates else
                   f"**{plain(a)} does not dominate {plain(b)}** (ratio ≤ 1 for some prior"
                   + (" and completion" if completion else "") + ")."))


instance_and_treatments()
