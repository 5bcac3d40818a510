"""Page "Compare on your data": upload CSV or ARFF files (or pick samples), choose the class column,
discretise inside each training fold, cross-validate every classifier, read the indicators, test
differences across data sets."""

from __future__ import annotations

import hashlib
import json

import pandas as pd
import streamlit as st

from app_support.bayesian_figures import coverage_determinacy_figure, simplex_figure
from app_support.compare.figures import (
    determinacy_accuracy_figure,
    figure_html,
    summary_view,
    utilities_figure,
)
from app_support.compare.model import (
    ALL_CLASSIFIERS,
    D_GRID,
    DEFAULT_LABELS,
    MATCH_CHOICES,
    REJECT_CLASSIFIERS,
    across_views,
    bayesian_tests,
    csv_bytes,
    fig5_frame,
    fig6_frame,
    fig7_views,
    reject_table,
    results_key,
    run_comparison,
    signed_rank_sample,
)
from app_support.data import sample_bytes, sample_class_column, sample_names
from app_support.long_runs import interrupted, long_run
from app_support.page import page_setup, show_chart, sync, write_url
from app_support.paper_001_figures import relative_utility_figure, safe_vs_prior_dependent_figure
from app_support.text import cite, cite_chart, cite_plain, plain
from app_support.uploads import LIMITS, load_table
from app_support.url_state import Choice, Flag, Names, Number, UrlState
from credal_core.data.column_checks import many_valued_integer_columns, many_valued_integer_message
from credal_core.data.csv_loader import CsvProblem, default_class_column
from credal_core.data.dataset import choose_columns
from credal_core.data.discretise import DISCRETISERS
from credal_core.data.preparation import MISSING_CHOICES
from credal_core.experiments.compare import summarise_comparison

MAX_DATASETS = 8
KEY = "cmp_"
CLASSIFIERS = tuple(spec.label for spec in ALL_CLASSIFIERS)     # the default ones, then the optional ones
STATE = UrlState(
    Names("samples", ("balloons", "iris", "monks2"), options=tuple(sample_names(include_numeric=True))),
    Names("clf", DEFAULT_LABELS, options=CLASSIFIERS, empty_is_default=True),
    Choice("disc", tuple(DISCRETISERS), "mdl"), Number("bins", 5, 2, 10, integer=True),
    Choice("missing", tuple(MISSING_CHOICES), "impute"), Number("folds", 5, 2, 10, integer=True),
    Number("repeats", 2, 1, 10, integer=True), Number("seed", 0, 0, 10**6, integer=True),
    Number("s", 1.0, 0.1, 10.0, step=0.1), Number("eps", 0.05, 0.0, 1.0, step=0.01),
    Number("alpha", 0.75, 0.01, 1.0, step=0.01),
    Number("signif", 0.1, 0.01, 0.5, step=0.01), Choice("match", tuple(MATCH_CHOICES), "none"),
    # views of the results (not part of the protocol): the optional sections and their inputs
    Flag("bayes", False), Number("rope", 0.01, 0.0, 0.2, step=0.005), Flag("sets", False),
    Flag("fig001", False), Flag("reject", False), Number("d", 0.2, 0.01, 0.49, step=0.01),
)
P_NAMES = {"p_left": "P(left): a better", "p_rope": "P(rope)", "p_right": "P(right): b better",
           "classifier_a": "a", "classifier_b": "b"}
VIEW_FIELDS = ("samples", "bayes", "rope", "sets", "fig001", "reject", "d")
RANKABLE = {"u65": "u65", "u80": "u80", "discounted_accuracy": "discounted accuracy",
            "accuracy": "accuracy of the precise label"}


def discretise_column(numeric_key: str, column: str) -> None:
    """The integer-column warning's button: add the column to the ones discretised in each fold."""
    st.session_state[numeric_key] = [*st.session_state.get(numeric_key, []), column]


