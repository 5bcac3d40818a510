"""The shipped samples, read once per process (pages call this on every rerun)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from app_support.data import load_sample


@st.cache_data(show_spinner=False)
def cached_sample(name: str) -> tuple[pd.DataFrame, pd.Series]:
    """:func:`app_support.data.load_sample`, cached (each caller gets its own copy)."""
    return load_sample(name)
