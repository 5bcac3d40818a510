"""Helpers for the Streamlit pages: sample-data loading and plotly figure builders.

Nothing here does credal mathematics (that is ``credal_core``), and nothing here imports
streamlit, so every function can be tested and reused without a running app. The pages wrap
these functions in ``st.cache_data`` / ``st.cache_resource``.
"""
