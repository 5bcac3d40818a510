"""Lesson 2: how much data until one class? (likelihood and IDM intervals as N grows, vacuous predictions,
003 Example 2)."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from credal_core import NCC
from credal_core.likelihood import (
    bernoulli_likelihood_interval,
    idm_interval,
    vacuous_probability,
    wilks_level,
)

from . import links
from .lesson_ncc import g
from .model import CHOICE, CLASSES, NUMBER, Experiment, Lesson, QuestionSpec, Step, Widget, change
from .sources import intervals_figure, vacuous_figure

N_GRID = tuple(int(v) for v in np.unique(np.round(np.geomspace(1, 10_000, 121))))
N_TRAIN = tuple(int(v) for v in np.unique(2 * np.round(np.geomspace(1, 50_000, 160)).astype(int)))
S_WIDGET = Widget("s", "s (hidden instances of the IDM)", 0.1, 10.0, 0.1)
ALPHA_WIDGET = Widget(
    "alpha",
    "α (likelihood level)",
    0.01,
    0.99,
    0.01,
    help="Keep the values of θ whose normalised likelihood is at least α.",
)
BETA_WIDGET = Widget("beta", "β (the NHC's cutoff)", 0.01, 0.99, 0.01)


@functools.lru_cache(maxsize=256)
def _intervals_figure(ratio: float, alpha: float, s: float):
    grid = np.asarray(N_GRID, float)
    lik_lo, lik_hi = bernoulli_likelihood_interval(ratio * grid, grid, alpha)
    idm = np.array([idm_interval(ratio * N, N, s) for N in grid])
    return intervals_figure(grid, lik_lo, lik_hi, idm[:, 0], idm[:, 1], ratio=ratio, alpha=alpha, s=s)


def _figure_intervals(p):
    return _intervals_figure(
        round(float(p.get("ratio", p.get("n", 0) / max(p.get("N", 1), 1))), 2),
        round(float(p.get("alpha", 0.85)), 2),
        round(float(p.get("s", 2.0)), 1),
    )


@functools.lru_cache(maxsize=256)
def _vacuous_figure(beta: float, s: float, p: float):
    n = np.asarray(N_TRAIN)
    return vacuous_figure(
        n,
        vacuous_probability(n, beta=beta, p=p),
        vacuous_probability(n, s=s, p=p),
        beta=beta,
        s=s,
        marks=(100, 1000),
        marks_nhc=[vacuous_probability(m, beta=beta, p=p) for m in (100, 1000)],
        marks_ncc=[vacuous_probability(m, s=s, p=p) for m in (100, 1000)],
        nhc_limit=float(wilks_level(beta)) if p == 0.5 else None,
    )


def _figure_vacuous(p):
    return _vacuous_figure(
        round(float(p.get("beta", 0.15)), 2),
        round(float(p.get("s", 2.0)), 1),
        round(float(p.get("p", 0.5)), 2),
    )


# step 1 ---------------------------------------------------------------------------------------
def _width_params(rng) -> dict:
    return {
        "ratio": float(rng.choice((0.2, 0.3, 0.4, 0.5, 0.6, 0.7))),
        "N": int(rng.choice((10, 20, 50, 100))),
        "s": float(rng.choice((1.0, 2.0, 4.0))),
        "alpha": 0.85,
    }


def _width(p) -> float:
    lo, hi = idm_interval(p["ratio"] * p["N"], p["N"], p["s"])
    return hi - lo


WIDTH_Q = QuestionSpec(
    "data.idm.width",
    NUMBER,
    _width_params,
    prompt=lambda p: (
        f"N = {p['N']} rows, a share n/N = {p['ratio']:g} of them in class c, IDM with s = "
        f"{p['s']:g}. "
        "How wide is the IDM interval of P(c)? (3 decimals)"
    ),
    solve=_width,
    explain=lambda p, right: (
        f"Upper minus lower: (n + s)/(N + s) − n/(N + s) = s/(N + s) = {p['s']:g}/"
        f"({p['N']} + {p['s']:g}) = **{right:.3f}**, whatever n is: the IDM's width "
        "falls like 1/N."
    ),
)


# step 2 ---------------------------------------------------------------------------------------
def _lik_params(rng) -> dict:
    N = int(rng.integers(8, 41))
    return {"n": int(rng.integers(1, N)), "N": N, "alpha": float(rng.choice((0.15, 0.5, 0.85))), "s": 2.0}


LIK_Q = QuestionSpec(
    "data.likelihood.lower",
    NUMBER,
    _lik_params,
    prompt=lambda p: (
        f"Class c was seen n = {p['n']} times in N = {p['N']} rows. What is the **lower** end "
        "of "
        f"the likelihood interval of θ = P(c) at α = {p['alpha']:g}? (3 decimals)"
    ),
    solve=lambda p: bernoulli_likelihood_interval(p["n"], p["N"], p["alpha"])[0],
    explain=lambda p, right: (
        "The interval keeps every θ with θⁿ(1−θ)^(N−n) ≥ α times its maximum (at θ = "
        "n/N = "
        f"{p['n'] / p['N']:.3f}); its lower end solves equality below n/N: "
        f"**{right:.3f}**. "
        "A higher α keeps fewer θ: a narrower interval."
    ),
)


# step 3 ---------------------------------------------------------------------------------------
RATES = ("the IDM interval", "the likelihood interval", "both at the same rate")


def _rate_solve(p) -> str:
    def widths(N):
        lo, hi = bernoulli_likelihood_interval(p["ratio"] * N, N, p["alpha"])
        ilo, ihi = idm_interval(p["ratio"] * N, N, p["s"])
        return hi - lo, ihi - ilo

    (l1, i1), (l2, i2) = widths(float(p["N"])), widths(100.0 * p["N"])
    lik, idm = l2 / l1, i2 / i1
    return RATES[2] if abs(lik - idm) < 1e-9 else (RATES[0] if idm < lik else RATES[1])


RATE_Q = QuestionSpec(
    "data.rates",
    CHOICE,
    lambda rng: {
        "ratio": float(rng.choice((0.3, 0.5, 0.7))),
        "N": int(rng.choice((20, 50, 100))),
        "s": float(rng.choice((1.0, 2.0))),
        "alpha": float(rng.choice((0.15, 0.5, 0.85))),
    },
    prompt=lambda p: (
        f"With n/N = {p['ratio']:g}, α = {p['alpha']:g} and s = {p['s']:g}: when N grows from "
        f"{p['N']} to {100 * p['N']:,}, which interval narrows by the larger factor?"
    ),
    solve=_rate_solve,
    explain=lambda p, right: (
        "**" + right + "**: the IDM's width s/(N + s) falls like 1/N (a factor of "
        "about 100), "
        "the likelihood interval's like 1/√N (about 10), as for a confidence "
        "interval. The "
        "right panel shows the two slopes, −1 and −½, on log–log axes."
    ),
    options=lambda p: RATES,
)


# step 4 ---------------------------------------------------------------------------------------
def no_feature_set(n: int, k: int, s: float) -> tuple:
    """The NCC's set with no informative feature: k rows of class a, n − k of b (a constant feature)."""
    X = pd.DataFrame({"F": ["x"] * n})
    y = np.array(["a"] * k + ["b"] * (n - k), dtype=object)
    model = NCC(s=float(s)).fit(X, y, classes=["a", "b"])
    keep = model.predict_set(pd.DataFrame({"F": ["x"]}))[0]
    return tuple(str(c) for c in model.classes_[keep])


