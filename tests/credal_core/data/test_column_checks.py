"""Integer columns with more than MAX_INTEGER_LEVELS distinct values: found on every dtype, warned by name."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from credal_core.data.column_checks import (
    MAX_INTEGER_LEVELS,
    ManyValuedIntegerWarning,
    many_valued_integer_columns,
    warn_many_valued_integers,
)
from tests._depth import examples


def test_the_threshold_is_twenty_and_strict():
    assert MAX_INTEGER_LEVELS == 20
    X = pd.DataFrame({"twenty": list(range(20)) * 2, "twenty_one": list(range(21)) + list(range(19))})
    assert many_valued_integer_columns(X) == {"twenty_one": 21}


@pytest.mark.parametrize("column, flagged", [
    (pd.Series(range(100, 130)), True),                                        # int64
    (pd.Series(np.arange(30, dtype=np.int8)), True),
    (pd.Series([float(v) for v in range(30)] + [np.nan]), True),               # whole floats with NaN
    (pd.Series([str(v) for v in range(30)] + [None], dtype=object), True),      # text as read from a CSV
    (pd.Series([f" {v} " for v in range(30)], dtype="string"), True),
    (pd.Series(pd.Categorical(range(30))), True),                              # categories that are numbers
    (pd.Series([v + 0.5 for v in range(30)]), False),                          # decimals: a measurement
    (pd.Series([str(v) for v in range(29)] + ["x"]), False),                    # not all numbers
    (pd.Series([True, False] * 15), False),
    (pd.Series([None] * 30, dtype=object), False),
])
def test_every_representation_of_whole_numbers_is_found(column, flagged):
    assert many_valued_integer_columns(pd.DataFrame({"c": column})) == ({"c": 30} if flagged else {})


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=80), st.booleans())
def test_flagged_exactly_when_more_than_twenty_distinct_values(values, as_text):
    column = pd.Series([str(v) for v in values] if as_text else values)
    expected = {"c": len(set(values))} if len(set(values)) > MAX_INTEGER_LEVELS else {}
    assert many_valued_integer_columns(pd.DataFrame({"c": column})) == expected


def test_excluded_columns_are_not_checked_and_the_warning_names_the_column():
    X = pd.DataFrame({"chol": range(152), "age": range(152)})
    assert many_valued_integer_columns(X, exclude=["age"]) == {"chol": 152}
    with pytest.warns(ManyValuedIntegerWarning) as caught:
        messages = warn_many_valued_integers(X, exclude=["age"])
    assert len(caught) == 1 and messages == [str(caught[0].message)]
    assert "column 'chol' holds 152 distinct whole numbers" in messages[0] and "discretise it" in messages[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert warn_many_valued_integers(X, exclude=["chol", "age"]) == []
