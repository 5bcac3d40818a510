"""Lesson 3's step beyond the naive graph: the profile likelihood of a class ratio in a Bayesian network (003
Theorem 1), on the weather data with the naive graph or the TAN learned from it.

The numbers come from ``credal_core.likelihood.NetworkLikelihood`` through the Profile likelihood in a
network page's own computation (``app_support.network_likelihood.model.ratio_view``) and its figure
builder; nothing is computed twice.
"""

from __future__ import annotations

import functools

from app_support.network_likelihood.figures import profile_figure
from app_support.network_likelihood.model import graph_parents, ratio_view

from . import links
from .lesson_ncc import g
from .model import CLASSES, QuestionSpec, Step, Widget
from .sources import sample

DATA, CLASS, A, B = "weather", "play", "yes", "no"
GRAPH_WORDS = {"naive": "the naive graph (play → every feature)",
               "tan": "the TAN learned from the 14 days (play → every feature, plus a tree among them)"}
BETA_WIDGET = Widget("beta", "β (keep the networks with normalised likelihood > β)", 0.01, 0.99, 0.01)
BETAS = (0.05, 0.1, 0.15, 0.3, 0.5)


def _data():
    X, y = sample(DATA)
    X = X.copy()
    X.columns = [str(c) for c in X.columns]
    return X, y.astype(str)


@functools.lru_cache(maxsize=4)
def parents(graph: str) -> dict:
    """The parents of each node of ``graph`` ("naive" or "tan") over the weather data."""
    X, y = _data()
    return graph_parents(graph, X, y, CLASS)


@functools.lru_cache(maxsize=64)
def view(graph: str, row: int):
    """The profile likelihood of γ = P(yes, rest) / P(no, rest) at row ``row`` (0-based) on ``graph``
    (read only; its region is at β = 0.15, others come from ``view(...).profile.region``)."""
    X, y = _data()
    return ratio_view(X, y, CLASS, parents(graph), int(row), A, B, 0.15)


def returned(graph: str, row: int, beta: float) -> tuple:
    """The classes kept at cut-off β: yes dominates no when every network kept (normalised likelihood
    > β) finds γ > 1, i.e. the β-region lies right of 1 (and no dominates yes when it lies left of 1)."""
    lo, hi = view(graph, row).profile.region(float(beta))
    if lo > 1:
        return (A,)
    if hi < 1:
        return (B,)
    return (A, B)


def _params(rng) -> dict:
    return {"graph": str(rng.choice(("naive", "tan"))), "row": int(rng.integers(0, 14)),
            "beta": float(rng.choice(BETAS))}


def _instance(p) -> str:
    X, _ = _data()
    return ", ".join(f"{k} = {v}" for k, v in X.iloc[p["row"]].items())


def _graph_text(p) -> str:
    shown = [f"{node} ← {', '.join(pa)}" for node, pa in parents(p["graph"]).items() if pa]
    return "; ".join(shown)


def _explain(p, right) -> str:
    v = view(p["graph"], p["row"])
    lo, hi = v.profile.region(p["beta"])
    at_one = float(v.profile(1.0))
    return (f"The profile likelihood of γ = 1 (both classes equally probable) is **{at_one:.3f}** "
            f"and the most likely network has γ = {v.mle:.3g}; the region {{γ : lik(γ) > {p['beta']:g}}} is "
            f"[{lo:.3g}, {hi:.3g}], so the classifier keeps {{{', '.join(right)}}}. 003 Theorem 1 traces "
            "this curve exactly on any graph: θ[α] adds α times γ's exponents to each table's counts.")


NETWORK_Q = QuestionSpec(
    "lncc.network.set",
    CLASSES,
    _params,
    prompt=lambda p: (
        f"Weather data (14 days, class play), {GRAPH_WORDS[p['graph']]}: {_graph_text(p)}. The day to "
        f"classify is day {p['row'] + 1}: {_instance(p)}. Keep every network whose normalised likelihood "
        f"exceeds β = {p['beta']:g}; a class is dropped when every network kept finds the other more "
        "probable. Which classes remain?"
    ),
    solve=lambda p: returned(p["graph"], p["row"], p["beta"]),
    explain=_explain,
    options=lambda p: (A, B),
)


def figure(p: dict):
    v = view(p["graph"], p["row"])
    beta = round(float(p["beta"]), 2)
    return profile_figure(v.curve["gamma"], v.curve["likelihood"], v.path["gamma"], v.path["likelihood"],
                          v.profile.region(beta), v.mle, beta,
                          title=f"Profile likelihood of P(yes, rest) / P(no, rest) on the {p['graph']} graph")


def link(p: dict) -> dict:
    return links.network(data=DATA, graph=p["graph"], row=p["row"], a=A, b=B, beta=p["beta"])


STEP = Step(
    "network",
    "Beyond the naive graph (003 Theorem 1)",
    f"The NBC is one {g('bayesian-network', 'Bayesian network')}: the class is the only parent of every "
    f"feature. 003 Theorem 1 gives the {g('profile-likelihood', 'profile likelihood')} of a ratio γ = "
    "P(a, rest)/P(b, rest) on *any* network learned from complete data, e.g. a "
    f"{g('tan', 'TAN')}, where each feature may also depend on one other feature. Along the curve each "
    "table's counts d move by α times γ's exponents q. The shaded band is {γ : lik(γ) > β}: where it "
    "excludes γ = 1, one class wins.",
    NETWORK_Q,
    BETA_WIDGET,
    figure,
    "network_likelihood",
    link,
    formula=r"\mathrm{lik}_g(\gamma)=\sup_{\theta:\ g(\theta)=\gamma}\mathrm{lik}(\theta),\qquad "
    r"\theta[\alpha]=\langle d+\alpha q\rangle",
)
