"""Plotly figure builders for the page "Intervals vs N" (000 Fig. 1; 003 Example 2).

Plain functions: they take arrays, return ``go.Figure``, never import streamlit and do no credal
mathematics themselves (that is ``credal_core.likelihood``).  Each figure is declared in one piece
(traces, axes and annotations as plain dicts, sent as they are by :class:`DeclaredFigure`; tests validate
them): many times cheaper than adding its parts one by one, which matters when a slider step needs a new
figure.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Sequence

import numpy as np
from plotly.subplots import make_subplots

from app_support.figures import DeclaredFigure, typed_array

LIKELIHOOD_COLOUR = "#1f3b73"  # dark blue: the paper draws the likelihood bounds in black
IDM_COLOUR = "#e8871e"  # orange: the paper draws the IDM bounds in grey
NHC_COLOUR = LIKELIHOOD_COLOUR
NCC_COLOUR = IDM_COLOUR


def _rgba(hex_colour: str, alpha: float) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha})"


def _band(x, lower, upper, *, name: str, colour: str, fill_opacity: float) -> list[dict]:
    """Two lines (lower, upper) in the left panel with the interval between them shaded.

    Both traces carry the interval's ``name``; ``meta`` is ``"lower"`` or ``"upper"``.
    """
    return [dict(x=x, y=y, mode="lines", name=name, legendgroup=name, meta=meta, showlegend=meta == "upper",
                 line=dict(color=colour, width=2.5), fill="tonexty" if meta == "upper" else None,
                 fillcolor=_rgba(colour, fill_opacity) if meta == "upper" else None,
                 hovertemplate=f"{meta} bound %{{y:.4f}}<extra>{name}</extra>", xaxis="x", yaxis="y")
            for meta, y in (("lower", lower), ("upper", upper))]


@functools.cache
def _two_panels() -> dict:
    """The layout of ``make_subplots``' two panels (axes domains, title annotations), computed once."""
    layout = make_subplots(rows=1, cols=2, column_widths=[0.58, 0.42], horizontal_spacing=0.09,
                           subplot_titles=("left", "right")).to_dict()["layout"]
    layout.pop("template", None)
    return layout


def _scatter(traces: list[dict]) -> list[dict]:
    """Scatter traces without their None entries, arrays as plotly's typed arrays."""
    return [dict(type="scatter", **{k: typed_array(v) if isinstance(v, np.ndarray) else v
                                    for k, v in t.items() if v is not None}) for t in traces]


def end_slope(N: np.ndarray, width: np.ndarray) -> float:
    """Slope of log(width) against log(N) over the last decade of N (−½ for 1/√N, −1 for 1/N)."""
    N, width = np.asarray(N, float), np.asarray(width, float)
    start = int(np.searchsorted(N, N[-1] / 10))
    return float(np.log(width[-1] / width[start]) / np.log(N[-1] / N[start]))


def intervals_figure(
    N: np.ndarray,
    likelihood_lower: np.ndarray,
    likelihood_upper: np.ndarray,
    idm_lower: np.ndarray,
    idm_upper: np.ndarray,
    *,
    ratio: float,
    alpha: float,
    s: float,
) -> DeclaredFigure:
    """Two panels: left, the lower and upper bounds of the likelihood interval (level α) and of the IDM
    interval (s) vs N (000 Fig. 1); right, the two widths on log–log axes, where N^k is a straight line
    of slope k (annotated with the slope measured over the last decade).

    Traces of the left panel: for each interval two lines named ``"likelihood interval (α = …)"`` /
    ``"IDM interval (s = …)"`` with ``meta`` ``"lower"`` then ``"upper"``, and the line ``"n/N"``; the
    right panel holds one line per interval with the same name and ``meta="width"``. The y axis of the
    left panel always spans [0, 1] so the picture stays comparable while sliders move.
    """
    N = np.asarray(N, float)
    layout = copy.deepcopy(_two_panels())
    for note, text in zip(layout["annotations"], (f"Bounds of the interval for θ, with n/N = {ratio:g}",
                                                 "Width of the interval (log–log)")):
        note["text"] = text
    intervals = (
        (f"likelihood interval (α = {alpha:g})", likelihood_lower, likelihood_upper, LIKELIHOOD_COLOUR, 0.10),
        (f"IDM interval (s = {s:g})", idm_lower, idm_upper, IDM_COLOUR, 0.22),
    )
    traces = []
    for name, lower, upper, colour, opacity in intervals:  # the wider one (usually) underneath
        traces += _band(N, lower, upper, name=name, colour=colour, fill_opacity=opacity)
    traces.append(dict(x=[N[0], N[-1]], y=[ratio, ratio], mode="lines", name="n/N",
                       line=dict(color="#555555", width=1, dash="dot"), hoverinfo="skip",
                       xaxis="x", yaxis="y"))
    for name, lower, upper, colour, _ in intervals:
        width = np.asarray(upper, float) - np.asarray(lower, float)
        traces.append(dict(x=N, y=width, mode="lines", name=name, legendgroup=name, meta="width",
                           showlegend=False, line=dict(color=colour, width=2.5),
                           hovertemplate=f"width %{{y:.3g}}<extra>{name}</extra>", xaxis="x2", yaxis="y2"))
        if np.all(width > 0):
            layout["annotations"].append(dict(
                x=np.log10(N[-1]), y=np.log10(width[-1]), xref="x2", yref="y2",
                text=f"slope {end_slope(N, width):.2f}", showarrow=False, xanchor="right",
                yanchor="top" if colour == IDM_COLOUR else "bottom",
                yshift=-6 if colour == IDM_COLOUR else 16, font=dict(color=colour, size=13)))
    log_x = dict(title=dict(text="sample size N (log scale)"), type="log", exponentformat="power",
                 showgrid=True)
    layout["xaxis"].update(log_x)
    layout["xaxis2"].update(log_x)
    layout["yaxis"].update(title=dict(text="θ"), range=[0, 1], dtick=0.1)
    layout["yaxis2"].update(title=dict(text="upper − lower (log scale)"), type="log", exponentformat="power")
    layout.update(
        legend=dict(orientation="h", y=1.08, yanchor="bottom", x=0, xanchor="left"),
        margin=dict(l=10, r=10, t=80, b=10),
        height=440,
        hovermode="x unified",
    )
    return DeclaredFigure(_scatter(traces), layout)


