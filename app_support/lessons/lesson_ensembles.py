"""Lesson 5: ensembles and priors over models (AODE, BMA, compression, their credal versions; paper 001)."""

from __future__ import annotations

import functools

import numpy as np

from credal_core.aode import CredalBMAAODE, CredalCompAODE
from credal_core.aode.summary import spode_table
from credal_core.metrics import credal_scores

from . import links
from .lesson_ncc import g
from .model import CHOICE, NUMBER, Lesson, QuestionSpec, Step, Widget, change
from .sources import sample, weights_figure

DATA = "synthetic_nb"
ROWS_WIDGET = Widget("n", "training rows (a fixed random subset)", 10, 300, 10)
EPS_WIDGET = Widget("eps", "ε (lower bound of each SPODE's prior)", 0.001, 0.1, 0.001)


def training_rows(n_rows: int, n_train: int) -> np.ndarray:
    """The AODE page's seeded subset of ``n_train`` rows, so its link shows the same models."""
    return np.sort(np.random.default_rng(0).permutation(n_rows)[:n_train])


@functools.lru_cache(maxsize=64)
def fitted(n_train: int, eps: float = 0.01):
    X, y = sample(DATA)
    rows = training_rows(len(X), int(n_train))
    y = np.asarray(y)
    bma = CredalBMAAODE(epsilon=eps).fit(X.iloc[rows], y[rows])
    comp = CredalCompAODE(epsilon=eps).fit(X.iloc[rows], y[rows])
    return bma, comp, spode_table(bma, comp)


def figure(p: dict):
    return weights_figure(fitted(int(round(p["n"])), round(float(p.get("eps", 0.01)), 3))[2])


def link(p: dict) -> dict:
    return links.aode(data=DATA, n=int(round(p["n"])), eps=p.get("eps", 0.01))


def _n(rng) -> dict:
    return {"n": int(rng.choice((10, 20, 30, 50, 100, 200, 300))), "eps": 0.01}


K_Q = QuestionSpec(
    "ensembles.aode.weight",
    NUMBER,
    _n,
    prompt=lambda p: (
        f"synthetic_nb has 8 features, so AODE has 8 SPODEs. Trained on {p['n']} rows, what "
        "weight "
        "does AODE give each SPODE? (3 decimals)"
    ),
    solve=lambda p: 1.0 / len(fitted(p["n"])[2]),
    explain=lambda p, right: (
        f"AODE averages its k = {len(fitted(p['n'])[2])} SPODEs with equal weights "
        "1/k = "
        f"**{right:.3f}**, whatever the data: it never asks which SPODE fits best."
    ),
)

BMA = ("above 0.5: one SPODE dominates", "at most 0.5: the weight is spread")


def _bma_max(p) -> float:
    return float(fitted(p["n"])[2]["bma_weight"].max())


BMA_Q = QuestionSpec(
    "ensembles.bma.concentration",
    CHOICE,
    _n,
    prompt=lambda p: f"Trained on {p['n']} rows of synthetic_nb, BMA-AODE's largest SPODE weight is…",
    solve=lambda p: BMA[0] if _bma_max(p) > 0.5 else BMA[1],
    explain=lambda p, right: (
        f"It is {_bma_max(p):.3f}. The posterior weight grows like e^(LL_j): "
        "log-likelihoods "
        "that differ by a few nats already give one SPODE nearly all the weight, and "
        "the "
        "gaps grow with n. BMA then behaves like choosing one model."
    ),
    options=lambda p: BMA,
)

COMP = ("closer to uniform than BMA's", "further from uniform than BMA's")


def _comp_closer(p) -> bool:
    table = fitted(p["n"])[2]
    k = len(table)
    return abs(table["comp_weight"].max() - 1 / k) < abs(table["bma_weight"].max() - 1 / k)


COMP_Q = QuestionSpec(
    "ensembles.compression.spread",
    CHOICE,
    _n,
    prompt=lambda p: f"Same {p['n']} rows. COMP-AODE's largest weight is…",
    solve=lambda p: COMP[0] if _comp_closer(p) else COMP[1],
    explain=lambda p, right: (
        f"COMP-AODE's largest weight is {fitted(p['n'])[2]['comp_weight'].max():.3f} "
        "against "
        f"BMA's {_bma_max(p):.3f} (uniform: {1 / len(fitted(p['n'])[2]):.3f}). The "
        "compression "
        "coefficient is linear in LL_j, not exponential: a logarithmic smoothing of "
        "BMA."
    ),
    options=lambda p: COMP,
)

