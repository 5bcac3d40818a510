"""A two-class count table as a data set of "Classifier selection" (lesson 6's problems): its link parameter,
its rows, and the thresholds the page shows for it (pure: no Streamlit run)."""
from __future__ import annotations

import numpy as np
import pytest

from app_support.classifier_selection.counts import (
    DEFAULT_TABLE,
    MAX_FEATURES,
    MAX_ROWS,
    format_table,
    frame,
    instance_values,
    parse_table,
    threshold,
)
from app_support.lessons.problems import pair_params, random_pair
from tests._depth import cases
from tests.app_support.lessons.independent import laplace_threshold


def test_a_table_reads_back_in_its_canonical_form():
    pair = parse_table(" 8-6,5-2,3-4 ")
    assert (pair.n_c, pair.n_not, pair.counts_c, pair.counts_not) == (8, 6, (5, 3), (2, 4))
    assert format_table(pair) == "8-6,5-2,3-4" == DEFAULT_TABLE
    rng = np.random.default_rng(0)
    for _ in range(cases(50)):
        pair = random_pair(rng, features=int(rng.integers(1, MAX_FEATURES + 1)), lo=1, hi=60)
        assert parse_table(format_table(pair)) == pair


@pytest.mark.parametrize("text, says", [
    ("", "expected n"), ("8-6", "expected n"), ("8-6,9-2", "at most its class count"),
    ("a-b,1-1", "two whole"), ("8-6,5-2,", "two whole"), ("8-6;5-2", "expected n"),
    ("8.5-6,1-1", "two whole"), ("-8-6,1-1", "two whole"),
    ("0-6,0-1", "at least 1 row"), (f"{MAX_ROWS}-1,1-1", f"at most {MAX_ROWS} rows"),
    ("9-9" + ",1-1" * (MAX_FEATURES + 1), f"at most {MAX_FEATURES} features"),
    ("9-9," + "1" * 300 + "-1", "expected n"), ("99999999-1,1-1", "two whole"),
])
def test_malformed_or_oversized_tables_are_refused_with_the_reason(text, says):
    with pytest.raises(ValueError, match=says):
        parse_table(text)


def test_the_rows_have_exactly_the_table_s_counts():
    rng = np.random.default_rng(1)
    for _ in range(cases(30)):
        pair = random_pair(rng, features=3, lo=1, hi=15)
        X, y = frame(pair)
        assert (y == "c").sum() == pair.n_c and (y == "¬c").sum() == pair.n_not
        for j, column in enumerate(X.columns):
            assert list(X[column].cat.categories) == ["x", "o"]
            assert ((X[column] == "x") & (y == "c")).sum() == pair.counts_c[j]
            assert ((X[column] == "x") & (y == "¬c")).sum() == pair.counts_not[j]
        assert instance_values(pair) == ("x",) * 3


def test_the_page_s_thresholds_match_004_s_definition_by_brute_force():
    """The thresholds the page shows for a table (C1 on f1, C2 on f1 and f2, all rows, instance x|x) against
    the root of 004's R(s) = 1 found by brentq (the lesson's independent solver)."""
    rng = np.random.default_rng(2)
    for _ in range(cases(60)):
        pair = random_pair(rng, features=2, lo=3, hi=12)
        p = pair_params(pair)
        for features, names in (((0,), ("f1",)), ((0, 1), ("f1", "f2"))):
            expected = laplace_threshold(p, features)
            assert threshold(pair, names) == pytest.approx(expected, abs=1e-7), (p, features)
