"""Figures of the page "Credal model averaging, trees and the reject option" (plotly, no streamlit).

* :func:`inclusion_figure` — CMA's posterior probability of inclusion of each feature: BMA's value at
  t = 1/2 and the interval over the credal set of priors (``CMA.inclusion_interval_``);
* :func:`spode_weights_figure` — BMA-AODE's and COMP-AODE's weight of each SPODE (super-parent);
* :func:`tree_figure` — a credal decision tree drawn left to right from ``tree_frame``: splits with
  their counts, leaves with their IDM intervals, an instance's path highlighted, deeper nodes folded;
* :func:`reject_figure` — expected cost against d (``paper_001_figures.reject_cost_figure``) with the
  chosen d marked.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from app_support.paper_001_figures import reject_cost_figure

__all__ = ["inclusion_figure", "spode_weights_figure", "tree_layout", "tree_figure", "reject_figure",
           "node_label"]

ELBOW = 0.45                   # where an edge turns, as a share of one level
PATH_COLOUR, NODE_COLOUR, LEAF_COLOUR, FOLDED_COLOUR = "#d55e00", "#0072b2", "#009e73", "#999999"


def inclusion_figure(frame: pd.DataFrame) -> go.Figure:
    """One row per feature: the interval [lower, upper] of its posterior inclusion probability over CMA's
    credal set (a bar), BMA's value at t = 1/2 (a dot). ``frame``: feature, bma, lower, upper."""
    fig = go.Figure()
    fig.add_bar(y=frame["feature"], x=frame["upper"] - frame["lower"], base=frame["lower"], orientation="h",
                marker_color="#56b4e9", name="CMA: interval over the priors",
                hovertemplate="%{y}: [%{base:.3f}, %{x:.3f} wide]<extra>CMA</extra>")
    fig.add_scatter(y=frame["feature"], x=frame["bma"], mode="markers", name="BMA (t = 1/2)",
                    marker=dict(color="#000000", size=9, symbol="diamond"),
                    hovertemplate="%{y}: %{x:.3f}<extra>BMA</extra>")
    fig.update_layout(title="CMA: P(feature in the model | data)<br><sup>interval over the priors; BMA's "
                            "value at t = 1/2</sup>",
                      xaxis=dict(range=[0, 1]),
                      yaxis=dict(autorange="reversed"), template="plotly_white",
                      height=max(330, 120 + 34 * len(frame)), legend=dict(orientation="h", y=-0.22,
                                                                          yanchor="top"),
                      margin=dict(l=10, r=10, t=70, b=90))
    return fig


def spode_weights_figure(table: pd.DataFrame) -> go.Figure:
    """BMA-AODE's and COMP-AODE's weight of each SPODE (``spode_table``'s super_parent, bma_weight,
    comp_weight), one row per super-parent feature."""
    fig = go.Figure()
    for column, name, colour in (("bma_weight", "BMA-AODE", "#0072b2"),
                                 ("comp_weight", "COMP-AODE", "#e69f00")):
        fig.add_bar(y=table["super_parent"], x=table[column], orientation="h", name=name, marker_color=colour,
                    hovertemplate="%{y}: %{x:.3f}<extra>" + name + "</extra>")
    fig.update_layout(title="AODE: weight of each SPODE<br><sup>super-parent feature; BMA vs compression"
                            "</sup>", barmode="group", xaxis=dict(range=[0, 1]),
                      yaxis=dict(autorange="reversed"), template="plotly_white",
                      height=max(330, 120 + 34 * len(table)), legend=dict(orientation="h", y=-0.22,
                                                                          yanchor="top"),
                      margin=dict(l=10, r=10, t=70, b=90))
    return fig


def _classes(frame: pd.DataFrame) -> list[str]:
    return [c[2:-1] for c in frame.columns if c.startswith("n(")]


def _is_leaf(value) -> bool:
    return value is None or (isinstance(value, float) and np.isnan(value))


def node_label(row, classes: list[str], folded: bool) -> str:
    """A node's text: its split (or, for a leaf, the IDM interval of each class) and its counts."""
    counts = " · ".join(f"{n:g}" for n in row.counts)       # in the order of ``classes`` (the title's)
    if not _is_leaf(row.split):
        return f"<b>{row.split}</b>{' …' if folded else ''}<br>n = {counts}"
    intervals = "<br>".join(f"{c} [{lo:.2f}, {hi:.2f}]" for c, lo, hi in zip(classes, row.lower, row.upper))
    return f"leaf, n = {counts}<br>{intervals}"


