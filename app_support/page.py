"""One page skeleton: deep-link hand-over, title, and URL state ↔ widgets (the streamlit side of
:mod:`app_support.url_state`).

Every page starts with ``values = page_setup("Title", STATE, prefix="pl_")``.  On the session's
first visit of the page the URL's values (or the defaults) are put into ``st.session_state`` under
``prefix + name``, so the widgets created with ``key=prefix + name`` show them; widgets then pass
``on_change=sync(STATE, prefix)`` and the URL always mirrors the view.

A page whose fields depend on one of them (the bounds of a row number follow the data set's rows)
reads that one first and the rest after, both through this function, so nothing reads the URL or
computes before the hand-over::

    page_setup("Title", UrlState(DATA_FIELD), prefix=KEY)        # hand-over, title, the data set
    STATE = url_state(st.session_state[KEY + "data"])            # its fields
    values = page_setup(None, STATE, prefix=KEY)                 # the others
"""
from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from app_support.routing import hand_over_to_navigation
from app_support.url_state import UrlState

__all__ = ["page_setup", "sync", "write_url"]


def page_setup(title: str | None, state: UrlState | None = None, *, prefix: str = "",
               remembered: dict | None = None) -> dict:
    """Hand a first deep link over to ``app.py``'s navigation, show the title, seed the widgets.

    Returns the values read from the URL (defaults where absent or malformed); they are copied into
    ``st.session_state[prefix + name]`` only for keys not already there, so a rerun never resets a
    widget the user moved.  ``remembered`` (a link the page wrote before, ``state.write(values)``)
    is put back in the URL and read instead when the URL names none of the state's fields: a return
    to the page through the navigation shows the view the user left.
    """
    hand_over_to_navigation()
    if title:
        st.title(title)
    if state is None:
        return {}
    if remembered and not state.names_any(st.query_params):
        st.query_params.from_dict(remembered)
    values = state.read(st.query_params)
    for name, value in values.items():
        # widgets over several values (multiselect) hold lists in the session state
        st.session_state.setdefault(prefix + name, list(value) if isinstance(value, tuple) else value)
    return values


def write_url(state: UrlState, values: dict) -> None:
    """Replace the query parameters by ``values``' canonical form (only when they differ: writing
    the same URL again would push a browser history entry per rerun)."""
    params = state.write(values)
    if {k: st.query_params.get(k) for k in st.query_params} != params:
        st.query_params.from_dict(params)


def sync(state: UrlState, prefix: str = "", extra: Callable[[], dict] | None = None) -> Callable[[], None]:
    """An ``on_change`` callback that writes every field's widget value (``prefix + name``) to the URL;
    ``extra()`` may add values that are not widgets."""
    def callback() -> None:
        values = {f.name: st.session_state[prefix + f.name] for f in state
                  if prefix + f.name in st.session_state}
        if extra is not None:
            values.update(extra())
        write_url(state, values)
    return callback
