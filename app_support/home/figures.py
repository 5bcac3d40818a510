"""Figure of the Home page's live example (plain plotly: no streamlit, no credal mathematics)."""

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
    stays comparable while a slider moves.  The figure is declared in one piece (plain dicts, validated
    once): several times cheaper than adding its parts one by one.
    """
    sets = np.asarray(sets, dtype=bool)
    n, n_classes = sets.shape
    sizes = sets.sum(axis=1)
    x = [str(k) for k in range(1, n_classes + 1)]
    layout = dict(
        title=dict(text=title, x=0, xanchor="left"),
        xaxis=dict(title=dict(text="number of classes in the credal set")),
        yaxis=dict(title=dict(text="test instances"), range=[0, max(n, 1) * 1.08]),
        margin=dict(l=10, r=10, t=50, b=10),
        height=340,
    )
    if contains_truth is None:
        counts = [int((sizes == k).sum()) for k in range(1, n_classes + 1)]
        bars = [dict(x=x, y=counts, text=counts, textposition="outside", name="instances")]
    else:
        hit = np.asarray(contains_truth, dtype=bool)
        bars = [dict(x=x, y=[int(((sizes == k) & mask).sum()) for k in range(1, n_classes + 1)], name=label,
                     marker=dict(color=colour))
                for label, mask, colour in (("set contains the true class", hit, "#0072B2"),    # Okabe-Ito:
                                            ("set misses the true class", ~hit, "#D55E00"))]   # CVD-safe
        # below the axis: at the top a phone's width put the legend over the title
        layout.update(barmode="stack", legend=dict(orientation="h", traceorder="normal", y=-0.3,
                                                   yanchor="top", x=0, xanchor="left"))
    return go.Figure(data=[dict(type="bar", **bar) for bar in bars], layout=layout)
