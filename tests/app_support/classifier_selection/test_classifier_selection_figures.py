"""The plotly figure builders of the page "Classifier selection" (no streamlit, no browser)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from app_support.classifier_selection.figures import OUTCOMES, accuracy_vs_k_figure, threshold_plane_figure


def training_points():
    return pd.DataFrame({
        "threshold_1": [0.5, 0.5, 0.5, 1.0, 2.0, 3.0],
        "threshold_2": [1.0, 1.0, 1.0, 2.0, 0.5, 3.0],
        "outcome": ["both right", "both right", "both right", "only C1", "only C2", "neither"],
    })


def by_meta(fig):
    return {t.meta: t for t in fig.data}


def test_plane_merges_identical_points_and_keeps_every_row():
    fig = threshold_plane_figure(training_points())
    traces = by_meta(fig)
    assert set(traces) == set(OUTCOMES)
    both = traces["both right"]
    assert list(both.x) == [0.5] and list(both.y) == [1.0] and list(both.customdata) == [3]
    assert both.marker.size[0] > traces["only C1"].marker.size[0]        # 3 rows: a bigger marker
    assert sum(int(np.sum(t.customdata)) for t in fig.data) == 6
    assert "threshold of C1" in fig.layout.xaxis.title.text
    assert "threshold of C2" in fig.layout.yaxis.title.text


def test_plane_draws_the_test_point_and_both_neighbour_sets():
    fig = threshold_plane_figure(training_points(), test_point=(0.6, 1.1),
                                 neighbours={"euclidean": [0, 1, 3], "chebyshev": [0, 4]}, k=3)
    traces = by_meta(fig)
    assert list(traces["test"].x) == [0.6] and list(traces["test"].y) == [1.1]
    eu, ch = traces["neighbours-euclidean"], traces["neighbours-chebyshev"]
    assert set(zip(eu.x, eu.y)) == {(0.5, 1.0), (1.0, 2.0)} and sorted(eu.customdata) == [1, 2]
    assert set(zip(ch.x, ch.y)) == {(0.5, 1.0), (2.0, 0.5)}
    assert eu.marker.symbol != ch.marker.symbol                         # 004 Fig. 2: diamonds vs stars
    assert eu.name.endswith("k = 3")


def test_plane_without_some_outcomes_omits_their_traces():
    points = training_points()
    fig = threshold_plane_figure(points[points["outcome"] == "both right"])
    assert [t.meta for t in fig.data] == ["both right"]


def test_accuracy_curve_has_four_lines_the_paper_points_and_the_k_marker():
    ks = np.arange(2, 6)
    names = ["C1", "C2", "selector (Euclidean)", "selector (Chebyshev)"]
    table = pd.concat([pd.DataFrame({"classifier": name, "k": ks, "accuracy": 0.7 + 0.01 * i + 0 * ks})
                       for i, name in enumerate(names)])
    paper = {"k": 3, "selector (Euclidean)": 0.788961, "selector (Chebyshev)": 0.788485}
    fig = accuracy_vs_k_figure(table, k=4, paper=paper)
    traces = by_meta(fig)
    assert list(traces["C2"].x) == [2, 3, 4, 5] and np.allclose(traces["C2"].y, 0.71)
    assert list(traces["paper"].y) == [0.788961, 0.788485] and list(traces["paper"].x) == [3, 3]
    assert any(shape.x0 == 4 for shape in fig.layout.shapes)
    assert len(accuracy_vs_k_figure(table).layout.shapes) == 0


def test_the_k_line_is_the_one_plotly_adds_and_every_figure_is_valid():
    import json

    import plotly.io as pio

    from app_support.classifier_selection.figures import with_k_line

    table = pd.DataFrame({"k": [2, 3, 4] * 2, "classifier": ["C1"] * 3 + ["selector (Euclidean)"] * 3,
                          "accuracy": [0.7, 0.72, 0.71, 0.75, 0.78, 0.77]})
    base = accuracy_vs_k_figure(table)
    want = base.validated()
    want.add_vline(x=4, line_dash="dot", line_color="grey", annotation_text="k = 4")
    got = with_k_line(base, 4)
    assert json.loads(pio.to_json(got.to_dict())) == json.loads(pio.to_json(want))
    assert accuracy_vs_k_figure(table, k=4).to_dict() == got.to_dict()
    plane = threshold_plane_figure(training_points(), test_point=(0.6, 1.1), neighbours={"euclidean": [0, 1]},
                                   k=2)
    assert json.loads(pio.to_json(plane.to_dict())) == json.loads(pio.to_json(plane.validated()))


def test_outcomes_differ_in_colour_and_in_marker_shape():
    from app_support.classifier_selection.figures import OUTCOME_SYMBOLS

    colours = [colour for _, colour in OUTCOMES.values()]
    assert len(set(colours)) == len(colours)
    assert set(OUTCOME_SYMBOLS) == set(OUTCOMES)
    assert len(set(OUTCOME_SYMBOLS.values())) == len(OUTCOME_SYMBOLS)
