"""Lessons: a guided path of short steps, each with a question answered before the reveal and graded by the
exact core (``app_support.lessons``).  ``/lessons`` lists them; ``/lessons?lesson=<id>&step=<n>`` opens a step
(``&seed=<k>`` fixes the numbers of its question).  A step is drawn by ``app_support.lessons.render``, which
the Class session page shares."""

from __future__ import annotations

import streamlit as st

from app_support.lessons.catalogue import lessons, locate, step_link
from app_support.lessons.render import KEY, Hooks, go, render_step, session_seed
from app_support.page import page_setup
from app_support.text import cite
from app_support.url_state import Text, UrlState

LINK_STATE = UrlState(*(Text(name, max_len=100) for name in ("lesson", "step", "seed", "list")))


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
            st.subheader(cite(f"{number}. {item.title}"))
            st.markdown(cite(f"{len(item.steps)} steps. {item.summary}  \n*Assumes:* {item.assumes}"))
            st.button("Start", key=f"{KEY}start_{item.id}", on_click=go, args=(step_link(item.id, 0),))


def show_step(lesson, index: int, seed: int) -> None:
    url_seed = locate(st.query_params).seed
    hooks = Hooks(link=lambda i: step_link(lesson.id, i, url_seed), middle=("All lessons", {"list": "1"}),
                  end=("Finish: all lessons", {"list": "1"}), experiment_seed=session_seed())
    render_step(lesson, index, seed, hooks)


# a return through the navigation (or the browser's Back from a full page) shows the step the user left
page_setup(None, LINK_STATE, prefix=KEY + "url_", remembered=st.session_state.get(KEY + "last"))
where = locate(st.query_params)
if where.lesson is None:
    st.session_state.pop(KEY + "last", None)
    show_list(where.note)
else:
    st.session_state[KEY + "last"] = step_link(where.lesson.id, where.step, where.seed)
    show_step(where.lesson, where.step, where.seed if where.seed is not None else session_seed())
