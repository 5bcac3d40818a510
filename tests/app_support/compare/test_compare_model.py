"""The Compare page's section 4, computed for every indicator at once, is the direct computation."""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pandas.testing as pdt

from app_support.compare.critical_difference import critical_difference_figure
from app_support.compare.model import across_views, csv_bytes, results_key
from credal_core.stats import across_datasets

INDICATORS = ("u65", "u80", "accuracy")


def summaries(seed: int, n_datasets: int = 4, failing: str | None = None) -> dict:
    rng = np.random.default_rng(seed)
    out = {}
    for d in range(n_datasets):
        table = pd.DataFrame({"classifier": ["NBC", "NCC", "LNCC"]})
        for indicator in INDICATORS:
            table[f"{indicator}_mean"] = rng.uniform(0.5, 0.9, 3)
        if failing and d == 1:
            table.loc[table["classifier"] == failing, "u80_mean"] = np.nan
        out[f"data {d}"] = table
    return out


def test_every_indicator_is_the_direct_computation():
    tables = summaries(0, failing="LNCC")
    views = across_views("test-key-0", INDICATORS, _summaries=tables)
    assert list(views) == list(INDICATORS)
    for indicator in INDICATORS:
        want, got = across_datasets(tables, indicator), views[indicator]
        pdt.assert_frame_equal(got["result"].scores, want.scores)
        assert got["result"].left_out == want.left_out
        for field in dataclasses.fields(want.friedman):
            value, expected = getattr(got["result"].friedman, field.name), getattr(want.friedman, field.name)
            if isinstance(expected, pd.Series):
                pdt.assert_series_equal(value, expected)
            elif isinstance(expected, pd.DataFrame):
                pdt.assert_frame_equal(value, expected)
            else:
                assert value == expected, field.name
        assert got["result"].critical_difference == want.critical_difference
        pdt.assert_frame_equal(got["result"].pairs, want.pairs)
        pdt.assert_frame_equal(got["scores"], (100 * want.scores).round(1))
        assert got["scores_csv"] == csv_bytes(want.scores.reset_index(names="dataset"))
        assert got["pairs_csv"] == csv_bytes(want.pairs)
        assert got["figure"].to_dict() == critical_difference_figure(
            want.friedman.average_ranks, want.critical_difference).to_dict()
    assert views["u80"]["result"].left_out == ["LNCC"]


def test_too_few_classifiers_leave_the_tests_out():
    tables = {name: table[table["classifier"] != "NCC"] for name, table in summaries(1).items()}
    tables = {name: table.assign(u65_mean=np.where(table["classifier"] == "LNCC", np.nan, table["u65_mean"]))
              for name, table in tables.items()}
    view = across_views("test-key-1", ("u65",), _summaries=tables)["u65"]
    assert view["result"].friedman is None and set(view) == {"result"}


def test_the_shared_key_changes_with_every_input_of_the_comparison():
    # section 4 is shared by all sessions under this key: a data set's numeric or non-MAR columns
    # change its results (run_comparison is keyed on them), so they must change the key too
    X, y = pd.DataFrame({"a": [1.0, 2.0], "b": ["x", None]}), pd.Series(["p", "q"])
    row = ("clinic.csv", "upload-1", X, y, ("a",), ("b",), '["class", ["a", "b"]]')
    base = results_key('{"folds": 5}', [row])
    variants = [
        results_key('{"folds": 10}', [row]),
        results_key('{"folds": 5}', [row[:4] + ((),) + row[5:]]),              # no numeric column
        results_key('{"folds": 5}', [row[:5] + ((),) + row[6:]]),              # no non-MAR column
        results_key('{"folds": 5}', [row[:6] + ('["class", ["a"]]',)]),        # other columns taken
        results_key('{"folds": 5}', [("other.csv",) + row[1:]]),
        results_key('{"folds": 5}', [row[:1] + ("upload-2",) + row[2:]]),
    ]
    assert len({base, *variants}) == 1 + len(variants)
    assert results_key('{"folds": 5}', [row]) == base                           # and it is stable
