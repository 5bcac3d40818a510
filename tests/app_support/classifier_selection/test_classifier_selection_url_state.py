"""The URL state of the page "Classifier selection" (pure: no Streamlit run)."""
from __future__ import annotations

import pytest

from app_support.classifier_selection.counts import DEFAULT_TABLE
from app_support.classifier_selection.model import PAPER_SUBSETS, url_state

COLUMNS = ("color", "size", "act", "age")
VALUES = (("purple", "yellow"), ("large", "small"), ("dip", "stretch"), ("adult", "child"))
STATE = url_state(COLUMNS, PAPER_SUBSETS["balloons"], VALUES)
F1, F2 = PAPER_SUBSETS["balloons"]


def test_defaults_are_004s_balloons_view():
    assert STATE.read({}) == {"data": "balloons", "counts": DEFAULT_TABLE, "f1": F1, "f2": F2, "k": 3,
                              "dist": "euclidean", "seed": 0,
                              "mode": "resubstitution", "runs": 100, "source": "test", "row": 4,
                              "x": ("purple", "large", "dip", "adult"),
                              "table2": False}


def test_a_shared_link_is_read_back():
    query = {"data": "weather", "k": "5", "dist": "chebyshev", "seed": "7", "row": "2", "f1": "outlook,windy",
             "f2": "humidity", "mode": "cross_validation", "runs": "30", "source": "test", "table2": "1"}
    state = url_state(("outlook", "temperature", "humidity", "windy"), (("outlook",), ("windy",)))
    values = state.read(query)
    assert values["f1"] == ("outlook", "windy") and values["f2"] == ("humidity",)
    assert (values["k"], values["dist"], values["seed"], values["row"]) == (5, "chebyshev", 7, 2)
    assert values["table2"] is True and values["runs"] == 30
    assert {k: v for k, v in state.write(values).items() if k in query} == query


@pytest.mark.parametrize("name, raw, expected", [
    ("data", "nope", "balloons"), ("counts", "1-1," * 60, DEFAULT_TABLE), ("k", "abc", 3),
    ("k", "31", 3), ("k", "0", 3),
    ("dist", "manhattan", "euclidean"),
    ("seed", "-4", 0), ("seed", "10000", 0), ("mode", "loo", "resubstitution"), ("source", "file", "test"),
    ("runs", "15", 20), ("runs", "5", 100), ("runs", "abc", 100), ("table2", "maybe", False),
    ("f1", "zzz", F1), ("f1", "zzz,age", ("age",)), ("f2", "", F2), ("f1", "age,color,age", ("age", "color")),
])
def test_malformed_or_unknown_values_fall_back(name, raw, expected):
    assert STATE.read({name: raw})[name] == expected


def test_typed_instance_values_not_in_the_column_become_its_first_value():
    state = url_state(("f1", "f2"), (("f1",), ("f2",)), (("hi", "lo", "mid"), ("hi", "lo")))
    assert state.read({"x": "mid|lo"})["x"] == ("mid", "lo")
    assert state.read({"x": "nope"})["x"] == ("hi", "hi")
    assert state.read({"x": ""})["x"] == ("hi", "hi")
    assert state.read({"x": "lo|lo|extra"})["x"] == ("lo", "lo")
    assert state.write({"x": ("mid", "lo")}) == {"x": "mid|lo"}
    assert state.read(state.write({"x": ("lo", "hi")}))["x"] == ("lo", "hi")
