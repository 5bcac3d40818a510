"""Class session (``/class``): a lecturer starts a class on a lesson, students join with its code, the
lecturer unlocks the steps for everyone, sees how the class answered and reveals the answer; each student's
own experiment is pooled (``app_support.class_session``; storage: ``app_support.class_store``).

``/class`` starts or joins a class; ``/class?code=<code>`` is the students' link (join, then their own
page ``&k=<their key>&step=<n>``); ``/class?code=<code>&teacher=<key>`` is the teacher's.  Every number,
nickname or answer shown is plain text: nothing typed by a user reaches HTML.
"""
from __future__ import annotations

import time
import urllib.parse

import streamlit as st

from app_support.class_session import logic
from app_support.class_session.figures import answers_figure, pooled_figure, qr_png
from app_support.class_session.service import browser_session, class_store
from app_support.class_store import ClassExpired, ClassNotFound, NotAStudent, NotTeacher, TooManyJoins
from app_support.class_store.rules import NICKNAME_MAX
from app_support.lessons.catalogue import lesson as find_lesson
from app_support.lessons.catalogue import lessons
from app_support.lessons.render import Hooks, go, params_key, question_of, render_step, solution_of
from app_support.page import page_setup
from app_support.text import cite

KEY = "cls_"
MIN_GAP = 0.2          # seconds between two full runs of one student's page (see throttle)
GONE = (ClassNotFound, ClassExpired)


def absolute(query: dict) -> str:
    """The full address of this page with ``query`` (from the browser's own URL; a path when unknown)."""
    here = urllib.parse.urlsplit(st.context.url or "")
    path = here.path if here.path.rstrip("/").endswith("class") else here.path.rstrip("/") + "/class"
    if not here.netloc:
        path = "/class"
    return urllib.parse.urlunsplit((here.scheme, here.netloc, path, urllib.parse.urlencode(query), ""))


def flash(kind: str, text: str) -> None:
    st.session_state[KEY + "flash"] = (kind, text)


def show_flash() -> None:
    kind, text = st.session_state.pop(KEY + "flash", (None, ""))
    if kind:
        getattr(st, kind)(text)


# ---------------------------------------------------------------- no class yet: start one, or join one
def start_class(lesson_id: str) -> None:
    code, key = class_store().create_class(lesson_id)
    go(logic.teacher_link(code, key))


def join_class(code_key: str, nick_key: str) -> None:
    code = st.session_state.get(code_key, "")
    nickname = st.session_state.get(nick_key, "")
    try:
        store = class_store()
        student = store.join(code, browser_session(), nickname or None)
        state = store.state(code)
    except (*GONE, TooManyJoins, ValueError, TypeError) as problem:
        flash("error", str(problem))
        return
    go(logic.student_link(state.code, student, state.unlocked_step))


def join_form(code: str = "", heading: bool = True) -> None:
    if heading:
        st.subheader("Join a class")
    code_key, nick_key = KEY + "join_code", KEY + "join_nick"
    if code:
        st.session_state.setdefault(code_key, code)
    st.text_input("Join code", key=code_key, max_chars=20, placeholder="8 letters and digits")
    st.text_input("Nickname (optional, shown only to your teacher)", key=nick_key, max_chars=NICKNAME_MAX)
    st.button("Join", key=KEY + "join", type="primary", on_click=join_class, args=(code_key, nick_key))


def start_view(note: str = "") -> None:
    st.title("Class session")
    show_flash()
    if note:
        st.warning(note)
    st.markdown("A lecturer takes a class through a lesson: everyone answers each question on their own "
                "device, the lecturer sees how the class answered, then reveals the answer. No account, "
                "no e-mail.")
    left, right = st.columns(2)
    with left:
        st.subheader("Start a class")
        titles = {item.id: f"{number}. {item.title}" for number, item in enumerate(lessons(), start=1)}
        chosen = st.selectbox("Lesson", list(titles), format_func=titles.get, key=KEY + "lesson")
        st.button("Start a class", key=KEY + "start", type="primary", on_click=start_class, args=(chosen,))
    with right:
        join_form()


# ---------------------------------------------------------------- the teacher
def unlock(code: str, key: str, step: int) -> None:
    try:
        class_store().set_unlocked_step(code, key, step)
    except (*GONE, NotTeacher) as problem:
        flash("error", str(problem))


