"""Lesson 6: choosing a classifier per instance (the critical perturbation threshold of paper 004)."""

from __future__ import annotations

import functools

from credal_core import NaiveBayes

from . import links
from .figures import bars
from .lesson_ncc import g
from .model import CHOICE, Lesson, QuestionSpec, Step, Widget
from .problems import counts_table, pair_frame, pair_from_params, pair_instance, pair_params, random_pair

FACTOR_WIDGET = Widget("factor", "multiply every count by", 1, 5, 1)


def _scaled(p: dict, factor: int) -> dict:
    return {
        **p,
        "n_c": factor * p["n_c"],
        "n_not": factor * p["n_not"],
        "counts_c": [factor * v for v in p["counts_c"]],
        "counts_not": [factor * v for v in p["counts_not"]],
    }


@functools.lru_cache(maxsize=512)
def _threshold(key: tuple, features: tuple) -> float:
    pair = pair_from_params({"n_c": key[0], "n_not": key[1], "counts_c": key[2], "counts_not": key[3]})
    X, y = pair_frame(pair)
    cols = [f"f{j + 1}" for j in features]
    model = NaiveBayes(prior="laplace", categories="declared").fit(X[cols], y)
    return float(model.perturbation_threshold(pair_instance(pair)[cols])[0])


def threshold(p: dict, features=(0, 1), factor: int = 1) -> float:
    q = _scaled(p, int(factor))
    return _threshold((q["n_c"], q["n_not"], tuple(q["counts_c"]), tuple(q["counts_not"])), tuple(features))


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
    return MORE[1] if abs(first - second) < 1e-12 else (MORE[0] if second > first else MORE[2])


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

WHICH = ("C1 (f1 only)", "C2 (f1 and f2)")

WHICH_Q = QuestionSpec(
    "selection.which-robust",
    CHOICE,
    _params,
    prompt=lambda p: (
        counts_table(pair_from_params(p)) + "\n\nTwo Laplace NBCs: C1 uses f1 only, C2 both "
        "features. "
        "On this instance, which has the larger critical threshold?"
    ),
    solve=lambda p: WHICH[0] if threshold(p, (0,)) > threshold(p) else WHICH[1],
    explain=lambda p, right: (
        f"C1: {threshold(p, (0,)):.3f}, C2: {threshold(p):.3f}, so **{right}**. 004 "
        "picks, per "
        "instance, the classifier that was right more often on the training instances "
        "with "
        "the nearest pair of thresholds (kNN on the threshold plane)."
    ),
    options=lambda p: WHICH,
)

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
            lambda p: links.selection(),
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
            lambda p: links.selection(),
        ),
        Step(
            "select",
            "Two classifiers, one instance",
            f"With two NBCs on different features, each instance gets a pair of thresholds, a point of the "
            f"{g('threshold-plane', 'threshold plane')}. 004 chooses per instance by the training points "
            "nearest "
            "to it; the Classifier selection page draws that plane.",
            WHICH_Q,
            FACTOR_WIDGET,
            figure,
            "classifier_selection",
            lambda p: links.selection(),
        ),
    ),
)
