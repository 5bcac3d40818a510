"""Profile likelihood page: the likelihood-based naive credal classifier (000 §4, Fig. 2-3; 003 Ex. 1)."""

from __future__ import annotations

import urllib.parse

import pandas as pd
import streamlit as st

from app_support.lessons.catalogue import step_link
from app_support.page import page_setup, show_chart, write_url
from app_support.profile_likelihood.model import (
    COL_C,
    COL_NOT,
    MULT_COUNTS,
    checked_pair,
    counts_frame,
    mult_view,
    pair_view,
)
from app_support.text import cite, cite_plain
from app_support.url_state import Choice, Flag, Number, Text, UrlState
from credal_core.likelihood.pair_input import PairInput, critical_text, paper_pairs, readable
from credal_core.likelihood.profile import paper_presets

EX2, EX3, MULT, CUSTOM = "000-ex2", "000-ex3", "003-ex1", "custom"     # the presets' names in links
NAMES = {EX2: "000 Example 2", EX3: "000 Example 3", MULT: "003 Example 1", CUSTOM: "Custom"}
OPTION_LABELS = {slug: cite_plain(name) for slug, name in NAMES.items()}     # each paper named in the box
PAPER = {slug: paper_presets()[NAMES[slug]] for slug in (EX2, EX3)}
PAIRS = {slug: paper_pairs()[NAMES[slug]] for slug in PAPER}
STATE = UrlState(                      # in the order of the links the page has always written
    Choice("preset", tuple(NAMES), EX2),
    Number("beta", 0.15, 0.01, 0.99, step=0.01),
    Text("counts", max_len=1_000),     # "5-1,0-2": n(c, f̃_j)-n(¬c, f̃_j) per feature (custom only)
    Text("n", max_len=20),             # "6-2": n(c)-n(¬c)
    Number("alpha", 0.5, 0.0, 1.0, step=0.01),
    Flag("include_instance", True),
    Number("samples", 3_000, 500, 20_000, step=500, integer=True),
)
MAX_COUNT = 100_000
K_PRESET, K_ALPHA, K_BETA, K_SAMPLES, K_INSTANCE = (f"pl_{name}" for name in (
    "preset", "alpha", "beta", "samples", "include_instance"))
K_NC, K_NNOT, K_PAIR, K_BASE, K_VERSION, K_LAST = ("pl_n_c", "pl_n_not", "pl_pair", "pl_table_base",
                                                    "pl_table_version", "pl_last_view")
HINTS = {
    EX2: "drag α across **0.233** and watch the verdict flip between {c} and {c, ¬c}; the thick "
         "α-cut turns green once it lies entirely right of the dashed line 1/2.",
    EX3: "switch **include the instance** off. The zero count n(c, f̃₂) = 0 then keeps both classes "
         "until α ≈ **0.98** (and ¬c wins above it); with the instance, c wins from α ≈ 0.212.",
    CUSTOM: "multiply every count by 2 (same proportions, twice the data): from 000 Example 2 the envelope "
            "narrows and the critical α falls from 0.233 to 0.054 — more data, a more decisive LNCC.",
    MULT: "lower β: the interval widens and its Wilks level rises; β = 0.15 gives about 95 %.",
}


INSTANCE_HELP = cite("Multiply the likelihood of the data by P_θ(f̃), the probability of the instance to "
                     "classify (000 eq. 9). Off: 003's naive hierarchical classifier.")
RANGE_HELP = cite("000 §4.1 (without the instance: 003's range, without the ½ shifts).")
CLOUD_CAPTION = cite(
    "Grey and blue dots: NBCs θ drawn at random (blue: likelihood ≥ α, the ones the LNCC keeps). Black "
    "curve: the exact upper envelope L. Thick bar at height α: the posterior range of the "
    "[α-cut](/glossary#alpha-cut) of the envelope; thin black bar: the same range read off the sample, "
    "which approaches it as the sample grows. Dashed grey: the profile likelihood with the other setting "
    "of the toggle (000 Fig. 3).")


# ---------------------------------------------------------------- state: the counts table and the link
def load_pair(pair: PairInput) -> None:
    """Make ``pair`` the current two-class problem: the table is rebuilt from it, edits dropped."""
    st.session_state[K_PAIR] = pair
    st.session_state[K_NC], st.session_state[K_NNOT] = pair.n_c, pair.n_not
    st.session_state[K_BASE] = counts_frame(pair)
    st.session_state[K_VERSION] = st.session_state.get(K_VERSION, 0) + 1


