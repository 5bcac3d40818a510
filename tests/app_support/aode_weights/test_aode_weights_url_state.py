"""The URL state of the page "AODE compression weights" (pure: no Streamlit run)."""
from __future__ import annotations

import pytest

from app_support.aode_weights.model import url_state

STATE = url_state(300)          # synthetic_nb: 300 rows


def test_defaults_are_the_whole_data_set_and_paper_001s_epsilon():
    assert STATE.read({}) == {"data": "synthetic_nb", "eps": 0.01, "n": 300, "row": 0, "folds": 5,
                              "repeats": 2}


def test_a_shared_link_is_read_back():
    query = {"data": "weather", "eps": "0.05", "n": "14", "row": "3", "folds": "3", "repeats": "1"}
    values = url_state(14).read(query)
    assert values == {"data": "weather", "eps": 0.05, "n": 14, "row": 3, "folds": 3, "repeats": 1}
    assert url_state(14).write(values) == query


@pytest.mark.parametrize("name, raw, expected", [
    ("data", "nope", "synthetic_nb"), ("eps", "abc", 0.01), ("eps", "0.5", 0.01), ("eps", "nan", 0.01),
    ("eps", "0.0234", 0.023),                   # snapped to the slider's step 0.001
    ("n", "99999", 300), ("n", "3", 300), ("n", "40", 40), ("row", "-4", 0), ("row", "300", 0),
    ("row", "299", 299), ("folds", "x", 5), ("folds", "11", 5), ("repeats", "0", 2), ("repeats", "10", 10),
])
def test_malformed_or_out_of_range_values_fall_back_to_the_default(name, raw, expected):
    value = STATE.read({name: raw})[name]
    assert value == pytest.approx(expected) if isinstance(expected, float) else value == expected


def test_the_bounds_of_n_and_row_follow_the_data_set():
    assert url_state(14).read({"n": "40", "row": "13"}) == {**url_state(14).defaults(), "row": 13}
    assert url_state(14)["n"].default == 14


def test_the_written_link_is_canonical():
    values = STATE.read({"eps": "0.0100000001", "n": "40.0"})
    assert STATE.write(values) == {"data": "synthetic_nb", "eps": "0.01", "n": "40", "row": "0", "folds": "5",
                                   "repeats": "2"}
