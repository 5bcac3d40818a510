"""Long runs that a Stop button (or any click) may cut short: remember it, say it, don't restart it.

Streamlit stops a script run when the user interacts during it, and reruns. A page marks the run as
started before its long call and as finished after it; a rerun that finds the mark still set knows
the previous run was interrupted (nothing was cached: the cached function raised), and waits for the
user to press Run again instead of silently starting over.

The other kind of long run is the server's own: :func:`warm_in_background` computes a page's slider steps
in a background thread (under ``scripts/serve.sh``), once per process and key: at a tenth of a core while
a session is connected, at once while nobody is (:func:`run_steps`). ``serve.sh``'s workers start the
default views' warm when they start (:mod:`serving.warm`).
"""
from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterable

import streamlit as st


def interrupted(prefix: str, submitted: bool) -> bool:
    """True when the last long run of the page with this session-state ``prefix`` was cut short and
    the user has not pressed Run (``submitted``) since."""
    running, stopped = f"{prefix}running", f"{prefix}interrupted"
    if submitted:
        st.session_state[stopped] = False
    elif st.session_state.get(running):
        st.session_state[stopped] = True
    st.session_state[running] = False
    return bool(st.session_state.get(stopped))


@contextlib.contextmanager
def long_run(prefix: str, stop_label: str, stop_help: str):
    """Show a Stop button and mark the run as started for the duration of the ``with`` block."""
    slot = st.empty()
    slot.button(stop_label, help=stop_help)
    st.session_state[f"{prefix}running"] = True
    try:
        yield
    except Exception:          # an ordinary error ends the run: no "stopped" message afterwards
        st.session_state[f"{prefix}running"] = False
        slot.empty()
        raise
    # A Stop click interrupts with Streamlit's control-flow exception (a BaseException): the mark
    # then stays set, and the next rerun reports the interruption.
    st.session_state[f"{prefix}running"] = False
    slot.empty()


# -------------------------------------------------------- a slider's steps, computed in the background
WARM_SHARE = 0.1              # the share of one core a background computation of steps may take
_WARMING: set[str] = set()
_WARMING_LOCK = threading.Lock()


def sessions_connected() -> bool:
    """Whether a browser session is connected to this process's Streamlit server (True when that cannot be
    told, e.g. with no server: then a warm behaves as during a class)."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.runtime import RuntimeState
        return not (Runtime.exists() and Runtime.instance().state == RuntimeState.NO_SESSIONS_CONNECTED)
    except Exception:          # noqa: BLE001 - Streamlit's internals moved: be as careful as in class
        return True


def run_steps(steps: Iterable[Callable[[], object]], *, share: float = WARM_SHARE,
              busy: Callable[[], bool] | None = None) -> int:
    """Call each step in turn; after each, while ``busy()`` (default :func:`sessions_connected`), sleep so
    as to take at most ``share`` of one core (by the thread's own CPU time); with nobody connected (the
    server started before class) go on at once. Returns the steps done."""
    busy = busy or sessions_connected
    done = 0
    for step in steps:
        began = time.thread_time()
        step()
        done += 1
        if busy():
            time.sleep((time.thread_time() - began) * (1 - share) / share)
    return done


def claim(key: str) -> bool:
    """True the first time ``key`` is claimed in this process (a warm runs once per process and key)."""
    with _WARMING_LOCK:
        if key in _WARMING:
            return False
        _WARMING.add(key)
        return True


def warm_in_background(key: str, steps: Callable[[], Iterable[Callable[[], object]]]) -> bool:
    """Once per process and ``key``, when ``CREDAL_WARM=1`` (``scripts/serve.sh``'s workers set it): run
    the steps ``steps()`` gives in a daemon thread through :func:`run_steps` — each step a cached function
    of the page called on one of its sliders' values, so that a class walking the slider finds every
    step computed. Returns whether a thread was started (not when the worker's warm at start,
    :mod:`serving.warm`, has claimed the key)."""
    if os.environ.get("CREDAL_WARM") != "1" or not claim(key):
        return False
    threading.Thread(target=lambda: run_steps(steps()), name=f"warm {key}", daemon=True).start()
    return True
