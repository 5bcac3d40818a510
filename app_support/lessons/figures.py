"""Two small plotly figures the pages' builders do not offer (bars of a few numbers; a curve against a
parameter, with an optional band and reference line).  Plain builders: they take numbers computed by
``credal_core``, never import streamlit and do no credal mathematics.  Declared as plain dicts
(:class:`~app_support.figures.DeclaredFigure`: no plotly validation on a slider's new value); read only."""

from __future__ import annotations

from app_support.figures import DeclaredFigure

__all__ = ["bars", "curve"]

BLUE, ORANGE, GREY = "#1f3b73", "#e8871e", "#555555"


def _layout(title: str, x_title: str, y_title: str, **extra) -> dict:
    return dict(
        title=dict(text=title, x=0, xanchor="left"),
        xaxis=dict(title=dict(text=x_title)),
        yaxis=dict(title=dict(text=y_title)),
        margin=dict(l=10, r=10, t=50, b=10),
        height=340,
        legend=dict(orientation="h", y=-0.25, x=0),
        **extra,
    )


def bars(labels, values, *, title: str, y_title: str, y_range=(0, 1), text_format: str = ".3f"):
    """One bar per label, its value printed on it."""
    values = [float(v) for v in values]
    trace = dict(
        type="bar",
        x=[str(v) for v in labels],
        y=values,
        text=[format(v, text_format) for v in values],
        textposition="outside",
        marker=dict(color=BLUE),
        hovertemplate="%{x}: %{y:.4f}<extra></extra>",
    )
    layout = _layout(title, "", y_title)
    if y_range:
        layout["yaxis"]["range"] = list(y_range)
    return DeclaredFigure([trace], layout)


def curve(
    x,
    y,
    *,
    title: str,
    x_title: str,
    y_title: str,
    name: str = "",
    band=None,
    band_name: str = "",
    hline: float | None = None,
    hline_name: str = "",
    mark: float | None = None,
    log_y: bool = False,
    y_range=None,
):
    """``y`` against ``x`` (a line); ``band`` = (lower, upper) shaded; ``hline`` dotted; ``mark`` a dashed
    vertical line at the widget's value."""
    x = [float(v) for v in x]
    traces = []
    if band is not None:
        lower, upper = ([float(v) for v in b] for b in band)
        edge = dict(type="scatter", x=x, mode="lines", line=dict(color=ORANGE, width=2), name=band_name,
                    legendgroup="band")
        traces += [
            {**edge, "y": lower, "showlegend": False, "hovertemplate": "lower %{y:.4f}<extra></extra>"},
            {**edge, "y": upper, "fill": "tonexty", "fillcolor": "rgba(232, 135, 30, 0.2)",
             "hovertemplate": "upper %{y:.4f}<extra></extra>"},
        ]
    if y is not None:
        traces.append(
            dict(
                type="scatter",
                x=x,
                y=[float(v) for v in y],
                mode="lines",
                name=name or y_title,
                line=dict(color=BLUE, width=2.5),
                hovertemplate="%{x:.3g}: %{y:.4g}<extra></extra>",
            )
        )
    shapes = []
    if hline is not None:
        shapes.append(
            dict(
                type="line",
                xref="x domain",
                x0=0,
                x1=1,
                yref="y",
                y0=hline,
                y1=hline,
                line=dict(color=GREY, width=1.5, dash="dot"),
            )
        )
    if mark is not None:
        shapes.append(
            dict(
                type="line",
                xref="x",
                x0=mark,
                x1=mark,
                yref="y domain",
                y0=0,
                y1=1,
                line=dict(color=GREY, width=1.5, dash="dash"),
            )
        )
    layout = _layout(title, x_title, y_title, **({"shapes": shapes} if shapes else {}))
    if log_y:
        layout["yaxis"].update(type="log", dtick=1)      # ticks at powers of 10 only (no bare "5")
    if y_range is not None:
        layout["yaxis"]["range"] = list(y_range)
    if hline_name and hline is not None:
        layout["annotations"] = [
            dict(
                xref="x domain",
                x=1,
                y=hline,
                yref="y",
                text=hline_name,
                showarrow=False,
                xanchor="right",
                yanchor="bottom",
                font=dict(color=GREY),
            )
        ]
    return DeclaredFigure(traces, layout)

