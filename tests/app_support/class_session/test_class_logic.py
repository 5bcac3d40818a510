"""Class-session rules (app_support.class_session.logic): reading class links, which step a student may see
and follows, the class's and the student's seeds, answers as stored, tallies; and that lessons 1-3 each
have a step with a per-student experiment whose result differs from student to student."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app_support.class_session import logic
from app_support.class_store import rules
from app_support.lessons.catalogue import lessons
from app_support.lessons.model import CHOICE, CLASSES, NUMBER, RIGHT

CODE = "ABCD2345"
KEY = "k" * 43
STEPS = [(lesson, i) for lesson in lessons() for i in range(len(lesson.steps))]


def test_a_link_reads_code_teacher_student_and_step():
    link = logic.read_link({"code": "abcd-2345", "k": KEY, "step": "3"})
    assert (link.code, link.teacher, link.student, link.step, link.note) == (CODE, None, KEY, 2, "")
    teacher = logic.read_link({"code": CODE, "teacher": KEY, "k": "s" * 43})
    assert teacher.teacher == KEY and teacher.student is None, "a teacher link is never a student's too"


@pytest.mark.parametrize("params", [
    {"code": "O0O0O0O0"}, {"code": "SHORT"}, {"code": "x" * 5000}, {"code": "<b>HI</b>"},
])
def test_a_code_that_cannot_be_a_code_says_so(params):
    link = logic.read_link(params)
    assert link.code is None and link.note.startswith("No class has this code")


@pytest.mark.parametrize("params", [
    {"code": CODE, "k": "short"}, {"code": CODE, "k": "a b" * 10}, {"code": CODE, "teacher": "<script>" * 3},
    {"code": CODE, "step": "0"}, {"code": CODE, "step": "-2"}, {"code": CODE, "step": "two"},
    {"code": CODE, "step": "99999"},
])
def test_malformed_keys_and_steps_are_dropped(params):
    link = logic.read_link(params)
    assert link.code == CODE and link.teacher is None and link.student is None and link.step is None


def test_links_round_trip():
    assert logic.read_link(logic.student_link(CODE, KEY, 4)) == logic.ClassLink(CODE, None, KEY, 4)
    assert logic.read_link(logic.teacher_link(CODE, KEY)) == logic.ClassLink(CODE, KEY, None, None)
    assert "teacher" not in logic.student_link(CODE, KEY, 0) and "teacher" not in logic.join_link(CODE)


@given(st.one_of(st.none(), st.integers(-5, 50)), st.integers(0, 50), st.integers(1, 12))
def test_a_student_never_sees_beyond_the_unlocked_step(requested, unlocked, n_steps):
    step = logic.visible_step(requested, unlocked, n_steps)
    assert 0 <= step <= min(unlocked, n_steps - 1)
    if requested is None:
        assert step == min(unlocked, n_steps - 1)
    elif 0 <= requested <= min(unlocked, n_steps - 1):
        assert step == requested, "back is always allowed"


@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 12), st.integers(1, 12))
def test_students_at_the_front_follow_the_lecture_the_others_stay(current, old, new, n_steps):
    moved = logic.follow(current, old, new, n_steps)
    assert 0 <= moved <= min(new, n_steps - 1)
    if current >= old:
        assert moved == min(new, n_steps - 1)
    else:
        assert moved == min(current, new, n_steps - 1)


def test_seeds_the_class_shares_and_each_student_owns():
    assert logic.class_seed(CODE) == logic.class_seed(CODE)
    assert len({logic.class_seed(rules.new_code()) for _ in range(50)}) > 40
    keys = [rules.new_key() for _ in range(50)]
    assert len({logic.student_seed(k) for k in keys}) == 50
    assert logic.student_seed(keys[0]) == logic.student_seed(keys[0])


@pytest.mark.parametrize("lesson", lessons(), ids=[lesson.id for lesson in lessons()])
def test_question_keys_are_unique_within_a_lesson_and_storable(lesson):
    names = [logic.question_key(lesson, i) for i in range(len(lesson.steps))]
    assert len(set(names)) == len(names)
    for name in names:
        assert rules.check_name(name, "a question id") == name


@pytest.mark.parametrize(("lesson", "index"), STEPS, ids=[f"{lesson.id}-{i + 1}" for lesson, i in STEPS])
def test_the_right_answer_is_stored_as_the_expected_answer_and_tallied_as_right(lesson, index):
    spec = lesson.steps[index].question
    question = spec.generate(logic.class_seed(CODE))
    right = spec.solve(question.params)
    given_answer = list(right) if question.kind == CLASSES else right
    assert spec.grade(question, given_answer).status == RIGHT
    stored = logic.stored_answer(question, given_answer)
    expected = logic.expected_answer(question, right)
    assert stored == expected
    stored_text = rules.check_answer(stored)          # what the store keeps of it
    restored = logic.answer_from_stored(question, stored_text)     # what a page that lost its session reads
    assert spec.grade(question, restored).status == RIGHT
    assert logic.stored_answer(question, restored) == stored
    result = logic.tally(question, {stored_text: 3}, expected)
    if question.kind == NUMBER:
        assert result.values == (pytest.approx(float(right)),) * 3 and result.right == float(right)
    else:
        assert dict(zip(result.labels, result.counts))[expected] == 3 and result.right == expected


def _question(kind):
    spec = next(s.question for lesson in lessons() for s in lesson.steps if s.question.kind == kind)
    return spec.generate(7)


def test_unreadable_answers_are_not_stored():
    assert logic.stored_answer(_question(NUMBER), "zero point two") is None
    assert logic.stored_answer(_question(CHOICE), "not an option") is None
    assert logic.stored_answer(_question(CLASSES), []) is None
    assert logic.stored_answer(_question(CLASSES), ["<b>x</b>"]) is None
    classes = _question(CLASSES)
    assert logic.stored_answer(classes, list(reversed(classes.options[:2]))) == ", ".join(classes.options[:2])


def test_a_tally_lists_every_option_counts_everything_and_never_shows_foreign_text():
    question = _question(CHOICE)
    counts = {question.options[0]: 4, question.options[-1]: 2, "<img src=x onerror=alert(1)>": 5}
    result = logic.tally(question, counts, question.options[0])
    assert list(result.labels[:len(question.options)]) == list(question.options)
    assert sum(result.counts) == 11
    assert dict(zip(result.labels, result.counts))[logic.OTHER] == 5
    assert not any("<" in label for label in result.labels)
    numbers = logic.tally(_question(NUMBER), {"0.25": 2, "0.5": 1, "nonsense": 4})
    assert numbers.values == (0.25, 0.25, 0.5)


@pytest.mark.parametrize("number", [1, 2, 3])
def test_lessons_one_to_three_each_pool_a_per_student_experiment(number):
    lesson = lessons()[number - 1]
    steps = [s for s in lesson.steps if s.experiment is not None]
    assert steps, f"lesson {number} ({lesson.id}) has no step with an Experiment"
    step = steps[0]
    params = step.question.generate(1).params
    # fixed keys (a deterministic test); 40 students: lesson 2's result is 0 or 1 (vacuous or not, about 1
    # in 4 vacuous), so a handful of students could all get the same number by chance
    seeds = [logic.student_seed(f"student-{i:03d}-" + "k" * 20) for i in range(40)]
    values = [step.experiment.run(params, seed) for seed in seeds]
    assert all(isinstance(v, float) for v in values)
    assert len(set(values)) > 1, "classmates get other numbers from the same truth"
    assert step.experiment.run(params, seeds[0]) == values[0], "the same student, the same number"


def test_a_kept_answer_reads_back_as_given_or_not_at_all():
    number, choice, classes = _question(NUMBER), _question(CHOICE), _question(CLASSES)
    assert logic.answer_from_stored(number, rules.check_answer(0.25)) == 0.25
    assert logic.answer_from_stored(number, "12.5") == 12.5
    assert logic.answer_from_stored(choice, choice.options[1]) == choice.options[1]
    two = ", ".join(classes.options[:2])
    assert logic.answer_from_stored(classes, two) == list(classes.options[:2])
    for question in (number, choice, classes):
        assert logic.answer_from_stored(question, None) is None
        assert logic.answer_from_stored(question, "not an answer") is None
    # the store keeps the classes in the question's order: another order was not written by this app
    assert logic.answer_from_stored(classes, ", ".join(reversed(classes.options[:2]))) is None