def _vac_params(rng) -> dict:
    n = int(rng.integers(6, 31))
    s = float(rng.choice((1.0, 2.0, 4.0)))
    k = int(np.clip(n // 2 + rng.integers(-4, 5), 0, n))
    return {"n": n, "k": k, "s": s, "beta": 0.15, "p": 0.5}


def _experiment_vacuous(params: dict, seed: int) -> float:
    """1 if the NCC (s = 2) is vacuous on this student's own 100 rows drawn with P(a) = 1/2, else 0."""
    k = int(np.random.default_rng([int(seed), 2]).binomial(100, 0.5))
    return float(len(no_feature_set(100, k, 2.0)) == 2)


VAC_Q = QuestionSpec(
    "data.vacuous.set",
    CLASSES,
    _vac_params,
    prompt=lambda p: (
        f"No features at all: of n = {p['n']} training rows, k = {p['k']} are of class a and "
        f"{p['n'] - p['k']} of class b. Which classes does the NCC return at s = {p['s']:g}?"
    ),
    solve=lambda p: no_feature_set(p["n"], p["k"], p["s"]),
    explain=lambda p, right: (
        "a dominates b iff k/(n − k + s) > 1, i.e. k − (n − k) > s: here k − (n − k) "
        "= "
        f"{2 * p['k'] - p['n']}. The set is {{{', '.join(right)}}}; it is **vacuous** "
        "(both "
        "classes) exactly when |2k − n| ≤ s."
    ),
    options=lambda p: ("a", "b"),
)


# step 5 ---------------------------------------------------------------------------------------
def _pvac_params(rng) -> dict:
    return {
        "n": int(rng.choice((10, 20, 50, 100))),
        "s": float(rng.choice((1.0, 2.0, 4.0))),
        "beta": 0.15,
        "p": 0.5,
    }


PVAC_Q = QuestionSpec(
    "data.vacuous.probability",
    NUMBER,
    _pvac_params,
    prompt=lambda p: (
        f"Now the n = {p['n']} training rows are drawn at random with P(a) = P(b) = ½. What "
        "is the "
        f"probability (in %) that the NCC at s = {p['s']:g} is vacuous? (1 decimal)"
    ),
    solve=lambda p: 100 * float(vacuous_probability(p["n"], s=p["s"], p=p["p"])),
    explain=lambda p, right: (
        f"Vacuous iff |2k − n| ≤ s with k ~ Binomial({p['n']}, ½): summing the "
        "binomial "
        f"probabilities of those k gives **{right:.1f} %**. It falls towards 0 as n "
        "grows."
    ),
    tolerance=0.5,
    unit="%",
)


# step 6 ---------------------------------------------------------------------------------------
TREND = ("falls towards 0", "stays about the same", "rises")


def _trend(p) -> str:
    small, large = (float(vacuous_probability(n, beta=p["beta"], p=p["p"])) for n in (100, 10_000))
    return change(small, large, TREND[::-1], tol=0.05)


NHC_Q = QuestionSpec(
    "data.nhc.trend",
    CHOICE,
    lambda rng: {"beta": float(rng.choice((0.05, 0.15, 0.3))), "p": float(rng.choice((0.5, 0.6))), "s": 2.0},
    prompt=lambda p: (
        f"The naive hierarchical classifier NHC(β = {p['beta']:g}), with P(a) = {p['p']:g}: "
        "when "
        "the training set grows from n = 100 to n = 10,000, its probability of a vacuous "
        "prediction…"
    ),
    solve=_trend,
    explain=lambda p, right: (
        f"From {100 * vacuous_probability(100, beta=p['beta'], p=p['p']):.1f} % to "
        f"{100 * vacuous_probability(10_000, beta=p['beta'], p=p['p']):.1f} %: **{right}**. With P(a) = ½ "
        f"the likelihood of “ratio 1” never vanishes and the NHC stays vacuous with probability near "
        f"P(χ²₁ ≤ −2 log β) = {100 * wilks_level(p['beta']):.1f} % however large n is; with P(a) ≠ ½ it "
        "falls to 0 (003 Example 2)."
    ),
    options=lambda p: TREND,
)


LESSON = Lesson(
    "how-much-data",
    "How much data until one class?",
    assumes="Lesson 1 (the IDM and s); the binomial distribution.",
    summary="Likelihood and IDM intervals as N grows, their rates, vacuous predictions and 003 Example 2.",
    steps=(
        Step(
            "idm-width",
            "The IDM interval narrows like 1/N",
            f"The {g('idm', 'IDM')} interval of a chance θ = P(c) after n successes in N rows is "
            "[n/(N + s), (n + s)/(N + s)]. The left panel of the figure draws it (orange) against N for a "
            "fixed "
            "share n/N; the blue band is the likelihood interval of the next step. The right panel shows "
            "both "
            "widths on log–log axes, where a power law is a straight line.",
            WIDTH_Q,
            S_WIDGET,
            _figure_intervals,
            "intervals_vs_n",
            lambda p: links.intervals(ratio=p["ratio"], s=p["s"], alpha=p["alpha"]),
            formula=r"\overline P(c)-\underline P(c)=\frac{s}{N+s}",
        ),
        Step(
            "likelihood",
            "The likelihood interval",
            f"The {g('likelihood')} of θ after n successes in N rows is θⁿ(1 − θ)^(N−n), largest at θ = "
            "n/N; "
            f"divided by that maximum it is the {g('normalised-likelihood', 'normalised likelihood')}, "
            "between 0 "
            f"and 1. The {g('likelihood-interval', 'likelihood interval')} at level α keeps every θ whose "
            "normalised likelihood is at least α: the plausible chances.",
            LIK_Q,
            ALPHA_WIDGET,
            _figure_intervals,
            "intervals_vs_n",
            lambda p: links.intervals(ratio=round(p["n"] / p["N"], 2), alpha=p["alpha"]),
            formula=r"\{\theta:\ \theta^n(1-\theta)^{N-n} \ge \alpha\,\hat\theta^n(1-\hat\theta)^{N-n}\},"
            r"\quad \hat\theta = n/N",
        ),
        Step(
            "rates",
            "Two rates",
            "Both intervals shrink as the data grow, but not at the same rate. Predict which one narrows "
            "faster "
            "when N is multiplied by 100, then read the slopes in the right panel (move n/N: the slopes "
            "stay).",
            RATE_Q,
            Widget("ratio", "n/N (share of class c)", 0.01, 0.99, 0.01),
            _figure_intervals,
            "intervals_vs_n",
            lambda p: links.intervals(ratio=p["ratio"], s=p["s"], alpha=p["alpha"]),
        ),
        Step(
            "vacuous",
            "Vacuous predictions",
            f"A prediction is {g('vacuous')} when the classifier returns every class: it admits it cannot "
            "tell. "
            "Strip the problem to its core: two classes and no informative feature, so only the class "
            "counts "
            "k and n − k matter. Under the IDM, a dominates b iff k/(n − k + s) > 1.",
            VAC_Q,
            S_WIDGET,
            _figure_vacuous,
            "intervals_vs_n",
            lambda p: links.intervals(s=p["s"], beta=p["beta"], p=p["p"]),
            experiment=Experiment(
                "1 if the NCC (s = 2) is vacuous on your own 100 rows, else 0", _experiment_vacuous
            ),
        ),
        Step(
            "p-vacuous",
            "How often vacuous?",
            "Draw the training rows at random and the number k of class a is binomial. The NCC is vacuous "
            "when |2k − n| ≤ s, so its probability of a vacuous prediction is a binomial sum. The figure "
            "draws "
            "it against n (orange) beside the NHC's of the next step (blue).",
            PVAC_Q,
            S_WIDGET,
            _figure_vacuous,
            "intervals_vs_n",
            lambda p: links.intervals(s=p["s"], beta=p["beta"], p=p["p"]),
        ),
        Step(
            "nhc",
            "The likelihood classifier can stay vacuous (003 Example 2)",
            f"The {g('nhc', 'naive hierarchical classifier NHC(β)')} keeps every model whose normalised "
            "likelihood is at least β (the LNCC without the instance, lesson 3). With no feature it is "
            "vacuous "
            "when the likelihood of “both classes equally likely” is at least β. 003 Example 2: at β = 0.15 "
            "and n = 100 that happens with probability 94 %.",
            NHC_Q,
            BETA_WIDGET,
            _figure_vacuous,
            "intervals_vs_n",
            lambda p: links.intervals(beta=p["beta"], p=p["p"], s=p["s"]),
        ),
    ),
)
