"""Profile likelihood page: the likelihood-based naive credal classifier (000 §4, Fig. 2-3; 003 Ex. 1)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from app_support.figures_profile import multinomial_figure, pair_profile_figure
from app_support.routing import hand_over_to_navigation
from credal_core.likelihood import likelihood_interval, multinomial_cloud, multinomial_profile, wilks_level
from credal_core.likelihood.profile import PairProfile, paper_presets

hand_over_to_navigation()   # a shared link opened first must still run through app.py

# ---------------------------------------------------------------- constants
EX2, EX3, MULT, CUSTOM = "000 Example 2", "000 Example 3", "003 Example 1", "Custom"
PRESETS = [EX2, EX3, MULT, CUSTOM]
SLUGS = {EX2: "000-ex2", EX3: "000-ex3", MULT: "003-ex1", CUSTOM: "custom"}
FROM_SLUG = {slug: name for name, slug in SLUGS.items()}
DEFAULT_PRESET = EX2

ALPHA_MIN, ALPHA_MAX, ALPHA_STEP, ALPHA_DEFAULT = 0.0, 1.0, 0.01, 0.5
BETA_MIN, BETA_MAX, BETA_STEP, BETA_DEFAULT = 0.01, 0.99, 0.01, 0.15
SAMPLES_MIN, SAMPLES_MAX, SAMPLES_STEP, SAMPLES_DEFAULT = 500, 20_000, 500, 3_000
SEED = 0
MAX_FEATURES, MAX_COUNT = 50, 100_000
COL_C, COL_NOT = "n(c, f̃_j)", "n(¬c, f̃_j)"

MULT_COUNTS = (2, 4, 3)          # 003 Example 1: a, b, c seen 2, 4 and 3 times in 9 draws
MULT_SUBSET = (0, 1)             # g(θ) = θ_a + θ_b
PAPER_INTERVAL = (0.35, 0.90)    # 003 Example 1: "an approximate 95% confidence interval", β = 0.15

# Keys of this page's widgets in st.session_state (prefixed: session state is shared by all pages).
K_PRESET, K_ALPHA, K_BETA, K_SAMPLES = "pl_preset", "pl_alpha", "pl_beta", "pl_samples"
K_INSTANCE, K_NC, K_NNOT = "pl_instance", "pl_n_c", "pl_n_not"
# plain (non-widget) state, kept while the user visits other pages
K_COUNTS, K_BASE, K_VERSION, K_LAST_VIEW = "pl_counts", "pl_table_base", "pl_table_version", "pl_last_view"
URL_KEYS = {"preset", "alpha", "beta", "samples", "include_instance", "counts", "n"}


def two_class_presets() -> dict[str, tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    out = {}
    for name, spec in paper_presets().items():
        out[name] = (int(spec["n_c"]), int(spec["n_not"]),
                     tuple(int(v) for v in spec["counts_c"]), tuple(int(v) for v in spec["counts_not"]))
    return out


# ---------------------------------------------------------------- input checking (no streamlit)
def check_counts(n_c, n_not, counts_c, counts_not) -> str | None:
    """A plain-language reason why these counts are not a valid two-class problem, or None."""
    if len(counts_c) == 0:
        return "The table is empty: add at least one feature row."
    if len(counts_c) > MAX_FEATURES:
        return f"At most {MAX_FEATURES} features, please (the table has {len(counts_c)} rows)."
    for label, value in (("n(c)", n_c), ("n(¬c)", n_not)):
        if value is None or not isinstance(value, (int, float)) or not math.isfinite(value):
            return f"{label} must be a number."
        if value < 0 or value != int(value) or value > MAX_COUNT:
            return f"{label} must be a whole number between 0 and {MAX_COUNT:,}; got {value:g}."
    for j, (a, b) in enumerate(zip(counts_c, counts_not), start=1):
        for col, value, total, total_name in ((COL_C, a, n_c, "n(c)"), (COL_NOT, b, n_not, "n(¬c)")):
            if value is None or (isinstance(value, float) and math.isnan(value)):
                return (f"Row {j}: the cell {col} is empty or not a number. Fill in every cell with a count "
                        "(or delete the row).")
            if not isinstance(value, (int, float)) or not math.isfinite(value):
                return f"Row {j}: {col} = {value!r} is not a number."
            if value < 0:
                return f"Row {j}: {col} = {value:g} is negative; counts cannot be negative."
            if value != int(value):
                return f"Row {j}: {col} = {value:g} is not a whole number."
            if value > total:
                return (f"Row {j}: {col} = {value:g} is larger than {total_name} = {total:g}; a feature "
                        "value cannot be seen with a class more often than the class itself.")
    return None


def table_numbers(frame: pd.DataFrame) -> tuple[list, list]:
    """The two count columns as lists of floats (None for empty cells, the raw text for non-numbers)."""
    def column(name):
        if name not in frame:
            return [None] * len(frame)
        out = []
        for raw in frame[name].tolist():
            if raw is None or (isinstance(raw, float) and math.isnan(raw)) or raw is pd.NA:
                out.append(None)
                continue
            try:
                out.append(float(str(raw).strip()) if isinstance(raw, str) else float(raw))
            except (TypeError, ValueError):
                out.append(str(raw))
        return out
    return column(COL_C), column(COL_NOT)


def parse_pairs(text: str, size: int | None = None) -> list[tuple[int, ...]] | None:
    """'5-1,0-2' -> [(5, 1), (0, 2)]; None if malformed (size: the length of every group)."""
    groups = []
    for group in str(text).split(","):
        parts = group.split("-")
        if not all(p.isdigit() and len(p) <= 7 for p in parts):
            return None
        if size is not None and len(parts) != size:
            return None
        groups.append(tuple(int(p) for p in parts))
    return groups


# ---------------------------------------------------------------- URL -> state (silent fallbacks)
def number_from_url(params, key, default, lo, hi, step, cast=float):
    try:
        value = float(params.get(key, default))
    except (TypeError, ValueError):
        return default
    if not math.isfinite(value) or not lo <= value <= hi:
        return default
    snapped = lo + round((value - lo) / step) * step
    return cast(round(min(max(snapped, lo), hi), 6))


def counts_from_url(params):
    """(n_c, n_not, counts_c, counts_not) from ?counts=5-1,0-2&n=6-2, or None if absent or invalid."""
    pairs = parse_pairs(params.get("counts", ""), size=2)
    totals = parse_pairs(params.get("n", ""), size=2)
    if not pairs or not totals or len(totals) != 1:
        return None
    n_c, n_not = totals[0]
    counts_c, counts_not = tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    if check_counts(n_c, n_not, counts_c, counts_not):
        return None
    return n_c, n_not, counts_c, counts_not


def load_counts(counts) -> None:
    """Make ``counts`` the current two-class problem: the table is rebuilt from them, edits dropped."""
    n_c, n_not, counts_c, counts_not = counts
    st.session_state[K_COUNTS] = counts
    st.session_state[K_NC], st.session_state[K_NNOT] = int(n_c), int(n_not)
    st.session_state[K_BASE] = pd.DataFrame({COL_C: list(counts_c), COL_NOT: list(counts_not)}, dtype="Int64")
    st.session_state[K_VERSION] = st.session_state.get(K_VERSION, 0) + 1


def init_from_url() -> None:
    """First run of the page in this session, or back from another page: read the shared link.

    Coming back through the navigation (a URL without this page's parameters), the last view of this
    session is restored instead.
    """
    params = {k: st.query_params.get(k) for k in st.query_params}
    if not URL_KEYS & params.keys():
        params = st.session_state.get(K_LAST_VIEW, {})
    presets = two_class_presets()
    preset = FROM_SLUG.get(params.get("preset", ""), DEFAULT_PRESET)
    counts = presets[EX2]
    if preset == CUSTOM:
        counts = counts_from_url(params)
        if counts is None:
            preset, counts = DEFAULT_PRESET, presets[EX2]
    elif preset in presets:
        counts = presets[preset]
    elif K_COUNTS in st.session_state:
        counts = st.session_state[K_COUNTS]
    st.session_state[K_PRESET] = preset
    load_counts(counts)
    st.session_state[K_ALPHA] = number_from_url(params, "alpha", ALPHA_DEFAULT, ALPHA_MIN, ALPHA_MAX,
                                                ALPHA_STEP)
    st.session_state[K_BETA] = number_from_url(params, "beta", BETA_DEFAULT, BETA_MIN, BETA_MAX, BETA_STEP)
    st.session_state[K_SAMPLES] = number_from_url(params, "samples", SAMPLES_DEFAULT, SAMPLES_MIN,
                                                  SAMPLES_MAX, SAMPLES_STEP, cast=int)
    flag = str(params.get("include_instance", "1")).strip().lower()
    st.session_state[K_INSTANCE] = flag not in ("0", "false", "no", "off")


def on_preset_change() -> None:
    preset = st.session_state[K_PRESET]
    presets = two_class_presets()
    if preset in presets:
        load_counts(presets[preset])
    elif preset == CUSTOM:
        load_counts(st.session_state[K_COUNTS])   # keep the current counts, ready to edit


def on_counts_edit() -> None:
    if st.session_state.get(K_PRESET) != MULT:
        st.session_state[K_PRESET] = CUSTOM


def state_to_url(preset: str, counts) -> None:
    wanted = {"preset": SLUGS[preset]}
    if preset == MULT:
        wanted["beta"] = f"{st.session_state[K_BETA]:.2f}"
    else:
        if preset == CUSTOM or counts != two_class_presets().get(preset):
            n_c, n_not, counts_c, counts_not = counts
            wanted["preset"] = SLUGS[CUSTOM]
            wanted["counts"] = ",".join(f"{a}-{b}" for a, b in zip(counts_c, counts_not))
            wanted["n"] = f"{n_c}-{n_not}"
        wanted["alpha"] = f"{st.session_state[K_ALPHA]:.2f}"
        wanted["include_instance"] = "1" if st.session_state[K_INSTANCE] else "0"
    wanted["samples"] = str(int(st.session_state[K_SAMPLES]))
    st.session_state[K_LAST_VIEW] = wanted
    if {k: st.query_params.get(k) for k in st.query_params} != wanted:
        st.query_params.from_dict(wanted)


# ---------------------------------------------------------------- cached computations (plain data out)
@st.cache_data(show_spinner=False, max_entries=64)
def pair_summary(n_c: int, n_not: int, counts_c: tuple, counts_not: tuple, include_instance: bool) -> dict:
    p = PairProfile(n_c, n_not, list(counts_c), list(counts_not), include_instance=include_instance)
    curve = p.curve(num=600)
    return {
        "t_range": tuple(float(v) for v in p.t_range), "t_hat": float(p.t_hat),
        "t_one": float(p.t_at_ratio_one), "crit": float(p.critical_alpha),
        "crit_rev": float(p.critical_alpha_reverse),
        "posterior": curve["posterior"].to_numpy(float), "likelihood": curve["likelihood"].to_numpy(float),
    }


@st.cache_data(show_spinner=False, max_entries=256)
def pair_alpha_cut(n_c, n_not, counts_c, counts_not, include_instance, alpha) -> tuple[float, float]:
    p = PairProfile(n_c, n_not, list(counts_c), list(counts_not), include_instance=include_instance)
    lo, hi = p.alpha_cut(alpha)
    return float(lo), float(hi)


@st.cache_data(show_spinner=False, max_entries=32)
def pair_cloud(n_c, n_not, counts_c, counts_not, include_instance, size, seed) -> pd.DataFrame:
    p = PairProfile(n_c, n_not, list(counts_c), list(counts_not), include_instance=include_instance)
    return p.sample_cloud(size=size, seed=seed)[["posterior", "likelihood"]].reset_index(drop=True)


@st.cache_data(show_spinner=False)
def mult_summary(counts: tuple, subset: tuple, beta: float) -> dict:
    gamma = np.linspace(0.0, 1.0, 601)
    lo, hi = likelihood_interval(list(counts), list(subset), beta)
    profile = np.asarray(multinomial_profile(list(counts), list(subset), gamma), float)
    return {"gamma": gamma, "profile": profile,
            "interval": (float(lo), float(hi)), "wilks": float(wilks_level(beta)),
            "mle": sum(counts[i] for i in subset) / sum(counts)}


@st.cache_data(show_spinner=False, max_entries=32)
def mult_cloud(counts: tuple, subset: tuple, size: int, seed: int) -> pd.DataFrame:
    return multinomial_cloud(list(counts), list(subset), size=size, seed=seed)[["g", "likelihood"]]


# ---------------------------------------------------------------- formatting
def fmt(x: float, digits: int = 4) -> str:
    """Rounded for reading: trailing zeros dropped, a true minus sign, tiny values in scientific form."""
    if x != 0 and abs(x) < 10.0 ** -(digits - 1):
        text = f"{x:.2e}"
    else:
        text = f"{x:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "−")


def crit_text(crit: float) -> str:
    return "1 (never)" if crit >= 1 else fmt(crit)


def verdict_sentence(crit: float, crit_rev: float) -> str:
    if crit < 1:
        return f"c dominates ¬c for α > {fmt(crit, 3)}" if crit > 0 else "c dominates ¬c for every α > 0"
    if crit_rev < 1:
        return (f"¬c dominates c for α > {fmt(crit_rev, 3)}" if crit_rev > 0
                else "¬c dominates c for every α > 0")
    return "neither class can dominate: the LNCC returns {c, ¬c} for every α"


# ================================================================ the page
if K_PRESET not in st.session_state or K_COUNTS not in st.session_state:
    init_from_url()
for key in (K_ALPHA, K_BETA, K_SAMPLES, K_INSTANCE, K_NC, K_NNOT):   # keep values while a view hides them
    if key in st.session_state:
        st.session_state[key] = st.session_state[key]

st.title("Profile likelihood")
st.markdown(
    "The **likelihood-based naive credal classifier** LNCC$_\\alpha$ keeps every naive Bayes classifier "
    "(NBC) θ whose normalised likelihood is at least α; class c dominates ¬c if c is more probable for "
    "**all** of them. By 000's Theorems 1-2 every θ maps to one number t ∈ [a, b] where the ratio is an "
    "increasing r(t), and the best likelihood at each ratio is the **profile likelihood** L(t), the upper "
    "edge of the cloud below: c dominates ¬c exactly when L < α wherever r(t) ≤ 1, i.e. when α exceeds "
    "the **critical α**, the highest L on the ¬c side of P(c | f̃) = 1/2."
)
rule_col, profile_col = st.columns(2)
rule_col.latex(r"c \succ \neg c \iff \inf_{\theta:\ \mathrm{lik}(\theta) \ge \alpha}"
               r"\frac{P_\theta(c, \tilde{\mathbf f})}{P_\theta(\neg c, \tilde{\mathbf f})} > 1")
profile_col.latex(r"\begin{aligned} \frac{P_\theta(c,\tilde{\mathbf f})}{P_\theta(\neg c,\tilde{\mathbf f})} "
                  r"&= r(t) = \frac{p'(t)}{p''(t)}, \quad t \in [a, b], \\"
                  r"L(t) = \sup_{\theta \in \Theta_t} \mathrm{lik}(\theta) "
                  r"&\propto l'(t)\, l''(t)\, \bigl(p'(t) + p''(t)\bigr) \end{aligned}")
with st.expander("The formulas of Theorem 2 (000) in full"):
    st.latex(r"p'(t) = [n(c) + \tfrac12 + t] \prod_{j=1}^m \frac{n(c, \tilde f_j) + \tfrac12 + t}"
             r"{n(c) + \tfrac12 + t}, \qquad "
             r"l'(t) = [n(c) + \tfrac12 + t]^{n(c)} \prod_{j=1}^m \frac{[n(c, \tilde f_j) + \tfrac12 + t]"
             r"^{n(c,\tilde f_j)}}{[n(c) + \tfrac12 + t]^{n(c)}}")
    st.markdown(
        "and p'', l'' the same with ¬c and −t; t ranges over "
        "a = −min_j n(c, f̃_j) − ½, b = min_j n(¬c, f̃_j) + ½, with 0/0 = 0⁰ = 1. The factor p' + p'' is "
        "the probability of the instance itself. **Without the instance** in the likelihood (003, Cor. 1: "
        "the naive hierarchical classifier) the ½ shifts and that factor disappear."
    )

HINTS = {
    EX2: "drag α across **0.233** and watch the verdict flip between {c} and {c, ¬c}; the thick "
         "α-cut turns green once it lies entirely right of the dashed line 1/2.",
    EX3: "switch **include the instance** off. The zero count n(c, f̃₂) = 0 then keeps both classes "
         "until α ≈ **0.98** (and ¬c wins above it); with the instance, c wins from α ≈ 0.212.",
    CUSTOM: "multiply every count by 2 (same proportions, twice the data): from 000 Example 2 the envelope "
            "narrows and the critical α falls from 0.233 to 0.054 — more data, a more decisive LNCC.",
    MULT: "lower β: the interval widens and its Wilks level rises; β = 0.15 gives about 95 %.",
}
preset_col, hint_col = st.columns([1, 2], vertical_alignment="bottom")
with preset_col:
    preset = st.selectbox("Example", PRESETS, key=K_PRESET, on_change=on_preset_change,
                          help="Load a paper example exactly, or edit your own counts (Custom).")
with hint_col:
    st.info(f"**Try this:** {HINTS[preset]}")

if preset == MULT:
    # ------------------------------------------------------------ 003 Example 1: multinomial view
    n_total = sum(MULT_COUNTS)
    n_s = sum(MULT_COUNTS[i] for i in MULT_SUBSET)
    st.markdown(
        f"**003 Example 1.** Nine draws from {{a, b, c}} show a, b, c {MULT_COUNTS[0]}, {MULT_COUNTS[1]} and "
        f"{MULT_COUNTS[2]} times. The profile likelihood of g(θ) = θ_a + θ_b, the probability that the "
        "next draw is a or b, is"
    )
    st.latex(r"\mathrm{lik}_g(\gamma) = \frac{\gamma^{%d}(1-\gamma)^{%d}}{(%d/%d)^{%d}\,(%d/%d)^{%d}}"
             r" = \tfrac{19683}{64}\,\gamma^6(1-\gamma)^3 ,"
             % (n_s, n_total - n_s, n_s, n_total, n_s, n_total - n_s, n_total, n_total - n_s))
    st.markdown("and the likelihood-based confidence region with cutoff β is {γ : lik_g(γ) > β}, with "
                "approximate confidence level P(χ²₁ ≤ −2 log β) by Wilks' theorem.")
    left, right = st.columns([1, 2])
    with left:
        beta = st.slider("β (cutoff of the likelihood)", BETA_MIN, BETA_MAX, step=BETA_STEP, key=K_BETA,
                         format="%.2f", help="Keep the values of γ whose profile likelihood exceeds β.")
        samples = st.slider("Monte Carlo sample size", SAMPLES_MIN, SAMPLES_MAX, step=SAMPLES_STEP,
                            key=K_SAMPLES, help="θ drawn uniformly on the simplex (seeded).")
        st.dataframe(pd.DataFrame({"value": ["a", "b", "c"], "count": list(MULT_COUNTS)}), hide_index=True)
    summary = mult_summary(MULT_COUNTS, MULT_SUBSET, float(beta))
    cloud = mult_cloud(MULT_COUNTS, MULT_SUBSET, int(samples), SEED)
    lo, hi = summary["interval"]
    with right:
        st.subheader(f"β-cut interval for θ_a + θ_b: [{lo:.2f}, {hi:.2f}], "
                     f"approx. {100 * summary['wilks']:.1f} % confidence")
        m1, m2, m3, m4 = st.columns(4)
        m1.metric("lower end", fmt(lo), help="Smallest γ with lik_g(γ) ≥ β.")
        m2.metric("upper end", fmt(hi), help="Largest γ with lik_g(γ) ≥ β.")
        m3.metric("Wilks level", f"{100 * summary['wilks']:.1f}%", help="P(χ²₁ ≤ −2 log β).")
        m4.metric("maximum-likelihood γ̂", fmt(summary["mle"]))
        figure = multinomial_figure(summary["gamma"], summary["profile"], cloud["g"], cloud["likelihood"],
                                    beta=float(beta), interval=(lo, hi), mle=summary["mle"],
                                    title=f"{len(cloud):,} random θ and the exact profile likelihood lik_g")
        st.plotly_chart(figure, key="profile_chart")
        st.caption(
            f"The paper (003, Example 1) says that [{PAPER_INTERVAL[0]:.2f}, {PAPER_INTERVAL[1]:.2f}] is an "
            "approximate 95 % confidence interval for θ_a + θ_b, since it is approximately the "
            "likelihood-based region with cutoff β = 0.15. At β = 0.15 this page computes the end "
            "points exactly: they round to the paper's."
        )
    state_to_url(preset, st.session_state[K_COUNTS])
    st.stop()

# ---------------------------------------------------------------- two-class view
left, right = st.columns([1, 2])
with left:
    alpha = st.slider("α (likelihood threshold of the LNCC)", ALPHA_MIN, ALPHA_MAX, step=ALPHA_STEP,
                      key=K_ALPHA, format="%.2f",
                      help="The LNCC keeps the NBCs whose normalised likelihood is at least α.")
    include_instance = st.toggle("include the instance in the likelihood", key=K_INSTANCE,
                                 help="Multiply the likelihood of the data by P_θ(f̃), the probability of "
                                      "the instance to classify (000 eq. 9). Off: 003's naive hierarchical "
                                      "classifier.")
    samples = st.slider("Monte Carlo sample size", SAMPLES_MIN, SAMPLES_MAX, step=SAMPLES_STEP,
                        key=K_SAMPLES, help="Random NBCs θ with every parameter uniform on [0, 1] (seeded).")

    st.markdown("**Counts** — one row per feature j, for the instance's value f̃_j")
    editor_key = f"pl_table_{st.session_state[K_VERSION]}"
    if editor_key not in st.session_state:   # a fresh editor: start from the current counts
        _, _, cc0, cn0 = st.session_state[K_COUNTS]
        st.session_state[K_BASE] = pd.DataFrame({COL_C: list(cc0), COL_NOT: list(cn0)}, dtype="Int64")
    table = st.data_editor(
        st.session_state[K_BASE], key=editor_key, num_rows="dynamic", hide_index=True,
        on_change=on_counts_edit, width="stretch",
        column_config={
            COL_C: st.column_config.NumberColumn(COL_C, min_value=0, step=1, format="%d",
                                                 help="n(c, f̃_j): training objects of class c with f̃_j"),
            COL_NOT: st.column_config.NumberColumn(COL_NOT, min_value=0, step=1, format="%d",
                                                   help="n(¬c, f̃_j): training objects of class ¬c with f̃_j"),
        },
    )
    c1, c2 = st.columns(2)
    n_c = c1.number_input("n(c)", min_value=0, max_value=MAX_COUNT, step=1, key=K_NC,
                          on_change=on_counts_edit)
    n_not = c2.number_input("n(¬c)", min_value=0, max_value=MAX_COUNT, step=1, key=K_NNOT,
                            on_change=on_counts_edit)
    counts_c, counts_not = table_numbers(table)
    problem = check_counts(n_c, n_not, counts_c, counts_not)
    if problem is None:
        candidate = (int(n_c), int(n_not), tuple(int(v) for v in counts_c), tuple(int(v) for v in counts_not))
        try:   # the core's own checks have the last word
            pair_summary(*candidate, bool(include_instance))
        except (ValueError, ArithmeticError) as exc:
            problem = str(exc)
        else:
            st.session_state[K_COUNTS] = candidate
    if problem is not None:
        st.error(f"**These counts cannot be used.** {problem}")
        st.caption("The plot and the verdict still show the last valid counts.")
    if preset in two_class_presets():
        note = paper_presets()[preset].get("note", "")
        if note:
            st.caption(note)

counts = st.session_state[K_COUNTS]
try:
    summary = pair_summary(*counts, bool(include_instance))
    other = pair_summary(*counts, not include_instance)
    cut = pair_alpha_cut(*counts, bool(include_instance), float(alpha))
    cloud = pair_cloud(*counts, bool(include_instance), int(samples), SEED)
    numbers = [summary["crit"], summary["crit_rev"], *cut, *summary["t_range"], summary["t_hat"]]
    if not all(math.isfinite(x) for x in numbers):
        raise ArithmeticError("a result is not a finite number")
except (ValueError, ArithmeticError) as exc:   # never a traceback on screen; the counts stay editable
    with right:
        st.error(f"**This case could not be computed** ({type(exc).__name__}: {exc}). "
                 "Change the counts or the toggle, or pick an example.")
    state_to_url(preset, counts)
    st.stop()
crit, crit_rev = summary["crit"], summary["crit_rev"]
c_wins, not_c_wins = alpha > crit, alpha > crit_rev
verdict = "c" if c_wins else ("not c" if not_c_wins else "both")
returned = {"c": "{c}", "not c": "{¬c}", "both": "{c, ¬c}"}[verdict]

with right:
    st.subheader(verdict_sentence(crit, crit_rev))
    message = (f"At α = {alpha:.2f} the LNCC returns **{returned}**: the α-cut's posterior range "
               f"[{cut[0]:.4f}, {cut[1]:.4f}] lies ")
    if verdict == "c":
        st.success(message + "entirely right of 1/2, so c is more probable for every NBC kept.")
    elif verdict == "not c":
        st.success(message + "entirely left of 1/2, so ¬c is more probable for every NBC kept.")
    else:
        st.warning(message + "not strictly on one side of 1/2: the NBCs kept disagree (or tie), so neither "
                   "class dominates.")
    figure = pair_profile_figure(
        summary["posterior"], summary["likelihood"], cloud["posterior"], cloud["likelihood"],
        other_curve=(other["posterior"], other["likelihood"]),
        other_name=f"profile {'without' if include_instance else 'with'} the instance (for comparison)",
        alpha=float(alpha), alpha_cut=cut, verdict=verdict,
        title=(f"{len(cloud):,} random NBCs and the exact profile likelihood "
               f"({'with' if include_instance else 'without'} the instance)"),
    )
    st.plotly_chart(figure, key="profile_chart")
    a, b = summary["t_range"]
    m1, m2, m3 = st.columns(3)
    m1.metric("critical α (c ≻ ¬c)", crit_text(crit), help="c dominates ¬c iff α > this; 1 means never.")
    m2.metric("critical α (¬c ≻ c)", crit_text(crit_rev),
              help="¬c dominates c iff α > this; 1 means never.")
    m3.metric(f"LNCC at α = {alpha:.2f}", returned, help="The classes that no other class dominates.")
    m4, m5, m6 = st.columns(3)
    m4.metric("[a, b]: range of t", f"[{fmt(a)}, {fmt(b)}]",
              help="000 §4.1 (without the instance: 003's range, without the ½ shifts).")
    m5.metric("t̂: maximum of L", fmt(summary["t_hat"]), help="Where the profile likelihood is largest.")
    m6.metric("t where r(t) = 1", fmt(summary["t_one"]), help="The two classes are equally probable here.")
    st.caption(
        "Grey and blue dots: NBCs θ drawn at random (blue: likelihood ≥ α, the ones the LNCC keeps). "
        "Black curve: the exact upper envelope L. Thick bar at height α: the posterior range of the α-cut "
        "of the envelope; thin black bar: the same range read off the sample, which approaches it as the "
        "sample grows. Dashed grey: the profile likelihood with the other setting of the toggle (000 Fig. 3)."
    )
    if float(cloud["likelihood"].max()) < 0.05:
        st.caption(
            f"**Why is the cloud flat?** With {counts[0] + counts[1]} training objects the likelihood is so "
            "peaked that uniformly drawn NBCs almost never come near its maximum; this is why 000 computes "
            "the envelope exactly instead of by sampling."
        )

state_to_url(preset, counts)
