"""Plotly figure of the page "Missing values": which classes each treatment of missing values returns.

A plain builder: it takes the treatments' names and their classes (computed by
``credal_core.naive.ncc_explain``), returns ``go.Figure``, never imports streamlit and does no credal
mathematics.
"""
from __future__ import annotations

import plotly.graph_objects as go

IN_SET = "#4c78a8"        # a class the treatment returns
IN_SET_TRUE = "#2e7d32"   # ... and it is the true class
OUT = "#eceff3"           # a class it leaves out
MISSED_TRUE = "#e45756"   # the true class, left out


def set_grid(names: list[str], members: list[tuple], classes: list, truth=None) -> go.Figure:
    """Grid treatments (rows, first at the top) × classes (columns): a filled cell is a class returned.

    ``members[i]`` are the classes treatment ``names[i]`` returns; ``truth`` (optional) is the
    instance's true class: its column is labelled, green where returned and red where left out, so
    a confident wrong answer shows as a red cell on a row with a single blue one.
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
    layout = dict(
        shapes=shapes,
        xaxis=dict(tickmode="array", tickvals=list(range(len(labels))), ticktext=x_ticks, side="top",
                   range=[-0.5, len(labels) - 0.5], showgrid=False, zeroline=False, fixedrange=True,
                   tickfont=dict(size=15)),
        yaxis=dict(tickmode="array", tickvals=list(range(len(rows))), ticktext=rows,
                   range=[len(rows) - 0.5, -0.5], showgrid=False, zeroline=False, fixedrange=True,
                   tickfont=dict(size=15)),
        height=110 + 46 * len(rows), margin=dict(l=10, r=10, t=60, b=10), plot_bgcolor="white",
    )
    return go.Figure(data=[points], layout=layout)
