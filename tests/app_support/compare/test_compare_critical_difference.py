"""app_support.compare.critical_difference: Demšar's critical-difference diagram, checked on hand-made rank
tables."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from app_support.compare.critical_difference import critical_difference_figure
from credal_core.stats import friedman_test, nemenyi_critical_difference

RANKS = pd.Series({"D": 4.0, "A": 1.2, "C": 2.9, "B": 1.9})     # sorted: A 1.2, B 1.9, C 2.9, D 4.0


def _by_meta(fig, meta):
    return [t for t in fig.data if t.meta == meta]


def test_classifiers_sit_at_their_average_ranks_with_labels_on_both_sides():
    fig = critical_difference_figure(RANKS, 1.25)
    traces = _by_meta(fig, "classifier")
    assert [t.name for t in traces] == ["A", "B", "C", "D"]              # rank order, best first
    for t in traces:
        assert t.x[0] == RANKS[t.name] and t.y[0] == 0                   # on the axis at its rank
        assert t.x[1] == RANKS[t.name] and t.y[1] == t.y[2] < 0          # vertical drop, then across
        assert t.name in t.text[2] and f"{RANKS[t.name]:.2f}" in t.text[2]
    ends = {t.name: t.x[2] for t in traces}
    assert ends["A"] < 1 and ends["B"] < 1                               # better half labelled on the left
    assert ends["C"] > 4 and ends["D"] > 4
    depth = {t.name: t.y[1] for t in traces}
    assert depth["A"] > depth["B"] and depth["D"] > depth["C"]           # outermost lines are shortest


def test_groups_join_the_classifiers_that_are_not_significantly_different():
    # differences: A-B 0.7, B-C 1.0, C-D 1.1 are below CD = 1.25; A-C 1.7 and B-D 2.1 are not
    fig = critical_difference_figure(RANKS, 1.25)
    groups = _by_meta(fig, "group")
    assert [list(t.customdata[0]) for t in groups] == [["A", "B"], ["B", "C"], ["C", "D"]]
    assert [t.name for t in groups] == ["group 1: A, B", "group 2: B, C", "group 3: C, D"]
    for t, (first, last) in zip(groups, [(1.2, 1.9), (1.9, 2.9), (2.9, 4.0)]):
        assert first - 0.1 < t.x[0] <= first and last <= t.x[1] < last + 0.1
        assert t.y[0] == t.y[1] < 0
    assert len({t.y[0] for t in groups}) == 3                            # stacked, not drawn over each other
    wide = critical_difference_figure(RANKS, 3.0)
    assert [list(t.customdata[0]) for t in _by_meta(wide, "group")] == [["A", "B", "C", "D"]]
    narrow = critical_difference_figure(RANKS, 0.5)
    assert _by_meta(narrow, "group") == []                               # every pair differs


def test_cd_interval_axis_and_ticks():
    fig = critical_difference_figure(RANKS, 1.25)
    (cd,) = _by_meta(fig, "cd")
    assert list(cd.x) == [1.0, 2.25] and cd.y[0] == cd.y[1] > 0
    assert "1.25" in cd.text[1]
    (axis,) = _by_meta(fig, "axis")
    assert list(axis.x[:2]) == [1.0, 4.0] and list(axis.y[:2]) == [0.0, 0.0]
    (ticks,) = _by_meta(fig, "ticks")
    assert list(ticks.x) == [1, 2, 3, 4] and list(ticks.text) == ["1", "2", "3", "4"]
    assert "CD = 1.25" in fig.layout.title.text


def test_no_nan_reaches_the_figure_and_it_serialises():
    fig = critical_difference_figure(RANKS, 1.25)
    data = json.loads(fig.to_json())["data"]
    for trace in data:
        for key in ("x", "y"):
            values = [v for v in trace[key] if v is not None]            # None = line break in the axis
            assert np.isfinite(np.asarray(values, float)).all()


def test_diagram_of_a_real_friedman_result():
    scores = pd.DataFrame({"NBC": [0.80, 0.71, 0.90, 0.65, 0.77, 0.84, 0.70, 0.66],
                           "NCC": [0.78, 0.70, 0.88, 0.60, 0.75, 0.83, 0.69, 0.64],
                           "LNCC": [0.81, 0.69, 0.89, 0.66, 0.74, 0.85, 0.71, 0.60]})
    result = friedman_test(scores)
    cd = nemenyi_critical_difference(result.n_datasets, result.n_classifiers)
    fig = critical_difference_figure(result.average_ranks, cd)
    positions = {t.name: t.x[0] for t in _by_meta(fig, "classifier")}
    assert positions == pytest.approx(result.average_ranks.to_dict())
    assert sum(positions.values()) == pytest.approx(3 * 4 / 2)


def test_ties_and_two_classifiers():
    fig = critical_difference_figure(pd.Series({"A": 1.5, "B": 1.5}), 1.0)
    (group,) = _by_meta(fig, "group")
    assert group.x[0] < 1.5 < group.x[1]                                 # a visible bar even for equal ranks
    names = {t.name: t.x[2] for t in _by_meta(fig, "classifier")}
    assert names["A"] < 1 and names["B"] > 2


@pytest.mark.parametrize("ranks, cd, message", [
    (RANKS, 0.0, "cd"),
    (RANKS, float("nan"), "cd"),
    (pd.Series({"A": 1.0, "B": np.nan}), 1.0, "finite"),
    (pd.Series(dtype=float), 1.0, "empty"),
])
def test_bad_input_raises_a_clear_error(ranks, cd, message):
    with pytest.raises(ValueError, match=message):
        critical_difference_figure(ranks, cd)


def test_builder_does_not_import_streamlit():
    source = (Path(__file__).resolve().parents[3] / "credal_core" / "plots" / "critical_difference.py"
              ).read_text()
    imports = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert imports and not any("streamlit" in line or "app_support" in line for line in imports)