def on_preset_change() -> None:
    preset = st.session_state[K_PRESET]
    if preset != MULT:     # a paper example exactly, or Custom: the current counts, ready to edit
        load_pair(PAIRS.get(preset, st.session_state[K_PAIR]))


def on_counts_edit() -> None:
    if st.session_state[K_PRESET] != MULT:
        st.session_state[K_PRESET] = CUSTOM


def publish(values: dict) -> None:
    """Write the view's link, and remember it for a return to this page through the navigation."""
    st.session_state[K_LAST] = STATE.write(values)
    write_url(STATE, values)


# ================================================================ the page
fresh = K_PRESET not in st.session_state          # first visit in this session, or back from another page
values = page_setup("Profile likelihood", STATE, prefix="pl_",          # back: the view the user left
                    remembered=st.session_state.get(K_LAST) if fresh else None)
if fresh:
    shared = PairInput.from_text(values["counts"], values["n"]) if values["preset"] == CUSTOM else None
    if values["preset"] == CUSTOM and shared is None:
        st.session_state[K_PRESET] = EX2           # a custom link with unusable counts: the default example
    load_pair(shared or PAIRS.get(st.session_state[K_PRESET]) or st.session_state.get(K_PAIR, PAIRS[EX2]))
for key in (K_ALPHA, K_BETA, K_SAMPLES, K_INSTANCE, K_NC, K_NNOT):   # kept while a view hides them
    st.session_state[key] = st.session_state[key]

# one explanation, written once: what the LNCC, the α-cut and the critical α are is Lesson 3's (steps 1-3);
# the page keeps what the lesson does not say (Theorems 1-2: the one-number parametrisation t)
LESSON_3 = "/lessons?" + urllib.parse.urlencode(step_link("likelihood-credal", 0))
st.markdown(
    cite("The **likelihood-based [naive credal classifier](/glossary#ncc)** "
         "[LNCC](/glossary#lncc)$_\\alpha$ keeps every [naive Bayes classifier](/glossary#nbc) "
         "(NBC) θ whose [normalised likelihood](/glossary#normalised-likelihood) is at least α and "
         f"[dominance](/glossary#dominance) asks all of them ([Lesson 3, steps 1-3]({LESSON_3}) build this "
         "up). By 000's Theorems 1-2 every θ maps to one number t ∈ [a, b] where the ratio is an "
         "increasing r(t), and the best likelihood at each ratio is the "
         "**[profile likelihood](/glossary#profile-likelihood)** L(t), the upper edge of the cloud below: "
         "c dominates ¬c exactly when L < α wherever r(t) ≤ 1, i.e. when α exceeds the "
         "**[critical α](/glossary#critical-alpha)**, the highest L on the ¬c side of P(c | f̃) = 1/2.")
)
rule_col, profile_col = st.columns(2)
rule_col.latex(r"c \succ \neg c \iff \inf_{\theta:\ \mathrm{lik}(\theta) \ge \alpha}"
               r"\frac{P_\theta(c, \tilde{\mathbf f})}{P_\theta(\neg c, \tilde{\mathbf f})} > 1")
profile_col.latex(r"\begin{aligned} \frac{P_\theta(c,\tilde{\mathbf f})}{P_\theta(\neg c,\tilde{\mathbf f})} "
                  r"&= r(t) = \frac{p'(t)}{p''(t)}, \quad t \in [a, b], \\"
                  r"L(t) = \sup_{\theta \in \Theta_t} \mathrm{lik}(\theta) "
                  r"&\propto l'(t)\, l''(t)\, \bigl(p'(t) + p''(t)\bigr) \end{aligned}")
with st.expander(cite_plain("The formulas of 000 Theorem 2 in full")):
    st.latex(r"p'(t) = [n(c) + \tfrac12 + t] \prod_{j=1}^m \frac{n(c, \tilde f_j) + \tfrac12 + t}"
             r"{n(c) + \tfrac12 + t}, \qquad "
             r"l'(t) = [n(c) + \tfrac12 + t]^{n(c)} \prod_{j=1}^m \frac{[n(c, \tilde f_j) + \tfrac12 + t]"
             r"^{n(c,\tilde f_j)}}{[n(c) + \tfrac12 + t]^{n(c)}}")
    st.markdown(
        cite("and p'', l'' the same with ¬c and −t; t ranges over "
        "a = −min_j n(c, f̃_j) − ½, b = min_j n(¬c, f̃_j) + ½, with 0/0 = 0⁰ = 1. The factor p' + p'' is "
        "the probability of the instance itself. **Without the instance** in the likelihood (003, Cor. 1: "
        "the [naive hierarchical classifier](/glossary#nhc)) the ½ shifts and that factor disappear.")
    )
