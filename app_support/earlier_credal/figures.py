"""Figures of the page "Credal model averaging, trees and the reject option" (plotly, no streamlit).

* :func:`inclusion_figure` — CMA's posterior probability of inclusion of each feature: BMA's value at
  t = 1/2 and the interval over the credal set of priors (``CMA.inclusion_interval_``);
* :func:`spode_weights_figure` — BMA-AODE's and COMP-AODE's weight of each SPODE (super-parent);
* :func:`tree_figure` — a credal decision tree drawn left to right from ``tree_frame``: splits with
  their counts, leaves with their IDM intervals, an instance's path highlighted, deeper nodes folded;
* :func:`reject_figure` — expected cost against d (the figure of ``paper_001_figures.reject_cost_figure``)
  with the chosen d marked.

Each is declared as plain dicts (:class:`app_support.figures.DeclaredFigure`, plotly's ``plotly_white``
template): no plotly validation when a slider reaches a value not computed before (it was about half of
that computation); tests check each against plotly's validation of it and against the plotly-built figure.
"""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from app_support.figures import DeclaredFigure, typed_array

__all__ = ["inclusion_figure", "spode_weights_figure", "tree_layout", "tree_figure", "reject_figure",
           "node_label"]

ELBOW = 0.45                   # where an edge turns, as a share of one level
PATH_COLOUR, NODE_COLOUR, LEAF_COLOUR, FOLDED_COLOUR = "#d55e00", "#0072b2", "#009e73", "#999999"


@functools.cache
def white_template() -> dict:
    """plotly's ``plotly_white`` template as a validated figure carries it, as a plain dict, once."""
    return go.Figure(layout={"template": "plotly_white"}).to_dict()["layout"]["template"]


def _white(data: list[dict], layout: dict) -> DeclaredFigure:
    """A declared figure on the ``plotly_white`` template (read only)."""
    figure = DeclaredFigure.__new__(DeclaredFigure)
    figure._declared = {"data": data, "layout": {**layout, "template": white_template()}}
    return figure


def _floats(values) -> dict | list:
    """A float array as plotly sends it: a typed array, or an empty list."""
    values = np.asarray(values, dtype=float)
    return typed_array(values) if len(values) else []


def _texts(values) -> list:
    return [v for v in values]


_SIDE_LEGEND = {"orientation": "h", "y": -0.22, "yanchor": "top"}
_SIDE_MARGIN = {"l": 10, "r": 10, "t": 70, "b": 90}


def inclusion_figure(frame: pd.DataFrame) -> go.Figure:
    """One row per feature: the interval [lower, upper] of its posterior inclusion probability over CMA's
    credal set (a bar), BMA's value at t = 1/2 (a dot). ``frame``: feature, bma, lower, upper."""
    features = _texts(frame["feature"])
    bar = {"base": [float(v) for v in frame["lower"]],
           "hovertemplate": "%{y}: [%{base:.3f}, %{x:.3f} wide]<extra>CMA</extra>",
           "marker": {"color": "#56b4e9"}, "name": "CMA: interval over the priors", "orientation": "h",
           "x": _floats(frame["upper"] - frame["lower"]), "y": features, "type": "bar"}
    dots = {"hovertemplate": "%{y}: %{x:.3f}<extra>BMA</extra>",
            "marker": {"color": "#000000", "size": 9, "symbol": "diamond"}, "mode": "markers",
            "name": "BMA (t = 1/2)", "x": _floats(frame["bma"]), "y": features, "type": "scatter"}
    layout = {"xaxis": {"range": [0, 1]}, "yaxis": {"autorange": "reversed"}, "legend": dict(_SIDE_LEGEND),
              "margin": dict(_SIDE_MARGIN),
              "title": {"text": "CMA: P(feature in the model | data)<br><sup>interval over the priors; BMA's "
                                "value at t = 1/2</sup>"},
              "height": max(330, 120 + 34 * len(frame))}
    return _white([bar, dots], layout)


