"""One lesson step on the page — the text, the "predict first" question, Check, the verdict, the live
widget beside its figure, the link into the full page, Back / Next — for self-study and for a class.

:func:`render_step` is the lessons' step rendering with hooks (:class:`Hooks`): a class limits the steps
a student may open (``max_step``), receives each answer checked (``on_answer``) and each student's own
experiment result (``on_experiment``), and holds the verdict until the teacher's reveal
(``hold_verdict`` / ``revealed``).  With the default hooks it renders a step as the Lessons page does.
"""
from __future__ import annotations

import json
import secrets
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from app_support.figures import for_screen, shared_figure
from app_support.lessons.catalogue import lesson as find_lesson
from app_support.lessons.catalogue import lessons
from app_support.lessons.model import CHOICE, CLASSES, INVALID, RIGHT, Question, Verdict
from app_support.page import columns_for_present, show_chart
from app_support.registry import page as registered
from app_support.text import cite

__all__ = ["Hooks", "render_step", "go", "session_seed", "KEY"]

KEY = "lsn_"


@dataclass(frozen=True)
class Hooks:
    """How a step behaves beyond self-study.

    Attributes
    ----------
    link : callable
        ``link(step)`` → the query parameters of another step (0-based) of the same lesson.
    end : tuple or None
        (label, query parameters) of the button after the last step (None: no button).
    middle : tuple or None
        (label, query parameters) of a button between Back and Next (the lesson list).
    max_step : int or None
        The last step that may be opened (0-based); Next stops there.  None: every step.
    locked_note : str
        Said beside the disabled Next at ``max_step``.
    on_answer : callable or None
        ``on_answer(question_id, answer, verdict)`` after each readable answer checked.
    on_experiment : callable or None
        ``on_experiment(step, value)`` with this student's own experiment result; given, the experiment
        runs when the step opens (not after the answer) on ``experiment_seed``.
    experiment_seed : int or None
        The seed of the student's own sample (default: the question's seed).
    hold_verdict : bool
        A class: Check records the answer and the verdict waits for ``revealed`` (no "Show the answer").
    revealed : bool
        With ``hold_verdict``: the teacher has revealed this step's answer (answers are closed).
    after_verdict : callable or None
        Called inside the question's box once the verdict shows (the class's distribution).
    stored_answer : callable or None
        With ``hold_verdict``: ``stored_answer()`` → this student's answer as the class keeps it (None: none
        yet), read when this session has checked none — a reload, or a page that reconnected to another
        server process after its own stopped — so the answer still shows as given, and graded at the reveal.
    """

    link: Callable[[int], dict]
    end: tuple | None = None
    middle: tuple | None = None
    max_step: int | None = None
    locked_note: str = ""
    on_answer: Callable[[str, object, Verdict], None] | None = None
    on_experiment: Callable[[int, float], None] | None = None
    experiment_seed: int | None = None
    hold_verdict: bool = False
    revealed: bool = False
    after_verdict: Callable[[], None] | None = None
    stored_answer: Callable[[], object] | None = None


# ---------------------------------------------------------------- what every session shares
# A step's question, its answer and explanation, its figure at each widget value and a student's own
# experiment are the same for every session with the same parameters and seed: computed once per process
# (Streamlit's per-key lock makes a class arriving together wait for one computation, not do it 100
# times), shared read only.  Cost per run then: Streamlit's own work and one JSON of a cached figure.
def _step(lesson_id: str, step_id: str):
    found = find_lesson(lesson_id)
    return found.steps[found.step_index(step_id)]


def params_key(params: dict) -> str:
    """A question's parameters (JSON-able) as one canonical string: the caches' key."""
    return json.dumps(params, sort_keys=True, separators=(",", ":"))


@st.cache_resource(max_entries=4096, show_spinner=False)
def question_of(lesson_id: str, step_id: str, seed: int) -> Question:
    """Step ``step_id``'s question for ``seed`` (read only: its ``params`` are shared)."""
    return _step(lesson_id, step_id).question.generate(int(seed))


@st.cache_resource(max_entries=4096, show_spinner=False)
def solution_of(lesson_id: str, step_id: str, key: str) -> tuple:
    """(right answer, explanation) of the question with parameters ``key`` (:func:`params_key`)."""
    return _step(lesson_id, step_id).question.solution(json.loads(key))


@st.cache_resource(max_entries=8192, show_spinner=False)
def figure_of(lesson_id: str, step_id: str, key: str):
    """The step's figure at parameters ``key`` as every chart is shown (title wrapped), its plotly dict
    computed once: ``show_chart`` then costs one JSON encoding.  Never modified."""
    return shared_figure(for_screen(_step(lesson_id, step_id).figure(json.loads(key))))


@st.cache_resource(max_entries=8192, show_spinner=False)
def experiment_of(lesson_id: str, step_id: str, key: str, seed: int) -> float:
    return float(_step(lesson_id, step_id).experiment.run(json.loads(key), int(seed)))


