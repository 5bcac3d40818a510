"""The class session's figures: how the class answered one question, and the class's pooled experiment
results.  Plain plotly builders (no Streamlit, no credal mathematics): they draw what the store counted.

Colours: Okabe and Ito's blue for answers and their orange for the right one, plus a hatch pattern and
the word "right" on it, so the mark does not rest on colour alone.  Counts of students are whole numbers:
the y axis ticks are too.
"""
from __future__ import annotations

import io
import math

import numpy as np
import plotly.graph_objects as go

from .logic import Tally

__all__ = ["answers_figure", "pooled_figure", "qr_png"]

BLUE, ORANGE, GREY = "#0072b2", "#e69f00", "#555555"
HEIGHT = 320


def _layout(title: str, x_title: str, y_title: str) -> dict:
    return dict(title=dict(text=title, x=0, xanchor="left"), height=HEIGHT,
                margin=dict(l=10, r=10, t=50, b=10), xaxis=dict(title=dict(text=x_title)),
                yaxis=dict(title=dict(text=y_title), rangemode="tozero"), showlegend=False,
                bargap=0.15)


def _bins(values, right=None) -> dict:
    """Histogram bins over the values (and the right one): about ten, on the data's own scale."""
    points = [float(v) for v in values] + ([float(right)] if right is not None else [])
    lo, hi = (min(points), max(points)) if points else (0.0, 1.0)
    if hi - lo < 1e-12:
        lo, hi = lo - 0.5, hi + 0.5
    size = (hi - lo) / 10
    return dict(start=lo - size / 2, end=hi + size / 2, size=size)


def _whole_ticks(fig: go.Figure, top: int) -> go.Figure:
    """Whole-number ticks on the y axis (counts of students), about five of them."""
    fig.update_yaxes(tick0=0, dtick=max(1, math.ceil(top / 5)), tickformat="d")
    return fig


def _histogram_top(values, bins: dict) -> int:
    if not len(values):
        return 1
    edges = np.arange(bins["start"], bins["end"] + bins["size"], bins["size"])
    return int(np.histogram(np.asarray(values, dtype=float), bins=edges)[0].max())


def _vline(x: float, text: str) -> tuple[dict, dict]:
    shape = dict(type="line", xref="x", x0=x, x1=x, yref="y domain", y0=0, y1=1,
                 line=dict(color=GREY, width=2, dash="dash"))
    note = dict(xref="x", x=x, yref="y domain", y=1, text=text, showarrow=False, xanchor="left",
                yanchor="bottom", font=dict(color=GREY))
    return shape, note


def answers_figure(result: Tally, *, revealed: bool, title: str = "How the class answered") -> go.Figure:
    """Bars (one per answer) or, for numbers, a histogram; after the reveal the right answer is marked
    (its bar orange, hatched and labelled "right"; for numbers a dashed line at the right value)."""
    layout = _layout(title, "answer", "students")
    if result.kind == "number":
        bins = _bins(result.values, result.right)
        fig = go.Figure(go.Histogram(x=list(result.values), xbins=bins,
                                     marker=dict(color=BLUE), hovertemplate="%{x}: %{y}<extra></extra>"),
                        layout=layout)
        _whole_ticks(fig, _histogram_top(result.values, bins))
        if revealed and result.right is not None:
            shape, note = _vline(result.right, f"right: {result.right:.4g}")
            fig.update_layout(shapes=[shape], annotations=[note])
        return fig
    mark = [revealed and label == result.right for label in result.labels]
    text = [f"{count} · right" if right else str(count) for count, right in zip(result.counts, mark)]
    bars = go.Bar(x=list(result.labels), y=list(result.counts), text=text, textposition="outside",
                  marker=dict(color=[ORANGE if m else BLUE for m in mark],
                              pattern=dict(shape=["/" if m else "" for m in mark])),
                  hovertemplate="%{x}: %{y}<extra></extra>", cliponaxis=False)
    fig = go.Figure(bars, layout=layout)
    fig.update_yaxes(range=[0, max([*result.counts, 1]) * 1.25])
    _whole_ticks(fig, max([*result.counts, 1]))
    fig.update_xaxes(type="category")
    return fig


def pooled_figure(values, *, mine: float | None = None, label: str = "result") -> go.Figure:
    """The class's experiment results as a histogram that grows as they arrive; ``mine`` (this student's
    own) marked by a dashed line."""
    values = [float(v) for v in values]
    title = f"The class's results: {len(values)} so far"
    bins = _bins(values, mine)
    fig = go.Figure(go.Histogram(x=values, xbins=bins, marker=dict(color=BLUE),
                                 hovertemplate="%{x}: %{y}<extra></extra>"),
                    layout=_layout(title, label, "students"))
    _whole_ticks(fig, _histogram_top(values, bins))
    if values:
        fig.add_annotation(xref="paper", x=1, yref="paper", y=1, xanchor="right", yanchor="bottom",
                           showarrow=False, text=f"mean {np.mean(values):.3g}", font=dict(color=GREY))
    if mine is not None:
        shape, note = _vline(mine, f"yours: {mine:.3g}")
        fig.update_layout(shapes=[shape])
        fig.add_annotation(note)
    return fig


def qr_png(url: str, scale: int = 8) -> bytes:
    """A QR code of ``url`` as a PNG image (segno, pure Python; dark on white with the quiet zone)."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(out, kind="png", scale=scale, border=4)
    return out.getvalue()
