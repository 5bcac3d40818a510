"""The Lessons page (AppTest): the list, every step of every lesson (question, answer, reveal, figure), deep
links, malformed links, the three verdicts, Next / Back, and the links into the full pages at the same
parameters (each target page opened with the link shows the lesson's values)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _apptest import open_page
from streamlit.testing.v1 import AppTest

from app_support.lessons.catalogue import lessons
from app_support.lessons.model import CHOICE, CLASSES, NUMBER
from app_support.text import cite

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "lessons.py")
SEED = "11"
STEPS = [(lesson, i) for lesson in lessons() for i in range(len(lesson.steps))]


def open_step(lesson, index, seed=SEED):
    return open_page(PAGE, {"lesson": lesson.id, "step": str(index + 1), "seed": seed})


def button(at, suffix):
    found = [b for b in at.button if b.key and b.key.endswith(suffix)]
    assert len(found) == 1, [b.key for b in at.button]
    return found[0]


def set_answer(at, question, value) -> None:
    """Put ``value`` in the step's answer widget (a radio, pills or a text field); the class page's tests
    use it too."""
    if question.kind == CHOICE:
        at.radio[0].set_value(value)
    elif question.kind == CLASSES:
        at.get("button_group")[0].set_value(list(value))
    else:
        at.text_input[0].input(str(value))


def answer(at, question, value):
    set_answer(at, question, value)
    button(at, "check").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def test_the_list_names_every_lesson_with_its_length_and_what_it_assumes():
    at = open_page(PAGE)
    assert at.title[0].value == "Lessons"
    heads = [h.value for h in at.subheader]
    text = " ".join(m.value for m in at.markdown)
    for number, lesson in enumerate(lessons(), start=1):
        assert f"{number}. {lesson.title}" in heads
        assert f"{len(lesson.steps)} steps." in text and lesson.assumes in text
    assert [len(lesson.steps) for lesson in lessons()][:4] == [
        n for n in [len(x.steps) for x in lessons()][:4] if 6 <= n <= 10
    ]
    assert not at.warning


@pytest.mark.parametrize(("lesson", "index"), STEPS, ids=[f"{lesson.id}-{i + 1}" for lesson, i in STEPS])
def test_every_step_renders_asks_first_then_reveals_its_figure(lesson, index):
    step = lesson.steps[index]
    at = open_step(lesson, index)
    assert at.header[0].value == cite(step.title)
    if re.search(r"\b00[0-4] ", step.title):     # a paper number in the title names its paper
        assert "(/references#paper-" in at.header[0].value
    question = step.question.generate(int(SEED))
    assert any(question.prompt[:40] in m.value for m in at.markdown)
    assert not at.get("plotly_chart"), "the figure waits for the prediction"
    button(at, "reveal").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.get("plotly_chart")) == 1
    assert at.info and "The answer" in at.info[0].value
    widgets = at.slider if step.widget.kind == "slider" else at.toggle
    assert len(widgets) == 1 and widgets[0].label == step.widget.label       # the step's one live widget


def test_wrong_right_and_unreadable_answers():
    lesson = lessons()[2]  # the LNCC: step 3 asks for the critical α (a number)
    step = lesson.steps[2]
    question = step.question.generate(int(SEED))
    assert question.kind == NUMBER
    right = step.question.solve(question.params)
    at = open_step(lesson, 2)
    answer(at, question, "zero point two")
    assert [w.value for w in at.warning] == ["Enter a number."] and not at.get("plotly_chart")
    answer(at, question, f"{right + 0.2:.4f}")
    assert at.error and at.error[0].value.startswith("Not quite") and at.get("plotly_chart")
    answer(at, question, f"{right:.4f}")
    assert at.success and at.success[0].value.startswith("Right")


def test_a_set_of_classes_and_a_choice_are_graded():
    for lesson, index in ((lessons()[0], 3), (lessons()[0], 0)):
        step = lesson.steps[index]
        question = step.question.generate(int(SEED))
        right = step.question.solve(question.params)
        at = open_step(lesson, index)
        answer(at, question, right)
        assert at.success, (step.id, right)


@pytest.mark.parametrize(
    "query",
    [
        {"lesson": "no-such-lesson"},
        {"lesson": "naive-credal", "step": "0"},
        {"lesson": "naive-credal", "step": "99"},
        {"lesson": "naive-credal", "step": "two"},
        {"step": "2"},
        {"lesson": "x" * 3000},
        {"lesson": "naive-credal", "step": "-1"},
    ],
)
def test_a_malformed_link_opens_the_list_with_a_note(query):
    at = open_page(PAGE, query)
    assert at.title[0].value == "Lessons"
    assert at.warning, "a note says what was wrong"


def test_a_deep_link_opens_its_step_and_next_back_move():
    lesson = lessons()[1]
    at = open_page(PAGE, {"lesson": lesson.id, "step": "3"})
    assert at.header[0].value == lesson.steps[2].title
    button(at, "next").click()
    at.run()
    assert at.query_params["step"] in ("4", ["4"]) and at.header[0].value == lesson.steps[3].title
    button(at, "back").click()
    at.run()
    button(at, "back").click()
    at.run()
    assert at.header[0].value == lesson.steps[1].title


def test_the_same_seed_gives_the_same_question_on_the_page():
    lesson = lessons()[0]
    texts = [" ".join(m.value for m in open_step(lesson, 1, "5").markdown) for _ in range(2)]
    assert texts[0] == texts[1]


# the full page each link opens, and the widgets that must show the lesson's values there
TARGETS = {
    "home": lambda link: {"home_s": float(link["s"])},
    "intervals_vs_n": lambda link: {f"iv_{k}": float(v) for k, v in link.items()},
    "profile_likelihood": lambda link: {
        "pl_alpha": float(link["alpha"]),
        "pl_preset": "custom",
        "pl_n_c": int(link["n"].split("-")[0]),
    },
    "missing_values": lambda link: {
        "mv_row": int(link["row"]),
        "mv_s": float(link["s"]),
        "mv_missing": link["missing"].split("|"),
    },
    "aode_weights": lambda link: {"aw_n": int(link["n"]), "aw_eps": float(link["eps"])},
    "network_likelihood": lambda link: {
        "nl_data": link["data"],
        "nl_graph": link["graph"],
        "nl_row": int(link["row"]),
        "nl_a": link["a"],
        "nl_b": link["b"],
        "nl_beta": float(link["beta"]),
    },
}


@pytest.mark.parametrize("page", sorted(TARGETS))
def test_the_link_into_the_full_page_shows_the_same_parameters(page):
    lesson, step = next((lesson, step) for lesson in lessons() for step in lesson.steps if step.page == page)
    question = step.question.generate(int(SEED))
    link = step.link(question.params)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)  # through the navigation, as a click
    at.switch_page(f"pages/{page}.py")
    at.query_params.update(link)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    for key, value in TARGETS[page](link).items():
        shown = at.session_state[key]
        assert shown == pytest.approx(value) if isinstance(value, float) else shown == value, (
            key,
            shown,
            value,
        )


def open_through_navigation(page: str, link: dict) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)  # through the navigation, as a click
    at.switch_page(f"pages/{page}.py")
    at.query_params.update(link)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_hidden_share_of_lesson_4_reaches_missing_values():
    """Lesson 4 step 5's slider is the share of sunny outlooks hidden in training: the page opens with that
    share, hidden not at random on outlook = sunny, and shows the step's treatments."""
    from app_support.lessons.catalogue import lesson

    step = next(s for s in lesson("missing-values").steps if s.widget.name == "hide")
    params = {**step.question.generate(int(SEED)).params, "hide": 0.35}
    at = open_through_navigation("missing_values", step.link(params))
    state = at.session_state
    assert state["mv_hide"] == pytest.approx(0.35) and state["mv_mech"] == "mnar"
    assert (state["mv_hfeat"], state["mv_hval"]) == ("outlook", "sunny")
    assert state["mv_row"] == params["row"] + 1 and state["mv_missing"] == ["outlook"]


