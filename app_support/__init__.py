"""Helpers for the Streamlit pages: sample data, plotly figure builders, cached wrappers, long runs.

Nothing here does credal mathematics (that is ``credal_core``). The figure builders (``figures_*``)
and ``data`` do not import streamlit, so they can be tested and reused without a running app; the
cached wrappers (``cache_*``) and ``long_runs`` are the streamlit-side helpers the pages share.
"""