def spode_weights_figure(table: pd.DataFrame) -> go.Figure:
    """BMA-AODE's and COMP-AODE's weight of each SPODE (``spode_table``'s super_parent, bma_weight,
    comp_weight), one row per super-parent feature."""
    parents = _texts(table["super_parent"])
    data = [{"hovertemplate": "%{y}: %{x:.3f}<extra>" + name + "</extra>", "marker": {"color": colour},
             "name": name, "orientation": "h", "x": _floats(table[column]), "y": parents, "type": "bar"}
            for column, name, colour in (("bma_weight", "BMA-AODE", "#0072b2"),
                                         ("comp_weight", "COMP-AODE", "#e69f00"))]
    layout = {"xaxis": {"range": [0, 1]}, "yaxis": {"autorange": "reversed"}, "legend": dict(_SIDE_LEGEND),
              "margin": dict(_SIDE_MARGIN),
              "title": {"text": "AODE: weight of each SPODE<br><sup>super-parent feature; BMA vs compression"
                                "</sup>"},
              "barmode": "group", "height": max(330, 120 + 34 * len(table))}
    return _white(data, layout)


def _classes(frame: pd.DataFrame) -> list[str]:
    return [c[2:-1] for c in frame.columns if c.startswith("n(")]


def _is_leaf(value) -> bool:
    return value is None or (isinstance(value, float) and np.isnan(value))


def _label(split, counts, lower, upper, classes: list[str], folded: bool) -> str:
    counts = " · ".join(f"{n:g}" for n in counts)           # in the order of ``classes`` (the title's)
    if not _is_leaf(split):
        return f"<b>{split}</b>{' …' if folded else ''}<br>n = {counts}"
    intervals = "<br>".join(f"{c} [{lo:.2f}, {hi:.2f}]" for c, lo, hi in zip(classes, lower, upper))
    return f"leaf, n = {counts}<br>{intervals}"


def node_label(row, classes: list[str], folded: bool) -> str:
    """A node's text: its split (or, for a leaf, the IDM interval of each class) and its counts."""
    return _label(row.split, row.counts, row.lower, row.upper, classes, folded)


def _mean(values: list) -> float:
    """``float(np.mean(values))`` to the last bit: numpy adds fewer than 8 numbers one after the other
    (then pairwise), so a plain sum is the same below 8 and skips numpy's call overhead."""
    return sum(values) / len(values) if len(values) < 8 else float(np.mean(values))


def _placed(frame: pd.DataFrame, max_depth: int, path) -> dict:
    """:func:`tree_layout`'s content as plain lists (positions in ``frame`` of the visible nodes, in its
    order; their node ids, parents, x, y, folded, on_path) and the set of ``path``'s nodes."""
    path = set(int(p) for p in path)
    nodes, parents = frame["node"].to_numpy(), frame["parent"].to_numpy()
    mask = frame["depth"].to_numpy() <= max_depth
    if path:
        mask |= np.isin(nodes, np.fromiter(path, dtype=np.int64, count=len(path)))
    where = np.flatnonzero(mask)
    shown = [int(n) for n in nodes[where].tolist()]
    up = [int(n) for n in parents[where].tolist()]
    children: dict[int, list[int]] = {n: [] for n in shown}
    for node, parent in zip(shown, up):
        if parent in children:
            children[parent].append(node)
    y: dict[int, float] = {}
    counter = [0]

    def place(node: int) -> float:
        kids = children[node]
        if not kids:
            y[node] = counter[0]
            counter[0] += 1
        else:
            y[node] = _mean([place(k) for k in kids])
        return y[node]

    place(int(nodes[np.flatnonzero(parents < 0)[0]]))
    splits = frame["split"].to_numpy()[where].tolist()
    return {"where": where, "node": shown, "parent": up, "split": splits, "path": path,
            "x": [float(v) for v in frame["depth"].to_numpy()[where].tolist()], "y": [y[n] for n in shown],
            "folded": [not _is_leaf(s) and not children[n] for n, s in zip(shown, splits)],
            "on_path": [n in path for n in shown]}


