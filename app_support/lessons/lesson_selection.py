"""Lesson 6: choosing a classifier per instance (the critical perturbation threshold of paper 004); its last
step is the Classifier selection page's own view (Balloons, 004's features, one split, one test row, k)."""

from __future__ import annotations

import functools

import numpy as np

from app_support.classifier_selection.counts import threshold as table_threshold
from app_support.classifier_selection.figures import threshold_plane_figure
from app_support.classifier_selection.state import K_MAX, K_MIN, PAPER_SUBSETS
from credal_core.resampling import repeated_holdout
from credal_core.selection.threshold import ThresholdSelector

from . import links
from .figures import bars
from .lesson_ncc import g
from .model import CHOICE, Lesson, QuestionSpec, Step, Widget, change
from .problems import (
    counts_table,
    pair_from_params,
    pair_params,
    random_pair,
    scaled,
)
from .sources import sample

FACTOR_WIDGET = Widget("factor", "multiply every count by", 1, 5, 1)


def threshold(p: dict, features=(0, 1), factor: int = 1) -> float:
    """The Laplace NBC's critical threshold on features ``features`` (0-based) of the counts × ``factor``,
    at the instance x|x: the function the Classifier selection page shows for the same table."""
    return table_threshold(pair_from_params(scaled(p, int(factor))), tuple(f"f{j + 1}" for j in features))


def table_link(p: dict) -> dict:
    """Classifier selection at the step's count table × the slider's factor (C1 = f1, C2 = f1 and f2, the
    instance x|x typed in): its section 0 shows both thresholds of the figure."""
    return links.selection_table(pair_from_params(scaled(p, int(round(p.get("factor", 1))))))


def _params(rng) -> dict:
    while True:
        p = {**pair_params(random_pair(rng, features=2, lo=3, hi=12)), "factor": 1}
        if min(threshold(p, (0,)), threshold(p)) > 0:  # no tie: both NBCs have an answer
            return p


def figure(p: dict):
    k = int(round(p.get("factor", 1)))
    return bars(
        ["C1: f1 only", "C2: f1 and f2"],
        [threshold(p, (0,), k), threshold(p, (0, 1), k)],
        title=f"Critical perturbation thresholds (counts × {k})",
        y_title="largest s keeping the answer",
        y_range=None,
    )


ABOVE = ("above 1", "at most 1")

THRESHOLD_Q = QuestionSpec(
    "selection.threshold.size",
    CHOICE,
    _params,
    prompt=lambda p: (
        counts_table(pair_from_params(p)) + "\n\nThe Laplace NBC on both features: is its "
        "critical "
        "perturbation threshold (the largest s keeping its answer) above 1?"
    ),
    solve=lambda p: ABOVE[0] if threshold(p) > 1 else ABOVE[1],
    explain=lambda p, right: (
        f"The threshold is {threshold(p):.3f}: up to that many hidden instances, "
        "placed "
        "anywhere, the Laplace-IDM NCC still returns only the NBC's class. A larger "
        "threshold, a more robust answer on this instance."
    ),
    options=lambda p: ABOVE,
)

MORE = ("higher", "the same", "lower")


def _more_params(rng) -> dict:
    return {**_params(rng), "factor2": int(rng.choice((2, 3, 5)))}


def _more_solve(p) -> str:
    first, second = threshold(p), threshold(p, factor=p["factor2"])
    return change(first, second, MORE, tol=1e-12)


MORE_Q = QuestionSpec(
    "selection.threshold.more-data",
    CHOICE,
    _more_params,
    prompt=lambda p: (
        counts_table(pair_from_params(p)) + f"\n\nIts threshold is {threshold(p):.3f}. "
        "Multiply every "
        f"count by {p['factor2']}. The threshold becomes…"
    ),
    solve=_more_solve,
    explain=lambda p, right: (
        f"{threshold(p, factor=p['factor2']):.3f} ({right}). The same proportions "
        "with more "
        "rows: s hidden instances weigh less against the counts, so it takes more of "
        "them "
        "to change the answer."
    ),
    options=lambda p: MORE,
)

# step 3: the Classifier selection page's view ----------------------------------------------------------
DATA = "balloons"
F1, F2 = PAPER_SUBSETS[DATA]           # 004 Table 1: C1 all four features, C2 colour, act and age
K_WIDGET = Widget("k", "k (nearest training points)", K_MIN, K_MAX, 1)
CHOSEN = {"C1": f"C1 ({', '.join(F1)})", "C2": f"C2 ({', '.join(F2)})"}


@functools.lru_cache(maxsize=32)
def balloons_split(seed: int) -> tuple:
    """The page's random 70/30 split ``seed`` of Balloons: (train, test) row positions."""
    _, y = sample(DATA)
    return next(repeated_holdout(np.asarray(y), n_repeats=1, test_size=0.3, stratify=False, seed=int(seed)))


