"""Make deep links land in the app's navigation (the only module here that touches streamlit internals).

A `pages/` folder beside `app.py` (the layout the product spec asks for) makes Streamlit start in its
legacy multipage mode: a shared link opened first on a freshly started server (…/profile_likelihood?…)
runs that page file directly, without `app.py` — no page config, no navigation (streamlit/streamlit
#9624).  `hand_over_to_navigation()` switches the legacy mode off and reruns, so `app.py`'s
`st.navigation` takes over with the URL and its query parameters intact.  It uses a private attribute
of the pinned streamlit and does nothing if that attribute is absent (a future version).
"""
from __future__ import annotations

import streamlit as st


def hand_over_to_navigation() -> None:
    """Call first on every page: rerun through app.py if Streamlit's legacy pages mode is active."""
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:      # streamlit moved it: keep the page usable, just without the hand-over
        return
    if getattr(PagesManager, "uses_pages_directory", False):
        PagesManager.uses_pages_directory = False
        st.rerun()
