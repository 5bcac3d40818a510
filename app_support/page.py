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

Presentation mode (``?present=1``, or the sidebar's toggle that ``app.py`` shows): :func:`present_mode`
says whether it is on; :func:`columns_for_present` gives a step's widget column and figure column, beside
each other at 1280x720; :func:`show_chart` shows a plotly figure with the app's one chart config
(:data:`app_support.figures.PLOTLY_CONFIG`), its title wrapped for a phone, and lower in present mode so
that it fits a projector's screen beside its widget.
"""
from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from app_support.figures import PLOTLY_CONFIG, for_screen
from app_support.routing import hand_over_to_navigation
from app_support.url_state import UrlState

__all__ = ["page_setup", "sync", "write_url", "PRESENT_KEY", "PRESENT_PARAM", "present_mode",
           "read_present", "columns_for_present", "show_chart"]

PRESENT_KEY = "present_mode"          # the sidebar toggle's session key (app.py)
PRESENT_PARAM = "present"             # ?present=1 turns it on, ?present=0 off


def read_present() -> bool:
    """Presentation mode as the URL sets it (``?present=1`` / ``0``), else as the session has it; kept in
    ``st.session_state[PRESENT_KEY]`` (the toggle's value).  Called by ``app.py`` before the toggle."""
    raw = st.query_params.get(PRESENT_PARAM)
    if raw is not None:
        st.session_state[PRESENT_KEY] = raw.strip().lower() in ("1", "true", "yes", "on")
    return bool(st.session_state.get(PRESENT_KEY, False))


def present_mode() -> bool:
    """Whether the app is in presentation mode (larger type, sidebar collapsed, widget beside figure)."""
    return bool(st.session_state.get(PRESENT_KEY, False))


def on_present_toggle() -> None:
    """The sidebar toggle's callback: the URL says what the toggle says (a shared link keeps the mode)."""
    if st.session_state.get(PRESENT_KEY):
        st.query_params[PRESENT_PARAM] = "1"
    elif PRESENT_PARAM in st.query_params:
        del st.query_params[PRESENT_PARAM]


def columns_for_present(spec=(1, 2), *, stacked: bool = False, gap: str = "medium"):
    """A step's (widget column, figure column).

    In presentation mode always side by side (``spec`` their widths; at 1280x720 the figure stays in view
    while the widget moves), the figure column's chart lowered by :func:`show_chart`.  Otherwise
    ``st.columns(spec)`` (Streamlit stacks them on a phone), or with ``stacked`` two containers one above
    the other.  Use: ``left, right = columns_for_present(); left.slider(...); show_chart(fig, key=..,
    where=right)``.
    """
    if present_mode() or not stacked:
        return tuple(st.columns(list(spec), gap=gap))
    return st.container(), st.container()


def show_chart(figure, *, key: str, where=None, keep_height: bool = False, **options):
    """``where.plotly_chart`` (default ``st``) of ``figure`` through :func:`app_support.figures.for_screen`
    with :data:`app_support.figures.PLOTLY_CONFIG`: every chart of the pages goes through here.
    ``keep_height``: not lowered in presentation mode (a drawing whose height follows its content)."""
    target = st if where is None else where
    options.setdefault("config", PLOTLY_CONFIG)
    return target.plotly_chart(for_screen(figure, present=present_mode(), keep_height=keep_height),
                               key=key, **options)


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
    if present_mode():
        params[PRESENT_PARAM] = "1"
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