# ---------------------------------------------------------------- the page
page_setup("Compare on your data", STATE, prefix=KEY)
st.markdown(
    cite(
        "Upload one or more CSV or ARFF files (or pick sample data sets), choose the class column, and every "
    "classifier of the explorer is cross-validated on them. Numeric columns are discretised **inside each "
    "training fold** (the test fold never influences its own cut points); missing values are imputed from "
    "the training fold, kept as a category, skipped by the classifiers "
    "([missing at random](/glossary#mar)), or — for the "
    "columns you name — treated conservatively as [NCC2](/glossary#ncc2) does. Credal classifiers are "
    "scored by their "
    "[determinacy](/glossary#determinacy), their accuracy when determinate, and utilities that reward a "
    "correct set less than a "
    "correct single class (001 §3.3); every figure is the **mean over folds** (± its standard deviation):"))
st.latex(r"x_i = \frac{[\,c_i \in \text{set}_i\,]}{|\text{set}_i|},\qquad u_{65}(x) = -0.6x^2 + 1.6x,\qquad "
         r"u_{80}(x) = -1.2x^2 + 2.2x")

# --- data
st.subheader("1 · Data")
uploads = st.file_uploader("Upload CSV or ARFF files (comma, semicolon, tab or bar separated; first row = "
                           "names)", type=["csv", "txt", "tsv", "arff"], accept_multiple_files=True,
                           key=KEY + "upload", help=f"Up to {LIMITS.max_rows:,} rows, {LIMITS.max_columns} "
                           f"columns, {LIMITS.max_bytes // 2**20} MB per file. Files stay in this session "
                           "only.")
st.multiselect("Sample data sets", sample_names(include_numeric=True), key=KEY + "samples",
               on_change=sync(STATE, KEY))
datasets, seen_titles = [], {}      # (title, key, LoadedTable, default class column); titles and keys unique
for position, upload in enumerate((uploads or [])[:MAX_DATASETS]):
    table, problem = load_table(upload.getvalue(), upload.name)
    if problem:
        st.error(f"**{plain(upload.name)}** cannot be used: {plain(problem)}.")
        continue
    key = f"upload{position}-{hashlib.sha256(upload.getvalue()).hexdigest()[:12]}"
    datasets.append((upload.name, key, table, default_class_column(table)))
if uploads and len(uploads) > MAX_DATASETS:
    st.warning(f"Only the first {MAX_DATASETS} uploaded files are used.")
for name in dict.fromkeys(st.session_state[KEY + "samples"]):          # each sample once
    table, _ = load_table(sample_bytes(name), f"{name}.csv")
    datasets.append((f"{name} (sample)", f"sample-{name}", table, sample_class_column(name)))
if not datasets:
    st.info("Upload a CSV file or pick a sample data set to start (ARFF files work too).")
    st.stop()

