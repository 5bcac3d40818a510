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
    base, width = np.asarray(bar.base, dtype=float), np.asarray(bar.x, dtype=float)
    np.testing.assert_allclose(base, [0.2, 0.8])
    np.testing.assert_allclose(base + width, [0.7, 0.95])
    np.testing.assert_allclose(np.asarray(dots.x, dtype=float), [0.5, 0.9])
    assert "<br>" in fig.layout.title.text                       # wrapped for a narrow column


def test_spode_weights_figure_has_both_weightings():
    table = pd.DataFrame({"super_parent": ["f", "g"], "bma_weight": [0.9, 0.1], "comp_weight": [0.6, 0.4]})
    fig = spode_weights_figure(table)
    assert [t.name for t in fig.data] == ["BMA-AODE", "COMP-AODE"]
    np.testing.assert_allclose(np.asarray(fig.data[0].x, dtype=float), [0.9, 0.1])


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