def reveal(code: str, key: str, question: str) -> None:
    try:
        class_store().reveal(code, key, question)
    except (*GONE, NotTeacher) as problem:
        flash("error", str(problem))


def delete(code: str, key: str) -> None:
    try:
        class_store().delete_class(code, key)
    except (*GONE, NotTeacher) as problem:
        flash("error", str(problem))
        return
    flash("success", "The class is deleted, with every answer.")
    go({})


def teacher_snapshot(code: str, key: str, lesson) -> dict:
    """The dashboard's numbers, re-read only when the class's version changed."""
    store = class_store()
    version = store.version(code)
    cached = st.session_state.get(KEY + "snapshot")
    if cached is not None and cached["code"] == code and cached["version"] == version:
        return cached
    state = store.state(code)
    step = logic.visible_step(state.unlocked_step, state.unlocked_step, len(lesson.steps))
    question = logic.question_key(lesson, step)
    snapshot = {"code": code, "version": version, "state": state, "step": step,
                "summary": store.summary(code, question, key), "roster": store.roster(code, key),
                "results": store.results(code, step) if lesson.steps[step].experiment else []}
    st.session_state[KEY + "snapshot"] = snapshot
    return snapshot


@st.fragment(run_every=1)
def dashboard(code: str, key: str, lesson) -> None:
    """The live part of the teacher's view: lecture controls, the answers to the current question."""
    try:
        snap = teacher_snapshot(code, key, lesson)
    except GONE as problem:
        st.error(str(problem))
        return
    show_flash()
    step_index, summary = snap["step"], snap["summary"]
    step = lesson.steps[step_index]
    question = question_of(lesson.id, step.id, logic.class_seed(code))
    right = logic.expected_answer(question, solution_of(lesson.id, step.id, params_key(question.params))[0])
    st.subheader(cite(f"Step {step_index + 1} of {len(lesson.steps)}: {step.title}"))
    # The buttons act on their return value, not through on_click: a click that reaches a session before
    # its first run (the teacher's page reconnecting to another worker after its own died) finds no
    # callback registered there and would be lost; the returned True is not.  The step comes from this
    # run's snapshot of the database, so a late click acts on the class as it is now.
    back, forward, show = st.columns(3)
    acted = False
    if back.button("← Back", key=KEY + "t_back", disabled=step_index == 0,
                   help="Unlock one step less: students beyond it go back.", width="stretch"):
        unlock(code, key, step_index - 1)
        acted = True
    if forward.button("Next step →", key=KEY + "t_next", type="primary",
                      disabled=step_index + 1 >= len(lesson.steps), help="Unlock the next step for everyone.",
                      width="stretch"):
        unlock(code, key, step_index + 1)
        acted = True
    if show.button("Reveal the answer", key=KEY + "t_reveal", disabled=summary.revealed, width="stretch",
                   help="Students see the right answer, their verdict and the class's answers."):
        reveal(code, key, question.id)
        acted = True
    if acted:
        st.rerun()              # show the class as the click left it (a click may arrive in a full run)
    joined, answered = len(snap["roster"]), summary.answered
    share = "—" if summary.share_right is None else f"{100 * summary.share_right:.0f} %"
    cols = st.columns(3)
    cols[0].metric("Joined", joined)
    cols[1].metric("Answered", answered)
    cols[2].metric("Share right", share)
    tally = logic.tally(question, summary.distribution or {}, right)
    st.plotly_chart(answers_figure(tally, revealed=summary.revealed), key=KEY + "answers")
    if summary.revealed:
        st.caption("Revealed: students see the right answer, their verdict and how the class answered.")
    with st.expander("The question, as the students see it, and its answer"):
        st.markdown(question.prompt)
        st.markdown(f"**Answer:** {right if not isinstance(right, float) else f'{right:.4g}'}")
    with st.expander(f"Who joined ({joined})"):
        names = [name or "(no nickname)" for name in snap["roster"]]
        st.text("\n".join(names) or "Nobody yet.")          # plain text: a nickname is never markup
    if step.experiment is not None:
        st.markdown(f"**The class's own experiment:** {step.experiment.label}. Each student drew their own "
                    "sample from the same truth.")
        st.plotly_chart(pooled_figure(snap["results"], label=step.experiment.label), key=KEY + "pool")


