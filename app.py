"""Entry point: page config and navigation only (no mathematics here).

Run with ``bash scripts/app.sh`` (or ``.venv/bin/streamlit run app.py``).  The pages, their titles,
icons, addresses and sections come from one list, :mod:`app_support.registry`.  The one style sheet
(projector, phone, print: :mod:`app_support.style`) and the presentation toggle (``?present=1``) are
set here, for every page.
"""

import streamlit as st

from app_support import style
from app_support.page import PRESENT_KEY, on_present_toggle, read_present
from app_support.registry import by_section

# A local page icon: without one, each page's Material icon becomes the tab's favicon and the browser
# fetches it from a public font host — a classroom may have no internet, and visits must not leak.
present = read_present()             # ?present=1: larger type, sidebar collapsed, widget beside figure
st.set_page_config(page_title="Credal classification explorer", page_icon="🧮", layout="wide",
                   initial_sidebar_state="collapsed" if present else "auto")
style.inject(present)

navigation = st.navigation(
    {section: [st.Page(p.path, title=p.title, icon=p.icon, default=p.default, url_path=p.url_path or None)
               for p in entries]
     for section, entries in by_section().items()},
    expanded=True,          # every page listed, never behind a "View more" button
)
st.sidebar.toggle("Presentation mode", key=PRESENT_KEY, on_change=on_present_toggle,
                  help="For a projector: larger type, the sidebar folded away, each widget beside its "
                       "figure. The link keeps it (?present=1).")
navigation.run()