prepared = []          # (title, key, X, y, numeric, non-MAR columns, columns taken: the data part of the key)
for title, key, table, default_class in datasets:
    seen_titles[title] = seen_titles.get(title, 0) + 1
    title = title if seen_titles[title] == 1 else f"{title} ({seen_titles[title]})"
    with st.expander(f"{plain(title)}: {table.frame.shape[0]} rows × {table.frame.shape[1]} columns",
                     expanded=not key.startswith("sample-")):
        columns = list(table.frame.columns)
        class_column = st.selectbox("Class column", columns, index=columns.index(default_class),
                                    key=f"{KEY}class_{key}")
        st.caption(f"Read as {table.format.upper()} ({table.encoding}, delimiter {table.delimiter!r}). "
                   f"Missing cells: {sum(table.missing.values())}.")
        for note in table.notes:
            st.caption(f"Note: {plain(note)}.")
        id_like = [c for c in table.id_like if c != class_column]
        drop_ids = bool(id_like) and st.checkbox(f"Drop ID-like columns (a different value on every row): "
                                                 f"{plain(', '.join(id_like))}", value=True,
                                                 key=f"{KEY}dropid_{key}")
        try:
            choice = choose_columns(table, class_column, drop_id_like=drop_ids, max_levels=LIMITS.max_levels)
        except CsvProblem as problem:
            st.error(f"{plain(problem)}. Choose another class column.")
            continue
        for note in choice.notes:
            st.caption(f"{plain(note)[:1].upper()}{plain(note)[1:]}.")
        numeric_key = f"{KEY}numeric_{key}"
        st.session_state[numeric_key] = [c for c in st.session_state.get(numeric_key, choice.numeric)
                                         if c in choice.number_like]
        numeric = st.multiselect("Numeric columns to discretise (the others are categories)",
                                 choice.number_like, key=numeric_key)
        for column, distinct in many_valued_integer_columns(choice.X, exclude=numeric).items():
            st.warning(plain(many_valued_integer_message(column, distinct)[:1].upper()
                             + many_valued_integer_message(column, distinct)[1:]) + ".")
            if column in choice.number_like:
                st.button(f"Discretise {plain(column)}", key=f"{KEY}disc_{key}_{column}",
                          on_click=discretise_column, args=(numeric_key, column))
        with_missing = [c for c in choice.X.columns if choice.X[c].isna().any()]
        non_mar = st.multiselect("Columns not missing at random (used when missing values are treated "
                                 "conservatively)", with_missing, key=f"{KEY}nonmar_{key}",
                                 disabled=not with_missing) if with_missing else []
        st.caption("Classes: " + plain(", ".join(f"{c} ({n})" for c, n in choice.class_counts.items())) + ".")
        selection = json.dumps([class_column, list(choice.X.columns)], ensure_ascii=False)
        prepared.append((title, key, choice.X, choice.y, tuple(numeric), tuple(non_mar), selection))
if not prepared:
    st.stop()

# --- settings
st.subheader("2 · Classifiers and protocol")
with st.form("cmp_settings"):
    st.multiselect("Classifiers", CLASSIFIERS, key=KEY + "clf")
    c1, c2, c3 = st.columns(3)
    c1.selectbox("Discretiser (numeric columns)", list(DISCRETISERS),
                 format_func=lambda k: cite_plain(DISCRETISERS[k]), key=KEY + "disc")
    c1.slider("Bins (equal frequency)", 2, 10, key=KEY + "bins")
    c1.radio("Missing values", list(MISSING_CHOICES), format_func=lambda k: cite_plain(MISSING_CHOICES[k]),
             key=KEY + "missing")
    c2.slider("Folds", 2, 10, key=KEY + "folds")
    c2.slider("Repetitions", 1, 10, key=KEY + "repeats")
    c2.number_input("Seed", 0, 10**6, key=KEY + "seed")
    c3.slider("IDM strength s (NBC, NCC, CMA, CDT)", 0.1, 10.0, step=0.1, key=KEY + "s")
    c3.slider("NCC_ε: ε", 0.0, 1.0, step=0.01, key=KEY + "eps")
    c3.slider("LNCC_α, LTANC_α: α", 0.01, 1.0, step=0.01, key=KEY + "alpha")
    st.caption("Optional classifiers (add them above): the conformal sets over the "
               "[NBC](/glossary#nbc)'s or the [AODE](/glossary#aode)'s "
               "probabilities (split or class-conditional *Mondrian*), the LTANC, and the precise "
               "counterparts of [CMA](/glossary#cma) (BMA over naive feature subsets) and of "
               "[CDT](/glossary#cdt) (the same tree, one class "
               "per leaf).")
    k1, k2 = st.columns(2)
    k1.slider("Conformal sets: significance ε (coverage ≥ 1 − ε on average)", 0.01, 0.5, step=0.01,
              key=KEY + "signif")
    k2.selectbox("Conformal sets: matched determinacy", list(MATCH_CHOICES), format_func=MATCH_CHOICES.get,
                 key=KEY + "match", help=cite(
                     "Inside each training fold, choose the conformal significance so "
                 "that the sets are as determinate as this credal classifier's (at its default parameters) — "
                 "paper 000 compares classifiers at matched determinacy. The coverage guarantee then no "
                 "longer holds exactly."))
    submitted = st.form_submit_button("Run the comparison", type="primary")

