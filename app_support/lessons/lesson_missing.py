"""Lesson 4: missing values the credal way (MAR against NCC2's conservative rule), on the weather data."""

from __future__ import annotations

import functools

import numpy as np

from credal_core.naive.ncc_explain import hide_cells, treatment_sets

from . import links
from .lesson_ncc import g
from .model import CHOICE, CLASSES, Lesson, QuestionSpec, Step, Widget, change
from .sources import sample, set_grid

S_WIDGET = Widget("s", "s (hidden instances of the IDM)", 0.1, 10.0, 0.1)
HIDE_WIDGET = Widget("hide", "probability of hiding a sunny outlook in training", 0.0, 1.0, 0.05)
FEATURES = ("outlook", "temperature", "humidity", "windy")
SUNNY_ROWS = (0, 1, 7, 8, 10)  # the rows (0-based) whose outlook is sunny


@functools.lru_cache(maxsize=512)
def scenario(row: int, missing: str, s: float, hide: float = 0.0) -> dict:
    """The weather row ``row`` (0-based) left out of training, ``missing`` blanked in it; with ``hide`` > 0,
    that share of the training rows' sunny outlooks hidden (not at random, seeded as the page does)."""
    X, y = sample("weather")
    X = X.astype(object)
    if hide > 0:
        X = hide_cells(X, "outlook", hide, mechanism="mnar", value="sunny", seed=0, protect=row)
    keep = np.arange(len(X)) != row
    instance = X.iloc[[row]].copy()
    instance[missing] = np.nan
    treatments = treatment_sets(
        X[keep].reset_index(drop=True), np.asarray(y)[keep], instance, s=s, max_steps=1
    )
    return {
        "truth": str(np.asarray(y)[row]),
        "treatments": {t.kind: tuple(map(str, t.members)) for t in treatments},
        "rows": treatments,
        "instance": instance,
    }


def members(p: dict, kind: str) -> tuple:
    return scenario(p["row"], p["missing"], float(p["s"]), float(p.get("hide", 0.0)))["treatments"][kind]


def _params(rng) -> dict:
    return {
        "row": int(rng.integers(0, 14)),
        "missing": str(rng.choice(FEATURES)),
        "s": float(rng.choice((0.5, 1.0, 2.0))),
        "hide": 0.0,
    }


def _mnar_params(rng) -> dict:
    return {
        "row": int(rng.choice(SUNNY_ROWS)),
        "missing": "outlook",
        "s": float(rng.choice((0.5, 1.0, 2.0))),
        "hide": 1.0,
    }


def _describe(p: dict) -> str:
    inst = scenario(p["row"], p["missing"], float(p["s"]), float(p.get("hide", 0.0)))["instance"].iloc[0]
    shown = ", ".join(f"{f} = {'?' if f == p['missing'] else inst[f]}" for f in FEATURES)
    hidden = " Every sunny outlook of the training rows is hidden." if p.get("hide") else ""
    return (
        f"Weather data, row {p['row'] + 1} left out of the 13 training rows and classified with "
        f"{p['missing']} "
        f"missing: {shown}.{hidden}"
    )


def figure(p: dict):
    view = scenario(p["row"], p["missing"], round(float(p["s"]), 1), round(float(p.get("hide", 0.0)), 2))
    return set_grid(
        [t.name for t in view["rows"]], [t.members for t in view["rows"]], ["no", "yes"], truth=view["truth"]
    )


def link(p: dict) -> dict:
    return links.missing(
        row=p["row"] + 1,
        missing=(p["missing"],),
        s=p["s"],
        hide=p.get("hide", 0.0),
        loo=True,
        mech="mnar",
        hfeat="outlook",
        hval="sunny",
    )


def _set_text(values) -> str:
    return "{" + ", ".join(values) + "}"


MAR_Q = QuestionSpec(
    "missing.mar.set",
    CLASSES,
    _params,
    prompt=lambda p: _describe(p) + f"\n\nWhich classes does the NCC (s = {p['s']:g}) return under **MAR**?",
    solve=lambda p: members(p, "mar"),
    explain=lambda p, right: (
        f"Under MAR the missing {p['missing']} simply leaves the product: the NCC "
        "judges the "
        f"other three values and returns {_set_text(right)}."
    ),
    options=lambda p: ("no", "yes"),
)

SAME = ("the same set", "a different set")


IMPUTE_Q = QuestionSpec(
    "missing.impute.same",
    CHOICE,
    _params,
    prompt=lambda p: (
        _describe(p) + f"\n\nUnder MAR the NCC returns {_set_text(members(p, 'mar'))}. "
        "Filling the "
        f"missing {p['missing']} with its most frequent training value, the NCC returns…"
    ),
    solve=lambda p: SAME[0] if set(members(p, "impute")) == set(members(p, "mar")) else SAME[1],
    explain=lambda p, right: (
        f"Imputed, the NCC returns {_set_text(members(p, 'impute'))} ({right}). "
        "Imputation "
        "pretends to know the value: it can make the set smaller, or change it, with "
        "no "
        "warning that a guess was made."
    ),
    options=lambda p: SAME,
)

CONS_Q = QuestionSpec(
    "missing.conservative.set",
    CLASSES,
    _params,
    prompt=lambda p: (
        _describe(p) + f"\n\nNow declare {p['missing']} **not missing at random**: the hidden "
        "value "
        "may be any value. Which classes does the NCC return?"
    ),
    solve=lambda p: members(p, "conservative"),
    explain=lambda p, right: (
        f"A class dominates only if it does for **every** possible {p['missing']}; "
        "the NCC "
        f"returns {_set_text(right)}. Under MAR it returned "
        f"{_set_text(members(p, 'mar'))}."
    ),
    options=lambda p: ("no", "yes"),
)

