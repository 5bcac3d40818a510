"""The style sheet, cleaned once per process, reaches the page as ``st.html`` of its text would send it."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest


def _page(present: bool, plain: bool) -> None:
    import streamlit as st

    from app_support import style
    if plain:
        st.html(f"<style>{style.BASE_CSS}{style.PRESENT_CSS if present else ''}</style>")
    else:
        style.inject(present)


@pytest.mark.parametrize("present", [False, True])
def test_inject_sends_what_st_html_sends_of_the_sheet(present):
    def sent(plain: bool):
        at = AppTest.from_function(_page, kwargs={"present": present, "plain": plain}).run()
        assert not at.exception
        return [h.proto.SerializeToString() for h in at.get("html")]

    got = sent(False)
    assert len(got) == 1 and got == sent(True)
