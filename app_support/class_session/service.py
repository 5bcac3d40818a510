"""The one class store of this server process (Streamlit's resource cache), and the browser session's id.

Keyed by the database URL, so a process whose ``CREDAL_CLASS_DB`` changes (the tests) gets a store on the
new database; every page of the process shares it (one connection pool per process).
"""
from __future__ import annotations

import re

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from app_support.class_store import ClassStore
from app_support.class_store.database import resolve_url

__all__ = ["class_store", "browser_session"]


@st.cache_resource(show_spinner=False)
def _store(url: str) -> ClassStore:
    return ClassStore(url)


def class_store() -> ClassStore:
    """The process's store on ``CREDAL_CLASS_DB`` (default: the SQLite file under ``.data/``)."""
    return _store(resolve_url(None))


def browser_session() -> str:
    """This browser session's id (joins are rate-limited per session)."""
    ctx = get_script_run_ctx()
    session = ctx.session_id if ctx is not None else ""
    return re.sub(r"[^A-Za-z0-9_.:-]", "-", session)[:64] or "no-session"
