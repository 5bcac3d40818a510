"""The Missing values page's URL state, tested without Streamlit."""

from __future__ import annotations

import pytest

from tests.app_support._page_state import page_state

STATE, PAGE = page_state("missing_values")
DEFAULTS = {"data": "weather", "row": 8, "missing": ("outlook",), "loo": True, "s": 1.0, "hide": 1.0,
            "mech": "mnar", "hfeat": "outlook", "hval": "sunny", "seed": 0, "tr": -1, "a": "", "b": ""}


def test_defaults_are_the_teaching_scenario():
    assert STATE.read({}) == DEFAULTS


def test_a_shared_link_is_read_back():
    link = {"data": "balloons", "row": "12", "missing": "color|act", "loo": "0", "s": "2.5", "hide": "0.35",
            "mech": "mcar", "hfeat": "size", "hval": "LARGE", "seed": "7", "tr": "3", "a": "T", "b": "F"}
    values = STATE.read(link)
    assert values == {"data": "balloons", "row": 12, "missing": ("color", "act"), "loo": False, "s": 2.5,
                      "hide": 0.35, "mech": "mcar", "hfeat": "size", "hval": "LARGE", "seed": 7, "tr": 3,
                      "a": "T", "b": "F"}
    assert STATE.write(values) == link


@pytest.mark.parametrize("name, bad", [("data", "iris"), ("data", "../etc"), ("row", "0"), ("row", "x"),
                                       ("s", "0"), ("s", "nan"), ("hide", "1.5"), ("mech", "sometimes"),
                                       ("seed", "-1"), ("tr", "99"), ("loo", "maybe")])
def test_bad_values_fall_back_to_the_default(name, bad):
    assert STATE.read({name: bad})[name] == DEFAULTS[name]


def test_numbers_are_snapped_and_written_canonically():
    assert STATE.read({"s": "1.04", "hide": "0.33"})["s"] == 1.0
    assert STATE.read({"hide": "0.33"})["hide"] == pytest.approx(0.35)
    assert STATE.write({"s": 0.30000000000000004, "hide": 1.0}) == {"s": "0.3", "hide": "1"}


def test_the_data_choice_offers_the_categorical_samples_and_an_upload():
    options = STATE["data"].options
    assert options[-1] == PAGE["UPLOAD"] and "weather" in options and "balloons" in options
    assert not {"iris", "wine", "breast_cancer"} & set(options)          # numeric samples: not here
