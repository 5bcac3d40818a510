"""Figure builders of the page "Credal model averaging, trees and the reject option" on small frames made
here: what each draws (bars, points, nodes, path, folded nodes, d marker)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from app_support.earlier_credal.figures import (
    inclusion_figure,
    reject_figure,
    spode_weights_figure,
    tree_figure,
    tree_layout,
)


def _array(values) -> np.ndarray:
    """A trace's array as floats: plotly's typed array (a declared figure sends one) or a sequence."""
    if isinstance(values, dict):
        import base64
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values["dtype"])).astype(float)
    return np.asarray(values, dtype=float)


def small_tree() -> pd.DataFrame:
    """root (split a) -> a=x: leaf; a=y: split b -> b=p: leaf, b=q: leaf."""
    nan = np.nan
    return pd.DataFrame({
        "node": [0, 1, 2, 3, 4], "parent": [-1, 0, 0, 2, 2], "depth": [0, 1, 1, 2, 2],
        "split": ["a", None, "b", None, None], "value": [None, "a = x", "a = y", "b = p", "b = q"],
        "n(u)": [6.0, 3.0, 3.0, 3.0, 0.0], "lower(u)": [nan, 0.75, nan, 0.75, 0.0],
        "upper(u)": [nan, 1.0, nan, 1.0, 0.5], "n(v)": [4.0, 0.0, 4.0, 0.0, 1.0],
        "lower(v)": [nan, 0.0, nan, 0.0, 0.5], "upper(v)": [nan, 0.25, nan, 0.25, 1.0]})


def test_inclusion_figure_draws_the_interval_and_the_point():
    frame = pd.DataFrame({"feature": ["f", "g"], "bma": [0.5, 0.9], "lower": [0.2, 0.8],
                          "upper": [0.7, 0.95]})
    fig = inclusion_figure(frame)
    bar, dots = fig.data
    base, width = _array(bar.base), _array(bar.x)
    np.testing.assert_allclose(base, [0.2, 0.8])
    np.testing.assert_allclose(base + width, [0.7, 0.95])
    np.testing.assert_allclose(_array(dots.x), [0.5, 0.9])
    assert "<br>" in fig.layout.title.text                       # wrapped for a narrow column


def test_spode_weights_figure_has_both_weightings():
    table = pd.DataFrame({"super_parent": ["f", "g"], "bma_weight": [0.9, 0.1], "comp_weight": [0.6, 0.4]})
    fig = spode_weights_figure(table)
    assert [t.name for t in fig.data] == ["BMA-AODE", "COMP-AODE"]
    np.testing.assert_allclose(_array(fig.data[0].x), [0.9, 0.1])


def test_tree_layout_places_parents_between_children_and_folds_deeper_nodes():
    layout = tree_layout(small_tree(), max_depth=2).set_index("node")
    assert layout.loc[2, "y"] == pytest.approx((layout.loc[3, "y"] + layout.loc[4, "y"]) / 2)
    assert layout.loc[0, "x"] == 0 and layout.loc[4, "x"] == 2
    assert not layout["folded"].any()
    folded = tree_layout(small_tree(), max_depth=1).set_index("node")
    assert set(folded.index) == {0, 1, 2} and folded.loc[2, "folded"]
    with_path = tree_layout(small_tree(), max_depth=1, path=[0, 2, 4]).set_index("node")
    assert set(with_path.index) == {0, 1, 2, 4} and with_path.loc[4, "on_path"]


def test_tree_figure_labels_leaves_with_their_intervals_and_draws_the_path():
    fig = tree_figure(small_tree(), max_depth=3, path=[0, 2, 3])
    texts = [t for trace in fig.data if trace.text is not None for t in trace.text]
    assert any(t.startswith("leaf, n = 3 · 0") and "u [0.75, 1.00]" in t and "v [0.00, 0.25]" in t
               for t in texts)
    assert "n = u · v" in fig.layout.title.text
    assert any(t.startswith("<b>b</b>") for t in texts)
    path_line = [t for t in fig.data if t.mode == "lines" and t.line.width == 3]
    assert len(path_line) == 1 and sum(x is None for x in path_line[0].x) == 2        # two edges
    assert {a.text for a in fig.layout.annotations} == {"x", "y", "p", "q"}


def test_reject_figure_one_colour_per_model_and_the_d_marker():
    rows = [{"model": m, "d": d, "classifier": c, "cost": d, "rejected": 0.5, "error": 0.1,
             "label": f"{m} {c}"} for m in ("CMA", "CDT") for c in ("precise", "credal") for d in (0.1, 0.2)]
    fig = reject_figure(pd.DataFrame(rows), 0.2)
    lines = {t.name: t.line for t in fig.data}
    assert lines["credal · CMA"].color == lines["precise counterpart · CMA"].color
    assert lines["credal · CMA"].dash != lines["precise counterpart · CMA"].dash
    assert lines["credal · CMA"].color != lines["credal · CDT"].color
    assert any(shape.x0 == 0.2 for shape in fig.layout.shapes)


def _sent(fig) -> dict:
    """What st.plotly_chart sends of a figure, plotly's typed arrays decoded to lists."""
    import base64
    import json

    import plotly.io as pio

    def plain(value):
        if isinstance(value, dict):
            if {"dtype", "bdata"} <= set(value):
                raw = base64.b64decode(value["bdata"])
                return np.frombuffer(raw, dtype=np.dtype(value["dtype"])).tolist()
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value
    return plain(json.loads(pio.to_json(fig, validate=False)))