settings = {field.name: st.session_state[KEY + field.name] for field in STATE}
settings.update(s=round(float(settings["s"]), 2), eps=round(float(settings["eps"]), 2),
                alpha=round(float(settings["alpha"]), 2), seed=int(settings["seed"]))
if not settings["clf"]:
    st.error("Choose at least one classifier.")
    st.stop()
if submitted or "cmp_active" not in st.session_state:
    st.session_state["cmp_active"] = json.dumps(settings, sort_keys=True)
    write_url(STATE, settings)
if interrupted("cmp_", submitted):
    st.warning("The comparison was stopped before it finished; nothing from it was kept. Press **Run the "
               "comparison** to start again — finished data sets stay cached.")
    st.stop()

protocol = json.dumps({k: v for k, v in json.loads(st.session_state["cmp_active"]).items()
                       if k not in VIEW_FIELDS}, sort_keys=True)
active = json.loads(protocol)
results = {}
with long_run("cmp_", "Stop", "Cancels the comparison; the page stays usable."):
    for title, key, X, y, numeric, non_mar, selection in prepared:
        try:
            results[title] = run_comparison(f"{key}|{selection}", X, y, numeric, non_mar, protocol,
                                            plain(title))
        except ValueError as problem:
            st.error(f"**{plain(title)}** could not be compared: {plain(problem)}.")
prepared = [entry for entry in prepared if entry[0] in results]
if not prepared:
    st.stop()

# --- results
st.subheader("3 · Results")
all_folds, summaries = [], {}
for tab, (title, key, *_) in zip(st.tabs([plain(title) for title, *_ in prepared]), prepared):
    folds = results[title]
    all_folds.append(folds.assign(dataset=title))
    summary = summaries[title] = summarise_comparison(folds)
    with tab:
        view = summary_view(summary)
        st.caption(f"↔ {view.shape[1]} columns: the table scrolls sideways (or opens full screen from its "
                   "toolbar).")
        st.dataframe(view, hide_index=True, key=f"cmp_table_{key}", column_config={
            "classifier": st.column_config.TextColumn(pinned=True)})
        for classifier, error in folds.loc[folds["error"] != "", ["classifier", "error"]].drop_duplicates() \
                .itertuples(index=False):
            st.warning(f"{classifier} could not be fitted on some folds: {plain(error)}")
        left, right = st.columns(2)
        scatter, bars = determinacy_accuracy_figure(summary), utilities_figure(summary)
        show_chart(where=left, figure=scatter, key=f"cmp_scatter_{key}")
        show_chart(where=right, figure=bars, key=f"cmp_bars_{key}")
        d1, d2, d3, d4 = st.columns(4)
        # CSVs and HTML figures (plotly.js, several MB) are built when clicked, not on every rerun
        d1.download_button("Per-fold results (CSV)", lambda f=folds: csv_bytes(f), f"{key}_folds.csv",
                           "text/csv", key=f"cmp_dl_folds_{key}")
        d2.download_button("Summary (CSV)", lambda f=summary: csv_bytes(f), f"{key}_summary.csv", "text/csv",
                           key=f"cmp_dl_summary_{key}")
        d3.download_button("Scatter (HTML)", lambda fig=scatter: figure_html(fig), f"{key}_determinacy.html",
                           "text/html", key=f"cmp_dl_scatter_{key}")
        d4.download_button("Utilities (HTML)", lambda fig=bars: figure_html(fig), f"{key}_utilities.html",
                           "text/html", key=f"cmp_dl_bars_{key}")
st.caption(cite("Precise classifiers are determinate everywhere "
                "([single accuracy](/glossary#single-accuracy) = accuracy). "
           "‘Precise acc. (indet.)’ is the accuracy of each credal classifier's precise counterpart on the "
           "instances where it returns several classes ([NBC-I](/glossary#nbc-i) of 000 §5): the lower, "
           "the better the credal "
           "classifier isolates hard instances. [Brier loss](/glossary#brier): 001's "
           "(1 − P(true class))², lower is better."))
