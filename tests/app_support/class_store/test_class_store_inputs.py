"""What the class store accepts: nicknames, answers, names and steps are checked (length, type, no control
characters) before any query; quotes and SQL in them are stored as text (every query is parameterised);
the database URL and the lifetime come from CREDAL_CLASS_DB / CREDAL_CLASS_DAYS."""
from __future__ import annotations

import pytest

from app_support.class_store import ClassStore, NotAStudent
from app_support.class_store.database import DEFAULT_PATH, ROOT, class_days, resolve_url
from app_support.class_store.rules import check_answer, check_nickname

SESSIONS = iter(f"inputs-{i}" for i in range(10_000))


@pytest.mark.parametrize("nickname, stored", [(None, None), ("", None), ("  ", None), ("Ada", "Ada"),
                                              ("x" * 24, "x" * 24), (" Zoë ", "Zoë")])
def test_nicknames_accepted(nickname, stored):
    assert check_nickname(nickname) == stored


def test_nicknames_refused(store):
    code, _ = store.create_class("lesson-1")
    for nickname, error in [("x" * 25, ValueError), ("a\nb", ValueError), ("a\u202eb", ValueError),
                            ("\x00", ValueError), (42, TypeError), (["a"], TypeError)]:
        with pytest.raises(error):
            store.join(code, next(SESSIONS), nickname)


@pytest.mark.parametrize("answer, stored", [("A", "A"), ("  yes ", "yes"), (3, "3"), (0.25, "0.25"),
                                            (-1e-3, "-0.001"), ("x" * 200, "x" * 200)])
def test_answers_accepted(answer, stored):
    assert check_answer(answer) == stored


def test_answers_refused(store):
    code, _ = store.create_class("lesson-1")
    key = store.join(code, next(SESSIONS))
    for answer, error in [("", ValueError), ("   ", ValueError), ("x" * 201, ValueError),
                          ("a\tb", ValueError), (float("nan"), ValueError), (float("inf"), ValueError),
                          (True, TypeError), (None, TypeError), ([1], TypeError),
                          ({"a": 1}, TypeError), (b"A", TypeError)]:
        with pytest.raises(error):
            store.submit_answer(code, key, "q1", answer)
    assert store.summary(code, "q1").answered == 0
    with pytest.raises(TypeError):
        store.submit_answer(code, key, "q1", "A", right="yes")


def test_lesson_question_and_session_names_are_refused_unless_plain(store):
    code, teacher = store.create_class("lesson-1")
    key = store.join(code, next(SESSIONS))
    for name in ["", "a b", "x" * 65, "q1;DROP", "é", None, 7]:
        for action in (lambda: store.create_class(name), lambda: store.join(code, name),
                       lambda: store.submit_answer(code, key, name, "A"),
                       lambda: store.reveal(code, teacher, name)):
            with pytest.raises(ValueError):
                action()


def test_steps_are_whole_numbers_in_range(store):
    code, teacher = store.create_class("lesson-1")
    for step in [-1, 1001, 1.0, "2", True, None]:
        with pytest.raises(ValueError):
            store.set_unlocked_step(code, teacher, step)
    store.set_unlocked_step(code, teacher, 1000)
    assert store.state(code).unlocked_step == 1000


def test_quotes_and_sql_are_stored_as_text(store):
    code, teacher = store.create_class("lesson-1")
    sneaky = "Robert'); DROP TABLE answers;--"
    key = store.join(code, next(SESSIONS), sneaky[:24])
    store.submit_answer(code, key, "q1", sneaky)
    store.submit_answer(code, key, "q2", "' OR '1'='1")
    assert store.summary(code, "q1", teacher).distribution == {sneaky: 1}
    assert store.summary(code, "q2", teacher).distribution == {"' OR '1'='1": 1}
    assert sneaky[:24] in store.export_csv(code, teacher, nicknames=True)


def test_an_unknown_student_key_cannot_answer(store):
    code, _ = store.create_class("lesson-1")
    other, _ = store.create_class("lesson-1")
    elsewhere = store.join(other, next(SESSIONS))                 # a key of another class
    for key in ("not-a-key", elsewhere, None, 5, "x" * 500):
        with pytest.raises(NotAStudent):
            store.submit_answer(code, key, "q1", "A")
        with pytest.raises(NotAStudent):
            store.record_result(code, key, 1, 0.5)


def test_the_database_url_and_the_lifetime_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("CREDAL_CLASS_DB", raising=False)
    assert resolve_url() == f"sqlite:///{DEFAULT_PATH}" and DEFAULT_PATH == ROOT / ".data" / "classes.sqlite"
    assert ".data/" in (ROOT / ".gitignore").read_text().split()
    monkeypatch.setenv("CREDAL_CLASS_DB", "postgresql://u:secret@db.example/classes")
    assert resolve_url() == "postgresql+psycopg://u:secret@db.example/classes"
    assert resolve_url("postgres://h/db") == "postgresql+psycopg://h/db"
    assert resolve_url(str(tmp_path / "x.sqlite")) == f"sqlite:///{tmp_path / 'x.sqlite'}"
    with pytest.raises(ValueError) as refused:
        resolve_url("mysql://u:secret@h/db")
    assert "secret" not in str(refused.value)
    monkeypatch.setenv("CREDAL_CLASS_DAYS", "0.5")
    assert class_days() == 0.5
    monkeypatch.delenv("CREDAL_CLASS_DAYS")
    assert class_days() == 7
    for bad in ("0", "-1", "week", "inf", "nan"):
        with pytest.raises(ValueError, match="CREDAL_CLASS_DAYS"):
            class_days(bad)
    store = ClassStore(f"sqlite:///{tmp_path / 'deep' / 'er' / 'c.sqlite'}")     # the folder is made
    store.close()
    assert (tmp_path / "deep" / "er" / "c.sqlite").exists()
