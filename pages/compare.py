"""Page "Compare on your data": upload CSVs (or pick samples), choose the class column, discretise inside each
training fold, cross-validate every classifier, read the indicators, test differences across data sets."""

from __future__ import annotations

import hashlib
import json
import math
import re

import pandas as pd
import streamlit as st

from app_support.data import sample_bytes, sample_class_column, sample_names
from app_support.figures_compare import determinacy_accuracy_figure, figure_html, utilities_figure
from app_support.figures_stats import critical_difference_figure
from app_support.long_runs import interrupted, long_run
from app_support.routing import hand_over_to_navigation
from credal_core.data.csv_loader import (
    CsvLimits,
    CsvProblem,
    check_class_column,
    default_class_column,
    neutralise_formulas,
    read_csv_bytes,
)
from credal_core.data.discretise import DISCRETISERS
from credal_core.data.preparation import MISSING_CHOICES
from credal_core.experiments.compare import (
    COMPARISON_INDICATORS,
    ClassifierSpec,
    available_classifiers,
    compare_classifiers,
    summarise_comparison,
)
from credal_core.stats import friedman_test, nemenyi_critical_difference, wilcoxon_pairs

hand_over_to_navigation()   # a shared link opened first must still run through app.py

LIMITS = CsvLimits(max_bytes=20 * 1024 * 1024, max_rows=20_000, max_columns=300, max_levels=200)
MAX_DATASETS = 8
MARKDOWN_SPECIAL = re.compile(r"[\\`*_{}\[\]()#+\-.!|<>$~:]")
KEY = "cmp_"
INDICATOR_NAMES = {
    "accuracy": "Accuracy", "brier": "Brier loss", "determinacy": "Determinacy",
    "single_accuracy": "Single acc.", "set_accuracy": "Set acc.", "indeterminate_size": "Indet. size",
    "discounted_accuracy": "Discounted acc.", "u65": "u65", "u80": "u80", "nbc_i": "Precise acc. (indet.)",
}
DEFAULTS = {"samples": ["balloons", "iris", "monks2"], "clf": [], "disc": "mdl", "bins": 5,
            "missing": "impute", "folds": 5, "repeats": 2, "seed": 0, "s": 1.0, "eps": 0.05, "alpha": 0.75}


# ---------------------------------------------------------------- URL <-> widgets
def _from_url(name: str):
    default = DEFAULTS[name]
    raw = st.query_params.get(name)
    if raw is None:
        return default
    try:
        if name in ("samples", "clf"):
            return [v for v in raw.split(",") if v]
        if name in ("bins", "folds", "repeats", "seed"):
            return int(raw)
        if name in ("s", "eps", "alpha"):
            value = float(raw)
            return value if math.isfinite(value) else default
        return raw
    except ValueError:
        return default


def _init_widgets(classifier_labels: list[str]) -> None:
    bounds = {"bins": (2, 10), "folds": (2, 10), "repeats": (1, 10), "seed": (0, 10**6), "s": (0.1, 10.0),
              "eps": (0.0, 1.0), "alpha": (0.01, 1.0)}
    for name in DEFAULTS:
        if KEY + name in st.session_state:
            continue
        value = _from_url(name)
        if name == "samples":
            value = [v for v in value if v in sample_names(include_numeric=True)]
        elif name == "clf":
            value = [v for v in value if v in classifier_labels] or classifier_labels
        elif name == "disc" and value not in DISCRETISERS:
            value = DEFAULTS[name]
        elif name == "missing" and value not in MISSING_CHOICES:
            value = DEFAULTS[name]
        elif name in bounds and not bounds[name][0] <= value <= bounds[name][1]:
            value = DEFAULTS[name]
        if name in ("s", "eps", "alpha"):
            value = round(float(value), 2)
        st.session_state[KEY + name] = value


def _to_url(settings: dict) -> None:
    st.query_params.clear()
    for name in DEFAULTS:
        value = settings[name]
        st.query_params[name] = ",".join(value) if isinstance(value, list) else (
            f"{value:g}" if isinstance(value, float) else str(value))


def plain(text) -> str:
    """User text (file, column and class names, messages quoting them) shown literally in markdown."""
    return MARKDOWN_SPECIAL.sub(r"\\\g<0>", str(text)).replace("\n", " ")