st.download_button("All data sets, per fold (CSV)",
                   lambda: csv_bytes(pd.concat(all_folds, ignore_index=True)), "comparison_folds.csv",
                   "text/csv", key="cmp_dl_all")


# --- across data sets
views_key = results_key(protocol, prepared)


@st.fragment
def across_section() -> None:
    """Choosing the indicator reruns this section only (a lookup: see ``across_views``)."""
    st.subheader("4 · Across data sets")
    if len(summaries) < 2:
        st.info("Add a second data set (upload or sample) to compare the classifiers across data sets.")
        return
    indicator = st.selectbox("Indicator to compare (higher is better)", list(RANKABLE),
                             format_func=RANKABLE.get, key="cmp_rank_indicator")
    view = across_views(views_key, tuple(RANKABLE), _summaries=summaries)[indicator]
    result = view["result"]
    if result.left_out:
        st.warning("Left out (no score on some data set, e.g. it failed there): "
                   f"{', '.join(result.left_out)}.")
    if result.friedman is None:
        st.info("At least two classifiers with scores on every data set are needed.")
        return
    st.dataframe(view["scores"], key="cmp_scores")
    f = result.friedman
    iman = ("" if f.iman_davenport_statistic is None else
            f", Iman–Davenport F = {f.iman_davenport_statistic:.2f} (p = {f.iman_davenport_p_value:.3g})")
    st.markdown(f"**[Friedman](/glossary#friedman) test** on {f.n_datasets} data sets and "
                f"{f.n_classifiers} classifiers: "
                f"χ² = {f.statistic:.2f}, p = {f.p_value:.3g}{iman}. "
                f"Nemenyi critical difference (α = 0.05): **{result.critical_difference:.2f}** ranks.")
    if f.note:
        st.caption(f.note)
    show_chart(view["figure"], key="cmp_cd")
    st.caption(cite("Average ranks (1 = best) over the data sets; classifiers joined by a bar are not "
               "significantly different by the Nemenyi test (Demšar 2006), as 001 §3 compares its "
               "classifiers."))
    st.markdown("**[Wilcoxon](/glossary#wilcoxon) signed-rank test** for every pair (two-sided, exact):")
    first = [c for c in ("classifier_a", "classifier_b", "p_value", "significant", "better", "note")
             if c in result.pairs.columns]                 # the verdict first: nothing hidden at the right
    st.caption(f"↔ {result.pairs.shape[1]} columns (the verdict first; the test's counts and statistic at "
               "the right): the table scrolls sideways.")
    st.dataframe(result.pairs[first + [c for c in result.pairs.columns if c not in first]], hide_index=True,
                 key="cmp_wilcoxon", column_config={"note": st.column_config.TextColumn(width="large")})
    c1, c2 = st.columns(2)
    c1.download_button("Scores per data set (CSV)", view["scores_csv"], "scores.csv", "text/csv",
                       key="cmp_dl_scores")
    c2.download_button("Wilcoxon pairs (CSV)", view["pairs_csv"], "wilcoxon.csv", "text/csv",
                       key="cmp_dl_pairs")


across_section()


# --- further analyses (each on demand, mirrored in the URL)
folds_frame = pd.concat(all_folds, ignore_index=True)
url_sync = sync(STATE, KEY)


def opened(heading: str, label: str, flag: str) -> bool:
    """A further analysis' heading and its toggle (mirrored in the URL): True when shown."""
    st.subheader(heading)
    return st.toggle(label, key=KEY + flag, on_change=url_sync)


