"""Plotly figures of the "Profile likelihood" page (000 Fig. 2 / Fig. 3, 003 Example 1).

Plain builders: they take arrays and numbers computed by ``credal_core``, return a figure, never import
streamlit and do no credal mathematics (the only computation here is which sampled points lie
above a horizontal line, to colour them).  Each figure is declared in one piece (traces, shapes and
annotations as plain dicts, sent as they are by :class:`DeclaredFigure`; tests validate them): many
times cheaper than adding them one by one, which matters when a slider step needs a new figure.  Points
and curves are sent as float32 (plotly's typed arrays, encoded here once: a cached figure is not
re-encoded on every rerun): half the chart's bytes of float64, far below a pixel's precision.
"""

from __future__ import annotations

import base64

import numpy as np

from app_support.figures import DeclaredFigure

CLOUD_OUT = "rgba(120, 130, 150, 0.30)"   # sampled NBCs below the α-cut
CLOUD_IN = "rgba(76, 120, 168, 0.75)"     # sampled NBCs kept by the LNCC (likelihood ≥ α)
ENVELOPE = "#1f2937"
CUT_COLOURS = {"c": "#2e7d32", "not c": "#c62828", "both": "#ef6c00"}
NOTE_FONT = dict(color="#555", size=13)


def _figure(traces: list[dict], shapes: list[dict], annotations: list[dict], *, title: str, x_title: str,
            y_title: str, height: int) -> DeclaredFigure:
    layout = dict(
        title=dict(text=title, x=0, xanchor="left"),
        xaxis=dict(title=dict(text=x_title), range=[-0.01, 1.01], zeroline=False),
        yaxis=dict(title=dict(text=y_title), range=[0, 1.07], zeroline=False),
        legend=dict(orientation="h", y=-0.18, yanchor="top", x=0, xanchor="left"),
        margin=dict(l=10, r=10, t=50, b=10),
        height=height,
        hovermode="closest",
        shapes=shapes,
        annotations=annotations,
    )
    return DeclaredFigure([dict(type="scatter", **t) for t in traces], layout)


def _sent(values) -> dict:
    """``values`` as plotly's typed array of float32 (what plotly.py would send, encoded once)."""
    return {"dtype": "f4", "bdata": base64.b64encode(np.ascontiguousarray(values, "<f4").tobytes()).decode()}


def _line(x, y, name: str, line: dict, hover: str) -> dict:
    return dict(x=_sent(x), y=_sent(y), mode="lines", name=name, line=line, hovertemplate=hover)


def _cloud_traces(x, y, level: float, label_in: str, label_out: str, hover: str) -> list[dict]:
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    kept = y >= level
    return [dict(x=_sent(x[mask]), y=_sent(y[mask]), mode="markers", name=name,
                 marker=dict(size=4, color=colour, line=dict(width=0)),
                 hovertemplate=hover + "<extra></extra>")
            for mask, colour, name in ((~kept, CLOUD_OUT, label_out), (kept, CLOUD_IN, label_in))]


def _cut(level: float, exact_cut, sample_cut, colour: str, symbol: str) -> tuple[list[dict], dict]:
    """The cut's exact range (thick) and the sample's range (thin); the dotted line at the cut level."""
    lo, hi = exact_cut
    traces = [dict(x=[lo, hi], y=[level, level], mode="lines+markers",
                   name=f"{symbol}-cut of the envelope (exact)", line=dict(color=colour, width=7),
                   marker=dict(size=11, symbol="line-ns", line=dict(width=3, color=colour)),
                   opacity=0.55, hovertemplate=f"{symbol}-cut: [{lo:.4f}, {hi:.4f}]<extra></extra>")]
    if sample_cut is not None:
        slo, shi = sample_cut
        traces.append(dict(x=[slo, shi], y=[level, level], mode="lines", name=f"{symbol}-cut of the sample",
                           line=dict(color="black", width=2),
                           hovertemplate=f"sample {symbol}-cut: [{slo:.4f}, {shi:.4f}]<extra></extra>"))
    level_line = dict(type="line", xref="x domain", x0=0, x1=1, yref="y", y0=level, y1=level,
                      line=dict(color=colour, width=1, dash="dot"))
    return traces, level_line


