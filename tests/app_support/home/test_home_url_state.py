"""The Home page's URL state (?s=), tested without Streamlit."""

from __future__ import annotations

import pytest

from tests.app_support._page_state import page_state

STATE, PAGE = page_state("home")


def test_default_and_shared_values():
    assert STATE.read({}) == {"s": 2.0}
    assert STATE.read({"s": "7.5"}) == {"s": 7.5}
    assert STATE.read({"s": "10.0"}) == {"s": 10.0}      # links written before the page skeleton
    assert STATE.read({"s": "4.24"}) == {"s": 4.2}       # snapped to the slider's step


@pytest.mark.parametrize("bad", ["abc", "", "nan", "inf", "-3", "99", "1e400", "0.0"])
def test_bad_values_fall_back_to_the_default(bad):
    assert STATE.read({"s": bad}) == {"s": 2.0}


def test_written_link_is_canonical_and_read_back():
    for s in PAGE["S_GRID"]:
        written = STATE.write({"s": s})
        assert STATE.read(written) == {"s": s}
    assert STATE.write({"s": 10.0}) == {"s": "10"}
    assert STATE.write({"s": 0.30000000000000004}) == {"s": "0.3"}


def test_the_precomputed_grid_is_the_sliders():
    grid = PAGE["S_GRID"]
    assert len(grid) == 100 and grid[0] == STATE["s"].lo and grid[-1] == STATE["s"].hi
    assert all(STATE["s"].parse(str(s)) == s for s in grid)