@st.fragment
def bayesian_section() -> None:
    if not opened("5 · Bayesian tests", "Show the Bayesian tests (Benavoli, Corani, Demšar & Zaffalon 2017)",
                  "bayes"):
        return
    st.markdown("Instead of a p-value, each test gives the posterior probability that the first classifier "
                "is practically better (**P(left)**), that the two are practically equivalent (**P(rope)**: "
                "their difference lies within ± the ROPE), or that the second is better (**P(right)**); a "
                "decision is usually taken above 0.95. Computed by `baycomp`.")
    c1, c2 = st.columns(2)
    indicator = c1.selectbox("Indicator (higher is better)", list(RANKABLE), format_func=RANKABLE.get,
                             key="cmp_bayes_indicator")
    rope = c2.number_input("ROPE: region of practical equivalence (0.01 = one point of u65)", 0.0, 0.2,
                           step=0.005, format="%.3f", key=KEY + "rope", on_change=url_sync)
    scores = across_views(views_key, tuple(RANKABLE), _summaries=summaries)[indicator]["result"].scores
    tests = bayesian_tests(views_key, indicator, float(rope), int(active["folds"]), _scores=scores,
                           _folds=folds_frame)
    if tests["signed_rank"] is None:
        st.info("The signed-rank test across data sets needs two data sets and two classifiers scored on "
                "all.")
    else:
        st.markdown("**Bayesian signed-rank test** across the data sets (one mean over folds per data set):")
        st.dataframe(tests["signed_rank"].round(3).rename(columns=P_NAMES), hide_index=True,
                     key="cmp_bayes_signed")
        pairs = [f"{a} vs {b}" for a, b in tests["signed_rank"][["classifier_a", "classifier_b"]].itertuples(
            index=False)]
        chosen = st.selectbox("Pair shown on the simplex", pairs, key="cmp_bayes_pair")
        a, b = tests["signed_rank"].iloc[pairs.index(chosen)][["classifier_a", "classifier_b"]]
        sample = signed_rank_sample(views_key, indicator, float(rope), a, b, _scores=scores)
        show_chart(simplex_figure(sample, (a, b), rope=float(rope),
                                       title=f"Posterior of {a} vs {b}<br><sup>signed-rank test</sup>"),
                        key="cmp_simplex")
    st.markdown(f"**Bayesian correlated t-test** per data set (the {int(active['folds'])}-fold scores of "
                f"each repetition, correlation ρ = 1/{int(active['folds'])}):")
    st.dataframe(tests["correlated_t"].round(3).rename(columns=P_NAMES), hide_index=True,
                 key="cmp_bayes_corr")


bayesian_section()


@st.fragment
def sets_section() -> None:
    st.subheader("6 · Set-valued classifiers: what each set promises")
    st.markdown(
        "A **conformal** set (split or Mondrian) holds the true class with probability at least 1 − ε "
        "**on average over instances** (Mondrian: within each class), if the rows are exchangeable; it says "
        "nothing about one given instance, and may be empty. A **credal** set holds every class that no "
        "other class [dominates](/glossary#dominance) under *every* prior of the classifier's set of "
        "priors: it is **robust to "
        "the prior on each instance**, but carries no coverage guarantee. Coverage, mean set size and "
        "the share of empty sets (section 3's table) put both on one scale; comparing them at matched "
        "determinacy (section 2) shows which spends its indeterminacy on the instances that need it.")
    if not st.toggle("Show coverage against determinacy", key=KEY + "sets", on_change=url_sync):
        return
    for tab, (title, key, *_) in zip(st.tabs([plain(title) for title, *_ in prepared]), prepared):
        show_chart(where=tab, figure=coverage_determinacy_figure(
            summaries[title], title="Coverage vs determinacy<br><sup>mean ± sd over folds</sup>"),
            key=f"cmp_coverage_{key}")


sets_section()