def test_lesson_6_opens_classifier_selection_at_its_split_row_and_k():
    """The selector step's link: the page shows Balloons with 004's features, the step's split, test row and
    the k the student moved to, and its decision is the step's."""
    from app_support.lessons.catalogue import lesson
    from app_support.lessons.lesson_selection import F1, F2, at_k

    step = next(s for s in lesson("classifier-selection").steps if s.page == "classifier_selection"
                and s.widget.name == "k")
    params = {**step.question.generate(int(SEED)).params, "k": 6}
    at = open_through_navigation("classifier_selection", step.link(params))
    state = at.session_state
    assert (state["cs_data"], state["cs_seed"], state["cs_row"], state["cs_k"]) == (
        "balloons", params["seed"], params["row"], 6)
    assert (tuple(state["cs_f1"]), tuple(state["cs_f2"]), state["cs_source"]) == (F1, F2, "test")
    decided = " ".join(m.value for m in at.markdown)
    assert f"C{at_k(params)['chosen'][-1]}" in decided


def test_the_app_serves_the_lessons_glossary_and_references():
    for page, query, heading in (
        ("lessons", {"lesson": "naive-credal", "step": "2"}, lessons()[0].steps[1].title),
        ("glossary", {}, "Glossary"),
        ("references", {}, "References"),
    ):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.switch_page(f"pages/{page}.py")
        at.query_params.update(query)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert heading in [h.value for h in (*at.title, *at.header)]
        # (the reveal and its link through the navigation are walked in tests/browser/test_lessons_browser.py)