# ---------------------------------------------------------------- cached computations
@st.cache_data(show_spinner=False, max_entries=32)
def load_table(data: bytes) -> tuple[object, str]:
    """(LoadedTable, "") or (None, the problem in words) — cached by the file's bytes."""
    try:
        return read_csv_bytes(data, LIMITS), ""
    except CsvProblem as problem:
        return None, str(problem)


def _specs(labels: list[str], s: float, eps: float, alpha: float) -> tuple[ClassifierSpec, ...]:
    """The chosen classifiers with this page's parameters (s for the NCCs, ε for NCC_ε, α for LNCC)."""
    out = []
    for spec in available_classifiers():
        if spec.label not in labels:
            continue
        params = dict(spec.params)
        if spec.estimator in ("NCC", "NaiveBayes"):
            params["s"] = s
        if spec.label.startswith("NCC_ε"):
            params["epsilon"] = eps
        if spec.estimator == "LNCC":
            params["alpha"] = alpha
        out.append(ClassifierSpec(spec.label, spec.estimator, params))
    return tuple(out)


@st.cache_data(show_spinner=False, max_entries=64)
def run_comparison(data_key: str, _X: pd.DataFrame, _y: pd.Series, numeric: tuple, settings_json: str,
                   title: str) -> pd.DataFrame:
    """Per-fold indicators of every chosen classifier on one data set (the bar lives and dies in here, so a
    cache hit replays nothing).

    ``data_key`` identifies the file and the columns taken from it, so the table itself (``_X``, ``_y``)
    is not hashed on every rerun (seconds for a large upload).
    """
    X, y = _X, _y
    settings = json.loads(settings_json)
    bar = st.progress(0.0, text=f"{title}: cross-validating…")
    try:
        results = _compare(X, y, numeric, settings, bar, title)
    except Exception:          # a refused data set: no half-filled bar left behind the message
        bar.empty()
        raise
    bar.empty()
    return results


def _compare(X, y, numeric, settings, bar, title) -> pd.DataFrame:
    return compare_classifiers(
        X, y, numeric=list(numeric), specs=_specs(settings["clf"], settings["s"], settings["eps"],
                                                  settings["alpha"]),
        n_splits=settings["folds"], n_repeats=settings["repeats"], discretiser=settings["disc"],
        n_bins=settings["bins"], missing=settings["missing"], seed=settings["seed"],
        progress=lambda done, total: bar.progress(done / total, text=f"{title}: fold {done} of {total}"))


def _csv(frame: pd.DataFrame) -> bytes:
    return neutralise_formulas(frame).to_csv(index=False).encode("utf-8")


def _summary_view(summary: pd.DataFrame) -> pd.DataFrame:
    """Mean ± sd per indicator in %, as text (Brier and size as numbers)."""
    view = pd.DataFrame({"classifier": summary["classifier"]})
    for key in COMPARISON_INDICATORS:
        scale, digits = (1, 3) if key in ("brier", "indeterminate_size") else (100, 1)
        mean, std = summary[f"{key}_mean"] * scale, summary[f"{key}_std"] * scale
        view[INDICATOR_NAMES[key]] = [
            "—" if pd.isna(m) else (f"{m:.{digits}f}" if pd.isna(d) else f"{m:.{digits}f} ± {d:.{digits}f}")
            for m, d in zip(mean, std)]
    view["folds"] = summary["folds"]
    return view


# ---------------------------------------------------------------- the page
st.title("Compare on your data")
st.markdown(
    "Upload one or more CSV files (or pick sample data sets), choose the class column, and every "
    "classifier of the explorer is cross-validated on them. Numeric columns are discretised **inside each "
    "training fold** (the test fold never influences its own cut points), missing values are imputed from "
    "the training fold or kept as a category. Credal classifiers are scored by their determinacy, their "
    "accuracy when determinate, and utilities that reward a correct set less than a correct single class "
    "(001 §3.3):"
)
st.latex(r"x_i = \frac{[\,c_i \in \text{set}_i\,]}{|\text{set}_i|},\qquad u_{65}(x) = -0.6x^2 + 1.6x,\qquad "
         r"u_{80}(x) = -1.2x^2 + 2.2x")
