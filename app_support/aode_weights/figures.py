"""Plotly figure builders for the page "AODE compression weights" (paper 001).

Plain functions: they take tables/arrays, return ``go.Figure`` (or text tables), never import streamlit
and do no credal mathematics themselves (that is ``credal_core.aode``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from app_support.figures import DeclaredFigure

BMA_COLOUR = "#1f3b73"     # dark blue
COMP_COLOUR = "#e8871e"    # orange
AODE_COLOUR = "#7f7f7f"    # grey


def _values(column) -> list:
    """A table column as a plain list of Python numbers (what the chart's JSON holds)."""
    return np.asarray(column, dtype=float).tolist()


def weights_figure(table: pd.DataFrame) -> DeclaredFigure:
    """Grouped bars per SPODE: BMA-AODE weight, COMP-AODE weight, and AODE's uniform 1/k (declared in
    one piece: built on every new ε)."""
    names = table["super_parent"].tolist()
    k = len(names)
    data = [
        dict(type="bar", x=names, y=_values(table["bma_weight"]), name="BMA-AODE weight (eq. 3)",
             marker=dict(color=BMA_COLOUR), hovertemplate="%{x}: %{y:.4f}<extra>BMA</extra>"),
        dict(type="bar", x=names, y=_values(table["comp_weight"]), name="COMP-AODE weight (eq. 7)",
             marker=dict(color=COMP_COLOUR), hovertemplate="%{x}: %{y:.4f}<extra>COMP</extra>"),
        dict(type="scatter", x=names, y=[1.0 / k] * k, mode="lines", name="AODE: 1/k",
             line=dict(color=AODE_COLOUR, dash="dash")),
    ]
    layout = dict(barmode="group", yaxis=dict(title=dict(text="weight of the SPODE"), range=[0, 1.02]),
                  xaxis=dict(title=dict(text="super-parent")), legend=dict(orientation="h", y=-0.25),
                  height=380, margin=dict(t=30, b=10))
    return DeclaredFigure(data, layout)


def compression_figure(table: pd.DataFrame) -> DeclaredFigure:
    """Raw compression coefficient per SPODE (eq. 6) with its credal interval (eq. 10) as error bars."""
    names = table["super_parent"].tolist()
    raw = table["pi_raw"].to_numpy(dtype=float)
    low, high = table["pi_low"].to_numpy(dtype=float), table["pi_high"].to_numpy(dtype=float)
    data = [dict(
        type="scatter", x=names, y=raw.tolist(), mode="markers", name="π_j under the prior of eq. 5",
        marker=dict(color=COMP_COLOUR, size=10),
        error_y=dict(type="data", symmetric=False, array=(high - raw).tolist(),
                     arrayminus=(raw - low).tolist(), color=BMA_COLOUR, thickness=2, width=8),
        customdata=np.column_stack([low, high]).tolist(),
        hovertemplate="%{x}: π = %{y:.4f} in [%{customdata[0]:.4f}, %{customdata[1]:.4f}]<extra></extra>")]
    layout = dict(yaxis=dict(title=dict(text="raw compression coefficient π_j")),
                  xaxis=dict(title=dict(text="super-parent")), height=340, margin=dict(t=30, b=10),
                  showlegend=False,
                  shapes=[dict(type="line", xref="x domain", x0=0, x1=1, yref="y", y0=0, y1=0,
                               line=dict(color="black", width=1))])
    return DeclaredFigure(data, layout)


def posteriors_figure(posteriors: pd.DataFrame, weights: dict[str, np.ndarray]) -> DeclaredFigure:
    """Per-SPODE class posteriors of one instance (grouped bars, one colour per class)."""
    names = posteriors.index.tolist()
    data = [dict(type="bar", x=names, y=_values(posteriors[cls]), name=f"P({cls} | x, s_j)",
                 hovertemplate="%{x}: %{y:.4f}<extra>" + str(cls) + "</extra>")
            for cls in posteriors.columns]
    layout = dict(barmode="group", yaxis=dict(title=dict(text="posterior of the class"), range=[0, 1.02]),
                  xaxis=dict(title=dict(text="super-parent")), height=340, margin=dict(t=30, b=10),
                  legend=dict(orientation="h", y=-0.3))
    return DeclaredFigure(data, layout)


def fmt(value) -> str:
    """A table cell: numbers to 3 decimals, NaN / None as an em dash (never 'nan'), booleans yes / no."""
    if value is None or (isinstance(value, (float, np.floating)) and not np.isfinite(value)):
        return "—"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (float, np.floating)):
        return f"{value:.3f}"
    return str(value)


def text_table(frame: pd.DataFrame, names: dict | None = None, cell=fmt) -> pd.DataFrame:
    """Every cell of ``frame`` as ``cell`` text (default :func:`fmt`: what the page's tables show),
    columns renamed by ``names`` (old → new, others kept); one list per column (the cells are few:
    pandas' per-column machinery would cost more than the formatting), kept as Python strings
    (``object``: pandas' Arrow-backed text columns cost more to build than the table is worth)."""
    names = names or {}
    columns = {names.get(col, col): [cell(v) for v in frame[col].tolist()] for col in frame.columns}
    return pd.DataFrame(columns, index=frame.index, dtype=object)
