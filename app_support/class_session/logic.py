"""A class session's rules, without Streamlit: reading a class link, which step a student may see, which
seeds a class and a student use, what an answer is stored as, and how the class's answers are tallied.

A class link is ``/class?code=<join code>`` for students (``&k=<student key>&step=<n>`` is added once
they have joined: the key stays in the student's own address bar, so a reload or a reconnection to
another server process lands on the same class and step) and ``/class?code=<code>&teacher=<key>`` for
the teacher.  A student's link never holds the teacher's key.

Questions in a class are generated from the *class's* seed (every student answers the same question, so
their answers can be tallied); experiments run on the *student's* seed (each student has a sample of
their own, and the class pools the results).
"""
from __future__ import annotations

import hashlib
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

from app_support.class_store import rules
from app_support.lessons.catalogue import query_value
from app_support.lessons.model import CHOICE, CLASSES, NUMBER, Question, parse_number

__all__ = ["ClassLink", "read_link", "student_link", "teacher_link", "join_link", "class_seed",
           "student_seed", "question_key", "stored_answer", "visible_step", "follow", "Tally", "tally"]

_KEY = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
MAX_STEP_PARAM = 1000


@dataclass(frozen=True)
class ClassLink:
    """What a class link says: the code (canonical, or None), the teacher's key, the student's key and the
    step the student is on (0-based; None: the newest unlocked).  ``note`` says what was wrong with it."""

    code: str | None = None
    teacher: str | None = None
    student: str | None = None
    step: int | None = None
    note: str = ""


def _one(params: Mapping, name: str) -> str | None:
    return query_value(params, name, max_len=200)


def read_link(params: Mapping) -> ClassLink:
    """Read ``code``, ``teacher``, ``k`` and ``step`` (1-based) from the URL; anything malformed is
    dropped with a note (a code that cannot be a code: "no class has this code")."""
    raw_code = _one(params, "code")
    if raw_code is None:
        return ClassLink()
    code = rules.clean_code(raw_code)
    if code is None:
        return ClassLink(note="No class has this code: check it with your teacher.")
    teacher, student = _one(params, "teacher"), _one(params, "k")
    teacher = teacher if teacher is not None and _KEY.match(teacher) else None
    student = student if student is not None and _KEY.match(student) else None
    raw_step = _one(params, "step")
    step = None
    if raw_step is not None and raw_step.isdigit() and 1 <= int(raw_step) <= MAX_STEP_PARAM:
        step = int(raw_step) - 1
    return ClassLink(code, teacher, None if teacher else student, step)


def join_link(code: str) -> dict:
    """The query parameters of the link students are given."""
    return {"code": code}


def student_link(code: str, student_key: str, step: int) -> dict:
    """The query parameters of a student's own page (``step`` 0-based)."""
    return {"code": code, "k": student_key, "step": str(step + 1)}


def teacher_link(code: str, teacher_key: str) -> dict:
    return {"code": code, "teacher": teacher_key}


def class_seed(code: str) -> int:
    """The seed of the class's questions: the same for every student of the class."""
    return zlib.crc32(code.encode()) % 10**6


def student_seed(student_key: str) -> int:
    """The seed of one student's own experiments (from their key: the same after a reload)."""
    return int(hashlib.sha256(b"experiment:" + student_key.encode()).hexdigest()[:12], 16) % 10**9


def question_key(lesson, step: int) -> str:
    """The name a step's question is stored under (unique within a lesson)."""
    return lesson.steps[step].question.id


def stored_answer(question: Question, answer):
    """What the store keeps of a readable answer: the option's text (choice), the classes in the
    question's order joined by ", " (classes), the number (number); None for an answer that cannot be
    read (nothing is stored)."""
    if question.kind == NUMBER:
        return parse_number(answer, percent=question.unit == "%")
    if question.kind == CHOICE:
        return answer if answer in question.options else None
    if question.kind == CLASSES:
        chosen = [answer] if isinstance(answer, str) else list(answer or ())
        if not chosen or any(c not in question.options for c in chosen):
            return None
        return ", ".join(c for c in question.options if c in set(chosen))
    raise ValueError(f"unknown question kind {question.kind!r}")


def answer_from_stored(question: Question, stored: str | None):
    """The inverse of :func:`stored_answer` on what the store gives back (text): the answer as the
    question's input gives it (a number, an option, the list of classes); None when ``stored`` is None or
    does not read as an answer to this question."""
    if stored is None:
        return None
    if question.kind == NUMBER:
        return parse_number(stored)
    if question.kind == CHOICE:
        return stored if stored in question.options else None
    if question.kind == CLASSES:
        chosen = [c for c in question.options if c in set(stored.split(", "))]
        return chosen if chosen and ", ".join(chosen) == stored else None
    raise ValueError(f"unknown question kind {question.kind!r}")


def expected_answer(question: Question, right) -> str | float:
    """The right answer in the stored form (see :func:`stored_answer`)."""
    if question.kind == CLASSES:
        return stored_answer(question, list(right))
    if question.kind == NUMBER:
        return float(right)
    return right


def visible_step(requested: int | None, unlocked: int, n_steps: int) -> int:
    """The step a student sees: the one asked for, never beyond the unlocked one (nor the lesson's end);
    no request: the unlocked one."""
    last = min(max(unlocked, 0), n_steps - 1)
    if requested is None:
        return last
    return min(max(requested, 0), last)


def follow(current: int, old_unlocked: int, new_unlocked: int, n_steps: int) -> int:
    """The step a student is moved to when the teacher unlocks another: a student at the front (on the
    step unlocked before) follows the lecture; one looking back stays (unless now beyond it)."""
    if current >= old_unlocked:
        return visible_step(new_unlocked, new_unlocked, n_steps)
    return visible_step(current, new_unlocked, n_steps)


@dataclass(frozen=True)
class Tally:
    """The class's answers to one question, ready to draw: ``labels`` with their ``counts`` (choices and
    sets: every option first, in the question's order, then any other answer), or ``values`` (numbers),
    and the right answer's label / value."""

    kind: str
    labels: tuple = ()
    counts: tuple = ()
    values: tuple = ()
    right: object = None


def tally(question: Question, distribution: Mapping[str, int], right=None) -> Tally:
    """Turn a summary's ``distribution`` (stored answer -> count) into a :class:`Tally`."""
    if question.kind == NUMBER:
        values = []
        for answer, count in distribution.items():
            value = parse_number(answer)
            if value is not None:
                values += [value] * int(count)
        return Tally(NUMBER, values=tuple(sorted(values)),
                     right=None if right is None else float(right))
    readable = {a: int(n) for a, n in distribution.items() if stored_answer(question, _parts(question, a))}
    if question.kind == CHOICE:
        labels = list(question.options)
    else:
        labels = sorted(readable, key=lambda a: (len(a.split(", ")), a))
    counts = [readable.get(label, 0) for label in labels]
    other = sum(int(n) for a, n in distribution.items() if a not in readable)
    if other:                      # not an answer this question takes: counted, never shown as typed
        labels.append(OTHER)
        counts.append(other)
    return Tally(question.kind, tuple(labels), tuple(counts), right=right)


OTHER = "(other)"


def _parts(question: Question, answer: str):
    return answer.split(", ") if question.kind == CLASSES else answer
