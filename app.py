"""Entry point: page config and navigation only (no mathematics here).

Run with ``bash scripts/app.sh`` (or ``.venv/bin/streamlit run app.py``).
"""

import streamlit as st

# A local page icon: without one, each page's Material icon becomes the tab's favicon and the browser
# fetches it from a public font host — a classroom may have no internet, and visits must not leak.
st.set_page_config(page_title="Credal classification explorer", page_icon="🧮", layout="wide")

navigation = st.navigation(
    [
        st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
        st.Page("pages/profile_likelihood.py", title="Profile likelihood", icon=":material/show_chart:",
                url_path="profile_likelihood"),
        st.Page("pages/intervals_vs_n.py", title="Intervals vs N", icon=":material/stacked_line_chart:",
                url_path="intervals_vs_n"),
        st.Page("pages/determinacy_curves.py", title="Determinacy curves", icon=":material/monitoring:",
                url_path="determinacy_curves"),
        st.Page("pages/aode_weights.py", title="AODE compression weights", icon=":material/scale:",
                url_path="aode_weights"),
        st.Page("pages/classifier_selection.py", title="Classifier selection", icon=":material/alt_route:",
                url_path="classifier_selection"),
        st.Page("pages/compare.py", title="Compare on your data", icon=":material/upload_file:",
                url_path="compare"),
        st.Page("pages/missing_values.py", title="Missing values", icon=":material/help_center:",
                url_path="missing_values"),
    ],
)
navigation.run()
