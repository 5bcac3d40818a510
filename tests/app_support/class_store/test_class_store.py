"""ClassStore on SQLite and PostgreSQL: a class from start to delete — join codes, joining, the unlocked
step, answers (one per student and question, the new replacing the old), the distribution and share right,
the reveal, pooled results, the version that polling reads, CSV export, expiry and deletion."""
from __future__ import annotations

import csv
import io
from datetime import datetime

import pytest
import sqlalchemy as sa

from app_support.class_store import ClassExpired, ClassNotFound, ClassStore, NotAStudent
from app_support.class_store.rules import ALPHABET, CODE_LENGTH
from app_support.class_store.store import EXPIRED_GRACE_S

SESSIONS = iter(f"session-{i}" for i in range(10_000))


def join(store, code, nickname=None):
    return store.join(code, next(SESSIONS), nickname)


def rows(store, table: str, code: str | None = None) -> int:
    where = "" if code is None else " WHERE code = :code"
    with store.engine.connect() as conn:
        return conn.execute(sa.text(f"SELECT COUNT(*) FROM {table}{where}"), {"code": code}).scalar()


def test_codes_come_from_the_alphabet_and_the_keys_are_separate(store):
    assert len(set(ALPHABET)) == 32
    made = [store.create_class("lesson-1") for _ in range(40)]
    codes = [c for c, _ in made]
    assert len(set(codes)) == 40 and all(len(c) == CODE_LENGTH >= 6 for c in codes)
    assert set("".join(codes)) <= set(ALPHABET)
    keys = [k for _, k in made]
    assert len(set(keys)) == 40 and all(len(k) >= 32 and k not in codes for k in keys)
    with store.engine.connect() as conn:                 # only a hash of the teacher key is stored
        stored = conn.execute(sa.text("SELECT teacher_hash FROM classes")).scalars().all()
    assert not set(stored) & set(keys)


def test_a_typed_code_is_read_loosely_and_a_wrong_one_is_reported(store):
    code, _ = store.create_class("lesson-1")
    key = join(store, f" {code[:4].lower()}-{code[4:]} ")
    assert store.state(code).lesson_id == "lesson-1" and key
    wrong = "".join(next(a for a in ALPHABET if a != c) for c in code)
    for bad in (wrong, "", "SHORT", 12345678, None, code + "A"):
        with pytest.raises(ClassNotFound, match="no class has this code"):
            join(store, bad)
        with pytest.raises(ClassNotFound):
            store.version(bad)


def test_unlocking_answers_distribution_reveal_and_share_right(store):
    code, teacher = store.create_class("lesson-2")
    state = store.state(code)
    assert (state.unlocked_step, state.revealed) == (0, frozenset())
    store.set_unlocked_step(code, teacher, 2)
    assert store.state(code).unlocked_step == 2
    students = [join(store, code, f"s{i}") for i in range(5)]
    given = [("A", True), ("B", False), ("A", True), ("C", False), ("A", True)]
    for key, (answer, right) in zip(students, given):
        store.submit_answer(code, key, "q1", answer, right)
    store.submit_answer(code, students[1], "q1", "A", True)      # changed their mind: replaces the old
    store.submit_answer(code, students[0], "q2", 0.25)           # another question, a number
    seen = store.summary(code, "q1", teacher)
    assert (seen.answered, seen.distribution, seen.right, seen.share_right) == (5, {"A": 4, "C": 1}, 4, 0.8)
    assert rows(store, "answers", code) == 6
    before = store.summary(code, "q1")                           # a student, before the reveal
    assert before.answered == 5 and before.distribution is None and before.share_right is None
    store.reveal(code, teacher, "q1")
    after = store.summary(code, "q1")
    assert after.revealed and after.distribution == {"A": 4, "C": 1} and after.share_right == 0.8
    assert store.state(code).revealed == frozenset({"q1"})
    assert store.summary(code, "q2", teacher).distribution == {"0.25": 1}
    empty = store.summary(code, "q9", teacher)
    assert (empty.answered, empty.distribution, empty.share_right) == (0, {}, None)
    # what a page that lost its session shows the student again: their own answer, the latest one
    assert [store.answer_of(code, k, "q1") for k in students] == ["A", "A", "A", "C", "A"]
    assert store.answer_of(code, students[0], "q2") == "0.25"
    assert store.answer_of(code, students[1], "q2") is None
    with pytest.raises(NotAStudent):
        store.answer_of(code, "not-a-student-key", "q1")


def test_the_version_changes_with_every_write_and_with_nothing_else(store):
    code, teacher = store.create_class("lesson-1")
    seen = [store.version(code)]

    def changed(action):
        action()
        seen.append(store.version(code))
        assert seen[-1] != seen[-2]

    key = None

    def do_join():
        nonlocal key
        key = join(store, code)

    changed(do_join)
    changed(lambda: store.set_unlocked_step(code, teacher, 1))
    changed(lambda: store.submit_answer(code, key, "q1", "yes"))
    changed(lambda: store.submit_answer(code, key, "q1", "no"))
    changed(lambda: store.reveal(code, teacher, "q1"))
    changed(lambda: store.record_result(code, key, 3, 0.5))
    store.state(code), store.summary(code, "q1", teacher), store.results(code, 3)
    store.export_csv(code, teacher)
    assert store.version(code) == seen[-1]                                   # reads change nothing
    other, _ = store.create_class("lesson-1")
    join(store, other)
    assert store.version(code) == seen[-1]                                   # nor another class's writes


