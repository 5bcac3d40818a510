"""Plotly figures of the "Profile likelihood" page (000 Fig. 2 / Fig. 3, 003 Example 1).

Plain builders: they take arrays and numbers computed by ``credal_core``, return ``go.Figure``, never
import streamlit and do no credal mathematics (the only computation here is which sampled points lie
above a horizontal line, to colour them).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

CLOUD_OUT = "rgba(120, 130, 150, 0.30)"   # sampled NBCs below the α-cut
CLOUD_IN = "rgba(76, 120, 168, 0.75)"     # sampled NBCs kept by the LNCC (likelihood ≥ α)
ENVELOPE = "#1f2937"
CUT_COLOURS = {"c": "#2e7d32", "not c": "#c62828", "both": "#ef6c00"}


def _base_layout(fig: go.Figure, title: str, x_title: str, y_title: str, height: int) -> None:
    fig.update_layout(
        title=dict(text=title, x=0, xanchor="left"),
        xaxis=dict(title=x_title, range=[-0.01, 1.01], zeroline=False),
        yaxis=dict(title=y_title, range=[0, 1.07], zeroline=False),
        legend=dict(orientation="h", y=-0.18, yanchor="top", x=0, xanchor="left"),
        margin=dict(l=10, r=10, t=50, b=10),
        height=height,
        hovermode="closest",
    )


def _cloud_traces(fig: go.Figure, x, y, level: float, label_in: str, label_out: str, hover: str) -> None:
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    kept = y >= level
    for mask, colour, name in ((~kept, CLOUD_OUT, label_out), (kept, CLOUD_IN, label_in)):
        fig.add_scatter(
            x=x[mask], y=y[mask], mode="markers", name=name,
            marker=dict(size=4, color=colour, line=dict(width=0)),
            hovertemplate=hover + "<extra></extra>",
        )


def _cut_traces(fig: go.Figure, level: float, exact_cut, sample_cut, colour: str, symbol: str) -> None:
    """The horizontal line at the cut level, its exact range (thick) and the sample's range (thin)."""
    fig.add_hline(y=level, line=dict(color=colour, width=1, dash="dot"))
    lo, hi = exact_cut
    fig.add_scatter(
        x=[lo, hi], y=[level, level], mode="lines+markers", name=f"{symbol}-cut of the envelope (exact)",
        line=dict(color=colour, width=7),
        marker=dict(size=11, symbol="line-ns", line=dict(width=3, color=colour)),
        opacity=0.55, hovertemplate=f"{symbol}-cut: [{lo:.4f}, {hi:.4f}]<extra></extra>",
    )
    if sample_cut is not None:
        slo, shi = sample_cut
        fig.add_scatter(
            x=[slo, shi], y=[level, level], mode="lines", name=f"{symbol}-cut of the sample",
            line=dict(color="black", width=2),
            hovertemplate=f"sample {symbol}-cut: [{slo:.4f}, {shi:.4f}]<extra></extra>",
        )


def sample_cut(x, y, level: float) -> tuple[float, float] | None:
    """Range of ``x`` over the sampled points with ``y >= level`` (None if no point reaches it)."""
    x = np.asarray(x, float)
    kept = np.asarray(y, float) >= level
    if not kept.any():
        return None
    return float(x[kept].min()), float(x[kept].max())


def pair_profile_figure(
    curve_posterior, curve_likelihood, cloud_posterior, cloud_likelihood, *,
    alpha: float, alpha_cut: tuple[float, float], verdict: str, title: str = "", height: int = 520,
    other_curve: tuple | None = None, other_name: str = "",
) -> go.Figure:
    """000 Fig. 2: the Monte Carlo cloud of (P_θ(c|f̃), lik(θ)), the exact envelope, the line 1/2, the α-cut.

    ``verdict`` is ``"c"``, ``"not c"`` or ``"both"``: the set the LNCC returns at ``alpha``; it colours
    the cut. ``other_curve`` (posterior, likelihood), if given, is drawn faint and dashed for comparison
    (000 Fig. 3: the profile with and without the instance).
    """
    fig = go.Figure()
    if other_curve is not None:
        fig.add_scatter(
            x=np.asarray(other_curve[0], float), y=np.asarray(other_curve[1], float), mode="lines",
            name=other_name or "comparison", line=dict(color="#9aa3ad", width=1.5, dash="dash"),
            hovertemplate="P(c|f̃) = %{x:.4f}<br>L = %{y:.4f}<extra>comparison</extra>",
        )
    _cloud_traces(fig, cloud_posterior, cloud_likelihood, alpha,
                  label_in="sampled NBCs with lik ≥ α (kept)", label_out="sampled NBCs with lik < α",
                  hover="P(c|f̃) = %{x:.4f}<br>lik = %{y:.4f}")
    fig.add_scatter(
        x=np.asarray(curve_posterior, float), y=np.asarray(curve_likelihood, float), mode="lines",
        name="profile likelihood (exact upper envelope)", line=dict(color=ENVELOPE, width=2.5),
        hovertemplate="P(c|f̃) = %{x:.4f}<br>L = %{y:.4f}<extra>envelope</extra>",
    )
    fig.add_vline(x=0.5, line=dict(color="#555", width=1.5, dash="dash"))
    for x, text in ((0.25, "¬c more probable"), (0.75, "c more probable")):
        fig.add_annotation(x=x, y=1.05, text=text, showarrow=False, font=dict(color="#555", size=13))
    _cut_traces(fig, alpha, alpha_cut, sample_cut(cloud_posterior, cloud_likelihood, alpha),
                CUT_COLOURS.get(verdict, CUT_COLOURS["both"]), "α")
    _base_layout(fig, title, "posterior P(c | f̃)", "normalised likelihood", height)
    return fig


def multinomial_figure(
    gamma, profile, cloud_g, cloud_likelihood, *, beta: float, interval: tuple[float, float],
    mle: float, title: str = "", height: int = 520,
) -> go.Figure:
    """003 Example 1: the Monte Carlo cloud of (g(θ), lik(θ)), the profile lik_g, the β-cut interval."""
    fig = go.Figure()
    _cloud_traces(fig, cloud_g, cloud_likelihood, beta,
                  label_in="sampled θ with lik ≥ β", label_out="sampled θ with lik < β",
                  hover="g = %{x:.4f}<br>lik = %{y:.4f}")
    fig.add_scatter(
        x=np.asarray(gamma, float), y=np.asarray(profile, float), mode="lines",
        name="profile likelihood lik_g (exact)", line=dict(color=ENVELOPE, width=2.5),
        hovertemplate="γ = %{x:.4f}<br>lik_g = %{y:.4f}<extra>profile</extra>",
    )
    fig.add_vline(x=mle, line=dict(color="#555", width=1.5, dash="dash"))
    fig.add_annotation(x=mle, y=1.05, text=f"γ̂ = {mle:.4f}", showarrow=False,
                       font=dict(color="#555", size=13))
    _cut_traces(fig, beta, interval, sample_cut(cloud_g, cloud_likelihood, beta), CUT_COLOURS["c"], "β")
    _base_layout(fig, title, "γ = g(θ) = θ_a + θ_b", "normalised likelihood", height)
    return fig
