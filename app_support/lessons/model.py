"""The lesson model: lessons, steps, questions, answers and verdicts (no streamlit here).

A :class:`Lesson` is an ordered tuple of :class:`Step`; a step has a stable ``id`` (its place in a
lesson may change, its id never does), a short text, one :class:`Widget`, a figure built from the
question's parameters, a link into the full page at the same parameters, and one
:class:`QuestionSpec`.  A question is *generated* from a seed (:meth:`QuestionSpec.generate`: the same
seed gives the same :class:`Question`, two seeds usually give different numbers) and *graded*
(:meth:`QuestionSpec.grade`) against the exact core: the right answer is computed by ``solve`` from
the question's parameters, never stored in the question.  Answers are small JSON-able values: an
option's text (``choice``), a number or the text typed (``number``), a list of class labels
(``classes``).  A step may declare an :class:`Experiment`: one number per student from that student's
own seeded random sample (pooled by a class session, issue 25).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "CHOICE",
    "NUMBER",
    "CLASSES",
    "RIGHT",
    "WRONG",
    "INVALID",
    "Question",
    "QuestionSpec",
    "Verdict",
    "Widget",
    "Experiment",
    "Step",
    "Lesson",
    "parse_number",
    "question_rng",
    "change",
]

CHOICE, NUMBER, CLASSES = "choice", "number", "classes"
RIGHT, WRONG, INVALID = "right", "wrong", "invalid"


def question_rng(question_id: str, seed: int) -> np.random.Generator:
    """The generator of one question for one seed (independent of every other question's)."""
    return np.random.default_rng([int(seed) % 2**32, zlib.crc32(question_id.encode())])


def change(first, second, words: tuple, tol: float = 0.0) -> str:
    """How ``second`` compares with ``first``, in ``words`` = (larger, the same, smaller): numbers within
    ``tol`` are the same; sets compare by inclusion (``second > first``: a strict superset)."""
    if isinstance(first, (set, frozenset)):
        same = first == second
    else:
        same = abs(second - first) <= tol
    return words[1] if same else (words[0] if second > first else words[2])


def parse_number(answer, percent: bool = False) -> float | None:
    """A typed number (``"0.23"``, ``"0,23"``, ``"−1"``; with ``percent`` also ``"23 %"``), or None."""
    if isinstance(answer, bool):
        return None
    if isinstance(answer, (int, float)):
        value = float(answer)
    else:
        text = str(answer).strip().replace("−", "-").replace(" ", "")
        if percent and text.endswith("%"):
            text = text[:-1]
        if "," in text and "." not in text:
            text = text.replace(",", ".")
        if not text or len(text) > 40:
            return None
        try:
            value = float(text)
        except ValueError:
            return None
    return value if math.isfinite(value) else None


@dataclass(frozen=True)
class Verdict:
    """``status`` is ``right``, ``wrong`` or ``invalid`` (the answer could not be read: nothing graded)."""

    status: str
    message: str  # one line: "Right.", "Not quite: the answer is …", "Enter a number."
    explanation: str = ""  # why the right answer is right (markdown)
    expected: object = None  # the right answer, JSON-able

    @property
    def right(self) -> bool:
        return self.status == RIGHT


@dataclass(frozen=True)
class Question:
    """One generated question: everything a page needs to ask it (JSON-able parameters)."""

    id: str
    kind: str
    seed: int
    params: dict
    prompt: str
    options: tuple = ()  # choice: the options; classes: the class labels
    unit: str = ""  # number: "" or "%"


def _fmt(value: float, unit: str) -> str:
    return f"{value:.1f} %" if unit == "%" else f"{value:.3f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class QuestionSpec:
    """How to make, solve and explain one question.

    ``make(rng)`` draws the parameters (a JSON-able dict); ``prompt(params)`` and ``options(params)``
    word it; ``solve(params)`` returns the right answer from the exact core (an option's text, a
    number, or a tuple of class labels); ``explain(params, right)`` says why it is right.
    """

    id: str
    kind: str
    make: Callable[[np.random.Generator], dict]
    prompt: Callable[[dict], str]
    solve: Callable[[dict], object]
    explain: Callable[[dict, object], str]
    options: Callable[[dict], tuple] = lambda params: ()
    tolerance: float = 0.005
    unit: str = ""

    def generate(self, seed: int) -> Question:
        params = self.make(question_rng(self.id, seed))
        return Question(
            self.id, self.kind, int(seed), params, self.prompt(params), tuple(self.options(params)), self.unit
        )

    def solution(self, params: dict) -> tuple:
        """(the right answer, why it is right) for a question with these parameters, from the exact core."""
        right = self.solve(params)
        return right, self.explain(params, right)

    def grade(self, question: Question, answer, solution: tuple | None = None) -> Verdict:
        """Grade ``answer`` to ``question`` (generated by this spec) against the exact core; ``solution``
        is :meth:`solution` of its parameters when already computed (a cache shared by the sessions)."""
        right, explanation = self.solution(question.params) if solution is None else solution
        if self.kind == NUMBER:
            value = parse_number(answer, percent=self.unit == "%")
            if value is None:
                return Verdict(INVALID, "Enter a number.")
            expected = float(right)
            ok = abs(value - expected) <= self.tolerance
            shown = _fmt(expected, self.unit)
        elif self.kind == CHOICE:
            if answer not in question.options:
                return Verdict(INVALID, "Choose one of the options.")
            expected, ok, shown = right, answer == right, str(right)
        elif self.kind == CLASSES:
            chosen = [answer] if isinstance(answer, str) else list(answer or ())
            if not chosen or any(c not in question.options for c in chosen):
                return Verdict(
                    INVALID, "Choose at least one class (a credal classifier never returns an empty set)."
                )
            expected = tuple(c for c in question.options if c in set(right))
            ok, shown = set(chosen) == set(expected), "{" + ", ".join(expected) + "}"
        else:
            raise ValueError(f"unknown question kind {self.kind!r}")
        if ok:
            return Verdict(RIGHT, f"Right: {shown}.", explanation, expected)
        return Verdict(WRONG, f"Not quite: the answer is {shown}.", explanation, expected)


@dataclass(frozen=True)
class Widget:
    """The step's one live widget: a slider over ``name`` (a number of the question's parameters), or a
    toggle (``lo``, ``hi``, ``step`` unused)."""

    name: str
    label: str
    lo: float = 0.0
    hi: float = 1.0
    step: float = 0.01
    kind: str = "slider"
    help: str = ""


@dataclass(frozen=True)
class Experiment:
    """A per-student experiment: ``run(params, seed)`` → one number from that student's own random sample."""

    label: str
    run: Callable[[dict, int], float]


@dataclass(frozen=True)
class Step:
    """One step of a lesson (see the module docstring)."""

    id: str
    title: str
    text: str
    question: QuestionSpec
    widget: Widget
    figure: Callable[[dict], object]  # params (with the widget's value) → plotly figure
    page: str  # the full page's stem, e.g. "profile_likelihood"
    link: Callable[[dict], dict]  # params → that page's query parameters
    formula: str = ""  # LaTeX shown under the text (optional)
    experiment: Experiment | None = None


@dataclass(frozen=True)
class Lesson:
    id: str
    title: str
    assumes: str
    summary: str
    steps: tuple = field(default_factory=tuple)

    def step_index(self, step_id: str) -> int:
        return [s.id for s in self.steps].index(step_id)
