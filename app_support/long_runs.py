"""Long runs that a Stop button (or any click) may cut short: remember it, say it, don't restart it.

Streamlit stops a script run when the user interacts during it, and reruns. A page marks the run as
started before its long call and as finished after it; a rerun that finds the mark still set knows
the previous run was interrupted (nothing was cached: the cached function raised), and waits for the
user to press Run again instead of silently starting over.
"""
from __future__ import annotations

import contextlib

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
