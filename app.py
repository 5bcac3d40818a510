"""Entry point: page config and navigation only (no mathematics here).

Run with ``bash scripts/app.sh`` (or ``.venv/bin/streamlit run app.py``).  The pages, their titles,
icons, addresses and sections come from one list, :mod:`app_support.registry`.
"""

import streamlit as st

from app_support.registry import by_section

# A local page icon: without one, each page's Material icon becomes the tab's favicon and the browser
# fetches it from a public font host — a classroom may have no internet, and visits must not leak.
st.set_page_config(page_title="Credal classification explorer", page_icon="🧮", layout="wide")

navigation = st.navigation(
    {section: [st.Page(p.path, title=p.title, icon=p.icon, default=p.default, url_path=p.url_path or None)
               for p in entries]
     for section, entries in by_section().items()},
    expanded=True,          # every page listed, never behind a "View more" button
)
navigation.run()