@functools.lru_cache(maxsize=32)
def selector(seed: int) -> ThresholdSelector:
    """004's selector learned on the training part of split ``seed`` (resubstitution, Euclidean; shared)."""
    X, y = sample(DATA)
    train, _ = balloons_split(seed)
    return ThresholdSelector(features_1=list(F1), features_2=list(F2), k=K_MIN, distance="euclidean",
                             training_thresholds="resubstitution").fit(X.iloc[train], np.asarray(y)[train])


@functools.lru_cache(maxsize=256)
def explained(seed: int, row: int) -> tuple:
    """The selector's explanation of test row ``row`` for every k (entry k - K_MIN)."""
    X, _ = sample(DATA)
    _, test = balloons_split(seed)
    frames = selector(seed).explain_each_k(X.iloc[[test[int(row)]]], range(K_MIN, K_MAX + 1))
    return tuple(frame.iloc[0] for frame in frames)


def at_k(p: dict, k: int | None = None):
    return explained(p["seed"], p["row"])[int(round(p["k"] if k is None else k)) - K_MIN]


def _select_params(rng) -> dict:
    """A split and a test row where C1 and C2 disagree (so the choice matters), k = 3 (004's best)."""
    for _ in range(50):
        seed = int(rng.integers(0, 20))
        row = int(rng.integers(0, len(balloons_split(seed)[1])))
        info = explained(seed, row)[0]
        if info["prediction_1"] != info["prediction_2"]:
            break
    return {"seed": seed, "row": row, "k": 3}


def _describe(p) -> str:
    X, y = sample(DATA)
    index = balloons_split(p["seed"])[1][p["row"]]
    info = at_k(p)
    values = ", ".join(f"{c} = {v}" for c, v in X.iloc[index].items())
    return (f"Balloons data, random 70/30 split {p['seed']}, test row {p['row']}: {values}. "
            f"C1 uses {', '.join(F1)} and says **{info['prediction_1']}**; C2 uses {', '.join(F2)} and says "
            f"**{info['prediction_2']}**. Its point on the threshold plane is ({info['threshold_1']:.3f}, "
            f"{info['threshold_2']:.3f}). (Balloons and these two feature subsets are 004's.)")


SELECT_Q = QuestionSpec(
    "selection.selector.choice",
    CHOICE,
    _select_params,
    prompt=lambda p: (
        _describe(p) + f"\n\nAt k = {p['k']} (Euclidean distance on the plane), which classifier does the "
        "selector hand this instance to?"
    ),
    solve=lambda p: CHOSEN[at_k(p)["chosen"]],
    explain=lambda p, right: (
        f"Its {int(at_k(p)['n_neighbours'])} nearest training points (every row at a distance at most the "
        f"k-th smallest) hold C1 right {int(at_k(p)['hits_1'])} times and C2 right "
        f"{int(at_k(p)['hits_2'])} times, so the selector uses **{right}** (a tie goes to C1) and predicts "
        f"{at_k(p)['prediction']}. Move k: the neighbourhood grows and the choice may flip (004 Fig. 3)."
    ),
    options=lambda p: tuple(CHOSEN.values()),
)


def select_figure(p: dict):
    info = at_k(p)
    k = int(round(p["k"]))
    return threshold_plane_figure(selector(p["seed"]).training_table(),
                                  test_point=(info["threshold_1"], info["threshold_2"]),
                                  neighbours={"euclidean": info["neighbours"]}, k=k)


def select_link(p: dict) -> dict:
    return links.selection(data=DATA, seed=p["seed"], row=p["row"], k=int(round(p["k"])), source="test")


LESSON = Lesson(
    "classifier-selection",
    "Choosing a classifier per instance",
    assumes="Lesson 1 (the IDM and s); the Laplace prior.",
    summary="The critical perturbation threshold of 004, how data move it, and selecting between two NBCs.",
    steps=(
        Step(
            "threshold",
            "How robust is one answer?",
            f"Paper 004 asks how far an NBC with the {g('laplace-prior', 'Laplace prior')} can be "
            "perturbed before "
            f"its answer changes. The {g('perturbation-threshold', 'critical perturbation threshold')} is "
            "the "
            "largest s for which an IDM of s hidden instances around its counts still returns only its "
            "class.",
            THRESHOLD_Q,
            FACTOR_WIDGET,
            figure,
            "classifier_selection",
            table_link,
        ),
        Step(
            "more-data",
            "More data, more robust",
            "The threshold grows with the evidence behind the answer. Predict what multiplying every count "
            "does, "
            "then move the slider.",
            MORE_Q,
            FACTOR_WIDGET,
            figure,
            "classifier_selection",
            table_link,
        ),
        Step(
            "select",
            "Two classifiers, one instance",
            f"With two NBCs on different features, each instance gets a pair of thresholds, a point of the "
            f"{g('threshold-plane', 'threshold plane')}; so does every training row, marked by which of C1 "
            "and C2 was right on it. 004 hands a new instance to the classifier that was right more often "
            "on its k nearest training points. Here: Balloons with 004's two feature subsets.",
            SELECT_Q,
            K_WIDGET,
            select_figure,
            "classifier_selection",
            select_link,
        ),
    ),
)
