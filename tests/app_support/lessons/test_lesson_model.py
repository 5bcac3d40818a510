"""The lesson model beside the questions: stable unique ids, step counts, link parsing (malformed → the list
with a note), per-student experiments (seeded, varied, pooled later by a class session)."""

from __future__ import annotations

import math

import pytest

from app_support.lessons.catalogue import lessons, locate, step_link

LESSONS = lessons()


def test_ids_are_unique_and_lessons_1_to_4_have_6_to_10_steps():
    assert len(LESSONS) == 6
    assert len({lesson.id for lesson in LESSONS}) == 6
    for number, lesson in enumerate(LESSONS, start=1):
        assert len({s.id for s in lesson.steps}) == len(lesson.steps)
        assert 6 <= len(lesson.steps) <= 10 if number <= 4 else len(lesson.steps) >= 3
    question_ids = [s.question.id for lesson in LESSONS for s in lesson.steps]
    assert len(set(question_ids)) == len(question_ids)


def test_a_step_text_is_short():
    for lesson in LESSONS:
        for step in lesson.steps:
            words = step.text.replace("](/glossary#", " ").split()
            assert len(words) <= 125, (lesson.id, step.id, len(words))


@pytest.mark.parametrize(
    ("params", "note"),
    [
        ({}, ""),
        ({"step": "2"}, "needs a lesson"),
        ({"lesson": "nope"}, "no lesson"),
        ({"lesson": "naive-credal", "step": "0"}, "steps 1 to"),
        ({"lesson": "naive-credal", "step": "x"}, "steps 1 to"),
        ({"lesson": "naive-credal", "step": "8"}, "steps 1 to"),
        ({"lesson": ["naive-credal"], "step": ["1e3"]}, "steps 1 to"),
    ],
)
def test_a_malformed_link_opens_the_list(params, note):
    where = locate(params)
    assert where.lesson is None and note in where.note


def test_a_good_link_and_its_seed_round_trip():
    for lesson in LESSONS:
        for index in range(len(lesson.steps)):
            where = locate(step_link(lesson.id, index, 42))
            assert (where.lesson, where.step, where.seed) == (lesson, index, 42)
    assert locate({"lesson": "naive-credal", "step": "1", "seed": "-3"}).seed is None


EXPERIMENTS = [(lesson, step) for lesson in LESSONS for step in lesson.steps if step.experiment is not None]


def test_lessons_1_to_3_each_have_a_per_student_experiment():
    assert {lesson.id for lesson, _ in EXPERIMENTS} >= {lesson.id for lesson in LESSONS[:3]}


@pytest.mark.parametrize(("lesson", "step"), EXPERIMENTS, ids=[f"{a.id}/{s.id}" for a, s in EXPERIMENTS])
def test_an_experiment_is_seeded_and_varies_between_students(lesson, step):
    params = step.question.generate(0).params
    results = [step.experiment.run(params, seed) for seed in range(12)]
    assert all(isinstance(r, float) and math.isfinite(r) and 0 <= r <= 1 for r in results)
    assert results == [step.experiment.run(params, seed) for seed in range(12)]
    assert len(set(results)) >= 2, "classmates get other numbers from the same truth"