def _costs() -> pd.DataFrame:
    rows = [{"model": m, "d": d, "classifier": c, "cost": d * (1 + k) / 3 + 0.01 * i, "rejected": 0.1 * k,
             "error": 0.1, "label": f"{m} {c}"}
            for i, m in enumerate(("NCC", "CMA", "CDT")) for k, c in enumerate(("precise", "credal"))
            for d in (0.3, 0.1, 0.2)]
    return pd.DataFrame(rows)


def test_declared_figures_send_what_plotly_validates():
    import plotly.graph_objects as go
    frame = pd.DataFrame({"feature": ["f", "g"], "bma": [0.5, 0.9], "lower": [0.2, 0.8],
                          "upper": [0.7, 0.95]})
    table = pd.DataFrame({"super_parent": ["f", "g"], "bma_weight": [0.9, 0.1],
                          "comp_weight": [0.6, 0.4]})
    root_only = small_tree().iloc[[1]].assign(parent=-1, depth=0, value=None)
    white = go.Figure(layout={"template": "plotly_white"}).to_dict()["layout"]["template"]
    for fig in (inclusion_figure(frame), spode_weights_figure(table), tree_figure(small_tree(), max_depth=1),
                tree_figure(small_tree(), max_depth=3, path=[0, 2, 4]), tree_figure(root_only),
                reject_figure(_costs(), 0.2)):
        assert _sent(fig) == _sent(go.Figure(fig.to_dict()))
        assert fig.to_dict()["layout"]["template"] == white


def test_the_reject_figure_is_the_shared_reject_cost_figure_with_d_marked():
    """The page's reject figure is paper_001_figures.reject_cost_figure's (credal first, one dash per kind)
    with the d line and the page's layout, as plotly builds it."""
    from app_support.paper_001_figures import reject_cost_figure
    costs = _costs()
    kind = {"credal": "credal", "precise": "precise counterpart"}
    ordered = costs.sort_values("classifier", key=lambda c: c != "credal", kind="stable")
    expected = reject_cost_figure(ordered.assign(classifier=ordered["model"],
                                                 dataset=ordered["classifier"].map(kind)),
                                  title="Expected cost per instance vs the cost d<br><sup>0 right, 1 "
                                        "wrong, d rejected; mean over the folds</sup>")
    expected.add_vline(x=0.2, line=dict(color="#444444", dash="dot"))
    expected.update_layout(template="plotly_white", height=480, legend=dict(orientation="h", y=-0.2),
                           legend_title_text="", margin=dict(l=60, r=10, t=80, b=60))
    assert _sent(reject_figure(costs, 0.2)) == _sent(expected)
