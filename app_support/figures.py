"""Plain plotly figure builders for the pages. They take arrays, return ``go.Figure``, never import
streamlit, and do no credal mathematics themselves."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go


def set_size_bar(
    sets: np.ndarray, contains_truth: np.ndarray | None = None, title: str = ""
) -> go.Figure:
    """Bar chart: how many instances got a credal set of 1, 2, ..., C classes.

    ``sets`` is the (n, C) boolean output of ``predict_set``. If ``contains_truth`` (n,) is given,
    each bar is split into instances whose set contains the true class and those whose set misses it.
    Every size 1..C is always drawn (zero bars included) and the y axis spans 0..n, so the picture
    stays comparable while a slider moves.
    """
    sets = np.asarray(sets, dtype=bool)
    n, n_classes = sets.shape
    sizes = sets.sum(axis=1)
    x = [str(k) for k in range(1, n_classes + 1)]
    fig = go.Figure()
    if contains_truth is None:
        counts = [int((sizes == k).sum()) for k in range(1, n_classes + 1)]
        fig.add_bar(x=x, y=counts, text=counts, textposition="outside", name="instances")
    else:
        hit = np.asarray(contains_truth, dtype=bool)
        for label, mask, colour in (("set contains the true class", hit, "#4c78a8"),
                                    ("set misses the true class", ~hit, "#e45756")):
            counts = [int(((sizes == k) & mask).sum()) for k in range(1, n_classes + 1)]
            fig.add_bar(x=x, y=counts, name=label, marker_color=colour)
        fig.update_layout(
            barmode="stack",
            legend=dict(orientation="h", traceorder="normal", y=1.0, yanchor="bottom", x=1, xanchor="right"),
        )
    fig.update_layout(
        title=dict(text=title, x=0, xanchor="left"),
        xaxis_title="number of classes in the credal set",
        yaxis_title="test instances",
        yaxis_range=[0, max(n, 1) * 1.08],
        margin=dict(l=10, r=10, t=50, b=10),
        height=340,
    )
    return fig