def tree_layout(frame: pd.DataFrame, max_depth: int, path=()) -> pd.DataFrame:
    """The visible nodes (depth ≤ ``max_depth``, and every node of ``path``) with plane positions: x =
    depth, y = the order of the visible leaves (a parent at the mean of its children); ``folded`` marks
    a split whose children are hidden."""
    path = set(int(p) for p in path)
    visible = frame[(frame["depth"] <= max_depth) | frame["node"].isin(path)]
    shown = set(visible["node"].astype(int))
    children = {int(n): [int(c) for c in visible.loc[visible["parent"] == n, "node"]] for n in shown}
    y: dict[int, float] = {}
    counter = [0]

    def place(node: int) -> float:
        kids = children[node]
        if not kids:
            y[node] = counter[0]
            counter[0] += 1
        else:
            y[node] = float(np.mean([place(k) for k in kids]))
        return y[node]

    root = int(frame.loc[frame["parent"] < 0, "node"].iloc[0])
    place(root)
    out = visible.copy()
    out["x"] = out["depth"].astype(float)
    out["y"] = [y[int(n)] for n in out["node"]]
    out["folded"] = [not _is_leaf(s) and not children[int(n)] for n, s in zip(out["node"], out["split"])]
    out["on_path"] = out["node"].isin(path)
    return out


def tree_figure(frame: pd.DataFrame, *, max_depth: int = 3, path=(), title: str = "") -> go.Figure:
    """The tree left to right; ``frame`` is ``CredalDecisionTree.tree_frame()``. Edges are labelled by
    the value leading to the child; ``path`` (node ids from the root) is drawn in orange."""
    classes = _classes(frame)
    layout = tree_layout(frame, max_depth, path)
    rows = layout.assign(counts=list(layout[[f"n({c})" for c in classes]].to_numpy()),
                         lower=list(layout[[f"lower({c})" for c in classes]].to_numpy()),
                         upper=list(layout[[f"upper({c})" for c in classes]].to_numpy()))
    where = {int(n): (x, y) for n, x, y in zip(rows["node"], rows["x"], rows["y"])}
    fig = go.Figure()
    for on_path in (False, True):
        xs, ys = [], []
        for row in rows[rows["parent"] >= 0].itertuples(index=False):
            if bool(row.on_path and int(row.parent) in set(int(p) for p in path)) != on_path:
                continue
            (x0, y0), (x1, y1) = where[int(row.parent)], where[int(row.node)]
            xs += [x0, x0 + ELBOW, x0 + ELBOW, x1, None]
            ys += [y0, y0, y1, y1, None]
        fig.add_scatter(x=xs, y=ys, mode="lines", hoverinfo="skip", showlegend=False,
                        line=dict(color=PATH_COLOUR if on_path else "#bbbbbb", width=3 if on_path else 1))
    for row in rows[rows["parent"] >= 0].itertuples(index=False):
        x1, y1 = where[int(row.node)]
        fig.add_annotation(x=x1, y=y1, text=str(row.value).split(" = ", 1)[-1], xanchor="right",
                           showarrow=False, xshift=-9, yshift=9, font=dict(size=11, color="#444444"))
    for kind, colour, mask in (("split", NODE_COLOUR, ~rows["split"].map(_is_leaf) & ~rows["folded"]),
                               ("folded split", FOLDED_COLOUR, rows["folded"]),
                               ("leaf", LEAF_COLOUR, rows["split"].map(_is_leaf))):
        part = rows[mask]
        fig.add_scatter(x=part["x"], y=part["y"], mode="markers+text", name=kind,
                        text=[node_label(r, classes, bool(r.folded)) for r in part.itertuples(index=False)],
                        textposition="middle right" if kind == "leaf" else "top right",
                        textfont=dict(size=11),
                        marker=dict(size=[14 if p else 10 for p in part["on_path"]], color=colour,
                                    line=dict(width=[3 if p else 0 for p in part["on_path"]],
                                              color=PATH_COLOUR)),
                        hoverinfo="text")
    n_leaves = int(rows["y"].max()) + 1 if len(rows) else 1
    depth = int(rows["x"].max()) if len(rows) else 0
    order = " · ".join(classes)
    fig.update_layout(title=title or f"Credal decision tree<br><sup>counts n = {order}; leaves with IDM "
                                     "intervals; the instance's path in orange</sup>",
                      xaxis=dict(visible=False, range=[-0.2, depth + 1.1]),
                      yaxis=dict(visible=False, autorange="reversed"), template="plotly_white",
                      height=max(320, 130 + 62 * n_leaves), showlegend=False,     # the page names the colours
                      margin=dict(l=10, r=10, t=70, b=10))
    return fig


def reject_figure(frame: pd.DataFrame, d: float) -> go.Figure:
    """Expected cost per instance against d (``frame``: ``reject_view``'s), one colour per credal model,
    solid for the credal classifier and dashed for its precise counterpart; the chosen d marked."""
    kind = {"credal": "credal", "precise": "precise counterpart"}
    ordered = frame.sort_values("classifier", key=lambda c: c != "credal", kind="stable")   # credal: solid
    fig = reject_cost_figure(ordered.assign(classifier=ordered["model"],
                                            dataset=ordered["classifier"].map(kind)),
                             title="Expected cost per instance vs the cost d<br><sup>0 right, 1 wrong, d "
                                   "rejected; mean over the folds</sup>")
    fig.add_vline(x=float(d), line=dict(color="#444444", dash="dot"))
    fig.update_layout(template="plotly_white", height=480, legend=dict(orientation="h", y=-0.2),
                      legend_title_text="", margin=dict(l=60, r=10, t=80, b=60))
    return fig
