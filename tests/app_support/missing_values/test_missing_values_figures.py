"""The figure builder of the page "Missing values" (no streamlit, no browser)."""
from __future__ import annotations

from app_support.missing_values.figures import IN_SET, IN_SET_TRUE, MISSED_TRUE, OUT, set_grid

NAMES = ["NBC (MAR)", "NCC, MAR (ignore)", "NCC, not MAR: outlook"]
MEMBERS = [("yes",), ("yes",), ("no", "yes")]


def cells(fig):
    """(row, column) -> (colour, text) read back from the figure."""
    colours = {(round((s.y0 + s.y1) / 2), round((s.x0 + s.x1) / 2)): s.fillcolor for s in fig.layout.shapes}
    points = fig.data[0]
    text = {(y, x): t for x, y, t in zip(points.x, points.y, points.text)}
    return {key: (colours[key], text[key]) for key in colours}


def test_one_cell_per_treatment_and_class_marked_by_membership_and_truth():
    fig = set_grid(NAMES, MEMBERS, ["no", "yes"], truth="no")
    grid = cells(fig)
    assert len(grid) == 6
    # the true class "no": left out by the two MAR rows (red), kept by the conservative one (green)
    assert grid[(0, 0)] == (MISSED_TRUE, "") and grid[(1, 0)] == (MISSED_TRUE, "")
    assert grid[(2, 0)] == (IN_SET_TRUE, "✓")
    assert grid[(0, 1)] == (IN_SET, "✓") and grid[(2, 1)] == (IN_SET, "✓")
    assert list(fig.layout.yaxis.ticktext) == NAMES
    assert fig.layout.yaxis.range[0] > fig.layout.yaxis.range[1]          # first treatment at the top
    assert list(fig.layout.xaxis.ticktext) == ["no<br>(true class)", "yes"]
    assert "the true class" in fig.data[0].hovertext[0]


def test_without_a_truth_every_column_is_plain_and_the_height_follows_the_rows():
    fig = set_grid(NAMES[:2], MEMBERS[:2], ["no", "yes"])
    grid = cells(fig)
    assert grid[(0, 0)] == (OUT, "") and grid[(0, 1)] == (IN_SET, "✓")
    assert list(fig.layout.xaxis.ticktext) == ["no", "yes"]
    assert set_grid(NAMES, MEMBERS, ["no", "yes"]).layout.height > fig.layout.height


def test_labels_of_other_types_match_by_text():
    fig = set_grid(["NCC"], [(1,)], [0, 1], truth=1)
    assert cells(fig)[(0, 1)] == (IN_SET_TRUE, "✓") and cells(fig)[(0, 0)] == (OUT, "")


def test_the_legend_names_each_colour_shown_and_only_those():
    from app_support.missing_values.figures import LEGEND

    fig = set_grid(NAMES, MEMBERS, ["no", "yes"], truth="no")
    shown = {s.fillcolor for s in fig.layout.shapes}
    keys = {trace.marker.color: trace.name for trace in fig.data[1:]}
    assert set(keys) == shown and all(trace.showlegend for trace in fig.data[1:])
    assert keys == {colour: name for colour, name in LEGEND if colour in shown}
    without_truth = set_grid(NAMES, MEMBERS, ["no", "yes"])
    assert {t.marker.color for t in without_truth.data[1:]} == {IN_SET, OUT}


def test_the_grid_is_declared_and_sends_what_plotly_validates():
    from tests.app_support.test_declared_figures import same_chart

    same_chart(set_grid(NAMES, MEMBERS, ["no", "yes"], truth="no"))
    same_chart(set_grid(["NCC"], [(1,)], [0, 1]))