SIZE = ("a larger set", "the same set", "a smaller set")


def _size(p) -> str:
    mar, cons = set(members(p, "mar")), set(members(p, "conservative"))
    return change(mar, cons, SIZE)


SIZE_Q = QuestionSpec(
    "missing.conservative.size",
    CHOICE,
    _params,
    prompt=lambda p: (
        _describe(p) + f"\n\nUnder MAR the NCC returns {_set_text(members(p, 'mar'))}. "
        "Declaring "
        f"{p['missing']} not MAR, it returns…"
    ),
    solve=_size,
    explain=lambda p, right: (
        f"{_set_text(members(p, 'conservative'))}: {right}. Every completion must "
        "agree before "
        "a class is dropped, so the conservative set never shrinks (as long as the "
        "values "
        "a hidden cell may take were seen in training)."
    ),
    options=lambda p: SIZE,
)

TRUTH = ("yes, it holds the true class", "no, it misses the true class")


def _holds(p, kind) -> bool:
    view = scenario(p["row"], p["missing"], float(p["s"]), float(p.get("hide", 0.0)))
    return view["truth"] in view["treatments"][kind]


MNAR_Q = QuestionSpec(
    "missing.mnar.truth",
    CHOICE,
    _mnar_params,
    prompt=lambda p: (
        _describe(p) + " The true class of this row is "
        f"**{scenario(p['row'], 'outlook', float(p['s']), 1.0)['truth']}**.\n\nDoes the NCC's "
        "set under "
        "MAR contain the true class?"
    ),
    solve=lambda p: TRUTH[0] if _holds(p, "mar") else TRUTH[1],
    explain=lambda p, right: (
        f"Under MAR the NCC returns {_set_text(members(p, 'mar'))}: "
        f"{right.split(',')[0]}. With "
        "every sunny outlook hidden, the training data say outlooks are overcast or "
        "rainy, "
        "and a sunny day is judged as one of those: the missingness itself carried the "
        "information MAR throws away."
    ),
    options=lambda p: TRUTH,
)

DECLARE_Q = QuestionSpec(
    "missing.mnar.declared",
    CLASSES,
    _mnar_params,
    prompt=lambda p: (
        _describe(p) + "\n\nDeclare outlook **not MAR** (in training and in the instance). "
        "Which classes "
        "does the NCC return?"
    ),
    solve=lambda p: members(p, "conservative"),
    explain=lambda p, right: (
        f"{_set_text(right)}: each hidden outlook may be any value seen, including the "
        "values of the rows whose outlook is known, so no class can rule the others "
        "out on "
        "the outlook's account. The conservative set is safe when the mechanism is "
        "unknown."
    ),
    options=lambda p: ("no", "yes"),
)

LESSON = Lesson(
    "missing-values",
    "Missing values the credal way",
    assumes="Lesson 1 (the NCC and its set).",
    summary="Missing at random, imputation and NCC2's conservative rule on the weather data.",
    steps=(
        Step(
            "mar",
            "Missing at random",
            f"A value can be missing from the instance to classify or from training rows. {g('mar', 'MAR')} "
            "(missing at random) assumes the gap says nothing about the value: the classifier skips it. A "
            "missing instance value leaves the naive product; a training row counts for feature j only "
            "where j "
            "is present. The grid shows each treatment's set (✓), the true class marked.",
            MAR_Q,
            S_WIDGET,
            figure,
            "missing_values",
            link,
        ),
        Step(
            "impute",
            "Imputation",
            f"{g('imputation', 'Imputation')} fills each gap with a guess, here the most frequent value of "
            "the "
            "training data (as paper 001 does), and then classifies as if nothing were missing. It is "
            "simple and "
            "common; predict whether it changes the answer.",
            IMPUTE_Q,
            S_WIDGET,
            figure,
            "missing_values",
            link,
        ),
        Step(
            "conservative",
            "The conservative rule (NCC2)",
            f"If the mechanism is unknown, NCC2's {g('cir', 'conservative rule')} declares a feature "
            f"{g('mar', 'not MAR')}: its hidden value may be *any* value. Class a dominates b only if it "
            "does for "
            "every completion of the hidden values and every prior of the IDM.",
            CONS_Q,
            S_WIDGET,
            figure,
            "missing_values",
            link,
            formula=r"a\succ b \iff \min_{v}\ \inf_{t}\frac{P_t(a,\tilde f_{\rm obs},v)}{P_t(b,\tilde "
            r"f_{\rm obs},v)}>1",
        ),
        Step(
            "size",
            "Never smaller",
            "Each completion of the hidden value is one ordinary NCC problem; the conservative rule keeps "
            "a class "
            "unless every one of them drops it. Compare the conservative set with the MAR set.",
            SIZE_Q,
            S_WIDGET,
            figure,
            "missing_values",
            link,
        ),
        Step(
            "mnar",
            "When the gap is the message",
            "A weather station that fails on sunny days leaves gaps that are not at random. Here every "
            "sunny "
            "outlook of the training data is hidden, and the instance, a sunny day, has lost its outlook "
            "too. "
            "Slide the share of hidden sunny outlooks to see when MAR goes wrong.",
            MNAR_Q,
            HIDE_WIDGET,
            figure,
            "missing_values",
            link,
        ),
        Step(
            "declare",
            "Declaring it",
            "Declaring outlook not MAR costs determinacy where the data were fine, and buys safety where "
            "they "
            "were not. Predict the conservative answer for the sunny day.",
            DECLARE_Q,
            S_WIDGET,
            figure,
            "missing_values",
            link,
        ),
    ),
)
