"""Every lesson question: the same seed gives the same question, seeds vary the numbers, the right answer
is graded right and others wrong, the right answer agrees with an independent route (brute force or
another part of the core), malformed numbers get "enter a number", and everything is JSON-able."""

from __future__ import annotations

import json
import math

import pytest
from independent import SOLVERS  # puts tests/ on the path too

from app_support.lessons.catalogue import lessons
from app_support.lessons.model import CHOICE, CLASSES, INVALID, NUMBER, RIGHT, WRONG
from tests._depth import cases

STEPS = [(lesson.id, step) for lesson in lessons() for step in lesson.steps]
IDS = [f"{lesson_id}/{step.id}" for lesson_id, step in STEPS]
SEEDS = range(cases(12))
SLOW = {"ncc.determinacy.direction", "ncc.nbc-i.direction", "lncc.mle.class"}


def wrong_answers(question, right):
    """Answers that differ from the right one."""
    if question.kind == CHOICE:
        return [o for o in question.options if o != right]
    if question.kind == CLASSES:
        right = set(right)
        subsets = [{o} for o in question.options] + [set(question.options)]
        subsets += [set(question.options) - {o} for o in question.options]
        return [sorted(s) for s in subsets if s and s != right]
    step = max(10 * question_tolerance(question), 0.05)
    return [right + step, right - step, right * 1.5 + 1]


def question_tolerance(question):
    return 0.5 if question.unit == "%" else 0.005


@pytest.mark.parametrize(("lesson_id", "step"), STEPS, ids=IDS)
def test_same_seed_same_question_and_seeds_vary(lesson_id, step):
    spec = step.question
    first, again = spec.generate(7), spec.generate(7)
    assert first == again
    json.dumps(first.params)
    assert len({json.dumps(spec.generate(seed).params, sort_keys=True) for seed in range(10)}) >= 2


@pytest.mark.parametrize(("lesson_id", "step"), STEPS, ids=IDS)
def test_right_graded_right_and_wrong_graded_wrong(lesson_id, step):
    spec = step.question
    for seed in SEEDS:
        question = spec.generate(seed)
        right = spec.solve(question.params)
        answer = list(right) if question.kind == CLASSES else right
        verdict = spec.grade(question, answer)
        assert verdict.status == RIGHT, (seed, question.params, verdict)
        assert verdict.explanation.strip()
        json.dumps(verdict.expected)
        for wrong in wrong_answers(question, right):
            verdict = spec.grade(question, wrong)
            assert verdict.status == WRONG, (seed, question.params, wrong, verdict)
            assert verdict.explanation.strip()


@pytest.mark.parametrize(("lesson_id", "step"), STEPS, ids=IDS)
def test_right_answer_agrees_with_an_independent_route(lesson_id, step):
    spec = step.question
    assert spec.id in SOLVERS, f"no independent solver for {spec.id}"
    seeds = range(cases(3)) if spec.id in SLOW else SEEDS
    for seed in seeds:
        question = spec.generate(seed)
        mine, theirs = spec.solve(question.params), SOLVERS[spec.id](question.params)
        if question.kind == NUMBER:
            assert math.isclose(mine, theirs, abs_tol=1e-4), (seed, question.params, mine, theirs)
        elif question.kind == CLASSES:
            assert set(mine) == set(theirs), (seed, question.params, mine, theirs)
        else:
            assert mine == theirs, (seed, question.params, mine, theirs)


NUMBER_STEPS = [(lesson_id, step) for lesson_id, step in STEPS if step.question.kind == NUMBER]


@pytest.mark.parametrize(("lesson_id", "step"), NUMBER_STEPS, ids=[f"{a}/{s.id}" for a, s in NUMBER_STEPS])
@pytest.mark.parametrize("typed", ["", "abc", "0.2.3", "nan", "inf", "1e999", "--1", "½", None, True])
def test_a_number_question_asks_for_a_number(lesson_id, step, typed):
    question = step.question.generate(0)
    verdict = step.question.grade(question, typed)
    assert verdict.status == INVALID and verdict.message == "Enter a number."


def test_numbers_are_read_in_the_usual_spellings():
    from app_support.lessons.model import parse_number

    assert parse_number(" 0,25 ") == 0.25
    assert parse_number("−1.5") == -1.5
    assert parse_number("23 %", percent=True) == 23.0
    assert parse_number("23%") is None


@pytest.mark.parametrize(
    ("lesson_id", "step"),
    [s for s in STEPS if s[1].question.kind != NUMBER],
    ids=[i for i, s in zip(IDS, STEPS) if s[1].question.kind != NUMBER],
)
def test_an_unreadable_choice_is_not_graded(lesson_id, step):
    question = step.question.generate(0)
    for answer in (None, [], "no such option", ["nope"]):
        assert step.question.grade(question, answer).status == INVALID


def test_the_selector_step_agrees_with_a_brute_force_vote_at_every_k():
    """Lesson 6's selector step at the k a student moves to (not only the question's k = 3)."""
    from app_support.lessons.catalogue import lesson

    step = next(s for s in lesson("classifier-selection").steps
                if s.question.id == "selection.selector.choice")
    for seed in range(cases(4)):
        params = step.question.generate(seed).params
        for k in (1, 2, 4, 7, 12, 30):
            moved = {**params, "k": k}
            assert step.question.solve(moved) == SOLVERS[step.question.id](moved), moved