classifier_labels = [spec.label for spec in available_classifiers()]
_init_widgets(classifier_labels)

# --- data
st.subheader("1 · Data")
uploads = st.file_uploader("Upload CSV files (comma, semicolon, tab or bar separated; first row = names)",
                           type=["csv", "txt", "tsv"], accept_multiple_files=True, key=KEY + "upload",
                           help=f"Up to {LIMITS.max_rows:,} rows, {LIMITS.max_columns} columns, "
                                f"{LIMITS.max_bytes // 2**20} MB per file. Files stay in this session only.")
def _samples_to_url() -> None:
    st.query_params["samples"] = ",".join(st.session_state[KEY + "samples"])


st.multiselect("Sample data sets", sample_names(include_numeric=True), key=KEY + "samples",
               on_change=_samples_to_url)

datasets = []          # (title, key, LoadedTable, default class column); titles and keys unique
seen_titles: dict[str, int] = {}


def _unique_title(title: str) -> str:
    seen_titles[title] = seen_titles.get(title, 0) + 1
    return title if seen_titles[title] == 1 else f"{title} ({seen_titles[title]})"


for position, upload in enumerate((uploads or [])[:MAX_DATASETS]):
    data = upload.getvalue()
    table, problem = load_table(data)
    if problem:
        st.error(f"**{plain(upload.name)}** cannot be used: {plain(problem)}.")
        continue
    key = f"upload{position}-{hashlib.sha256(data).hexdigest()[:12]}"
    datasets.append((_unique_title(upload.name), key, table, default_class_column(table)))
if uploads and len(uploads) > MAX_DATASETS:
    st.warning(f"Only the first {MAX_DATASETS} uploaded files are used.")
for name in dict.fromkeys(st.session_state[KEY + "samples"]):          # each sample once
    table, problem = load_table(sample_bytes(name))
    datasets.append((_unique_title(f"{name} (sample)"), f"sample-{name}", table, sample_class_column(name)))
if not datasets:
    st.info("Upload a CSV file or pick a sample data set to start.")
    st.stop()

prepared = []          # (title, key, X, y, numeric, columns taken: the data part of the cache key)
for title, key, table, default_class in datasets:
    with st.expander(f"{plain(title)}: {table.frame.shape[0]} rows × {table.frame.shape[1]} columns",
                     expanded=not key.startswith("sample-")):
        columns = list(table.frame.columns)
        class_column = st.selectbox("Class column", columns, index=columns.index(default_class),
                                    key=f"{KEY}class_{key}")
        st.caption(f"Read as {table.encoding}, delimiter {table.delimiter!r}. Missing cells: "
                   f"{sum(table.missing.values())}.")
        for note in table.notes:
            st.caption(f"Note: {plain(note)}.")
        drop = []
        id_like = [c for c in table.id_like if c != class_column]
        if id_like and st.checkbox(f"Drop ID-like columns (a different value on every row): "
                                   f"{plain(', '.join(id_like))}", value=True, key=f"{KEY}dropid_{key}"):
            drop += id_like
        too_many = [c for c in columns if c not in table.numeric and c != class_column and
                    table.frame[c].nunique() > LIMITS.max_levels and c not in drop]
        if too_many:
            st.caption(f"Left out (more than {LIMITS.max_levels} categories): {plain(', '.join(too_many))}.")
            drop += too_many
        empty = [c for c in columns if table.frame[c].isna().all() and c != class_column]
        drop += [c for c in empty if c not in drop]
        try:
            info = check_class_column(table, class_column, min_per_class=2)
        except CsvProblem as problem:
            st.error(f"{plain(problem)}. Choose another class column.")
            continue
        keep = table.frame[class_column].notna()
        if info["missing_rows"]:
            st.caption(f"{info['missing_rows']} rows without a class are left out.")
        if info["rare"]:
            st.warning(f"Classes seen once only ({plain(', '.join(map(str, info['rare'][:5])))}) cannot be "
                       "cross-validated; their rows are left out.")
            keep &= ~table.frame[class_column].isin(info["rare"])
        features = [c for c in columns if c != class_column and c not in drop]
        if not features:
            hint = " (uncheck “Drop ID-like columns” to keep those)" if id_like else ""
            st.error(f"No feature column is left{hint}.")
            continue
        candidates = [c for c in features if c in table.number_like]
        numeric = st.multiselect("Numeric columns to discretise (the others are categories)", candidates,
                                 default=[c for c in table.numeric if c in candidates],
                                 key=f"{KEY}numeric_{key}")
        frame = table.frame.loc[keep, features]
        labels = table.frame.loc[keep, class_column]
        if labels.nunique() < 2:
            st.error("Fewer than two classes remain after leaving out rare classes.")
            continue
        counts = labels.value_counts()
        st.caption("Classes: " + plain(", ".join(f"{c} ({n})" for c, n in counts.items())) + ".")
        selection = json.dumps([class_column, features], ensure_ascii=False)   # rows kept follow from these
        prepared.append((title, key, frame, labels, tuple(numeric), selection))