def test_pooled_results_per_step_one_per_student(store, clock):
    code, _ = store.create_class("lesson-3")
    keys = [join(store, code) for _ in range(4)]
    for i, key in enumerate(keys):
        clock.now += 1
        store.record_result(code, key, 2, 0.1 * (i + 1))
    clock.now += 1
    store.record_result(code, keys[0], 2, 0.9)                   # a re-run replaces their result
    store.record_result(code, keys[0], 5, 7)
    assert store.results(code, 2) == pytest.approx([0.2, 0.3, 0.4, 0.9])
    assert store.results(code, 5) == [7.0] and store.results(code, 4) == []
    for bad in (float("nan"), float("inf"), "0.5", True, None):
        with pytest.raises(ValueError):
            store.record_result(code, keys[1], 2, bad)


def test_export_csv_rows_right_time_and_nicknames_only_on_request(store, clock):
    code, teacher = store.create_class("lesson-1")
    a, b = join(store, code, "Ada"), join(store, code, None)
    store.submit_answer(code, a, "q1", "=HYPERLINK(\"x\")", False)
    store.submit_answer(code, b, "q1", -0.5, True)
    store.submit_answer(code, b, "q2", "maybe")
    plain = list(csv.reader(io.StringIO(store.export_csv(code, teacher))))
    assert plain[0] == ["question", "answer", "right", "time"] and len(plain) == 4
    assert sorted(r[:3] for r in plain[1:]) == [["q1", "'=HYPERLINK(\"x\")", "no"], ["q1", "-0.5", "yes"],
                                                ["q2", "maybe", ""]]
    assert {datetime.fromisoformat(r[3]).timestamp() for r in plain[1:]} == {clock.now}
    named = list(csv.reader(io.StringIO(store.export_csv(code, teacher, nicknames=True))))
    assert named[0][-1] == "nickname" and sorted(r[4] for r in named[1:]) == ["", "", "Ada"]
    assert "Ada" not in store.export_csv(code, teacher)


def test_delete_removes_every_row_of_the_class_and_only_those(store):
    code, teacher = store.create_class("lesson-1")
    keep, keep_teacher = store.create_class("lesson-1")
    for c, t in ((code, teacher), (keep, keep_teacher)):
        key = join(store, c, "x")
        store.submit_answer(c, key, "q1", "A", True)
        store.reveal(c, t, "q1")
        store.record_result(c, key, 1, 0.5)
    store.delete_class(code, teacher)
    for table in ("classes", "students", "answers", "reveals", "results"):
        assert rows(store, table, code) == 0 and rows(store, table, keep) >= 1, table
    with pytest.raises(ClassNotFound):
        store.state(code)


def test_expiry_after_the_configured_days_then_purged(db_url, clock):
    store = ClassStore(db_url, clock=clock, days=2)
    try:
        code, teacher = store.create_class("lesson-1")
        key = join(store, code)
        store.submit_answer(code, key, "q1", "A")
        clock.now += 2 * 86_400 - 1
        assert store.state(code).unlocked_step == 0                  # still alive a second before
        clock.now += 1
        for action in (lambda: store.state(code), lambda: join(store, code),
                       lambda: store.submit_answer(code, key, "q1", "B"),
                       lambda: store.set_unlocked_step(code, teacher, 1),
                       lambda: store.export_csv(code, teacher)):
            with pytest.raises(ClassExpired, match="expired"):
                action()
        assert store.purge_expired() == 1
        assert rows(store, "answers", code) == 0 and rows(store, "students", code) == 0
        with pytest.raises(ClassNotFound):
            store.state(code)
    finally:
        store.close()


def test_expired_answers_do_not_wait_for_the_next_class(db_url, clock):
    # review: an expired class's answers stayed until a teacher created another class
    store = ClassStore(db_url, clock=clock, days=1)
    try:
        code, _ = store.create_class("lesson-1")
        store.submit_answer(code, join(store, code), "q1", "A")
        clock.now += 86_400 + 1
        with pytest.raises(ClassNotFound):
            join(store, "ZZZZZZZZ")                            # someone joins (another code)
        with pytest.raises(ClassExpired):                     # within the grace: still says "expired"
            store.state(code)
        assert rows(store, "answers", code) == 1
        clock.now += EXPIRED_GRACE_S
        with pytest.raises(ClassNotFound):
            join(store, "ZZZZZZZZ")
        assert rows(store, "answers", code) == 0 and rows(store, "students", code) == 0
        with pytest.raises(ClassNotFound):
            store.state(code)
        code, _ = store.create_class("lesson-1")
    finally:
        store.close()
    clock.now += 86_400
    restarted = ClassStore(db_url, clock=clock, days=1)      # a server start purges what expired
    try:
        with pytest.raises(ClassNotFound):
            restarted.state(code)
    finally:
        restarted.close()


def test_two_stores_share_one_database_and_the_schema_is_versioned(db_url, clock):
    first = ClassStore(db_url, clock=clock)
    second = ClassStore(db_url, clock=clock)             # a second server process, say
    try:
        code, teacher = first.create_class("lesson-1")
        second.set_unlocked_step(code, teacher, 4)
        assert first.state(code).unlocked_step == 4
        assert first.schema_version == second.schema_version == 1
        with first.engine.begin() as conn:
            conn.execute(sa.text("UPDATE class_schema SET version = 99"))
        with pytest.raises(RuntimeError, match="schema version 99"):
            ClassStore(db_url, clock=clock)
    finally:
        first.close()
        second.close()


def test_sqlite_runs_in_wal_mode(tmp_path):
    store = ClassStore(f"sqlite:///{tmp_path / 'c.sqlite'}")
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        store.close()
