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


# ------------------------------------------------------- the figures' content against their input frame
def _random_costs(seed: int) -> pd.DataFrame:
    """A reject_view-like frame in a random row order: a few models, both kinds (some models only one),
    the d grid in a shuffled order."""
    rng = np.random.default_rng(seed)
    models = list(rng.permutation(["NCC", "CMA", "BMA-AODE*", "COMP-AODE*", "CDT"])[:rng.integers(1, 6)])
    rows = [{"model": m, "d": d, "classifier": c, "cost": rng.random(), "rejected": rng.random(),
             "error": rng.random(), "label": f"{m} {c}"}
            for m in models for c in ("credal", "precise") if rng.random() < 0.8 or c == "precise"
            for d in rng.permutation([0.01 * k for k in range(1, 50)])]
    return pd.DataFrame(rows).sample(frac=1, random_state=seed).reset_index(drop=True)


def _expected_lines(frame: pd.DataFrame) -> list[tuple]:
    """(kind, model, model's rank) of each line: credal lines then precise ones; models ranked by their
    first row among the credal rows, then among the others."""
    credal = frame["classifier"] == "credal"
    ranks: list = []
    for model in [*frame.loc[credal, "model"], *frame.loc[~credal, "model"]]:
        if model not in ranks:
            ranks.append(model)
    present = set(zip(frame["classifier"], frame["model"]))
    return [(c, m, ranks.index(m)) for c in ("credal", "precise") for m in ranks if (c, m) in present]


@pytest.mark.parametrize("seed", range(12))
def test_reject_figure_draws_each_models_costs_sorted_by_d(seed):
    """Each line is the frame's rows of one model and kind, sorted by d (d, cost, rejected as hover);
    credal lines first and solid, precise ones dashed (solid when no credal line is drawn); one colour per
    model by its first appearance."""
    frame = _random_costs(seed)
    data = reject_figure(frame, 0.3).to_dict()["data"]
    expected = _expected_lines(frame)
    assert len(data) == len(expected)
    dashes = iter(["solid", "dash"])
    kinds = {k: (name, next(dashes)) for k, name in (("credal", "credal"), ("precise", "precise counterpart"))
             if (frame["classifier"] == k).any()}
    palette = [t["line"]["color"] for t in data]
    for trace, (kind, model, rank) in zip(data, expected):
        rows = frame[(frame["model"] == model) & (frame["classifier"] == kind)].sort_values("d")
        name, dash = kinds[kind]
        assert trace["name"] == f"{name} · {model}" and trace["line"]["dash"] == dash
        np.testing.assert_array_equal(_array(trace["x"]), rows["d"].to_numpy())
        np.testing.assert_array_equal(_array(trace["y"]), rows["cost"].to_numpy())
        np.testing.assert_array_equal(_array(trace["customdata"]), rows["rejected"].to_numpy())
        same_rank = [c for c, (_, _, r) in zip(palette, expected) if r == rank]
        assert set(same_rank) == {trace["line"]["color"]}                   # a model keeps its colour
    assert len({c for c, (_, _, r) in zip(palette, expected)}) == len({r for _, _, r in expected})


def test_reject_figure_depends_on_the_row_order_only_through_the_models_first_appearance():
    frame = _random_costs(3)
    first = {m: k for k, m in enumerate(dict.fromkeys(frame.sort_values(
        "classifier", key=lambda c: c != "credal", kind="stable")["model"]))}
    regrouped = frame.assign(rank=frame["model"].map(first)).sort_values(
        ["rank", "classifier", "d"], ascending=[True, True, False]).drop(columns="rank")
    assert reject_figure(regrouped, 0.1).to_dict() == reject_figure(frame, 0.1).to_dict()
    assert reject_figure(frame.iloc[:0], 0.1).to_dict()["data"] == []


def _visible(frame: pd.DataFrame, depth: int, path) -> pd.DataFrame:
    return frame[(frame["depth"] <= depth) | frame["node"].isin(list(path))]


def _leaves_in_order(frame: pd.DataFrame, visible: set) -> list[int]:
    """The visible leaves (visible nodes without a visible child), depth first, children in frame order."""
    def walk(node):
        kids = [int(k) for k in frame.loc[frame["parent"] == node, "node"] if int(k) in visible]
        return [node] if not kids else [leaf for k in kids for leaf in walk(k)]
    return walk(int(frame.loc[frame["parent"] < 0, "node"].iloc[0]))


