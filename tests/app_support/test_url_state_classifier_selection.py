"""The URL state of the page "Classifier selection" (pure: no Streamlit run)."""
from __future__ import annotations

import pytest

from app_support.cache_selection import PAPER_SUBSETS, typed_values, url_state

COLUMNS = ("color", "size", "act", "age")
STATE = url_state(COLUMNS, PAPER_SUBSETS["balloons"])
F1, F2 = PAPER_SUBSETS["balloons"]


def test_defaults_are_004s_balloons_view():
    assert STATE.read({}) == {"data": "balloons", "f1": F1, "f2": F2, "k": 3, "dist": "euclidean", "seed": 0,
                              "mode": "resubstitution", "runs": 100, "source": "test", "row": 4, "x": "",
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
    ("data", "nope", "balloons"), ("k", "abc", 3), ("k", "31", 3), ("k", "0", 3),
    ("dist", "manhattan", "euclidean"),
    ("seed", "-4", 0), ("seed", "10000", 0), ("mode", "loo", "resubstitution"), ("source", "file", "test"),
    ("runs", "15", 20), ("runs", "5", 100), ("runs", "abc", 100), ("table2", "maybe", False),
    ("f1", "zzz", F1), ("f1", "zzz,age", ("age",)), ("f2", "", F2), ("f1", "age,color,age", ("age", "color")),
])
def test_malformed_or_unknown_values_fall_back(name, raw, expected):
    assert STATE.read({name: raw})[name] == expected


def test_typed_instance_values_not_in_the_column_become_its_first_value():
    choices = {"f1": ["hi", "lo", "mid"], "f2": ["hi", "lo"]}
    assert typed_values("mid|lo", choices) == {"f1": "mid", "f2": "lo"}
    assert typed_values("nope", choices) == {"f1": "hi", "f2": "hi"}
    assert typed_values("", choices) == {"f1": "hi", "f2": "hi"}
