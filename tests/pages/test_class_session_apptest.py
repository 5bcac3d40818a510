"""The Class session page (AppTest, one database file per test): a teacher starts a class, students join,
the teacher unlocks steps, the students answer, the teacher sees the count, the distribution and the
share right, reveals, exports; students cannot go beyond the unlocked step nor act as the teacher; wrong,
expired and deleted codes say so; nicknames are checked and shown as plain text; joins are rate-limited."""
from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path

import pytest
from _apptest import open_page
from streamlit.testing.v1 import AppTest
from test_lessons_apptest import set_answer

from app_support.class_session import logic
from app_support.class_store import JOIN_LIMIT, ClassStore
from app_support.lessons.catalogue import lesson as find_lesson
from app_support.text import cite

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "class_session.py")
LESSON = "naive-credal"


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    path = tmp_path / "classes.sqlite"
    monkeypatch.setenv("CREDAL_CLASS_DB", str(path))
    return path


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def param(at: AppTest, name: str):
    value = at.query_params.get(name)
    return value[-1] if isinstance(value, list) else value


def start_class(lesson_id: str = LESSON) -> AppTest:
    at = open_page(PAGE)
    at.selectbox(key="cls_lesson").set_value(lesson_id)
    at.button(key="cls_start").click()
    return ok(at.run())


def join(code: str, nickname: str = "") -> AppTest:
    at = open_page(PAGE, {"code": code})
    if nickname:
        at.text_input(key="cls_join_nick").input(nickname)
    at.button(key="cls_join").click()
    return ok(at.run())


def metrics(at: AppTest) -> dict:
    return {m.label: m.value for m in at.metric}


def buttons(at: AppTest) -> dict:
    return {b.key: b for b in at.button if b.key}


def check_button(at: AppTest):
    (found,) = [b for key, b in buttons(at).items() if key.endswith("_check")]
    return found


def answer(at: AppTest, question, value) -> AppTest:
    set_answer(at, question, value)
    check_button(at).click()
    return ok(at.run())


