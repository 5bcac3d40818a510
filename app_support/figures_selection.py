"""Plotly figures of the page "Classifier selection" (paper 004): plain functions, no streamlit."""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

# outcome of a training instance -> (legend label, colour); colour-blind-safe (Okabe-Ito)
OUTCOMES = {
    "both right": ("both right", "#009E73"),
    "only C1": ("only C1 right", "#0072B2"),
    "only C2": ("only C2 right", "#E69F00"),
    "neither": ("neither right", "#D55E00"),
}
NEIGHBOUR_STYLE = {
    "euclidean": ("k nearest (Euclidean)", "diamond-open", "#2CA02C", 20),
    "chebyshev": ("k nearest (Chebyshev)", "star-open", "#9467BD", 26),
}
CURVE_STYLE = {
    "C1": ("#7B3294", "solid"),
    "C2": ("#F28E2B", "solid"),
    "selector (Euclidean)": ("#2CA02C", "solid"),
    "selector (Chebyshev)": ("#E377C2", "dash"),
}


def _stacked(points: pd.DataFrame) -> pd.DataFrame:
    """Identical points merged (categorical data repeat them): x, y, count."""
    return (points.groupby(["threshold_1", "threshold_2"], sort=True).size()
            .rename("count").reset_index())


def _size(count: np.ndarray) -> np.ndarray:
    return 7 + 4 * np.sqrt(np.asarray(count, dtype=float) - 1)


def threshold_plane_figure(training: pd.DataFrame, *, test_point=None, neighbours: dict | None = None,
                           k: int | None = None, test_label: str = "test instance") -> go.Figure:
    """The threshold plane (004 Fig. 2): training points by outcome, a test point and its neighbours.

    Parameters
    ----------
    training : DataFrame with ``threshold_1``, ``threshold_2``, ``outcome`` (keys of OUTCOMES).
    test_point : (x, y) or None
    neighbours : {"euclidean" | "chebyshev": sequence of training row positions}
    k : the number of neighbours (for the legend)
    """
    fig = go.Figure()
    for outcome, (label, colour) in OUTCOMES.items():
        pts = _stacked(training[training["outcome"] == outcome])
        if pts.empty:
            continue
        fig.add_trace(go.Scatter(
            x=pts["threshold_1"], y=pts["threshold_2"], mode="markers", name=label, meta=outcome,
            marker={"color": colour, "size": _size(pts["count"]), "opacity": 0.8,
                    "line": {"width": 0.5, "color": "white"}},
            customdata=pts["count"],
            hovertemplate=(f"{label}<br>threshold C1 = %{{x:.4f}}<br>threshold C2 = %{{y:.4f}}"
                           "<br>%{customdata} training row(s)<extra></extra>"),
        ))
    for distance, rows in (neighbours or {}).items():
        label, symbol, colour, size = NEIGHBOUR_STYLE[distance]
        pts = _stacked(training.iloc[list(rows)])
        fig.add_trace(go.Scatter(
            x=pts["threshold_1"], y=pts["threshold_2"], mode="markers", meta=f"neighbours-{distance}",
            name=label if k is None else f"{label}, k = {k}",
            marker={"symbol": symbol, "size": size, "color": colour, "line": {"width": 2, "color": colour}},
            customdata=pts["count"],
            hovertemplate=f"{label}<br>%{{customdata}} neighbour row(s) here<extra></extra>",
        ))
    if test_point is not None:
        fig.add_trace(go.Scatter(
            x=[float(test_point[0])], y=[float(test_point[1])], mode="markers", name=test_label,
            meta="test", marker={"color": "red", "size": 14, "symbol": "circle",
                                 "line": {"width": 1.5, "color": "black"}},
            hovertemplate=("test instance<br>threshold C1 = %{x:.4f}<br>threshold C2 = %{y:.4f}"
                           "<extra></extra>"),
        ))
    fig.update_layout(
        xaxis_title="critical threshold of C1 (largest s keeping C1's NCC determinate)",
        yaxis_title="critical threshold of C2",
        legend={"orientation": "h", "y": -0.2}, margin={"t": 30, "l": 10, "r": 10}, height=560,
    )
    return fig


def accuracy_vs_k_figure(table: pd.DataFrame, *, k: int | None = None,
                         paper: dict | None = None) -> go.Figure:
    """Accuracy of C1, C2 and the two selectors vs k (004 Fig. 3) from a tidy accuracy_vs_k table.

    ``paper``: optional ``{"k": ..., classifier: accuracy}`` points printed in the paper, drawn as
    crosses; ``k``: the current k, drawn as a vertical line.
    """
    fig = go.Figure()
    for name, group in table.groupby("classifier", sort=False):
        colour, dash = CURVE_STYLE.get(name, ("#444444", "solid"))
        is_selector = name.startswith("selector")
        fig.add_trace(go.Scatter(
            x=group["k"], y=group["accuracy"], name=name, meta=name, mode="lines+markers" if is_selector
            else "lines", line={"color": colour, "dash": dash},
            hovertemplate=f"{name}<br>k = %{{x}}<br>accuracy = %{{y:.4f}}<extra></extra>",
        ))
    if paper:
        names = [c for c in paper if c != "k"]
        fig.add_trace(go.Scatter(
            x=[paper["k"]] * len(names), y=[paper[c] for c in names], mode="markers", meta="paper",
            name="004 Example 4 (peak, k = 3)", marker={"symbol": "x", "size": 11, "color": "black"},
            text=names, hovertemplate="004: %{text}<br>accuracy = %{y:.6f}<extra></extra>",
        ))
    if k is not None:
        fig.add_vline(x=k, line_dash="dot", line_color="grey", annotation_text=f"k = {k}")
    fig.update_layout(xaxis_title="k (number of nearest training points)", yaxis_title="test accuracy",
                      legend={"orientation": "h", "y": -0.25}, margin={"t": 30, "l": 10, "r": 10},
                      height=440)
    return fig