@st.fragment
def paper_section() -> None:
    if not opened(cite("7 · Paper 001's Figs. 5-7 from these results"),
                  cite_plain("Show Figs. 5, 6 and 7 of 001"), "fig001"):
        return
    fig5, fig6 = fig5_frame(summaries), fig6_frame(summaries)
    if fig5.empty:
        st.info("No credal classifier returned several classes here: Figs. 5 and 6 need one.")
    else:
        left, right = st.columns(2)
        show_chart(where=left, figure=safe_vs_prior_dependent_figure(
            fig5, title=cite_chart("001 Fig. 5 · precise accuracy") + "<br><sup>safe vs prior-dependent "
            "instances</sup>"),
            key="cmp_fig5")
        show_chart(where=right, figure=relative_utility_figure(
            fig6, title=cite_chart("001 Fig. 6 · credal utility / precise accuracy")), key="cmp_fig6")
        st.caption("Fig. 5: one point per data set and credal classifier; x is its precise label's accuracy "
                   "where the set has one class (single accuracy), y where it has several (NBC-I); below "
                   "the bisector, the credal classifier isolates the hard instances. Fig. 6: "
                   "[u65](/glossary#utility) and u80 "
                   "over the accuracy of the same classifier's precise label.")
    views = fig7_views(views_key, _summaries=summaries)
    if all(v is None for v in views.values()):
        st.info("Fig. 7 ranks [NCC](/glossary#ncc), CDT, CMA and COMP-AODE* across data sets: choose at "
                "least two of them and "
                "at least two data sets.")
        return
    left, right = st.columns(2)
    for column, indicator in ((left, "u65"), (right, "u80")):
        if views[indicator] is not None:
            show_chart(where=column, figure=views[indicator], key=f"cmp_fig7_{indicator}")
    st.caption("Fig. 7: Friedman average ranks of NCC, CDT, CMA and COMP-AODE* (those compared here) with "
               "the Nemenyi critical difference, under u65 and u80.")


paper_section()


@st.fragment
def reject_section() -> None:
    if not opened("8 · Reject option at a cost d",
                  cite_plain("Show the expected cost with a reject option (001 §3.5)"), "reject"):
        return
    chosen = st.slider("Cost d of a rejection (0 right, 1 wrong)", 0.01, 0.49, step=0.01, key=KEY + "d",
                       on_change=url_sync)
    d = min(D_GRID, key=lambda grid: abs(grid - float(chosen)))
    st.caption("The precise classifier rejects when its top posterior is below 1 − d; the credal one rejects "
               "its prior-dependent instances and those whose lower probability of its class is below 1 − d "
               f"({', '.join(REJECT_CLASSIFIERS)}; the NCC's lower probability exact on any number of "
               "classes, missing values included; a classifier refusing a fold is left out of it: the last "
               "column counts the folds each mean is over). Mean cost per instance over the folds; lower "
               "is better.")
    again = (st.button("Compute the reject costs again", key="cmp_reject_again")
             if st.session_state.get("cmp_reject_interrupted") else False)
    if interrupted("cmp_reject_", again):
        st.warning("The reject-option run was stopped before it finished; nothing from it was kept.")
        return
    rows = []
    with long_run("cmp_reject_", "Stop", "Cancels the reject-option run; the page stays usable."):
        for title, key, X, y, numeric, non_mar, selection in prepared:
            table = reject_table(f"{key}|{selection}", X, y, numeric, non_mar, protocol, plain(title))
            rows += _reject_rows(title, table, d)
    if not rows:
        st.info(f"Choose at least one of {', '.join(REJECT_CLASSIFIERS)} in section 2.")
        return
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="cmp_reject")


def _reject_rows(title: str, table: pd.DataFrame, d: float) -> list[dict]:
    """One row per classifier of one data set's reject table at the cost ``d``."""
    rows = []
    for model, part in table[(table["d"] - float(d)).abs() < 1e-9].groupby("model", sort=False):
        both = part.set_index("classifier")
        rows.append({"data set": title, "classifier": model,
                     **{f"{what}, {side}": round(both.loc[side, what], 4 if what == "cost" else 3)
                        for what in ("cost", "rejected") for side in ("precise", "credal")},
                     "folds": int(both["folds"].min())})
    return rows


reject_section()
