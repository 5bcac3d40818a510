"""A student cannot act as the teacher: with a student's key (or another class's teacher key, or junk) no
unlock, reveal, export, roster (nicknames) or delete happens, nothing changes (not even the version), and
the distribution stays hidden before the reveal; teacher keys are compared with hmac.compare_digest; one
browser session cannot join more than JOIN_LIMIT times a minute, wrong codes included, across server
processes."""
from __future__ import annotations

import pytest

from app_support.class_store import (
    JOIN_LIMIT,
    JOIN_WINDOW_S,
    ClassNotFound,
    ClassStore,
    NotTeacher,
    TooManyJoins,
    rules,
)


def test_no_teacher_action_with_anything_but_the_teacher_key(store):
    code, teacher = store.create_class("lesson-1")
    other_code, other_teacher = store.create_class("lesson-1")
    student = store.join(code, "student-session", "Bo")
    store.submit_answer(code, student, "q1", "A", True)
    before = store.state(code)
    for key in (student, other_teacher, teacher[:-1] + ("A" if teacher[-1] != "A" else "B"), "", None, 12,
                "x" * 10_000):
        for action in (lambda: store.set_unlocked_step(code, key, 3), lambda: store.reveal(code, key, "q1"),
                       lambda: store.export_csv(code, key),
                       lambda: store.export_csv(code, key, nicknames=True),
                       lambda: store.roster(code, key), lambda: store.delete_class(code, key)):
            with pytest.raises(NotTeacher, match="only the class's teacher"):
                action()
        hidden = store.summary(code, "q1", teacher_key=key)
        assert hidden.answered == 1 and hidden.distribution is None and hidden.share_right is None
    assert store.state(code) == before                      # nothing changed, not even the version
    assert store.summary(code, "q1", teacher).distribution == {"A": 1}
    assert store.roster(code, teacher) == ["Bo"]                # nicknames: the teacher only
    store.delete_class(other_code, other_teacher)            # the right key works


def test_teacher_keys_are_compared_in_constant_time(store, monkeypatch):
    code, teacher = store.create_class("lesson-1")
    calls = []
    real = rules.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(rules.hmac, "compare_digest", spy)
    store.set_unlocked_step(code, teacher, 1)
    with pytest.raises(NotTeacher):
        store.reveal(code, "y" * 43, "q1")
    assert len(calls) == 2 and all(len(a) == len(b) == 64 for a, b in calls)   # hashes, not the keys


def test_joins_are_limited_per_browser_session_wrong_codes_included(db_url, clock):
    first, second = ClassStore(db_url, clock=clock), ClassStore(db_url, clock=clock)   # two processes
    try:
        code, _ = first.create_class("lesson-1")
        with pytest.raises(ClassNotFound):
            first.join("ZZZZZZZZ", "guesser")                  # a wrong code counts
        for i in range(JOIN_LIMIT - 1):
            (first if i % 2 else second).join(code, "guesser")
        for store in (first, second):
            with pytest.raises(TooManyJoins, match="wait a minute"):
                store.join(code, "guesser")
        assert first.join(code, "someone-else")                # other browsers are not held back
        clock.now += JOIN_WINDOW_S + 1
        assert second.join(code, "guesser")                     # a minute later: allowed again
    finally:
        first.close()
        second.close()
