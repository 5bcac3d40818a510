"""Figure builders of paper 001's comparisons (reject option, Figs. 5 and 6), without a browser."""
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from app_support.paper_001_figures import (
    reject_cost_figure,
    relative_utility_figure,
    safe_vs_prior_dependent_figure,
)


def costs_frame(datasets=(None,)):
    rows = []
    for ds in datasets:
        for d in (0.1, 0.3, 0.2):
            rows.append({"d": d, "classifier": "precise", "cost": d / 2, "rejected": 0.5, "dataset": ds})
            rows.append({"d": d, "classifier": "credal", "cost": d / 3, "rejected": 0.6, "dataset": ds})
    frame = pd.DataFrame(rows)
    return frame.drop(columns="dataset") if datasets == (None,) else frame


def test_reject_cost_lines_sorted_by_d_one_per_classifier_and_dataset():
    fig = reject_cost_figure(costs_frame())
    go.Figure(fig.to_dict())                                  # plotly validates the spec
    assert [t.name for t in fig.data] == ["precise", "credal"]
    assert list(fig.data[0].x) == [0.1, 0.2, 0.3]
    assert np.allclose(fig.data[1].y, np.array([0.1, 0.2, 0.3]) / 3)
    two = reject_cost_figure(costs_frame(("a", "b")))
    assert [t.name for t in two.data] == ["a · precise", "a · credal", "b · precise", "b · credal"]
    assert two.data[0].line.dash != two.data[2].line.dash and two.data[0].line.color == two.data[2].line.color


def test_fig5_points_and_bisector():
    frame = pd.DataFrame({"dataset": ["x", "y", "z"], "accuracy_safe": [0.9, 0.8, 0.7],
                          "accuracy_prior_dependent": [0.5, np.nan, 0.6],
                          "classifier": ["BMA-AODE", "BMA-AODE", "COMP-AODE"]})
    fig = safe_vs_prior_dependent_figure(frame)
    go.Figure(fig.to_dict())
    assert fig.data[0].name == "bisector" and list(fig.data[0].x) == [0, 1] and list(fig.data[0].y) == [0, 1]
    assert [t.name for t in fig.data[1:]] == ["BMA-AODE", "COMP-AODE"]
    assert list(fig.data[1].text) == ["x"]                     # NaN row left out
    assert list(fig.data[2].x) == [0.7] and list(fig.data[2].y) == [0.6]
    assert fig.layout.yaxis.scaleanchor == "x"


def test_fig6_ratios_computed_or_given():
    raw = pd.DataFrame({"dataset": ["b", "a"], "u65": [0.8, 0.45], "u80": [0.85, 0.5],
                        "accuracy": [0.8, 0.5]})
    fig = relative_utility_figure(raw)
    go.Figure(fig.to_dict())
    assert np.allclose(fig.data[0].y, [1.0, 0.9]) and np.allclose(fig.data[1].y, [0.85 / 0.8, 1.0])
    assert list(fig.layout.xaxis.categoryarray) == ["b", "a"]
    assert len(fig.layout.shapes) == 2                         # the line 1 on both panels
    given = relative_utility_figure(pd.DataFrame({"dataset": ["a"], "u65_ratio": [1.1], "u80_ratio": [1.2],
                                                  "classifier": ["CMA"]}))
    assert given.data[0].name == "CMA" and given.data[0].showlegend and not given.data[1].showlegend


@pytest.mark.parametrize("builder,frame,match", [
    (reject_cost_figure, pd.DataFrame({"d": [0.1], "cost": [0.1]}), "classifier"),
    (safe_vs_prior_dependent_figure, pd.DataFrame({"dataset": [], "accuracy_safe": [],
                                                   "accuracy_prior_dependent": []}), "at least one row"),
    (relative_utility_figure, pd.DataFrame({"dataset": ["a"], "u65": [0.5]}), "u80"),
    (relative_utility_figure, pd.DataFrame({"dataset": ["a"], "u65": [0.5], "u80": [0.5], "accuracy": [0.0]}),
     "accuracy of 0"),
])
def test_bad_frames(builder, frame, match):
    with pytest.raises(ValueError, match=match):
        builder(frame)
    with pytest.raises(TypeError, match="DataFrame"):
        builder([1, 2])


def test_builders_live_in_credal_core_without_streamlit_or_the_app():
    import app_support.paper_001_figures as shim
    import credal_core.plots.paper_001 as module
    assert shim.reject_cost_figure is module.reject_cost_figure      # the app's import still works
    imports = [line for line in open(module.__file__).read().splitlines() if "import " in line]
    assert imports and not any("streamlit" in line or "app_support" in line for line in imports)