if not prepared:
    st.stop()

# --- settings
st.subheader("2 · Classifiers and protocol")
with st.form("cmp_settings"):
    st.multiselect("Classifiers", classifier_labels, key=KEY + "clf")
    c1, c2, c3 = st.columns(3)
    c1.selectbox("Discretiser (numeric columns)", list(DISCRETISERS), format_func=DISCRETISERS.get,
                 key=KEY + "disc")
    c1.slider("Bins (equal frequency)", 2, 10, key=KEY + "bins")
    c1.radio("Missing values", list(MISSING_CHOICES), format_func=MISSING_CHOICES.get, key=KEY + "missing")
    c2.slider("Folds", 2, 10, key=KEY + "folds")
    c2.slider("Repetitions", 1, 10, key=KEY + "repeats")
    c2.number_input("Seed", 0, 10**6, key=KEY + "seed")
    c3.slider("IDM strength s (NBC, NCC)", 0.1, 10.0, step=0.1, key=KEY + "s")
    c3.slider("NCC_ε: ε", 0.0, 1.0, step=0.01, key=KEY + "eps")
    c3.slider("LNCC_α: α", 0.01, 1.0, step=0.01, key=KEY + "alpha")
    submitted = st.form_submit_button("Run the comparison", type="primary")

settings = {name: st.session_state[KEY + name] for name in DEFAULTS}
for name in ("s", "eps", "alpha"):
    settings[name] = round(float(settings[name]), 2)
settings["seed"] = int(settings["seed"])
if not settings["clf"]:
    st.error("Choose at least one classifier.")
    st.stop()
if submitted or "cmp_active" not in st.session_state:
    st.session_state["cmp_active"] = json.dumps(settings, sort_keys=True)
    _to_url(settings)
if interrupted("cmp_", submitted):
    st.warning("The comparison was stopped before it finished; nothing from it was kept. Press **Run the "
               "comparison** to start again — finished data sets stay cached.")
    st.stop()

active = st.session_state["cmp_active"]
protocol = json.dumps({k: v for k, v in json.loads(active).items() if k != "samples"}, sort_keys=True)
results = {}
with long_run("cmp_", "Stop", "Cancels the comparison; the page stays usable."):
    for title, key, X, y, numeric, selection in prepared:
        try:
            results[title] = run_comparison(f"{key}|{selection}", X, y, numeric, protocol, plain(title))
        except ValueError as problem:
            st.error(f"**{plain(title)}** could not be compared: {plain(problem)}.")
prepared = [entry for entry in prepared if entry[0] in results]
if not prepared:
    st.stop()