def page_text(at: AppTest) -> str:
    """Everything the page sent: every element's message (what reaches the browser), and its URL."""
    parts = [json.dumps(dict(at.query_params))]

    def walk(node):
        proto = getattr(node, "proto", None)
        if proto is not None:
            parts.append(str(proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(parts)


def test_start_join_unlock_answer_reveal_export(database):
    teacher = start_class()
    code, key = param(teacher, "code"), param(teacher, "teacher")
    assert logic.read_link({"code": code, "teacher": key}).teacher == key
    assert teacher.header[0].value.startswith("Class: ") and code in page_text(teacher)
    assert len(teacher.get("image")) == 1, "the QR code"
    students = [join(code, nick) for nick in ("Ann", "", "Bo")]
    lesson = find_lesson(LESSON)
    for student in students:
        assert student.header[0].value == cite(lesson.steps[0].title)
        assert param(student, "k") and param(student, "step") == "1"
    teacher.button(key="cls_t_next").click()
    ok(teacher.run())
    assert teacher.subheader[0].value.startswith("Step 2 of")
    step = lesson.steps[1]
    question = step.question.generate(logic.class_seed(code))
    right = step.question.solve(question.params)
    for student in students:
        ok(student.run())
        assert student.header[0].value == cite(step.title), "a student at the front follows the lecture"
    given = [f"{right:.4f}", f"{right:.4f}", f"{right + 0.3:.4f}"]
    for student, value in zip(students, given):
        answer(student, question, value)
        assert student.info and "Your answer is in" in student.info[0].value
        assert not student.success and not student.error, "no verdict before the reveal"
        assert not student.get("plotly_chart"), "nor the class's answers"
    ok(teacher.run())
    assert metrics(teacher) == {"Joined": "3", "Answered": "3", "Share right": "67 %"}
    (chart,) = [c for c in teacher.get("plotly_chart") if c.proto.id.endswith("cls_answers")]
    (trace,) = json.loads(chart.proto.spec)["data"]
    assert sorted(float(v) for v in trace["x"]) == sorted(float(v) for v in given)
    teacher.button(key="cls_t_reveal").click()
    ok(teacher.run())
    assert buttons(teacher)["cls_t_reveal"].disabled
    for student, verdict in zip(students, ("success", "success", "error")):
        ok(student.run())
        assert getattr(student, verdict), verdict
        assert any(c.proto.id.endswith("cls_s_answers") for c in student.get("plotly_chart"))
        assert check_button(student).disabled, "answers close at the reveal"
    assert any(b.proto.label.startswith("Export") for b in teacher.get("download_button"))
    exported = ClassStore(str(database)).export_csv(code, key)
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert len(rows) == 3 and {r["right"] for r in rows} == {"yes", "no"}
    assert "nickname" not in rows[0]


def test_a_page_that_lost_its_session_shows_the_kept_answer_and_grades_it_at_the_reveal(database):
    """A reload, or a page reconnected to another server process after its own stopped, starts a new
    session: the student's answer is read back from the class (not lost from the page), and the reveal
    grades it."""
    teacher = start_class()
    code = param(teacher, "code")
    teacher.button(key="cls_t_next").click()
    ok(teacher.run())
    step = find_lesson(LESSON).steps[1]
    question = step.question.generate(logic.class_seed(code))
    right = step.question.solve(question.params)
    answered, silent = join(code), join(code)
    for student in (answered, silent):
        ok(student.run())
    answer(answered, question, f"{right + 0.3:.4f}")
    assert "Your answer is in." in answered.info[0].value
    links = {name: dict((k, param(at, k)) for k in at.query_params) for name, at in
             (("answered", answered), ("silent", silent))}
    again = ok(open_page(PAGE, links["answered"]))                  # a new session, the same link
    assert again.info and "Your answer is in (kept with the class)" in again.info[0].value
    assert not again.success and not again.error
    fresh = ok(open_page(PAGE, links["silent"]))
    assert not fresh.info and any("Your teacher reveals the answer" in c.value for c in fresh.caption)
    teacher.button(key="cls_t_reveal").click()
    ok(teacher.run())
    graded = ok(open_page(PAGE, links["answered"]))
    assert graded.error and "Not quite" in graded.error[0].value, "the kept (wrong) answer is graded"
    assert ClassStore(str(database)).answer_of(code, links["answered"]["k"], question.id) == \
        repr(float(f"{right + 0.3:.4f}"))


def test_a_student_cannot_go_beyond_the_unlocked_step_and_may_go_back():
    teacher = start_class()
    code = param(teacher, "code")
    student = join(code)
    k = param(student, "k")
    lesson = find_lesson(LESSON)
    ahead = ok(open_page(PAGE, {"code": code, "k": k, "step": "5"}))
    assert ahead.header[0].value == cite(lesson.steps[0].title) and param(ahead, "step") == "1"
    assert buttons(ahead)["lsn_next"].disabled
    for _ in range(2):
        teacher.button(key="cls_t_next").click()
        ok(teacher.run())
    ok(student.run())
    assert student.header[0].value == cite(lesson.steps[2].title)
    student.button(key="lsn_back").click()
    ok(student.run())
    assert student.header[0].value == cite(lesson.steps[1].title), "back is always allowed"
    assert not buttons(student)["lsn_next"].disabled
    teacher.button(key="cls_t_back").click()
    ok(teacher.run())
    ok(student.run())
    assert student.header[0].value == cite(lesson.steps[1].title) and buttons(student)["lsn_next"].disabled


def test_a_student_never_sees_the_teacher_key_nor_teacher_controls():
    teacher = start_class()
    code, key = param(teacher, "code"), param(teacher, "teacher")
    student = join(code, "Cy")
    for at in (student, ok(open_page(PAGE, {"code": code}))):
        assert key not in page_text(at)
        assert not {"cls_t_next", "cls_t_back", "cls_t_reveal", "cls_delete"} & set(buttons(at))
        assert not at.get("download_button")


@pytest.mark.parametrize("wrong", ["student", "random"])
def test_a_wrong_teacher_key_gets_no_controls(wrong):
    teacher = start_class()
    code = param(teacher, "code")
    student = join(code)
    key = param(student, "k") if wrong == "student" else "x" * 43
    at = ok(open_page(PAGE, {"code": code, "teacher": key}))
    assert at.warning and "does not belong" in at.warning[0].value
    assert not {"cls_t_next", "cls_t_reveal", "cls_delete"} & set(buttons(at))
    assert not at.get("download_button")


def test_wrong_and_expired_codes_say_so(database):
    at = ok(open_page(PAGE, {"code": "ZZZZZZZZ"}))
    assert at.error and "no class has this code" in at.error[0].value
    at = ok(open_page(PAGE, {"code": "not a code"}))
    assert at.warning and "No class has this code" in at.warning[0].value
    store = ClassStore(str(database), days=1e-6)          # 0.09 s
    code, key = store.create_class(LESSON)
    time.sleep(0.3)
    for query in ({"code": code}, {"code": code, "teacher": key}):
        at = ok(open_page(PAGE, query))
        assert "expired" in " ".join(a.value for a in (*at.error, *at.warning))


def test_a_deleted_class_is_gone_for_its_students():
    teacher = start_class()
    code = param(teacher, "code")
    student = join(code)
    teacher.checkbox(key="cls_sure").check()
    ok(teacher.run())
    teacher.button(key="cls_delete").click()
    ok(teacher.run())
    assert "code" not in teacher.query_params and teacher.success
    ok(student.run())
    assert "no class has this code" in " ".join(a.value for a in (*student.error, *student.warning))


def test_a_nickname_with_control_characters_is_refused():
    code = param(start_class(), "code")
    at = open_page(PAGE, {"code": code})
    at.text_input(key="cls_join_nick").input("a\u202eb")
    at.button(key="cls_join").click()
    ok(at.run())
    assert param(at, "k") is None and at.error and "control" in at.error[0].value


def test_a_nickname_is_at_most_24_characters_even_from_a_client_that_ignores_max_chars():
    teacher = start_class()
    at = open_page(PAGE, {"code": param(teacher, "code")})
    at.text_input(key="cls_join_nick").set_value("x" * 30)     # the browser would stop at 24
    at.button(key="cls_join").click()
    ok(at.run())
    ok(teacher.run())
    assert [t.value for t in teacher.text] == ["x" * 24]


def test_a_nickname_is_shown_to_the_teacher_as_plain_text():
    teacher = start_class()
    join(param(teacher, "code"), "<b>Dee</b>")
    ok(teacher.run())
    assert [t.value for t in teacher.text] == ["<b>Dee</b>"]
    assert "<b>Dee</b>" not in " ".join(m.value for m in teacher.markdown)


def test_joins_are_rate_limited_per_browser_session():
    at = open_page(PAGE, {"code": "ZZZZZZZZ"})
    for _ in range(JOIN_LIMIT):
        at.button(key="cls_join").click()
        ok(at.run())
        assert "no class has this code" in at.error[0].value
    at.button(key="cls_join").click()
    ok(at.run())
    assert "too many attempts" in at.error[0].value


def test_each_student_s_experiment_is_pooled():
    lesson = find_lesson(LESSON)
    index = next(i for i, s in enumerate(lesson.steps) if s.experiment is not None)
    teacher = start_class()
    code = param(teacher, "code")
    students = [join(code) for _ in range(2)]
    for _ in range(index):
        teacher.button(key="cls_t_next").click()
        ok(teacher.run())
    values = []
    for student in students:
        ok(student.run())
        assert student.header[0].value == cite(lesson.steps[index].title)
        (mine,) = [m for m in student.metric if m.label.startswith("Your own experiment")]
        expected = lesson.steps[index].experiment.run({}, logic.student_seed(param(student, "k")))
        assert float(mine.value) == pytest.approx(expected, abs=5e-4)
        values.append(expected)
    ok(teacher.run())
    (chart,) = [c for c in teacher.get("plotly_chart") if c.proto.id.endswith("cls_pool")]
    (trace,) = json.loads(chart.proto.spec)["data"]
    assert sorted(float(v) for v in trace["x"]) == pytest.approx(sorted(values))
    ok(students[0].run())
    (pool,) = [c for c in students[0].get("plotly_chart") if c.proto.id.endswith("cls_s_pool")]
    assert len(json.loads(pool.proto.spec)["data"][0]["x"]) == 2
    assert sorted(ClassStore(None).results(code, index)) == pytest.approx(sorted(values))
