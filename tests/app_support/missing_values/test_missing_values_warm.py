"""The s slider's steps of the page "Missing values" computed ahead (serve.sh's warm at start): the steps
are the slider's as the page reads them, and the page's first view then finds its views computed."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_support.missing_values import model
from app_support.missing_values.state import STATE

PAGE = str(Path(__file__).resolve().parents[3] / "pages" / "missing_values.py")


def test_the_steps_are_the_sliders_steps_as_the_page_reads_them():
    field = STATE["s"]
    count = round((field.hi - field.lo) / field.step) + 1
    assert [field.parse(str(field.lo + k * field.step)) for k in range(count)] == list(model.S_GRID)


def test_the_default_warm_fills_the_caches_of_the_pages_first_view_nearest_first(monkeypatch):
    import streamlit as st
    st.cache_resource.clear()
    key, steps = model.default_warm()
    assert key == "missing_values weather" and len(steps) == len(model.S_GRID)
    steps[0]()                                                     # s = 1.0, the default

    def no_more(*args, **kwargs):
        raise AssertionError("computed again")
    monkeypatch.setattr(model, "treatment_sets", no_more)
    monkeypatch.setattr(model, "explain_dominance", no_more)
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    with pytest.raises(AssertionError, match="computed again"):
        steps[1]()                                                 # s = 0.9: not computed yet