def tree_layout(frame: pd.DataFrame, max_depth: int, path=()) -> pd.DataFrame:
    """The visible nodes (depth ≤ ``max_depth``, and every node of ``path``) with plane positions: x =
    depth, y = the order of the visible leaves (a parent at the mean of its children); ``folded`` marks
    a split whose children are hidden."""
    placed = _placed(frame, max_depth, path)
    out = frame.iloc[placed["where"]].copy()
    out["x"] = out["depth"].astype(float)
    out["y"] = placed["y"]
    out["folded"] = placed["folded"]
    out["on_path"] = placed["on_path"]
    return out


def _column(frame: pd.DataFrame, name: str, where: np.ndarray) -> list:
    return frame[name].to_numpy()[where].tolist()


def tree_figure(frame: pd.DataFrame, *, max_depth: int = 3, path=(), title: str = "") -> go.Figure:
    """The tree left to right; ``frame`` is ``CredalDecisionTree.tree_frame()``. Edges are labelled by
    the value leading to the child; ``path`` (node ids from the root) is drawn in orange."""
    classes = _classes(frame)
    placed = _placed(frame, max_depth, path)
    where, xs_, ys_, on_path_nodes = placed["where"], placed["x"], placed["y"], placed["path"]
    at = {n: (x, float(y)) for n, x, y in zip(placed["node"], xs_, ys_)}
    edges = [k for k, p in enumerate(placed["parent"]) if p >= 0]
    data = []
    for on_path in (False, True):
        xs, ys = [], []
        for k in edges:
            parent = placed["parent"][k]
            if (placed["on_path"][k] and parent in on_path_nodes) != on_path:
                continue
            (x0, y0), (x1, y1) = at[parent], at[placed["node"][k]]
            xs += [x0, x0 + ELBOW, x0 + ELBOW, x1, None]
            ys += [y0, y0, y1, y1, None]
        data.append({"hoverinfo": "skip",
                     "line": {"color": PATH_COLOUR if on_path else "#bbbbbb", "width": 3 if on_path else 1},
                     "mode": "lines", "showlegend": False, "x": xs, "y": ys, "type": "scatter"})
    values = _column(frame, "value", where)
    annotations = []
    for k in edges:
        x1, y1 = at[placed["node"][k]]
        annotations.append({"font": {"color": "#444444", "size": 11}, "showarrow": False,
                            "text": str(values[k]).split(" = ", 1)[-1], "x": x1, "xanchor": "right",
                            "xshift": -9, "y": y1, "yshift": 9})
    counts, lower, upper = ([_column(frame, f"{part}({c})", where) for c in classes]
                            for part in ("n", "lower", "upper"))
    leaf = [_is_leaf(s) for s in placed["split"]]
    folded = placed["folded"]
    for kind, colour, members in (("split", NODE_COLOUR, [not a and not b for a, b in zip(leaf, folded)]),
                                  ("folded split", FOLDED_COLOUR, folded), ("leaf", LEAF_COLOUR, leaf)):
        part = [k for k, member in enumerate(members) if member]
        on = [placed["on_path"][k] for k in part]
        data.append({"hoverinfo": "text",
                     "marker": {"color": colour,
                                "line": {"color": PATH_COLOUR, "width": [3 if p else 0 for p in on]},
                                "size": [14 if p else 10 for p in on]},
                     "mode": "markers+text", "name": kind,
                     "text": [_label(placed["split"][k], [c[k] for c in counts], [c[k] for c in lower],
                                     [c[k] for c in upper], classes, folded[k]) for k in part],
                     "textfont": {"size": 11},
                     "textposition": "middle right" if kind == "leaf" else "top right",
                     "x": _floats([xs_[k] for k in part]), "y": _floats([ys_[k] for k in part]),
                     "type": "scatter"})
    n_leaves = int(max(ys_)) + 1 if ys_ else 1
    depth = int(max(xs_)) if xs_ else 0
    order = " · ".join(classes)
    return _white(data, {
        **({"annotations": annotations} if annotations else {}),
        "xaxis": {"visible": False, "range": [-0.2, depth + 1.1]},
        "yaxis": {"visible": False, "autorange": "reversed"}, "margin": {"l": 10, "r": 10, "t": 70, "b": 10},
        "title": {"text": title or f"Credal decision tree<br><sup>counts n = {order}; leaves with IDM "
                                   "intervals; the instance's path in orange</sup>"},
        "height": max(320, 130 + 62 * n_leaves), "showlegend": False})      # the page names the colours