preset_col, hint_col = st.columns([1, 2], vertical_alignment="bottom")
preset = preset_col.selectbox("Example", tuple(NAMES), format_func=OPTION_LABELS.get, key=K_PRESET,
                              on_change=on_preset_change,
                              help="Load a paper example exactly, or edit your own counts (Custom).")
hint_col.info(f"**Try this:** {HINTS[preset]}")


@st.fragment
def multinomial_view() -> None:
    """003 Example 1: the profile likelihood of θ_a + θ_b and its β-cut interval."""
    st.markdown(
        cite(
            "**003 Example 1.** Nine draws from {a, b, c} show a, b, c 2, 4 and 3 times. The profile "
            "likelihood "
        "of g(θ) = θ_a + θ_b, the probability that the next draw is a or b, is"))
    st.latex(r"\mathrm{lik}_g(\gamma) = \frac{\gamma^{6}(1-\gamma)^{3}}{(6/9)^{6}\,(3/9)^{3}}"
             r" = \tfrac{19683}{64}\,\gamma^6(1-\gamma)^3 ,")
    st.markdown("and the likelihood-based confidence region with cutoff β is {γ : lik_g(γ) > β}, with "
                "approximate confidence level P(χ²₁ ≤ −2 log β) by [Wilks](/glossary#wilks)' theorem.")
    left, right = st.columns([1, 2])
    beta = left.slider("β (cutoff of the likelihood)", 0.01, 0.99, step=0.01, key=K_BETA, format="%.2f",
                       help="Keep the values of γ whose profile likelihood exceeds β.")
    samples = left.slider("Monte Carlo sample size", 500, 20_000, step=500, key=K_SAMPLES,
                          help="θ drawn uniformly on the simplex (seeded).")
    left.dataframe(pd.DataFrame({"value": ["a", "b", "c"], "count": list(MULT_COUNTS)}), hide_index=True)
    view = mult_view(float(beta), int(samples))
    (lo, hi), wilks = view["interval"], view["wilks"]
    right.subheader(f"β-cut interval for θ_a + θ_b: [{lo:.2f}, {hi:.2f}], "
                    f"approx. {100 * wilks:.1f} % confidence")
    m1, m2, m3, m4 = right.columns(4)
    m1.metric("lower end", readable(lo), help="Smallest γ with lik_g(γ) ≥ β.")
    m2.metric("upper end", readable(hi), help="Largest γ with lik_g(γ) ≥ β.")
    m3.metric("Wilks level", f"{100 * wilks:.1f}%", help="P(χ²₁ ≤ −2 log β).")
    m4.metric("maximum-likelihood γ̂", readable(view["mle"]))
    show_chart(view["figure"], key="profile_chart", where=right)
    right.caption(
        cite(
            "The paper (003, Example 1) says that [0.35, 0.90] is an approximate 95 % confidence "
            "interval for "
        "θ_a + θ_b, since it is approximately the likelihood-based region with cutoff β = 0.15. At β = 0.15 "
        "this page computes the end points exactly: they round to the paper's."))
    publish({"preset": MULT, "beta": beta, "samples": samples})


def counts_editor(preset: str) -> None:
    """The counts of the two-class problem (an edit reruns the page); the last valid ones in K_PAIR."""
    st.markdown("**Counts** — one row per feature j, for the instance's value f̃_j")
    table = st.data_editor(
        st.session_state[K_BASE], key=f"pl_table_{st.session_state[K_VERSION]}", num_rows="dynamic",
        hide_index=True, on_change=on_counts_edit, width="stretch", column_config={
            col: st.column_config.NumberColumn(col, min_value=0, step=1, format="%d",
                                               help=f"{col}: training objects of class {cls} with f̃_j")
            for col, cls in ((COL_C, "c"), (COL_NOT, "¬c"))})
    c1, c2 = st.columns(2)
    n_c = c1.number_input("n(c)", 0, MAX_COUNT, step=1, key=K_NC, on_change=on_counts_edit)
    n_not = c2.number_input("n(¬c)", 0, MAX_COUNT, step=1, key=K_NNOT, on_change=on_counts_edit)
    cells = [pd.to_numeric(table[col], errors="coerce").astype(float) for col in (COL_C, COL_NOT)]
    try:                                       # PairProfile checks the counts and says what is wrong
        st.session_state[K_PAIR] = checked_pair(n_c, n_not, *map(tuple, cells))   # empty cells: NaN
    except ValueError as problem:
        st.error(f"**These counts cannot be used:** {problem}. Every cell needs a whole number, at most "
                 "the count of its class; delete a row you do not need.")
        st.caption("The plot and the verdict still show the last valid counts.")
    if preset in PAPER:
        st.caption(PAPER[preset]["note"])