# --- results
st.subheader("3 · Results")
tabs = st.tabs([plain(title) for title, *_ in prepared])
all_folds, summaries = [], {}
for tab, (title, key, *_) in zip(tabs, prepared):
    folds = results[title]
    all_folds.append(folds.assign(dataset=title))
    summary = summaries[title] = summarise_comparison(folds)
    with tab:
        st.dataframe(_summary_view(summary), hide_index=True, key=f"cmp_table_{key}")
        errors = folds.loc[folds["error"] != "", ["classifier", "error"]].drop_duplicates()
        for classifier, error in errors.itertuples(index=False):
            st.warning(f"{classifier} could not be fitted on some folds: {plain(error)}")
        left, right = st.columns(2)
        scatter = determinacy_accuracy_figure(summary)
        bars = utilities_figure(summary)
        left.plotly_chart(scatter, key=f"cmp_scatter_{key}")
        right.plotly_chart(bars, key=f"cmp_bars_{key}")
        d1, d2, d3, d4 = st.columns(4)
        # CSVs are built when clicked, not on every rerun
        d1.download_button("Per-fold results (CSV)", lambda f=folds: _csv(f), f"{key}_folds.csv", "text/csv",
                           key=f"cmp_dl_folds_{key}")
        d2.download_button("Summary (CSV)", lambda f=summary: _csv(f), f"{key}_summary.csv", "text/csv",
                           key=f"cmp_dl_summary_{key}")
        # HTML figures embed plotly.js (several MB): generated only when clicked
        d3.download_button("Scatter (HTML)", lambda fig=scatter: figure_html(fig),
                           f"{key}_determinacy.html", "text/html", key=f"cmp_dl_scatter_{key}")
        d4.download_button("Utilities (HTML)", lambda fig=bars: figure_html(fig),
                           f"{key}_utilities.html", "text/html", key=f"cmp_dl_bars_{key}")
st.caption("Precise classifiers are determinate everywhere (single accuracy = accuracy). "
           "‘Precise acc. (indet.)’ is the accuracy of each credal classifier's precise counterpart on the "
           "instances where it returns several classes (NBC-I of 000 §5): the lower, the better the credal "
           "classifier isolates hard instances. Brier loss: 001's (1 − P(true class))², lower is better.")
st.download_button("All data sets, per fold (CSV)", lambda: _csv(pd.concat(all_folds, ignore_index=True)),
                   "comparison_folds.csv", "text/csv", key="cmp_dl_all")

# --- across data sets
st.subheader("4 · Across data sets")
if len(prepared) < 2:
    st.info("Add a second data set (upload or sample) to compare the classifiers across data sets.")
    st.stop()
RANKABLE = {"u65": "u65", "u80": "u80", "discounted_accuracy": "discounted accuracy",
            "accuracy": "accuracy of the precise label"}
indicator = st.selectbox("Indicator to compare (higher is better)", list(RANKABLE), format_func=RANKABLE.get,
                         key="cmp_rank_indicator")
scores = pd.DataFrame({
    title: summaries[title].set_index("classifier")[f"{indicator}_mean"]
    for title, *_ in prepared}).T
undefined = [c for c in scores.columns if scores[c].isna().any()]
if undefined:
    st.warning(f"Left out (no score on some data set, e.g. it failed there): {', '.join(undefined)}.")
    scores = scores.drop(columns=undefined)
if scores.shape[1] < 2:
    st.info("At least two classifiers with scores on every data set are needed.")
    st.stop()
st.dataframe((100 * scores).round(1), key="cmp_scores")
friedman = friedman_test(scores)
cd = nemenyi_critical_difference(friedman.n_datasets, friedman.n_classifiers)
iman = ("" if friedman.iman_davenport_statistic is None else
        f", Iman–Davenport F = {friedman.iman_davenport_statistic:.2f} "
        f"(p = {friedman.iman_davenport_p_value:.3g})")
st.markdown(f"**Friedman test** on {friedman.n_datasets} data sets and {friedman.n_classifiers} classifiers: "
            f"χ² = {friedman.statistic:.2f}, p = {friedman.p_value:.3g}{iman}. "
            f"Nemenyi critical difference (α = 0.05): **{cd:.2f}** ranks.")
if friedman.note:
    st.caption(friedman.note)
st.plotly_chart(critical_difference_figure(friedman.average_ranks, cd), key="cmp_cd")
st.caption("Average ranks (1 = best) over the data sets; classifiers joined by a bar are not significantly "
           "different by the Nemenyi test (Demšar 2006), as 001 §3 compares its classifiers.")
pairs = wilcoxon_pairs(scores)
st.markdown("**Wilcoxon signed-rank test** for every pair (two-sided, exact):")
st.dataframe(pairs, hide_index=True, key="cmp_wilcoxon")
c1, c2 = st.columns(2)
c1.download_button("Scores per data set (CSV)", _csv(scores.reset_index(names="dataset")), "scores.csv",
                   "text/csv", key="cmp_dl_scores")
c2.download_button("Wilcoxon pairs (CSV)", _csv(pairs), "wilcoxon.csv", "text/csv", key="cmp_dl_pairs")
