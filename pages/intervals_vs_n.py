"""Page "Intervals vs N": likelihood vs IDM intervals as the sample grows (000 Example 1, Fig. 1) and the
probability of a vacuous prediction for the NHC and the NCC (003 Example 2)."""

from __future__ import annotations

import streamlit as st

from app_support.intervals_vs_n.model import N_GRID, intervals_view, percent, shrink, vacuous_view
from app_support.page import page_setup, show_chart, sync
from app_support.text import cite
from app_support.url_state import Number, UrlState

STATE = UrlState(
    Number("ratio", 0.5, 0.0, 1.0, step=0.01),
    Number("alpha", 0.85, 0.01, 0.99, step=0.01),
    Number("s", 2.0, 0.1, 10.0, step=0.1),
    Number("beta", 0.15, 0.01, 0.99, step=0.01),
    Number("p", 0.5, 0.0, 1.0, step=0.01),
)
KEY = "iv_"   # session-state prefix of the sliders (the home page also has an "s")
SECTIONS = ["iv_intervals", "iv_vacuous"]   # the two fragments' keys


def slider(name: str, label: str, help: str, on_change=None) -> float:
    field = STATE[name]
    value = st.slider(label, field.lo, field.hi, step=field.step, format=f"%.{field.decimals}f",
                      key=KEY + name, on_change=on_change or sync(STATE, KEY), help=cite(help))
    return STATE[name].parse(str(value))     # on the slider's grid: 0.30000000000000004 -> 0.3


def on_s_change() -> None:
    """s is used by both sections: write the link, then rerun both (and only them)."""
    sync(STATE, KEY)()
    st.rerun(SECTIONS)


# ---------------------------------------------------------------- the page
page_setup("Intervals vs N", STATE, prefix=KEY)
st.markdown(
    "Observe a yes/no variable $N$ times and count $n$ *yes*. Credal classifiers replace the single "
    "estimate $\\hat\\theta = n/N$ of the chance $\\theta$ of *yes* by an **interval**, in two ways: the "
    "likelihood-based one keeps every θ whose likelihood is at least a fraction α of the best; the "
    "[imprecise Dirichlet model](/glossary#idm) (IDM) adds $s$ imaginary observations that may be all "
    "*yes* or all *no*."
)
st.latex(
    r"\underbrace{\Bigl\{\theta : \theta^{n}(1-\theta)^{N-n} \ \ge\ "
    r"\alpha\,\hat\theta^{\,n}(1-\hat\theta)^{N-n}\Bigr\}}_{\text{likelihood interval}}"
    r"\qquad\text{vs}\qquad"
    r"\underbrace{\Bigl[\tfrac{n}{N+s},\ \tfrac{n+s}{N+s}\Bigr]}_{\text{IDM interval}}"
)
st.markdown(
    cite("The point (000, Fig. 1): as the sample grows, the IDM interval shrinks like $1/N$ (its width is "
    "exactly $s/(N+s)$), while the [likelihood interval](/glossary#likelihood-interval) shrinks only "
    "like $1/\\sqrt{N}$ "
    "(width $\\approx 2\\sqrt{2\\ln(1/\\alpha)\\,\\hat\\theta(1-\\hat\\theta)/N}$ for $0<\\hat\\theta<1$) — "
    "just as a confidence interval does. So the IDM soon becomes almost precise, the likelihood model "
    "does not.")
)
st.info(
    "**Try this:** in the table under the plot each row has 10× more data: the IDM width drops 10×, the "
    "likelihood width only about 3.2× (√10) — the slopes −1 and −0.5 in the log–log panel. Drag **α** "
    "down to 0.15 or **s** up to 10: the bands move, the slopes do not. Then set **n/N** to 0: now the "
    "likelihood interval also shrinks like 1/N."
)

# ---- 1. the two intervals vs N
st.header("1. How fast do the intervals shrink?")