def teacher_view(link: logic.ClassLink) -> None:
    store = class_store()
    try:
        state = store.state(link.code)
        store.roster(link.code, link.teacher)             # the key is checked before anything is shown
    except GONE as problem:
        start_view(str(problem))
        return
    except NotTeacher:
        start_view("This teacher link does not belong to that class.")
        return
    lesson = find_lesson(state.lesson_id)
    st.header(f"Class: {lesson.title}")
    show_flash()
    join_url = absolute(logic.join_link(link.code))
    main, side = st.columns([5, 2], gap="large")
    with side:                  # the way in stays on the projected screen for latecomers
        st.markdown(f"#### Join code: `{link.code}`")
        st.image(qr_png(join_url), width=200, caption="Scan to join")
        st.markdown(f"Or open [{join_url}]({join_url})")
        host = urllib.parse.urlsplit(join_url).hostname or ""
        if host in ("localhost", "::1") or host.startswith("127."):
            st.caption("This address only works on this computer: open the teacher link with the server's "
                       "network address (as students' phones reach it) to show a code they can scan.")
        with st.expander("Your teacher link (private)"):
            st.caption("It controls the class: keep it to yourself.")
            st.code(absolute(logic.teacher_link(link.code, link.teacher)), language=None, wrap_lines=True)
    with main:
        dashboard(link.code, link.teacher, lesson)
    with main, st.expander("Export or delete the class"):
        nicknames = st.checkbox("Include nicknames in the export", key=KEY + "nicknames")
        st.download_button("Export the answers (CSV)", key=KEY + "export",
                           data=lambda: store.export_csv(link.code, link.teacher, nicknames=nicknames),
                           file_name=f"class-{link.code}.csv", mime="text/csv", on_click="ignore")
        sure = st.checkbox("Yes, delete this class and every answer now", key=KEY + "sure")
        st.button("Delete the class", key=KEY + "delete", disabled=not sure, on_click=delete,
                  args=(link.code, link.teacher))


# ---------------------------------------------------------------- a student
def drop_student(message: str) -> None:
    flash("warning", message)
    go(logic.join_link(st.query_params.get("code", "")))


def submit(code: str, student: str, question, answer, verdict) -> None:
    try:
        class_store().submit_answer(code, student, question.id, logic.stored_answer(question, answer),
                                    right=verdict.right)
    except NotAStudent:
        drop_student("This browser has not joined the class: join again.")
        st.rerun()
    except (*GONE, ValueError, TypeError) as problem:
        st.error(str(problem))


def kept_answer(code: str, student: str, question):
    """The student's answer the class keeps (None: none, or the class or the student is gone — the page
    says so on its next run)."""
    try:
        return logic.answer_from_stored(question, class_store().answer_of(code, student, question.id))
    except (NotAStudent, *GONE, ValueError):
        return None


def record(code: str, student: str, step: int, value: float) -> None:
    try:
        class_store().record_result(code, student, step, value)
    except NotAStudent:
        drop_student("This browser has not joined the class: join again.")
        st.rerun()
    except (*GONE, ValueError) as problem:
        st.error(str(problem))


def class_answers(code: str, lesson, step: int, question) -> None:
    """After the reveal: how the class answered (the student's page)."""
    summary = class_store().summary(code, question.id)
    if summary.distribution is None:
        return
    right = logic.expected_answer(
        question, solution_of(lesson.id, lesson.steps[step].id, params_key(question.params))[0])
    tally = logic.tally(question, summary.distribution, right)
    st.plotly_chart(answers_figure(tally, revealed=True), key=KEY + "s_answers")


