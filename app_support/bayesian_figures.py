"""Figures of the Bayesian comparison and of the set-valued baselines (plain plotly builders, no streamlit).

* :func:`simplex_figure` — the posterior of the Bayesian signed-rank test
  (:func:`credal_core.stats_bayesian.signed_rank_test`) in barycentric coordinates: each draw
  :math:`(\\theta_{left}, \\theta_{rope}, \\theta_{right})` is a point of the triangle whose corners are
  "a better", "equivalent" and "b better" (Benavoli et al., JMLR 2017, Fig. 6); the lines from the
  centre split it where each probability is the largest.
* :func:`coverage_determinacy_figure` — one point per classifier: determinacy against coverage (share of
  sets containing the true class), mean ± sd over folds, from a ``summarise_comparison`` table.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

__all__ = ["CORNERS", "simplex_points", "simplex_figure", "coverage_determinacy_figure"]

# corners of the triangle: left (a better), rope (equivalent), right (b better)
CORNERS = np.array([[0.0, 0.0], [0.5, np.sqrt(3) / 2], [1.0, 0.0]])
REGION_COLOURS = ("#1f77b4", "#7f7f7f", "#d62728")


def simplex_points(sample) -> np.ndarray:
    """Plane coordinates (n, 2) of posterior draws (n, 3) = (left, rope, right), each row summing to 1."""
    sample = np.asarray(sample, dtype=float)
    if sample.ndim != 2 or sample.shape[1] != 3:
        raise ValueError(f"sample must have shape (n, 3); got {sample.shape}")
    return sample @ CORNERS


def simplex_figure(sample, names=("a", "b"), *, rope: float | None = None, max_points: int = 3000,
                   title: str = "") -> go.Figure:
    """The posterior draws of a signed-rank test on the simplex, coloured by the largest probability
    (at most ``max_points`` draws, evenly spaced, are drawn)."""
    sample = np.asarray(sample, dtype=float)
    points = simplex_points(sample)
    keep = np.linspace(0, len(points) - 1, min(max_points, len(points))).astype(int) if len(points) else []
    winners = sample.argmax(axis=1) if len(sample) else np.array([], dtype=int)
    shares = np.bincount(winners, minlength=3) / max(len(sample), 1)
    labels = (f"{names[0]} better", "practically equivalent" + (f" (rope ±{rope:g})" if rope else ""),
              f"{names[1]} better")
    fig = go.Figure()
    outline = np.vstack([CORNERS, CORNERS[:1]])
    fig.add_scatter(x=outline[:, 0], y=outline[:, 1], mode="lines", line=dict(color="black", width=1),
                    hoverinfo="skip", showlegend=False)
    centre = CORNERS.mean(axis=0)
    for edge in ((0, 1), (1, 2), (2, 0)):                 # region borders: centre to each edge's middle
        middle = CORNERS[list(edge)].mean(axis=0)
        fig.add_scatter(x=[centre[0], middle[0]], y=[centre[1], middle[1]], mode="lines",
                        line=dict(color="grey", width=1, dash="dot"), hoverinfo="skip", showlegend=False)
    for region in range(3):
        chosen = [i for i in keep if winners[i] == region]
        fig.add_scatter(x=points[chosen, 0], y=points[chosen, 1], mode="markers",
                        marker=dict(size=3, color=REGION_COLOURS[region], opacity=0.5),
                        name=f"{labels[region]}: P = {shares[region]:.3f}", hoverinfo="skip")
    for corner, label, shift in zip(CORNERS, labels, (-0.04, 0.05, -0.04)):
        fig.add_annotation(x=corner[0], y=corner[1] + shift, text=label, showarrow=False)
    fig.update_layout(title=title or f"Bayesian signed-rank test: {names[0]} vs {names[1]} (posterior draws)",
                      xaxis=dict(visible=False, range=[-0.15, 1.15]),
                      yaxis=dict(visible=False, range=[-0.1, 1.0], scaleanchor="x"),
                      template="plotly_white", height=460, legend=dict(orientation="h", y=-0.05))
    return fig


def coverage_determinacy_figure(summary: pd.DataFrame, title: str = "") -> go.Figure:
    """Determinacy (x) against coverage (y) per classifier, in %, ± one standard deviation over folds
    (the summary's ``determinacy_*`` and ``coverage_*`` columns)."""
    fig = go.Figure()
    for row in summary.itertuples(index=False):
        fig.add_scatter(x=[100 * row.determinacy_mean], y=[100 * row.coverage_mean], mode="markers+text",
                        name=row.classifier, text=[row.classifier], textposition="top center",
                        marker=dict(size=12),
                        error_x=dict(type="data", array=[100 * np.nan_to_num(row.determinacy_std)],
                                     thickness=1),
                        error_y=dict(type="data", array=[100 * np.nan_to_num(row.coverage_std)], thickness=1),
                        hovertemplate="determinacy %{x:.1f}%<br>coverage %{y:.1f}%<extra>"
                                      + str(row.classifier) + "</extra>")
    fig.update_layout(title=title or "Coverage against determinacy (mean ± sd over folds)",
                      xaxis=dict(title="determinacy (%)"), yaxis=dict(title="coverage (%)"),
                      template="plotly_white", height=440, showlegend=False)
    return fig