def test_present_mode_shows_the_widget_beside_its_lowered_figure():
    import json

    from app_support.figures import PRESENT_HEIGHT
    from app_support.page import PRESENT_KEY

    lesson = lessons()[0]
    index = next(i for i, step in enumerate(lesson.steps) if step.widget.kind == "slider")
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params.update({"lesson": lesson.id, "step": str(index + 1), "seed": SEED})
    at.session_state[PRESENT_KEY] = True
    at.run()
    button(at, "reveal").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    chart_cols = [c for c in at.columns if c.get("plotly_chart")]
    widget_cols = [c for c in at.columns if c.slider]
    assert len(chart_cols) == 1 and len(widget_cols) == 1 and chart_cols[0] is not widget_cols[0]
    assert widget_cols[0].proto.weight < chart_cols[0].proto.weight          # (1, 2): the figure wider
    spec = json.loads(chart_cols[0].get("plotly_chart")[0].proto.spec)
    assert spec["layout"]["height"] <= PRESENT_HEIGHT


def test_lesson_6_s_links_say_they_carry_the_step_s_values():
    """Lesson 6's links carry their values — the count table of steps 1-2 (``data=counts``, read by the
    Classifier selection page) as the split and row of step 3 — and say "at these values", never "on its own
    data" (the page showing them is tested in test_classifier_selection_apptest.py)."""
    from app_support.lessons.catalogue import lesson

    steps = lesson("classifier-selection").steps
    for index, expected in ((0, "at these values"), (1, "at these values"), (2, "at these values")):
        question = steps[index].question.generate(int(SEED))
        assert bool(steps[index].link(question.params)) == (expected == "at these values")
        at = AppTest.from_file(str(ROOT / "pages" / "lessons.py"), default_timeout=120)
        at.query_params.update({"lesson": "classifier-selection", "step": str(index + 1), "seed": SEED})
        at.run()
        next(b for b in at.button if b.label == "Show the answer").click().run()    # the link comes after
        assert not at.exception, [e.value for e in at.exception]
        texts = [e.value for e in at.markdown] + [str(getattr(e, "proto", "")) for e in at.get("page_link")]
        assert any(expected in t for t in texts), texts[-5:]