@st.fragment(run_every=1)
def follow_lecture(code: str, student: str, lesson, step: int) -> None:
    """Poll the class's version every second; when the teacher unlocks a step or reveals this one, rerun
    the page (a student at the front follows the lecture)."""
    store = class_store()
    seen = st.session_state.get(KEY + "seen")
    try:
        version = store.version(code)
        if seen is None or version != seen["version"]:
            state = store.state(code)
            question = logic.question_key(lesson, step)
            if seen is not None and (state.unlocked_step != seen["unlocked"]
                                     or (question in state.revealed) != seen["revealed"]):
                st.rerun()                      # the page follows the lecture (see student_view)
            seen = {**(seen or {}), "version": version, "unlocked": state.unlocked_step,
                    "revealed": question in state.revealed,
                    "results": store.results(code, step) if lesson.steps[step].experiment else []}
            st.session_state[KEY + "seen"] = seen
    except GONE as problem:
        st.error(str(problem))
        return
    if lesson.steps[step].experiment is not None:
        mine = st.session_state.get(KEY + "mine", {}).get(step)
        st.markdown("**Your classmates got other numbers from the same truth.** Each dot of the class's "
                    "histogram is one student's own sample.")
        st.plotly_chart(pooled_figure(seen["results"], mine=mine, label=lesson.steps[step].experiment.label),
                        key=KEY + "s_pool")


def throttle() -> None:
    """At most one full run of a student's page per :data:`MIN_GAP` s: a client that resubmits 20 times
    a second (a held key, a script) gets its runs cut short here — each new request stops the sleeping
    run at its next Streamlit call — instead of a full page run each, so it cannot slow its classmates."""
    now = time.monotonic()
    wait = st.session_state.get(KEY + "last_run", 0.0) + MIN_GAP - now
    st.session_state[KEY + "last_run"] = now + max(wait, 0.0)
    if wait > 0:
        time.sleep(wait)


def student_view(link: logic.ClassLink) -> None:
    throttle()
    store = class_store()
    try:
        state = store.state(link.code)
    except GONE as problem:
        start_view(str(problem))
        return
    lesson = find_lesson(state.lesson_id)
    before = st.session_state.get(KEY + "seen")
    step = logic.visible_step(link.step, state.unlocked_step, len(lesson.steps))
    if before is not None and before.get("code") == link.code and before["unlocked"] != state.unlocked_step:
        step = logic.follow(before.get("step", step), before["unlocked"], state.unlocked_step,
                            len(lesson.steps))
    if link.step != step:
        go(logic.student_link(link.code, link.student, step))
    show_flash()
    question_id = logic.question_key(lesson, step)
    # what this run showed: the live fragment reruns the page when the class's state moves past it
    st.session_state[KEY + "seen"] = {"code": link.code, "version": state.version,
                                      "unlocked": state.unlocked_step,
                                      "revealed": question_id in state.revealed, "step": step,
                                      "results": store.results(link.code, step)
                                      if lesson.steps[step].experiment else []}
    seed = logic.class_seed(link.code)
    question = question_of(lesson.id, lesson.steps[step].id, seed)

    def on_experiment(index: int, value: float) -> None:
        st.session_state.setdefault(KEY + "mine", {})[index] = value
        record(link.code, link.student, index, value)

    hooks = Hooks(
        link=lambda i: logic.student_link(link.code, link.student, i),
        max_step=state.unlocked_step,
        locked_note="Your teacher unlocks the next step.",
        on_answer=lambda _qid, answer, verdict: submit(link.code, link.student, question, answer, verdict),
        on_experiment=on_experiment,
        experiment_seed=logic.student_seed(link.student),
        hold_verdict=True,
        revealed=question_id in state.revealed,
        after_verdict=lambda: class_answers(link.code, lesson, step, question),
        stored_answer=lambda: kept_answer(link.code, link.student, question),
    )
    st.caption(f"Class {link.code}: your teacher unlocks the steps and reveals the answers.")
    render_step(lesson, step, seed, hooks)
    follow_lecture(link.code, link.student, lesson, step)


def join_view(link: logic.ClassLink) -> None:
    st.title("Join a class")
    show_flash()
    try:
        state = class_store().state(link.code)
    except GONE as problem:
        st.error(str(problem))
        join_form(heading=False)
        return
    st.markdown(f"Lesson: **{find_lesson(state.lesson_id).title}**")
    join_form(link.code, heading=False)


page_setup(None)
where = logic.read_link(st.query_params)
if where.code is None:
    start_view(where.note)
elif where.teacher:
    teacher_view(where)
elif where.student:
    student_view(where)
else:
    join_view(where)