@st.fragment
def two_class_view(preset: str, side, right) -> None:
    """000 §4: the α-cut, the cloud and the verdict; moving a control here reruns this part only, and
    moving α only :func:`alpha_view`'s part (the verdict, the chart and the metrics that follow α).  The α
    slider and the toggle sit just above the chart they change (on a phone too), the sample size in
    ``side`` (above the counts)."""
    with side:
        samples = st.slider("Monte Carlo sample size", 500, 20_000, step=500, key=K_SAMPLES,
                            help="Random NBCs θ with every parameter uniform on [0, 1] (seeded).")
    head = right.container()                   # the verdict, written once the view is computed
    alpha_col, include_col = right.columns(2, vertical_alignment="bottom")
    include = include_col.toggle("include the instance in the likelihood", key=K_INSTANCE,
                                 help=INSTANCE_HELP)
    body = right.container()                   # the chart and the first row of metrics (alpha_view's)
    pair = st.session_state[K_PAIR]

    def alpha_slider() -> float:
        return alpha_col.slider("α (likelihood threshold of the LNCC)", 0.0, 1.0, step=0.01, key=K_ALPHA,
                                format="%.2f",
                                help="The LNCC keeps the NBCs whose normalised likelihood is ≥ α.")

    def computed(alpha: float) -> dict | None:
        """The view at ``alpha``, or None once the error is shown and the link written."""
        try:
            return pair_view(pair, bool(include), int(samples), float(alpha))
        except (ValueError, ArithmeticError) as exc:    # never a traceback; the counts stay editable
            right.error(f"**This case could not be computed** ({type(exc).__name__}: {exc}). "
                        "Change the counts or the toggle, or pick an example.")
            publish(view_link(preset, pair, alpha, include, samples))
            return None

    @st.fragment
    def alpha_view() -> None:
        alpha = alpha_slider()
        view = computed(alpha)
        if view is None:
            return
        profile, answer = view["profile"], view["answer"]
        with head:
            st.subheader(answer.headline)
            (st.success if answer.determinate else st.warning)(
                f"At α = {alpha:.2f} the LNCC returns **{answer.classes}**: {answer.reason}")
        with body:
            show_chart(view["figure"], key="profile_chart")
            m1, m2, m3 = st.columns(3)
            m1.metric("critical α (c ≻ ¬c)", critical_text(profile.critical_alpha),
                      help="c dominates ¬c iff α > this; 1 means never.")
            m2.metric("critical α (¬c ≻ c)", critical_text(profile.critical_alpha_reverse),
                      help="¬c dominates c iff α > this; 1 means never.")
            m3.metric(f"LNCC at α = {alpha:.2f}", answer.classes,
                      help="The classes that no other class dominates.")
        publish(view_link(preset, pair, alpha, include, samples))

    view = computed(st.session_state[K_ALPHA])      # what does not move with α (checked before α's part)
    if view is None:
        alpha_slider()
        return
    alpha_view()
    profile = view["profile"]
    with right:
        m4, m5, m6 = st.columns(3)
        a, b = profile.t_range
        m4.metric("[a, b]: range of t", f"[{readable(a)}, {readable(b)}]", help=RANGE_HELP)
        m5.metric("t̂: maximum of L", readable(profile.t_hat), help="Where the profile likelihood is largest.")
        m6.metric("t where r(t) = 1", readable(profile.t_at_ratio_one),
                  help="The two classes are equally probable here.")
        st.caption(CLOUD_CAPTION)
        if view["flat"]:
            st.caption(
                cite(
                    f"**Why is the cloud flat?** With {pair.n_c + pair.n_not} training objects the "
                    "likelihood "
                "is so peaked that uniformly drawn NBCs almost never come near its maximum; this is why 000 "
                "computes the envelope exactly instead of by sampling."))


def view_link(preset: str, pair: PairInput, alpha, include, samples) -> dict:
    """The two-class view's link: the example's name, or Custom with the counts when they differ."""
    link = {"preset": preset, "alpha": alpha, "include_instance": include, "samples": samples}
    if pair != PAIRS.get(preset):
        counts, totals = pair.to_text()
        link.update(preset=CUSTOM, counts=counts, n=totals)
    return link


if preset == MULT:
    multinomial_view()
else:
    left, right = st.columns([1, 2])
    side = left.container()                    # the fragment's sample-size slider, above the counts
    with left:
        counts_editor(preset)
    two_class_view(preset, side, right)
