"""Make deep links land in the app's navigation (the only module here that touches streamlit internals).

A `pages/` folder beside `app.py` (the layout the product spec asks for) makes Streamlit start in its
legacy multipage mode: a shared link opened first on a freshly started server (…/profile_likelihood?…)
runs the pages folder's own navigation instead of `app.py`'s — no page config, and an address that is
not a file name of pages/ (``/class`` for ``pages/class_session.py``) pops up "Page not found" before
anything of ours runs (streamlit/streamlit#9624).  Two ways out:

- ``navigation_only()`` switches the legacy mode off for the whole process *before* a first session
  runs: ``serving.worker`` (what ``scripts/serve.sh`` starts) calls it, then Streamlit's own command
  line, so no first link of any page ever sees the legacy mode;
- ``hand_over_to_navigation()``, called first on every page, switches it off and reruns when a server
  started otherwise (``streamlit run app.py``) meets its first deep link, so `app.py`'s
  `st.navigation` takes over with the URL and its query parameters intact.

Nothing in `app.py` can avoid the dialog: the legacy mode's navigation sends "Page not found" before
`app.py` runs (tried: a hand-over at the top of `app.py` still showed the dialog, then Home).  So a
server should start through ``serving.worker`` (``python -m serving.worker run app.py …``).

Both use a private attribute of the pinned streamlit and do nothing if it is absent (a future version).
"""
from __future__ import annotations

import streamlit as st


def _pages_manager():
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:      # streamlit moved it: keep the page usable, just without the hand-over
        return None
    return PagesManager if hasattr(PagesManager, "uses_pages_directory") else None


def navigation_only() -> bool:
    """Switch Streamlit's legacy pages-directory mode off for this process (call before the server
    starts); True if it could (the attribute exists in this streamlit)."""
    manager = _pages_manager()
    if manager is None:
        return False
    manager.uses_pages_directory = False
    return True


def hand_over_to_navigation() -> None:
    """Call first on every page: rerun through app.py if Streamlit's legacy pages mode is active."""
    manager = _pages_manager()
    if manager is not None and manager.uses_pages_directory:
        manager.uses_pages_directory = False
        st.rerun()