DIRECTION = ("higher", "the same", "lower")


@functools.lru_cache(maxsize=256)
def determinacy(n: int, eps: float) -> float:
    """BMA-AODE*'s determinacy on the rows left out of training."""
    X, y = sample(DATA)
    test = np.setdiff1d(np.arange(len(X)), training_rows(len(X), n))
    bma = fitted(n, eps)[0]
    return float(
        credal_scores(np.asarray(y)[test], bma.predict_set(X.iloc[test]), bma.classes_)["determinacy"]
    )


def _eps_params(rng) -> dict:
    return {
        "n": int(rng.choice((20, 30, 50, 100))),
        "eps": 0.01,
        "eps2": float(rng.choice((0.03, 0.05, 0.1))),
    }


def _eps_solve(p) -> str:
    first, second = determinacy(p["n"], p["eps"]), determinacy(p["n"], p["eps2"])
    return change(first, second, DIRECTION)


EPS_Q = QuestionSpec(
    "ensembles.credal.epsilon",
    CHOICE,
    _eps_params,
    prompt=lambda p: (
        f"BMA-AODE* trained on {p['n']} rows has determinacy "
        f"{100 * determinacy(p['n'], 0.01):.0f} % "
        f"on the other rows at ε = 0.01. At ε = {p['eps2']:g} its determinacy is…"
    ),
    solve=_eps_solve,
    explain=lambda p, right: (
        f"{100 * determinacy(p['n'], p['eps2']):.0f} % ({right}). Every prior of the "
        "set gives "
        "each SPODE at least ε, so a larger ε leaves fewer priors: a smaller set of "
        "posteriors, fewer prior-dependent instances."
    ),
    options=lambda p: DIRECTION,
)

LESSON = Lesson(
    "ensembles",
    "Ensembles and priors over models",
    assumes="Lessons 1 and 3 (dominance, likelihood).",
    summary="AODE's SPODEs, Bayesian model averaging against compression weights, and their credal versions "
    "(001).",
    steps=(
        Step(
            "aode",
            "AODE: many small models",
            f"{g('aode', 'AODE')} builds one {g('spode', 'SPODE')} per feature: a naive-Bayes-like model "
            "in which "
            "that feature, the super-parent, is a parent of every other. It averages their class "
            "posteriors. The "
            "bars show three weightings of the SPODEs; the dashed line is AODE's.",
            K_Q,
            ROWS_WIDGET,
            figure,
            "aode_weights",
            link,
        ),
        Step(
            "bma",
            "Bayesian model averaging",
            f"{g('bma', 'BMA')} weights each SPODE by its posterior probability, proportional to the "
            "exponential "
            "of its conditional log-likelihood LL_j on the training rows. Predict how concentrated that is.",
            BMA_Q,
            ROWS_WIDGET,
            figure,
            "aode_weights",
            link,
            formula=r"w_j^{\rm BMA}\propto e^{LL_j}",
        ),
        Step(
            "compression",
            "Compression coefficients",
            f"The {g('compression', 'compression coefficient')} compares a SPODE's log-likelihood with the "
            f"{g('null-model', 'null model')}'s, which ignores the features. Positive coefficients, "
            "normalised, are "
            "COMP-AODE's weights.",
            COMP_Q,
            ROWS_WIDGET,
            figure,
            "aode_weights",
            link,
            formula=r"\pi_j = 1-\frac{LL_j+\log\frac{1-\epsilon}{k}}{-nH(C)+\log\epsilon}",
        ),
        Step(
            "credal",
            "A set of priors over the models",
            f"Both weightings need a prior over the SPODEs. The {g('credal-aode', 'credal versions')} let "
            "it range "
            "over every prior that gives each SPODE at least ε, and keep every class no other class "
            "dominates "
            "under all of them.",
            EPS_Q,
            EPS_WIDGET,
            figure,
            "aode_weights",
            link,
        ),
    ),
)