# paper_001_figures.reject_cost_figure's colours (one per model) and dashes (one per kind of classifier)
_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f")
_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def reject_figure(frame: pd.DataFrame, d: float) -> go.Figure:
    """Expected cost per instance against d (``frame``: ``reject_view``'s), one colour per credal model,
    solid for the credal classifier and dashed for its precise counterpart; the chosen d marked: the
    figure of ``paper_001_figures.reject_cost_figure`` (each kind of classifier its ``dataset``).

    Lines: kinds of classifier in order of first appearance once the credal rows are put first (credal,
    then precise), models in order of first appearance in that order (one colour each), each line's
    points sorted by d; a classifier other than those two is drawn by no line (it takes a dash, as
    ``reject_cost_figure``'s dataset NaN would)."""
    kind = {"credal": "credal", "precise": "precise counterpart"}
    classifiers = frame["classifier"].to_numpy()
    credal = classifiers == "credal"
    order = np.concatenate([np.flatnonzero(credal), np.flatnonzero(~credal)])      # credal first: solid
    names: dict = {}
    datasets: dict = {}
    model_code = [names.setdefault(m, len(names)) for m in frame["model"].to_numpy()[order].tolist()]
    kind_code = [datasets.setdefault(kind.get(c), len(datasets)) for c in classifiers[order].tolist()]
    columns = {c: frame[c].to_numpy(dtype=float) for c in ("d", "cost", "rejected")}
    by_line = np.lexsort((columns["d"][order], model_code, kind_code))      # stable: a line's d in order
    lines, kinds, models = order[by_line], np.asarray(kind_code)[by_line], np.asarray(model_code)[by_line]
    starts = [0, *(np.flatnonzero((np.diff(kinds) != 0) | (np.diff(models) != 0)) + 1).tolist()]
    dataset_of, name_of = list(datasets), list(names)
    data = []
    for start, stop in zip(starts, [*starts[1:], len(lines)]):
        if start == stop:                                                    # an empty frame
            continue
        k, i, rows = int(kinds[start]), int(models[start]), lines[start:stop]
        dataset, name = dataset_of[k], name_of[i]
        if dataset is None:                                                  # neither credal nor precise
            continue
        label = f"{dataset} · {name}"
        data.append({"customdata": _floats(columns["rejected"][rows]),
                     "hovertemplate": "d = %{x:.3f}<br>cost = %{y:.4f}<br>rejected = %{customdata:.1%}"
                                      f"<extra>{label}</extra>",
                     "line": {"color": _COLOURS[i % len(_COLOURS)], "dash": _DASHES[k % len(_DASHES)]},
                     "mode": "lines+markers", "name": label, "x": _floats(columns["d"][rows]),
                     "y": _floats(columns["cost"][rows]), "type": "scatter"})
    layout = {"legend": {"title": {"text": ""}, "orientation": "h", "y": -0.2},
              "margin": {"t": 80, "l": 60, "r": 10, "b": 60},
              "title": {"text": "Expected cost per instance vs the cost d<br><sup>0 right, 1 wrong, d "
                                "rejected; mean over the folds</sup>"},
              "xaxis": {"title": {"text": "rejection cost d"}, "range": [0, 0.5]},
              "yaxis": {"title": {"text": "mean cost per instance"}}, "hovermode": "closest",
              "shapes": [{"line": {"color": "#444444", "dash": "dot"}, "type": "line", "x0": float(d),
                          "x1": float(d), "xref": "x", "y0": 0, "y1": 1, "yref": "y domain"}],
              "height": 480}
    return _white(data, layout)