def _real_trees():
    from app_support.earlier_credal.model import instance_view, tree_view
    for name, s in (("weather", 1.0), ("monks2", 0.3), ("synthetic_nb", 2.7)):
        frame = tree_view(name, s)
        for row in (0, 5):
            yield name, frame, instance_view(name, s, row)["path"]


def test_tree_layout_against_the_frame_on_the_samples_trees():
    """Visible = depth ≤ max_depth or on the path; x = depth; leaves at 0, 1, … depth first; a parent at
    the mean of its visible children; folded = a split none of whose children is visible."""
    for _, frame, path in _real_trees():
        for depth in (0, 1, 3, 10):
            layout = tree_layout(frame, depth, path)
            visible = _visible(frame, depth, path)
            assert list(layout["node"]) == list(visible["node"])
            shown = set(visible["node"].astype(int))
            pos = layout.set_index("node")
            leaves = _leaves_in_order(frame, shown)
            assert list(pos.loc[leaves, "y"]) == list(range(len(leaves)))
            for node, row in pos.iterrows():
                kids = [k for k in frame.loc[frame["parent"] == node, "node"] if k in shown]
                assert row["x"] == row["depth"] and row["on_path"] == (node in path)
                if kids:
                    assert row["y"] == pytest.approx(np.mean(pos.loc[kids, "y"]))
                assert row["folded"] == (isinstance(row["split"], str) and not kids)


def test_tree_figure_against_its_layout_on_the_samples_trees():
    """One marker per visible node (its counts in its text, a leaf's IDM intervals), larger on the path;
    one elbow edge per visible child, the path's in orange; the edge labels are the children's values."""
    for _, frame, path in _real_trees():
        classes = [c[2:-1] for c in frame.columns if c.startswith("n(")]
        for depth in (0, 1, 3, 10):
            pos = tree_layout(frame, depth, path).set_index("node")
            fig = tree_figure(frame, max_depth=depth, path=path).to_dict()
            markers = [t for t in fig["data"] if t["mode"] == "markers+text"]
            assert [t["name"] for t in markers] == ["split", "folded split", "leaf"]
            seen = {}
            for trace in markers:
                for x, y, text, size in zip(_array(trace["x"]), _array(trace["y"]), trace["text"],
                                            trace["marker"]["size"]):
                    seen[(x, y)] = (trace["name"], text, size)
            assert len(seen) == len(pos) == sum(len(t["text"]) for t in markers)
            for node, row in pos.iterrows():
                kind, text, size = seen[(row["x"], row["y"])]
                leaf = not isinstance(row["split"], str)
                assert kind == ("leaf" if leaf else "folded split" if row["folded"] else "split")
                assert size == (14 if node in path else 10)
                assert " · ".join(f"{row[f'n({c})']:g}" for c in classes) in text
                if leaf:
                    assert all(f"{c} [{row[f'lower({c})']:.2f}, {row[f'upper({c})']:.2f}]" in text
                               for c in classes)
                else:
                    assert text.startswith(f"<b>{row['split']}</b>")
            grey, orange = (t for t in fig["data"] if t["mode"] == "lines")
            assert orange["line"]["color"] == "#d55e00" and grey["line"]["color"] == "#bbbbbb"
            edges = {}
            for trace in (grey, orange):
                xs, ys = trace["x"], trace["y"]
                for k in range(0, len(xs), 5):
                    assert xs[k + 1] == xs[k + 2] == xs[k] + 0.45 and xs[k + 4] is None
                    edges[(xs[k], ys[k], xs[k + 3], ys[k + 3])] = trace is orange
            children = pos[pos["parent"] >= 0]
            assert len(edges) == len(children)
            labels = {(a["x"], a["y"]): a["text"] for a in fig["layout"].get("annotations", [])}
            for node, row in children.iterrows():
                parent = pos.loc[row["parent"]]
                on_path = node in path and row["parent"] in path
                assert edges[(parent["x"], parent["y"], row["x"], row["y"])] == on_path
                assert labels[(row["x"], row["y"])] == row["value"].split(" = ", 1)[1]
            n_leaves = len(_leaves_in_order(frame, set(pos.index)))
            assert fig["layout"]["height"] == max(320, 130 + 62 * n_leaves)
            assert sum(x is None for x in orange["x"]) == len(path) - 1        # every path node visible


def test_reject_figure_draws_no_line_for_a_classifier_neither_credal_nor_precise():
    frame = _random_costs(4)
    other = frame.head(20).assign(classifier="other", cost=-1.0)
    assert reject_figure(pd.concat([frame, other], ignore_index=True), 0.2).to_dict() == \
        reject_figure(frame, 0.2).to_dict()
