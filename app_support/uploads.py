"""Reading an uploaded CSV / ARFF file, shared by the pages that take one (Compare, Missing values)."""
from __future__ import annotations

import streamlit as st

from credal_core.data.csv_loader import CsvLimits, CsvProblem, read_csv_bytes

__all__ = ["LIMITS", "load_table"]

LIMITS = CsvLimits(max_bytes=20 * 1024 * 1024, max_rows=20_000, max_columns=300, max_levels=200)


@st.cache_data(show_spinner=False, max_entries=32)
def load_table(data: bytes, name: str) -> tuple[object, str]:
    """(LoadedTable, "") or (None, the problem in words) — cached by the file's bytes and name."""
    try:
        return read_csv_bytes(data, LIMITS, name=name), ""
    except CsvProblem as problem:
        return None, str(problem)
