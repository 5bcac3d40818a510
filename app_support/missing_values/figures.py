"""Plotly figure of the page "Missing values": which classes each treatment of missing values returns.

A plain builder: it takes the treatments' names and their classes (computed by
``credal_core.naive.ncc_explain``), returns a ``DeclaredFigure``, never imports streamlit and does no credal
mathematics.
"""
from __future__ import annotations

from app_support.figures import DeclaredFigure

# colour-blind safe (Okabe-Ito), told apart by lightness too, with a legend; returned cells also carry a ✓
IN_SET = "#0072B2"        # a class the treatment returns (blue)
IN_SET_TRUE = "#009E73"   # ... and it is the true class (bluish green)
OUT = "#eceff3"           # a class it leaves out (light grey)
MISSED_TRUE = "#D55E00"   # the true class, left out (vermillion)
LEGEND = ((IN_SET, "returned"), (IN_SET_TRUE, "returned, the true class"),
          (MISSED_TRUE, "true class left out"), (OUT, "left out"))


def set_grid(names: list[str], members: list[tuple], classes: list, truth=None) -> DeclaredFigure:
    """Grid treatments (rows, first at the top) × classes (columns): a filled cell is a class returned.

    ``members[i]`` are the classes treatment ``names[i]`` returns; ``truth`` (optional) is the
    instance's true class: its column is labelled, bluish green where returned and vermillion where left
    out, so a confident wrong answer shows as a vermillion cell on a row with a single blue one.  A legend
    below the grid names the four colours (:data:`LEGEND`).  Declared as plain dicts (no plotly
    validation: a figure per slider value), read only.
    """
    labels = [str(c) for c in classes]
    rows = [str(n) for n in names]
    colours, text, hover = [], [], []
    for name, chosen in zip(rows, members):
        chosen = {str(c) for c in chosen}
        line_colours, line_text, line_hover = [], [], []
        for label in labels:
            inside, is_true = label in chosen, truth is not None and label == str(truth)
            line_colours.append((IN_SET_TRUE if inside else MISSED_TRUE) if is_true else
                                (IN_SET if inside else OUT))
            line_text.append("✓" if inside else "")
            line_hover.append(f"{name}: {label} {'returned' if inside else 'left out'}"
                              + (" (the true class)" if is_true else ""))
        colours.append(line_colours)
        text.append(line_text)
        hover.append(line_hover)
    # one heatmap per colour would need a colour scale; shapes keep every cell's colour explicit
    shapes = [dict(type="rect", xref="x", yref="y", x0=j - 0.46, x1=j + 0.46, y0=i - 0.42, y1=i + 0.42,
                   fillcolor=colours[i][j], line=dict(width=0), layer="below")
              for i in range(len(rows)) for j in range(len(labels))]
    x_ticks = [f"{label}<br>(true class)" if truth is not None and label == str(truth) else label
               for label in labels]
    points = dict(type="scatter", mode="text", x=[j for i in range(len(rows)) for j in range(len(labels))],
                  y=[i for i in range(len(rows)) for _ in labels],
                  text=[t for line in text for t in line], hovertext=[h for line in hover for h in line],
                  hoverinfo="text", textfont=dict(size=20, color="white"), showlegend=False)
    # the legend: one marker-only trace per colour shown, with no point on the grid
    keys = [dict(type="scatter", mode="markers", x=[None], y=[None], name=name, showlegend=True,
                 hoverinfo="skip", marker=dict(symbol="square", size=14, color=colour,
                                               line=dict(width=1, color="#8a8f98")))
            for colour, name in LEGEND if any(colour in line for line in colours)]
    layout = dict(
        shapes=shapes,
        xaxis=dict(tickmode="array", tickvals=list(range(len(labels))), ticktext=x_ticks, side="top",
                   range=[-0.5, len(labels) - 0.5], showgrid=False, zeroline=False, fixedrange=True,
                   tickfont=dict(size=15)),
        yaxis=dict(tickmode="array", tickvals=list(range(len(rows))), ticktext=rows,
                   range=[len(rows) - 0.5, -0.5], showgrid=False, zeroline=False, fixedrange=True,
                   tickfont=dict(size=15)),
        height=150 + 46 * len(rows), margin=dict(l=10, r=10, t=60, b=10), plot_bgcolor="white",
        legend=dict(orientation="h", x=0, xanchor="left", y=-0.02, yanchor="top", font=dict(size=13)),
    )
    return DeclaredFigure([points, *keys], layout)
