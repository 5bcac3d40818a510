"""The URL state of the page "Intervals vs N" (?ratio=&alpha=&s=&beta=&p=), tested without Streamlit."""

from __future__ import annotations

import pytest

from tests.app_support._page_state import page_state

STATE, _ = page_state("intervals_vs_n")
DEFAULTS = {"ratio": 0.5, "alpha": 0.85, "s": 2.0, "beta": 0.15, "p": 0.5}


def test_defaults_are_000_fig_1_and_003_example_2():
    assert STATE.read({}) == DEFAULTS


def test_shared_values_snap_to_the_sliders_step():
    assert STATE.read({"alpha": "0.853", "s": "4.24", "beta": "0.3"}) == {**DEFAULTS, "alpha": 0.85, "s": 4.2,
                                                                          "beta": 0.3}
    corners = {"ratio": "0", "alpha": "0.01", "s": "0.1", "beta": "0.01", "p": "0"}
    assert STATE.write(STATE.read(corners)) == corners
    corners = {"ratio": "1", "alpha": "0.99", "s": "10", "beta": "0.99", "p": "1"}
    assert STATE.write(STATE.read(corners)) == corners


@pytest.mark.parametrize("name", sorted(DEFAULTS))
@pytest.mark.parametrize("bad", ["abc", "", "nan", "inf", "-3", "99", "1e400", "0x10"])
def test_bad_values_fall_back_silently(name, bad):
    assert STATE.read({name: bad}) == DEFAULTS


def test_written_link_is_the_old_pages_form():
    """The page used to write f"{value:g}": links stay the same."""
    values = {"ratio": 0.3, "alpha": 0.6, "s": 4.2, "beta": 0.25, "p": 0.45}
    assert STATE.write(values) == {"ratio": "0.3", "alpha": "0.6", "s": "4.2", "beta": "0.25", "p": "0.45"}
    assert STATE.read(STATE.write(values)) == values
    assert STATE.write({**values, "ratio": 0.30000000000000004})["ratio"] == "0.3"