def vacuous_figure(
    n: np.ndarray,
    nhc: np.ndarray,
    ncc: np.ndarray,
    *,
    beta: float,
    s: float,
    marks: Sequence[int] = (100, 1000),
    marks_nhc: Sequence[float] | None = None,
    marks_ncc: Sequence[float] | None = None,
    nhc_limit: float | None = None,
) -> DeclaredFigure:
    """Probability of a vacuous prediction vs the training-set size n for the NHC(β) and the NCC(s).

    ``marks`` (with their values ``marks_nhc`` / ``marks_ncc``) are drawn as labelled points, e.g. the
    two sizes of 003 Example 2. Trace names: ``"NHC (β = …)"``, ``"NCC (s = …)"``. ``nhc_limit``, if
    given, is drawn as a dotted horizontal line (the NHC's large-n limit, e.g. Wilks's approximation).
    """
    n = np.asarray(n, float)
    hover = "P(vacuous) = %{y:.1%}<extra>%{fullData.name}</extra>"
    traces = [dict(x=n, y=values, mode="lines", name=name, legendgroup=name,
                   line=dict(color=colour, width=2.5), hovertemplate=hover)
              for name, values, colour in ((f"NHC (β = {beta:g})", nhc, NHC_COLOUR),
                                           (f"NCC (s = {s:g})", ncc, NCC_COLOUR))]
    for name, values, colour, position in ((f"NHC (β = {beta:g})", marks_nhc, NHC_COLOUR, "top center"),
                                           (f"NCC (s = {s:g})", marks_ncc, NCC_COLOUR, "top right")):
        if values is None:
            continue
        traces.append(dict(x=list(marks), y=list(values), mode="markers+text", legendgroup=name,
                           name=f"{name} at n = " + ", ".join(f"{m:,}" for m in marks), showlegend=False,
                           marker=dict(color=colour, size=9, line=dict(color="white", width=1)),
                           text=[f"{100 * v:.1f}%" for v in values], textposition=position,
                           textfont=dict(color=colour, size=13),
                           hovertemplate=f"n = %{{x:,}}: %{{y:.1%}}<extra>{name}</extra>"))
    if nhc_limit is not None:
        traces.append(dict(x=[n[0], n[-1]], y=[nhc_limit, nhc_limit], mode="lines",
                           name="large-n limit of the NHC", line=dict(color=NHC_COLOUR, width=1, dash="dot"),
                           hovertemplate="limit %{y:.1%}<extra>NHC, n → ∞</extra>"))
    layout = dict(
        title=dict(text="Probability that the prediction is vacuous (both classes)", x=0, xanchor="left"),
        xaxis=dict(title=dict(text="training-set size n (log scale)"), type="log", exponentformat="power",
                   showgrid=True, range=[np.log10(n[0]) - 0.05, np.log10(n[-1]) + 0.05]),
        yaxis=dict(title=dict(text="P(vacuous prediction)"), range=[0, 1.05], tickformat=".0%", dtick=0.1),
        # below the axis: above the plot, a phone's width put the legend over the title
        legend=dict(orientation="h", y=-0.22, yanchor="top", x=0, xanchor="left"),
        margin=dict(l=10, r=10, t=70, b=10),
        height=400,
        hovermode="x unified",
    )
    return DeclaredFigure(_scatter(traces), layout)