@st.fragment(key=SECTIONS[0])
def intervals_section() -> None:
    c1, c2, c3 = st.columns(3)
    with c1:
        ratio = slider("ratio", "n/N (observed share of yes)",
                       "Kept fixed while N grows; 1/2 as in 000 Fig. 1.")
    with c2:
        alpha = slider("alpha", "α (likelihood cut-off)",
                       "Keep every θ whose likelihood is at least α times the maximum (0.85 in 000 Fig. 1).")
    with c3:
        s = slider("s", "s (IDM: imaginary observations)",
                   "The prior strength of the IDM (2 in 000 Fig. 1); also used by the NCC below.",
                   on_change=on_s_change)
    view = intervals_view(ratio, alpha, s)
    show_chart(view["figure"], key="intervals_chart")
    st.caption(
        cite(
            f"N runs over whole numbers from 1 to 10,000 on a log grid, and n = {ratio:g}·N exactly — n "
            "need not "
        "be a whole number (both formulas accept any real n ≥ 0), which keeps the curves smooth instead of "
        "zig-zagging with rounding. The plot for n/N = 1/2 is symmetric about 1/2; 000 Fig. 1 shows its "
        "upper half. Right: on log–log axes a power law N^k is a straight line of slope k, so slope −0.5 "
        "means 1/√N and slope −1 means 1/N (the slope printed is measured over the last decade).")
    )
    st.table(view["table"])
    narrower = view["narrower"]
    if narrower.size == 0:
        crossing = "On this grid the IDM interval is never the narrower one."
    elif narrower[0] == 0:
        crossing = "Here the IDM interval is the narrower one from N = 1 on."
    else:
        crossing = ("The IDM interval starts wider, and is the narrower one from about "
                    f"N = {N_GRID[narrower[0]]:,} on.")
    st.markdown(
        f"From N = 1,000 to N = 10,000 the likelihood width shrinks **{shrink(view['lik_width'])}** and the "
        f"IDM width **{shrink(view['idm_width'])}** (1/√N would give 3.2×, 1/N 10×). {crossing}"
    )


intervals_section()

# ---- 2. probability of a vacuous prediction
st.header("2. How often is the answer “both classes”?")
st.markdown(
    cite("The simplest classification problem (003 Example 2): two classes $a, b$, no features, and "
    "$n$ training objects of which $n_a$ are $a$, drawn with $P(C=a)=p$. The naive hierarchical "
    "classifier [NHC](/glossary#nhc)(β) (likelihood-based) and the [NCC](/glossary#ncc)(s) (IDM) answer "
    "*both classes* — a **[vacuous](/glossary#vacuous)** "
    "prediction — when")
)
st.latex(
    r"\text{NHC}(\beta):\ \ \frac{\mathrm{lik}(\tfrac12)}{\mathrm{lik}(\hat\theta_a)} \ge \beta,\ "
    r"\hat\theta_a=\tfrac{n_a}{n}"
    r"\qquad\qquad"
    r"\text{NCC}(s):\ \ |n_a-n_b| \le s"
)


@st.fragment(key=SECTIONS[1])
def vacuous_section() -> None:
    c1, c2, _ = st.columns(3)
    with c1:
        beta = slider("beta", "β (NHC cut-off)", "The likelihood cut-off of the NHC (0.15 in 003 Example 2).")
    with c2:
        p = slider("p", "p = P(C = a) (true class probability)",
                   "How the training data are generated; 1/2 in 003 Example 2.")
    s = STATE["s"].parse(str(st.session_state[KEY + "s"]))
    st.caption(f"The NCC uses s = {s:g} from the slider in section 1.")
    view = vacuous_view(beta, s, p)
    nhc, ncc, limit = view["nhc"], view["ncc"], view["limit"]
    show_chart(view["figure"], key="vacuous_chart")
    st.caption(
        "Exact binomial sums at even n from 2 to 100,000 (log grid). Only even n are drawn: for odd n no "
        "exact tie n_a = n_b is possible, so the NCC's curve would zig-zag between two branches."
        + ("" if limit is None else " The dotted line is the NHC's large-n limit P(χ²₁ ≤ −2 ln β) (Wilks).")
    )
    st.table(view["table"])
    numbers = (f"the NHC's prediction is vacuous with probability **{percent(nhc[0])}** at n = 100 and "
               f"**{percent(nhc[1])}** at n = 1,000; the NCC's with **{percent(ncc[0])}** and "
               f"**{percent(ncc[1])}**.")
    if (beta, s, p) == (STATE["beta"].default, STATE["s"].default, STATE["p"].default):
        st.success(cite(f"At β = 0.15, s = 2 and P(C = a) = 1/2, {numbers} These reproduce 003 Example 2 "
                   "(94.3%, 94.6%, 23.6%, 7.6%), computed live."))
    else:
        st.markdown(cite(f"With β = {beta:g}, s = {s:g} and P(C = a) = {p:g}, {numbers} "
                    "(Reset β = 0.15, s = 2, p = 0.5 to reproduce 003 Example 2.)"))
    if p == 0.5:
        st.markdown(
            "**Why the NCC's curve falls:** with $p = 1/2$ neither class is better, so *both classes* is the "
            "theoretically correct answer — but the NCC says so only on a near-tie $|n_a-n_b|\\le s$, and "
            "as $n$ grows the counts drift apart by about $\\sqrt n$, so near-ties (and correct vacuous "
            "answers) become rare. The NHC instead asks whether the data can rule out $\\theta_a = 1/2$, "
            f"which they do only about {percent(1 - limit)} of the time at every large $n$."
        )
    else:
        st.markdown(
            f"**With p = {p:g} ≠ 1/2** class {'a' if p > 0.5 else 'b'} really is more probable, so a single "
            "class is the right answer for large n: both curves fall to 0, the NCC's much sooner."
        )


vacuous_section()
