"""Page "Intervals vs N": likelihood vs IDM intervals as the sample grows (000 Example 1, Fig. 1) and the
probability of a vacuous prediction for the NHC and the NCC (003 Example 2)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from app_support.figures_intervals import intervals_figure, vacuous_figure
from app_support.routing import hand_over_to_navigation
from credal_core.likelihood import (
    bernoulli_likelihood_interval,
    idm_interval,
    vacuous_probability,
    wilks_level,
)

hand_over_to_navigation()   # a shared link opened first must still run through app.py


@dataclass(frozen=True)
class Param:
    url: str  # name in the URL (?ratio=0.5)
    key: str  # session-state key of the slider (prefixed: the home page also has an "s")
    lo: float
    hi: float
    step: float
    default: float
    decimals: int


PARAMS = {
    "ratio": Param("ratio", "iv_ratio", 0.0, 1.0, 0.01, 0.5, 2),
    "alpha": Param("alpha", "iv_alpha", 0.01, 0.99, 0.01, 0.85, 2),
    "s": Param("s", "iv_s", 0.1, 10.0, 0.1, 2.0, 1),
    "beta": Param("beta", "iv_beta", 0.01, 0.99, 0.01, 0.15, 2),
    "p": Param("p", "iv_p", 0.0, 1.0, 0.01, 0.5, 2),
}

# N for the top plot: whole numbers on a log grid from 1 to 10,000, about 50 per decade (n = ratio * N
# may be fractional); bernoulli_likelihood_interval solves the whole grid in one vectorised call.
N_GRID = np.unique(np.round(np.geomspace(1, 10_000, 201))).astype(int)
N_TABLE = (10, 100, 1_000, 10_000)
# n for the lower plot: even training-set sizes on a log grid from 2 to 100,000 (see the caption).
N_TRAIN_GRID = np.unique(2 * np.round(np.geomspace(1, 50_000, 260)).astype(int))
PAPER_N = (100, 1_000)  # the two sizes of 003 Example 2


# ---------------------------------------------------------------- URL <-> sliders
def from_url(param: Param) -> float:
    """The URL's value for ``param`` snapped to the slider's step, or (silently) the default."""
    try:
        value = float(st.query_params.get(param.url, param.default))
    except (TypeError, ValueError):
        return param.default
    if not math.isfinite(value) or not param.lo <= value <= param.hi:
        return param.default
    return round(round(value / param.step) * param.step, param.decimals)


def to_url() -> None:
    """Mirror every slider in the URL, so a copied link reproduces the exact view."""
    for param in PARAMS.values():
        st.query_params[param.url] = f"{round(float(st.session_state[param.key]), param.decimals):g}"


def slider(name: str, label: str, help: str) -> float:
    param = PARAMS[name]
    if param.key not in st.session_state:
        st.session_state[param.key] = from_url(param)
    value = st.slider(label, min_value=param.lo, max_value=param.hi, step=param.step,
                      format=f"%.{param.decimals}f", key=param.key, on_change=to_url, help=help)
    return round(float(value), param.decimals)


# ---------------------------------------------------------------- cached computations
@st.cache_data(show_spinner=False)
def likelihood_bounds(ratio: float, alpha: float, sizes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    grid = np.asarray(sizes, dtype=float)
    return bernoulli_likelihood_interval(ratio * grid, grid, alpha)


@st.cache_data(show_spinner=False)
def idm_bounds(ratio: float, s: float, sizes: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    bounds = np.array([idm_interval(ratio * N, N, s) for N in sizes], dtype=float)
    return bounds[:, 0], bounds[:, 1]


@st.cache_data(show_spinner=False)
def vacuous_nhc(beta: float, p: float, sizes: tuple[int, ...]) -> np.ndarray:
    return np.asarray(vacuous_probability(np.asarray(sizes), beta=beta, p=p), dtype=float)


@st.cache_data(show_spinner=False)
def vacuous_ncc(s: float, p: float, sizes: tuple[int, ...]) -> np.ndarray:
    return np.asarray(vacuous_probability(np.asarray(sizes), s=s, p=p), dtype=float)


def interval_text(lo: float, hi: float) -> str:
    return f"[{lo:.3f}, {hi:.3f}]"


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


# ---------------------------------------------------------------- the page
st.title("Intervals vs N")
st.markdown(
    "Observe a yes/no variable $N$ times and count $n$ *yes*. Credal classifiers replace the single "
    "estimate $\\hat\\theta = n/N$ of the chance $\\theta$ of *yes* by an **interval**, in two ways: the "
    "likelihood-based one keeps every θ whose likelihood is at least a fraction α of the best; the "
    "imprecise Dirichlet model (IDM) adds $s$ imaginary observations that may be all *yes* or all *no*."
)
st.latex(
    r"\underbrace{\Bigl\{\theta : \theta^{n}(1-\theta)^{N-n} \ \ge\ "
    r"\alpha\,\hat\theta^{\,n}(1-\hat\theta)^{N-n}\Bigr\}}_{\text{likelihood interval}}"
    r"\qquad\text{vs}\qquad"
    r"\underbrace{\Bigl[\tfrac{n}{N+s},\ \tfrac{n+s}{N+s}\Bigr]}_{\text{IDM interval}}"
)
st.markdown(
    "The point (000, Fig. 1): as the sample grows, the IDM interval shrinks like $1/N$ (its width is "
    "exactly $s/(N+s)$), while the likelihood interval shrinks only like $1/\\sqrt{N}$ "
    "(width $\\approx 2\\sqrt{2\\ln(1/\\alpha)\\,\\hat\\theta(1-\\hat\\theta)/N}$ for $0<\\hat\\theta<1$) — "
    "just as a confidence interval does. So the IDM soon becomes almost precise, the likelihood model "
    "does not."
)
st.info(
    "**Try this:** in the table under the plot each row has 10× more data: the IDM width drops 10×, the "
    "likelihood width only about 3.2× (√10) — the slopes −1 and −0.5 in the log–log panel. Drag **α** "
    "down to 0.15 or **s** up to 10: the bands move, the slopes do not. Then set **n/N** to 0: now the "
    "likelihood interval also shrinks like 1/N."
)

# ---- 1. the two intervals vs N
st.header("1. How fast do the intervals shrink?")
c1, c2, c3 = st.columns(3)
with c1:
    ratio = slider("ratio", "n/N (observed share of yes)",
                   "Kept fixed while N grows; 1/2 as in 000 Fig. 1.")
with c2:
    alpha = slider("alpha", "α (likelihood cut-off)",
                   "Keep every θ whose likelihood is at least α times the maximum (0.85 in 000 Fig. 1).")
with c3:
    s = slider("s", "s (IDM: imaginary observations)",
               "The prior strength of the IDM (2 in 000 Fig. 1); also used by the NCC below.")

sizes = tuple(int(N) for N in N_GRID)
lik_lo, lik_hi = likelihood_bounds(ratio, alpha, sizes)
idm_lo, idm_hi = idm_bounds(ratio, s, sizes)
st.plotly_chart(intervals_figure(N_GRID, lik_lo, lik_hi, idm_lo, idm_hi, ratio=ratio, alpha=alpha, s=s),
                key="intervals_chart")
st.caption(
    f"N runs over whole numbers from 1 to 10,000 on a log grid, and n = {ratio:g}·N exactly — n need not "
    "be a whole number (both formulas accept any real n ≥ 0), which keeps the curves smooth instead of "
    "zig-zagging with rounding. The plot for n/N = 1/2 is symmetric about 1/2; 000 Fig. 1 shows its "
    "upper half. Right: on log–log axes a power law N^k is a straight line of slope k, so slope −0.5 means "
    "1/√N and slope −1 means 1/N (the slope printed is measured over the last decade)."
)

t_lo, t_hi = likelihood_bounds(ratio, alpha, N_TABLE)
i_lo, i_hi = idm_bounds(ratio, s, N_TABLE)
lik_width, idm_width = t_hi - t_lo, i_hi - i_lo
st.table(pd.DataFrame({
    "N": [f"{N:,}" for N in N_TABLE],
    f"likelihood interval (α = {alpha:g})": [interval_text(a, b) for a, b in zip(t_lo, t_hi)],
    "likelihood width": [f"{w:.4f}" for w in lik_width],
    f"IDM interval (s = {s:g})": [interval_text(a, b) for a, b in zip(i_lo, i_hi)],
    "IDM width": [f"{w:.4f}" for w in idm_width],
}).set_index("N"))


def shrink(widths: np.ndarray) -> str:
    return f"{widths[-2] / widths[-1]:.1f}×" if widths[-1] > 0 else "—"


narrower = np.flatnonzero((idm_hi - idm_lo) < (lik_hi - lik_lo))
if narrower.size == 0:
    crossing = "On this grid the IDM interval is never the narrower one."
elif narrower[0] == 0:
    crossing = "Here the IDM interval is the narrower one from N = 1 on."
else:
    crossing = ("The IDM interval starts wider, and is the narrower one from about "
                f"N = {N_GRID[narrower[0]]:,} on.")
st.markdown(
    f"From N = 1,000 to N = 10,000 the likelihood width shrinks **{shrink(lik_width)}** and the IDM width "
    f"**{shrink(idm_width)}** (1/√N would give 3.2×, 1/N 10×). {crossing}"
)

# ---- 2. probability of a vacuous prediction
st.header("2. How often is the answer “both classes”?")
st.markdown(
    "The simplest classification problem (003 Example 2): two classes $a, b$, no features, and "
    "$n$ training objects of which $n_a$ are $a$, drawn with $P(C=a)=p$. The naive hierarchical "
    "classifier NHC(β) (likelihood-based) and the NCC(s) (IDM) answer *both classes* — a **vacuous** "
    "prediction — when"
)
st.latex(
    r"\text{NHC}(\beta):\ \ \frac{\mathrm{lik}(\tfrac12)}{\mathrm{lik}(\hat\theta_a)} \ge \beta,\ "
    r"\hat\theta_a=\tfrac{n_a}{n}"
    r"\qquad\qquad"
    r"\text{NCC}(s):\ \ |n_a-n_b| \le s"
)
c1, c2, _ = st.columns(3)
with c1:
    beta = slider("beta", "β (NHC cut-off)", "The likelihood cut-off of the NHC (0.15 in 003 Example 2).")
with c2:
    p = slider("p", "p = P(C = a) (true class probability)",
               "How the training data are generated; 1/2 in 003 Example 2.")
st.caption(f"The NCC uses s = {s:g} from the slider in section 1.")

train_sizes = tuple(int(m) for m in N_TRAIN_GRID)
nhc = vacuous_nhc(beta, p, train_sizes)
ncc = vacuous_ncc(s, p, train_sizes)
nhc_marks = vacuous_nhc(beta, p, PAPER_N)
ncc_marks = vacuous_ncc(s, p, PAPER_N)
limit = float(wilks_level(beta)) if p == 0.5 else None
st.plotly_chart(vacuous_figure(N_TRAIN_GRID, nhc, ncc, beta=beta, s=s, marks=PAPER_N, marks_nhc=nhc_marks,
                               marks_ncc=ncc_marks, nhc_limit=limit), key="vacuous_chart")
st.caption(
    "Exact binomial sums at even n from 2 to 100,000 (log grid). Only even n are drawn: for odd n no "
    "exact tie n_a = n_b is possible, so the NCC's curve would zig-zag between two branches."
    + (" The dotted line is the NHC's large-n limit P(χ²₁ ≤ −2 ln β) (Wilks)." if limit is not None else "")
)

is_paper = (beta, s, p) == (PARAMS["beta"].default, PARAMS["s"].default, PARAMS["p"].default)
st.table(pd.DataFrame({
    "n": [f"{m:,}" for m in PAPER_N],
    f"NHC (β = {beta:g})": [percent(x) for x in nhc_marks],
    f"NCC (s = {s:g})": [percent(x) for x in ncc_marks],
}).set_index("n"))
numbers = (f"the NHC's prediction is vacuous with probability **{percent(nhc_marks[0])}** at n = 100 and "
           f"**{percent(nhc_marks[1])}** at n = 1,000; the NCC's with **{percent(ncc_marks[0])}** and "
           f"**{percent(ncc_marks[1])}**.")
if is_paper:
    st.success(f"At β = 0.15, s = 2 and P(C = a) = 1/2, {numbers} These reproduce 003 Example 2 "
               "(94.3%, 94.6%, 23.6%, 7.6%), computed live.")
else:
    st.markdown(f"With β = {beta:g}, s = {s:g} and P(C = a) = {p:g}, {numbers} "
                "(Reset β = 0.15, s = 2, p = 0.5 to reproduce 003 Example 2.)")

if p == 0.5:
    st.markdown(
        "**Why the NCC's curve falls:** with $p = 1/2$ neither class is better, so *both classes* is the "
        "theoretically correct answer — but the NCC says so only on a near-tie $|n_a-n_b|\\le s$, and as "
        "$n$ grows the counts drift apart by about $\\sqrt n$, so near-ties (and correct vacuous answers) "
        "become rare. The NHC instead asks whether the data can rule out $\\theta_a = 1/2$, which they do "
        f"only about {percent(1 - limit)} of the time at every large $n$."
    )
else:
    st.markdown(
        f"**With p = {p:g} ≠ 1/2** class {'a' if p > 0.5 else 'b'} really is more probable, so a single "
        "class is the right answer for large n: both curves fall to 0, the NCC's much sooner."
    )