def initial_value(widget, params: dict):
    """The live widget's value before the student moves it (what the slider or toggle starts at)."""
    if widget.kind == "toggle":
        return bool(params.get(widget.name, True))
    return min(max(float(params.get(widget.name, widget.lo)), widget.lo), widget.hi)


def prepare(lesson_id: str, step, question: Question) -> None:
    """Compute the question's answer and its figure at the widget's first value with the question (cached
    for every session: a class answering at once, or a teacher's first look, then finds them ready)."""
    solution_of(lesson_id, step.id, params_key(question.params))
    figure_of(lesson_id, step.id, params_key({**question.params,
                                              step.widget.name: initial_value(step.widget, question.params)}))


def grade(lesson_id: str, step, question: Question, answer) -> Verdict:
    """``step.question.grade`` with the solution computed once per question (shared)."""
    return step.question.grade(question, answer,
                               solution=solution_of(lesson_id, step.id, params_key(question.params)))


def go(params: dict | None) -> None:
    """Open another step (or the list): new query parameters, then a rerun."""
    st.query_params.from_dict(params or {})


def session_seed() -> int:
    """This browser session's seed (its own numbers), drawn once."""
    if KEY + "seed" not in st.session_state:
        st.session_state[KEY + "seed"] = secrets.randbelow(10**6)
    return st.session_state[KEY + "seed"]


def answer_input(question, key: str, disabled: bool = False):
    if question.kind == CHOICE:
        return st.radio("Your prediction", question.options, index=None, key=key, disabled=disabled)
    if question.kind == CLASSES:
        return st.pills("Your prediction: the classes returned", question.options, selection_mode="multi",
                        key=key, disabled=disabled)
    return st.text_input("Your prediction" + (" (in %)" if question.unit == "%" else ""), key=key,
                         placeholder="a number, e.g. 0.25", disabled=disabled)


def full_page_link(page: str, label: str, query: dict) -> None:
    """A link into the full page (through the app's navigation; a plain link when this page runs alone).
    With no ``query`` the step's own values cannot be given to the page (e.g. a count table it cannot
    load): the link says it opens the page on its own data, never "at these values"."""
    text = f"Open {label} at these values" if query else f"Open {label} (on its own data)"
    try:
        st.page_link(page, label=text, icon=":material/open_in_new:", query_params=query)
    except StreamlitPageNotFoundError:
        url = "/" + Path(page).stem + ("?" + urllib.parse.urlencode(query) if query else "")
        st.markdown(f"[{text}]({url})")


def _experiment(lesson_id: str, step, index: int, params: dict, seed: int, hooks: Hooks, key: str) -> None:
    """The student's own experiment result; with ``on_experiment`` (a class) run once per step and seed and
    handed to the hook, else (self-study) on the values shown (cached: the same for the same values)."""
    if hooks.on_experiment is None:
        value = experiment_of(lesson_id, step.id, params_key(params), seed)
    else:
        cached = st.session_state.get(key + "exp")
        if cached is None or cached[0] != seed:
            cached = (seed, experiment_of(lesson_id, step.id, params_key(params), seed))
            st.session_state[key + "exp"] = cached
            hooks.on_experiment(index, cached[1])
        value = cached[1]
    st.metric("Your own experiment", f"{value:.3f}",
              help="From your own random sample (this session's seed); classmates get other numbers from "
                   "the same truth.")
    st.caption(step.experiment.label)


def live_view(lesson_id: str, step, index: int, params: dict, key: str, seed: int, hooks: Hooks) -> None:
    """The step's widget beside its figure, and the link into the full page at the same parameters."""
    widget = step.widget
    left, right = columns_for_present((1, 2))   # beside each other in presentation mode
    with left:
        if widget.kind == "toggle":
            value = st.toggle(widget.label, value=initial_value(widget, params), key=key + "w",
                              help=widget.help or None)
        else:
            value = st.slider(widget.label, float(widget.lo), float(widget.hi), initial_value(widget, params),
                              step=float(widget.step), key=key + "w", help=widget.help or None)
        shown = {**params, widget.name: value}
        target = registered(step.page)
        full_page_link(target.path, target.title, step.link(shown))
        if step.experiment is not None and hooks.on_experiment is None:
            _experiment(lesson_id, step, index, shown, seed, hooks, key)
    # no mode bar: it would cover the chart's title, and a lesson's figure needs no zoom tools
    figure = figure_of(lesson_id, step.id, params_key(shown))
    show_chart(figure, key=key + "fig", where=right, config={"displayModeBar": False})


