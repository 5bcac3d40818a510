"""Plotly figure of the "Profile likelihood in a network" page: the curve, its β-region, the MLE and
Theorem 1's α-path (plain builder: arrays in, figure out; no streamlit, no credal mathematics).  The
points are sent as plotly's typed arrays of float64 (the exact values, a third of their decimal text's
bytes and encoded once: the figure is cached per setting and β)."""
from __future__ import annotations

import numpy as np

from app_support.figures import DeclaredFigure, typed_array

CURVE = "#1f2937"
PATH = "#4c78a8"
REGION = "rgba(46, 125, 50, 0.15)"


def profile_figure(gamma, likelihood, path_gamma, path_lik, region, mle, beta, *, title: str,
                   height: int = 420) -> DeclaredFigure:
    gamma, likelihood = np.asarray(gamma, float), np.asarray(likelihood, float)
    pg, pl = np.asarray(path_gamma, float), np.asarray(path_lik, float)
    keep = np.isfinite(pg) & (pg > 0)
    lo, hi = float(gamma.min()), float(gamma.max())
    r_lo = max(region[0], lo) if np.isfinite(region[0]) else lo
    r_hi = min(region[1], hi) if np.isfinite(region[1]) else hi
    traces = [
        dict(x=typed_array(gamma), y=typed_array(likelihood), mode="lines",
             name="profile likelihood lik_g(γ)", line=dict(color=CURVE, width=2)),
        dict(x=typed_array(pg[keep]), y=typed_array(pl[keep]), mode="markers",
             name="Theorem 1: (g(θ[α]), lik(θ[α]))", marker=dict(color=PATH, size=6)),
    ]
    shapes = [
        dict(type="rect", xref="x", yref="paper", x0=r_lo, x1=r_hi, y0=0, y1=1, fillcolor=REGION,
             line=dict(width=0), layer="below"),
        dict(type="line", xref="paper", x0=0, x1=1, y0=beta, y1=beta,
             line=dict(color="#2e7d32", dash="dot")),
        dict(type="line", xref="x", yref="paper", x0=1, x1=1, y0=0, y1=1,
             line=dict(color="#888", dash="dash")),
    ]
    annotations = [dict(x=np.log10(r_hi), y=beta, xref="x", yref="y", text=f"β = {beta:g}",
                        showarrow=False, xanchor="left", yanchor="bottom")]
    if np.isfinite(mle) and mle > 0:
        shapes.append(dict(type="line", xref="x", yref="paper", x0=mle, x1=mle, y0=0, y1=1,
                           line=dict(color=CURVE, dash="dot")))
    layout = dict(
        title=dict(text=title, x=0, xanchor="left"),
        xaxis=dict(title=dict(text="γ = P(a, rest) / P(b, rest)  (log scale)"), type="log",
                   range=[np.log10(lo), np.log10(hi)]),
        yaxis=dict(title=dict(text="normalised profile likelihood"), range=[0, 1.05]),
        legend=dict(orientation="h", y=-0.2, yanchor="top", x=0, xanchor="left"),
        margin=dict(l=10, r=10, t=50, b=10), height=height, shapes=shapes, annotations=annotations,
    )
    return DeclaredFigure([dict(type="scatter", **t) for t in traces], layout)
