"""Plotly figures of the page "Classifier selection" (paper 004): plain functions, no streamlit."""
from __future__ import annotations

import numpy as np
import pandas as pd

from app_support.figures import DeclaredFigure
from app_support.text import cite_plain

# outcome of a training instance -> (legend label, colour); colour-blind-safe (Okabe-Ito), and each its own
# marker shape, so that no two outcomes differ by hue alone (orange and vermillion did: issue 24)
OUTCOMES = {
    "both right": ("both right", "#009E73"),
    "only C1": ("only C1 right", "#0072B2"),
    "only C2": ("only C2 right", "#E69F00"),
    "neither": ("neither right", "#CC79A7"),
}
OUTCOME_SYMBOLS = {"both right": "circle", "only C1": "square", "only C2": "diamond", "neither": "x"}
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


def _stacked(xy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Identical points (rows of ``xy``) merged (categorical data repeat them): x, y, count, sorted by
    (x, y)."""
    unique, count = np.unique(xy.reshape(-1, 2), axis=0, return_counts=True)
    return unique[:, 0], unique[:, 1], count


def _size(count: np.ndarray) -> np.ndarray:
    return 7 + 4 * np.sqrt(np.asarray(count, dtype=float) - 1)


def threshold_plane_figure(training: pd.DataFrame, *, test_point=None, neighbours: dict | None = None,
                           k: int | None = None, test_label: str = "test instance") -> DeclaredFigure:
    """The threshold plane (004 Fig. 2): training points by outcome, a test point and its neighbours.

    Declared in one piece (plain dicts): the page builds one per k and instance.

    Parameters
    ----------
    training : DataFrame with ``threshold_1``, ``threshold_2``, ``outcome`` (keys of OUTCOMES).
    test_point : (x, y) or None
    neighbours : {"euclidean" | "chebyshev": sequence of training row positions}
    k : the number of neighbours (for the legend)
    """
    traces = []
    xy = training[["threshold_1", "threshold_2"]].to_numpy(dtype=float).reshape(-1, 2)
    outcomes = training["outcome"].to_numpy()
    for outcome, (label, colour) in OUTCOMES.items():
        x, y, count = _stacked(xy[outcomes == outcome])
        if not count.size:
            continue
        traces.append(dict(
            type="scatter", x=x.tolist(), y=y.tolist(), mode="markers", name=label, meta=outcome,
            marker={"color": colour, "size": _size(count).tolist(), "opacity": 0.8,
                    "symbol": OUTCOME_SYMBOLS[outcome],
                    "line": {"width": 0.5, "color": "white"}},
            customdata=count.tolist(),
            hovertemplate=(f"{label}<br>threshold C1 = %{{x:.4f}}<br>threshold C2 = %{{y:.4f}}"
                           "<br>%{customdata} training row(s)<extra></extra>"),
        ))
    for distance, rows in (neighbours or {}).items():
        label, symbol, colour, size = NEIGHBOUR_STYLE[distance]
        x, y, count = _stacked(xy[np.asarray(rows, dtype=np.int64)])
        traces.append(dict(
            type="scatter", x=x.tolist(), y=y.tolist(), mode="markers", meta=f"neighbours-{distance}",
            name=label if k is None else f"{label}, k = {k}",
            marker={"symbol": symbol, "size": size, "color": colour, "line": {"width": 2, "color": colour}},
            customdata=count.tolist(),
            hovertemplate=f"{label}<br>%{{customdata}} neighbour row(s) here<extra></extra>",
        ))
    if test_point is not None:
        traces.append(dict(
            type="scatter", x=[float(test_point[0])], y=[float(test_point[1])], mode="markers",
            name=test_label, meta="test", marker={"color": "red", "size": 14, "symbol": "circle",
                                                  "line": {"width": 1.5, "color": "black"}},
            hovertemplate=("test instance<br>threshold C1 = %{x:.4f}<br>threshold C2 = %{y:.4f}"
                           "<extra></extra>"),
        ))
    layout = dict(
        xaxis={"title": {"text": "critical threshold of C1 (largest s keeping C1's NCC determinate)"}},
        yaxis={"title": {"text": "critical threshold of C2"}},
        legend={"orientation": "h", "y": -0.2}, margin={"t": 30, "l": 10, "r": 10}, height=560,
    )
    return DeclaredFigure(traces, layout)


def accuracy_vs_k_figure(table: pd.DataFrame, *, k: int | None = None,
                         paper: dict | None = None) -> DeclaredFigure:
    """Accuracy of C1, C2 and the two selectors vs k (004 Fig. 3) from a tidy accuracy_vs_k table.

    ``paper``: optional ``{"k": ..., classifier: accuracy}`` points printed in the paper, drawn as
    crosses; ``k``: the current k, drawn as a vertical line (:func:`with_k_line`).
    """
    traces = []
    for name, group in table.groupby("classifier", sort=False):
        colour, dash = CURVE_STYLE.get(name, ("#444444", "solid"))
        is_selector = name.startswith("selector")
        traces.append(dict(
            type="scatter", x=group["k"].tolist(), y=group["accuracy"].astype(float).tolist(), name=name,
            meta=name, mode="lines+markers" if is_selector else "lines", line={"color": colour, "dash": dash},
            hovertemplate=f"{name}<br>k = %{{x}}<br>accuracy = %{{y:.4f}}<extra></extra>",
        ))
    if paper:
        names = [c for c in paper if c != "k"]
        traces.append(dict(
            type="scatter", x=[paper["k"]] * len(names), y=[paper[c] for c in names], mode="markers",
            meta="paper", name=cite_plain("peak, k = 3, in 004 Example 4"),
            marker={"symbol": "x", "size": 11, "color": "black"},
            text=names,
            hovertemplate=cite_plain("in 004") + ": %{text}<br>accuracy = %{y:.6f}<extra></extra>",
        ))
    layout = dict(xaxis={"title": {"text": "k (number of nearest training points)"}},
                  yaxis={"title": {"text": "test accuracy"}},
                  legend={"orientation": "h", "y": -0.25}, margin={"t": 30, "l": 10, "r": 10}, height=440)
    figure = DeclaredFigure(traces, layout)
    return figure if k is None else with_k_line(figure, k)


def with_k_line(figure: DeclaredFigure, k: int) -> DeclaredFigure:
    """``figure`` (of :func:`accuracy_vs_k_figure`) with the current k as a dotted vertical line and its
    label (what plotly's ``add_vline`` adds); the traces are shared, not copied."""
    spec = figure.to_dict()
    layout = {name: value for name, value in spec["layout"].items() if name != "template"}
    layout["shapes"] = [{"line": {"color": "grey", "dash": "dot"}, "type": "line", "x0": k, "x1": k,
                         "xref": "x", "y0": 0, "y1": 1, "yref": "y domain"}]
    layout["annotations"] = [{"showarrow": False, "text": f"k = {k}", "x": k, "xanchor": "left", "xref": "x",
                              "y": 1, "yanchor": "top", "yref": "y domain"}]
    return DeclaredFigure(spec["data"], layout)


# ---------------------------------------------------------------- the decision and the curve in words
DISTANCE_LABELS = {"euclidean": "Euclidean", "chebyshev": "Chebyshev"}


def decision_text(chosen: pd.Series, *, distance: str, k: int, n_train: int, described: str,
                  truth: str | None) -> str:
    """The selector's decision on one instance in words (``chosen``: a row of ``explain``)."""
    kk = min(k, n_train)          # a k above the number of training rows uses them all
    n1, n2, used = int(chosen["hits_1"]), int(chosen["hits_2"]), int(chosen["n_neighbours"])
    verdict = (f"C2 was right more often ({n2} of {used} against {n1}), so the selector uses **C2**"
               if chosen["chosen"] == "C2" else
               f"C1 was right at least as often ({n1} of {used} against {n2} for C2; ties go to C1), so "
               "the selector uses **C1**")
    tied = sum(d == chosen["distances"][-1] for d in chosen["distances"])
    neighbourhood = f"its {kk} nearest training points ({DISTANCE_LABELS[distance]} distance"
    neighbourhood += ")" if used == kk else (f"; {used} rows, because {tied} of them tie at the distance of "
                                             f"neighbour number {kk} and all of them count)")
    truth_text = "" if truth is None else (f" The true class is **{truth}**: the selector is "
                                           f"{'right' if str(chosen['prediction']) == truth else 'wrong'}.")
    return (f"**The instance** ({described}) has critical thresholds **s₁ = {chosen['threshold_1']:.4f}** "
            f"for C1 (which predicts **{chosen['prediction_1']}**) and **s₂ = {chosen['threshold_2']:.4f}** "
            f"for C2 (which predicts **{chosen['prediction_2']}**). Among {neighbourhood} {verdict}: the "
            f"prediction is **{chosen['prediction']}**.{truth_text}")


def neighbour_table(info: dict[str, pd.Series]) -> pd.DataFrame:
    """Both selectors' neighbourhoods and choices side by side (one row per distance)."""
    return pd.DataFrame({
        "distance": [DISTANCE_LABELS[d] for d in info],
        "C1 right on neighbours": [f"{i['success_1']:.0%}" for i in info.values()],
        "C2 right on neighbours": [f"{i['success_2']:.0%}" for i in info.values()],
        "neighbours used": [int(i["n_neighbours"]) for i in info.values()],
        "classifier used": [i["chosen"] for i in info.values()],
        "prediction": [str(i["prediction"]) for i in info.values()],
        "neighbour rows (training positions)": [", ".join(map(str, i["neighbours"])) for i in info.values()],
    }).set_index("distance")


def curve_text(curve: pd.DataFrame, runs: int, is_paper: bool) -> str:
    """004 Fig. 3's peaks in words."""
    acc = curve.pivot(index="k", columns="classifier", values="accuracy")
    best_k = {c: int(acc[c].idxmax()) for c in ("selector (Euclidean)", "selector (Chebyshev)")}
    return (f"Over {runs} splits: C1 **{acc['C1'].iloc[0]:.4f}**, C2 **{acc['C2'].iloc[0]:.4f}**; the "
            f"Euclidean selector peaks at k = {best_k['selector (Euclidean)']} "
            f"(**{acc['selector (Euclidean)'].max():.4f}**), the Chebyshev one at k = "
            f"{best_k['selector (Chebyshev)']} (**{acc['selector (Chebyshev)'].max():.4f}**)."
            + (" 004 reports C1 0.776502, C2 0.746948 and, at k = 3, 0.788961 (Euclidean) and 0.788485 "
               "(Chebyshev); its splits are not published, so only the pattern can be compared."
               if is_paper else ""))