def _show_verdict(verdict: Verdict, shown: bool) -> None:
    if verdict.status == INVALID:
        st.warning(verdict.message)
    elif shown:
        st.info(f"The answer: {verdict.message.split(': ', 1)[-1]}")
    elif verdict.status == RIGHT:
        st.success(verdict.message)
    else:
        st.error(verdict.message)
    if verdict.status != INVALID:
        st.markdown(cite(verdict.explanation))


def _answer_shown(lesson_id: str, step, question) -> Verdict:
    """The verdict on the right answer itself ("Show the answer")."""
    right = solution_of(lesson_id, step.id, params_key(question.params))[0]
    return grade(lesson_id, step, question, list(right) if question.kind == CLASSES else right)


def _question_box(lesson_id: str, step, question, key: str, hooks: Hooks) -> Verdict | None:
    """The question, its answer and Check; returns the verdict to show (None: none yet)."""
    held = hooks.hold_verdict
    closed = held and hooks.revealed
    with st.container(border=True):
        st.markdown("**Predict first.**\n\n" + cite(question.prompt))
        answer = answer_input(question, key + "answer", disabled=closed)
        check, reveal = st.columns(2)
        if check.button("Check", key=key + "check", type="primary", disabled=closed):
            verdict = grade(lesson_id, step, question, answer)
            st.session_state[key + "verdict"] = verdict
            if verdict.status != INVALID and hooks.on_answer is not None:
                hooks.on_answer(question.id, answer, verdict)
        if not held and reveal.button("Show the answer", key=key + "reveal"):
            st.session_state[key + "verdict"] = _answer_shown(lesson_id, step, question)
            st.session_state[key + "shown"] = True
        verdict = st.session_state.get(key + "verdict")
        restored = None
        if held and verdict is None and hooks.stored_answer is not None:
            stored = hooks.stored_answer()
            restored = None if stored is None else grade(lesson_id, step, question, stored)
            verdict = restored if restored is not None and restored.status != INVALID else None
        if held and not hooks.revealed:
            if verdict is not None and verdict.status == INVALID:
                st.warning(verdict.message)
            elif verdict is not None and verdict is restored:
                st.info("Your answer is in (kept with the class). You can change it until your teacher "
                        "reveals the answer.")
            elif verdict is not None:
                st.info("Your answer is in. You can change it until your teacher reveals the answer.")
            else:
                st.caption("Your teacher reveals the answer when the class has answered.")
            return None
        if held and (verdict is None or verdict.status == INVALID):   # revealed: no answer from here
            verdict = _answer_shown(lesson_id, step, question)
            st.session_state[key + "shown"] = True
        if verdict is not None:
            _show_verdict(verdict, bool(st.session_state.get(key + "shown")))
            if verdict.status != INVALID and hooks.after_verdict is not None:
                hooks.after_verdict()
    return verdict


def render_step(lesson, index: int, seed: int, hooks: Hooks) -> None:
    """Render step ``index`` (0-based) of ``lesson`` with its question generated from ``seed``."""
    number = [item.id for item in lessons()].index(lesson.id) + 1
    step = lesson.steps[index]
    st.caption(f"Lesson {number} · {lesson.title} · step {index + 1} of {len(lesson.steps)}")
    st.progress((index + 1) / len(lesson.steps))
    st.header(cite(step.title))
    st.markdown(cite(step.text))
    if step.formula:
        st.latex(step.formula)
    question = question_of(lesson.id, step.id, int(seed))
    prepare(lesson.id, step, question)
    key = f"{KEY}{lesson.id}_{step.id}_{seed}_"
    experiment_seed = seed if hooks.experiment_seed is None else hooks.experiment_seed
    if step.experiment is not None and hooks.on_experiment is not None:
        _experiment(lesson.id, step, index, question.params, experiment_seed, hooks, key)
    verdict = _question_box(lesson.id, step, question, key, hooks)
    if verdict is not None and verdict.status != INVALID:
        live_view(lesson.id, step, index, question.params, key, experiment_seed, hooks)
    elif not hooks.hold_verdict:
        st.caption("Answer (or show the answer) to see the figure and explore it.")
    last = len(lesson.steps) - 1 if hooks.max_step is None else min(hooks.max_step, len(lesson.steps) - 1)
    back, note, forward = st.columns([1, 2, 1])
    if hooks.middle is not None:
        label, params = hooks.middle
        note.button(label, key=KEY + "list", on_click=go, args=(params,))
    back.button("← Back", key=KEY + "back", disabled=index == 0, on_click=go, args=(hooks.link(index - 1),))
    if index < last:
        forward.button("Next →", key=KEY + "next", type="primary", on_click=go, args=(hooks.link(index + 1),))
    elif index + 1 < len(lesson.steps):
        forward.button("Next →", key=KEY + "next", disabled=True)
        if hooks.locked_note:
            note.caption(hooks.locked_note)
    elif hooks.end is not None:
        label, params = hooks.end
        forward.button(label, key=KEY + "next", on_click=go, args=(params,))
