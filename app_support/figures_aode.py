"""Plotly figure builders for the page "AODE compression weights" (paper 001).

Plain functions: they take tables/arrays, return ``go.Figure`` (or text tables), never import streamlit
and do no credal mathematics themselves (that is ``credal_core.aode``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

BMA_COLOUR = "#1f3b73"     # dark blue
COMP_COLOUR = "#e8871e"    # orange
AODE_COLOUR = "#7f7f7f"    # grey


def weights_figure(table: pd.DataFrame) -> go.Figure:
    """Grouped bars per SPODE: BMA-AODE weight, COMP-AODE weight, and AODE's uniform 1/k."""
    names = table["super_parent"].tolist()
    k = len(names)
    fig = go.Figure()
    fig.add_bar(x=names, y=table["bma_weight"], name="BMA-AODE weight (eq. 3)", marker_color=BMA_COLOUR,
                hovertemplate="%{x}: %{y:.4f}<extra>BMA</extra>")
    fig.add_bar(x=names, y=table["comp_weight"], name="COMP-AODE weight (eq. 7)",
                marker_color=COMP_COLOUR, hovertemplate="%{x}: %{y:.4f}<extra>COMP</extra>")
    fig.add_scatter(x=names, y=np.full(k, 1.0 / k), mode="lines", name="AODE: 1/k",
                    line=dict(color=AODE_COLOUR, dash="dash"))
    fig.update_layout(barmode="group", yaxis_title="weight of the SPODE", xaxis_title="super-parent",
                      yaxis_range=[0, 1.02], legend=dict(orientation="h", y=-0.25), height=380,
                      margin=dict(t=30, b=10))
    return fig


def compression_figure(table: pd.DataFrame) -> go.Figure:
    """Raw compression coefficient per SPODE (eq. 6) with its credal interval (eq. 10) as error bars."""
    names = table["super_parent"].tolist()
    raw = table["pi_raw"].to_numpy()
    fig = go.Figure()
    fig.add_scatter(
        x=names, y=raw, mode="markers", name="π_j under the prior of eq. 5", marker=dict(
            color=COMP_COLOUR, size=10),
        error_y=dict(type="data", symmetric=False, array=table["pi_high"].to_numpy() - raw,
                     arrayminus=raw - table["pi_low"].to_numpy(), color=BMA_COLOUR, thickness=2, width=8),
        customdata=np.column_stack([table["pi_low"], table["pi_high"]]),
        hovertemplate="%{x}: π = %{y:.4f} in [%{customdata[0]:.4f}, %{customdata[1]:.4f}]<extra></extra>")
    fig.add_hline(y=0, line=dict(color="black", width=1))
    fig.update_layout(yaxis_title="raw compression coefficient π_j", xaxis_title="super-parent",
                      height=340, margin=dict(t=30, b=10), showlegend=False)
    return fig


def posteriors_figure(posteriors: pd.DataFrame, weights: dict[str, np.ndarray]) -> go.Figure:
    """Per-SPODE class posteriors of one instance (grouped bars, one colour per class)."""
    fig = go.Figure()
    for cls in posteriors.columns:
        fig.add_bar(x=posteriors.index.tolist(), y=posteriors[cls].to_numpy(), name=f"P({cls} | x, s_j)",
                    hovertemplate="%{x}: %{y:.4f}<extra>" + str(cls) + "</extra>")
    fig.update_layout(barmode="group", yaxis_title="posterior of the class", xaxis_title="super-parent",
                      yaxis_range=[0, 1.02], height=340, margin=dict(t=30, b=10),
                      legend=dict(orientation="h", y=-0.3))
    return fig


def shared_figure(fig: go.Figure) -> go.Figure:
    """``fig`` with its plotly dict computed once, for a figure cached and shown to every session:
    ``st.plotly_chart`` reads a figure through ``to_dict``, which otherwise deep-copies it on each
    rerun.  The figure must not be changed afterwards."""
    spec = fig.to_dict()
    fig.to_dict = lambda: spec
    return fig


def fmt(value) -> str:
    """A table cell: numbers to 3 decimals, NaN / None as an em dash (never 'nan'), booleans yes / no."""
    if value is None or (isinstance(value, (float, np.floating)) and not np.isfinite(value)):
        return "—"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (float, np.floating)):
        return f"{value:.3f}"
    return str(value)


def text_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Every cell of ``frame`` as :func:`fmt` text (what the page's tables show)."""
    return frame.apply(lambda col: col.map(fmt))