def _vline(x: float) -> dict:
    return dict(type="line", xref="x", x0=x, x1=x, yref="y domain", y0=0, y1=1,
                line=dict(color="#555", width=1.5, dash="dash"))


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
) -> DeclaredFigure:
    """000 Fig. 2: the Monte Carlo cloud of (P_θ(c|f̃), lik(θ)), the exact envelope, the line 1/2, the α-cut.

    ``verdict`` is ``"c"``, ``"not c"`` or ``"both"``: the set the LNCC returns at ``alpha``; it colours
    the cut. ``other_curve`` (posterior, likelihood), if given, is drawn faint and dashed for comparison
    (000 Fig. 3: the profile with and without the instance).
    """
    traces = []
    if other_curve is not None:
        traces.append(_line(other_curve[0], other_curve[1], other_name or "comparison",
                            dict(color="#9aa3ad", width=1.5, dash="dash"),
                            "P(c|f̃) = %{x:.4f}<br>L = %{y:.4f}<extra>comparison</extra>"))
    traces += _cloud_traces(cloud_posterior, cloud_likelihood, alpha,
                            label_in="sampled NBCs with lik ≥ α (kept)",
                            label_out="sampled NBCs with lik < α",
                            hover="P(c|f̃) = %{x:.4f}<br>lik = %{y:.4f}")
    traces.append(_line(curve_posterior, curve_likelihood, "profile likelihood (exact upper envelope)",
                        dict(color=ENVELOPE, width=2.5),
                        "P(c|f̃) = %{x:.4f}<br>L = %{y:.4f}<extra>envelope</extra>"))
    cut_traces, level_line = _cut(alpha, alpha_cut, sample_cut(cloud_posterior, cloud_likelihood, alpha),
                                  CUT_COLOURS.get(verdict, CUT_COLOURS["both"]), "α")
    notes = [dict(x=x, y=1.05, text=text, showarrow=False, font=NOTE_FONT)
             for x, text in ((0.25, "¬c more probable"), (0.75, "c more probable"))]
    return _figure(traces + cut_traces, [_vline(0.5), level_line], notes, title=title,
                   x_title="posterior P(c | f̃)", y_title="normalised likelihood", height=height)


def multinomial_figure(
    gamma, profile, cloud_g, cloud_likelihood, *, beta: float, interval: tuple[float, float],
    mle: float, title: str = "", height: int = 520,
) -> DeclaredFigure:
    """003 Example 1: the Monte Carlo cloud of (g(θ), lik(θ)), the profile lik_g, the β-cut interval."""
    traces = _cloud_traces(cloud_g, cloud_likelihood, beta, label_in="sampled θ with lik ≥ β",
                           label_out="sampled θ with lik < β", hover="g = %{x:.4f}<br>lik = %{y:.4f}")
    traces.append(_line(gamma, profile, "profile likelihood lik_g (exact)", dict(color=ENVELOPE, width=2.5),
                        "γ = %{x:.4f}<br>lik_g = %{y:.4f}<extra>profile</extra>"))
    cut_traces, level_line = _cut(beta, interval, sample_cut(cloud_g, cloud_likelihood, beta),
                                  CUT_COLOURS["c"], "β")
    note = dict(x=mle, y=1.05, text=f"γ̂ = {mle:.4f}", showarrow=False, font=NOTE_FONT)
    return _figure(traces + cut_traces, [_vline(mle), level_line], [note], title=title,
                   x_title="γ = g(θ) = θ_a + θ_b", y_title="normalised likelihood", height=height)


def lncc_figure(curve, other, cloud, *, alpha: float, alpha_cut: tuple[float, float], verdict: str,
                include_instance: bool) -> DeclaredFigure:
    """The page's two-class figure from :class:`PairProfile`'s frames (columns ``posterior``,
    ``likelihood``): ``curve`` and ``cloud`` with the instance in the likelihood or not, ``other`` the
    profile with the other setting (000 Fig. 3)."""
    return pair_profile_figure(
        curve["posterior"], curve["likelihood"], cloud["posterior"], cloud["likelihood"],
        other_curve=(other["posterior"], other["likelihood"]),
        other_name=f"profile {'without' if include_instance else 'with'} the instance (for comparison)",
        alpha=alpha, alpha_cut=alpha_cut, verdict=verdict,
        title=(f"{len(cloud):,} random NBCs and the exact profile likelihood "
               f"({'with' if include_instance else 'without'} the instance)"))
