"""Lessons: a guided path of short steps, each with a question answered before the reveal and graded by the
exact core (``app_support.lessons``).  ``/lessons`` lists them; ``/lessons?lesson=<id>&step=<n>`` opens a step
(``&seed=<k>`` fixes the numbers of its question)."""

from __future__ import annotations

import secrets
import urllib.parse
from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from app_support.lessons.catalogue import lessons, locate, step_link
from app_support.lessons.figures import narrow_title
from app_support.lessons.model import CHOICE, CLASSES, INVALID, RIGHT
from app_support.page import page_setup
from app_support.registry import page as registered
from app_support.url_state import Text, UrlState

KEY = "lsn_"
LINK_STATE = UrlState(*(Text(name, max_len=100) for name in ("lesson", "step", "seed", "list")))


def go(params: dict | None) -> None:
    """Open another step (or the list): new query parameters, then a rerun."""
    st.query_params.from_dict(params or {})


def session_seed() -> int:
    """This browser session's seed (its own numbers), drawn once."""
    if KEY + "seed" not in st.session_state:
        st.session_state[KEY + "seed"] = secrets.randbelow(10**6)
    return st.session_state[KEY + "seed"]


def show_list(note: str = "") -> None:
    st.title("Lessons")
    if note:
        st.warning(note)
    st.markdown(
        "Short steps from naive Bayes to credal classifiers. Each step asks you to **predict "
        "first**; "
        "*Check* grades your answer with the exact computations the other pages use, then shows the "
        "figure. Terms are defined in the [glossary](/glossary); the papers are on the "
        "[references](/references) page."
    )
    for number, item in enumerate(lessons(), start=1):
        with st.container(border=True):
            st.subheader(f"{number}. {item.title}")
            st.markdown(f"{len(item.steps)} steps. {item.summary}  \n*Assumes:* {item.assumes}")
            st.button("Start", key=f"{KEY}start_{item.id}", on_click=go, args=(step_link(item.id, 0),))


def answer_input(question, key: str):
    if question.kind == CHOICE:
        return st.radio("Your prediction", question.options, index=None, key=key)
    if question.kind == CLASSES:
        return st.pills(
            "Your prediction: the classes returned", question.options, selection_mode="multi", key=key
        )
    return st.text_input(
        "Your prediction" + (" (in %)" if question.unit == "%" else ""),
        key=key,
        placeholder="a number, e.g. 0.25",
    )


def full_page_link(page: str, label: str, query: dict) -> None:
    """A link into the full page (through the app's navigation; a plain link when this page runs alone)."""
    try:
        st.page_link(
            page, label=f"Open {label} at these values", icon=":material/open_in_new:", query_params=query
        )
    except StreamlitPageNotFoundError:
        url = "/" + Path(page).stem + ("?" + urllib.parse.urlencode(query) if query else "")
        st.markdown(f"[Open {label} at these values]({url})")


def live_view(step, params: dict, key: str) -> None:
    """The step's widget beside its figure, and the link into the full page at the same parameters."""
    widget = step.widget
    left, right = st.columns([1, 2])
    with left:
        if widget.kind == "toggle":
            value = st.toggle(
                widget.label,
                value=bool(params.get(widget.name, True)),
                key=key + "w",
                help=widget.help or None,
            )
        else:
            start = min(max(float(params.get(widget.name, widget.lo)), widget.lo), widget.hi)
            value = st.slider(
                widget.label,
                float(widget.lo),
                float(widget.hi),
                start,
                step=float(widget.step),
                key=key + "w",
                help=widget.help or None,
            )
        shown = {**params, widget.name: value}
        target = registered(step.page)
        full_page_link(target.path, target.title, step.link(shown))
        if step.experiment is not None:
            result = step.experiment.run(shown, session_seed())
            st.metric(
                "Your own experiment",
                f"{result:.3f}",
                help="From your own random sample (this session's seed); classmates get other numbers "
                "from the same truth.",
            )
            st.caption(step.experiment.label)
    # no mode bar: it would cover the chart's title, and a lesson's figure needs no zoom tools
    figure = narrow_title(step.figure(shown))
    right.plotly_chart(figure, key=key + "fig", config={"displayModeBar": False})


def show_step(lesson, index: int, seed: int) -> None:
    number = [item.id for item in lessons()].index(lesson.id) + 1
    step = lesson.steps[index]
    st.caption(f"Lesson {number} · {lesson.title} · step {index + 1} of {len(lesson.steps)}")
    st.progress((index + 1) / len(lesson.steps))
    st.header(step.title)
    st.markdown(step.text)
    if step.formula:
        st.latex(step.formula)
    question = step.question.generate(seed)
    key = f"{KEY}{lesson.id}_{step.id}_{seed}_"
    with st.container(border=True):
        st.markdown("**Predict first.**\n\n" + question.prompt)
        answer = answer_input(question, key + "answer")
        check, reveal = st.columns(2)
        if check.button("Check", key=key + "check", type="primary"):
            st.session_state[key + "verdict"] = step.question.grade(question, answer)
        if reveal.button("Show the answer", key=key + "reveal"):
            right = step.question.solve(question.params)
            st.session_state[key + "verdict"] = step.question.grade(
                question, list(right) if question.kind == CLASSES else right
            )
            st.session_state[key + "shown"] = True
        verdict = st.session_state.get(key + "verdict")
        if verdict is not None:
            if verdict.status == INVALID:
                st.warning(verdict.message)
            elif st.session_state.get(key + "shown"):
                st.info(f"The answer: {verdict.message.split(': ', 1)[-1]}")
            elif verdict.status == RIGHT:
                st.success(verdict.message)
            else:
                st.error(verdict.message)
            if verdict.status != INVALID:
                st.markdown(verdict.explanation)
    if verdict is not None and verdict.status != INVALID:
        live_view(step, question.params, key)
    else:
        st.caption("Answer (or show the answer) to see the figure and explore it.")
    url_seed = locate(st.query_params).seed
    back, middle, forward = st.columns([1, 2, 1])
    middle.button("All lessons", key=KEY + "list", on_click=go, args=({"list": "1"},))
    back.button(
        "← Back",
        key=KEY + "back",
        disabled=index == 0,
        on_click=go,
        args=(step_link(lesson.id, index - 1, url_seed),),
    )
    if index + 1 < len(lesson.steps):
        forward.button(
            "Next →",
            key=KEY + "next",
            type="primary",
            on_click=go,
            args=(step_link(lesson.id, index + 1, url_seed),),
        )
    else:
        forward.button("Finish: all lessons", key=KEY + "next", on_click=go, args=({"list": "1"},))


# a return through the navigation (or the browser's Back from a full page) shows the step the user left
page_setup(None, LINK_STATE, prefix=KEY + "url_", remembered=st.session_state.get(KEY + "last"))
where = locate(st.query_params)
if where.lesson is None:
    st.session_state.pop(KEY + "last", None)
    show_list(where.note)
else:
    st.session_state[KEY + "last"] = step_link(where.lesson.id, where.step, where.seed)
    show_step(where.lesson, where.step, where.seed if where.seed is not None else session_seed())
