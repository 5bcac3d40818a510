"""Critical-difference diagram (Demšar 2006, Fig. 1; paper 001 Fig. 7) as a plotly figure; no streamlit.

Layout, in data units: the rank axis runs along y = 0 from rank 1 (best, left) to rank k; above it
the CD interval starts at rank 1; below it one thick bar per group of classifiers that are not
significantly different (``credal_core.stats.nemenyi_groups``); further down, each classifier is
joined by an elbow line from its average rank on the axis to its label, the better half labelled on
the left, the worse half on the right.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from ..stats import nemenyi_groups

AXIS_COLOUR = "#222222"
CLASSIFIER_COLOUR = "#555555"
GROUP_COLOUR = "#111111"
CD_COLOUR = "#C0392B"
TICK_HEIGHT = 0.08
GROUP_TOP, GROUP_STEP = -0.25, 0.18       # y of the first group bar, spacing between bars
LABEL_STEP = 0.32                         # vertical spacing between classifier labels


def critical_difference_figure(avg_ranks: pd.Series, cd: float, *, title: str | None = None) -> go.Figure:
    """Demšar's critical-difference diagram of average ranks (1 = best).

    Parameters
    ----------
    avg_ranks : Series
        Average rank per classifier (index = names), e.g. ``friedman_test(scores).average_ranks``.
    cd : float > 0
        Critical difference, e.g. ``nemenyi_critical_difference(n_datasets, n_classifiers, alpha)``.
    title : str, optional
        Figure title; by default ``"Average ranks (1 = best); CD = ..."``.

    Returns
    -------
    go.Figure with traces (``name``, ``meta``):

    * ``"rank axis"`` (meta ``"axis"``) and ``"rank ticks"`` (meta ``"ticks"``, text at each integer rank);
    * ``"CD"`` (meta ``"cd"``): x = [lo, lo + cd] at the top, lo = the axis' left end (rank 1);
    * one trace per group, name ``"group g: A, B, ..."`` (meta ``"group"``, ``customdata`` = members),
      a bar from slightly left of the group's best rank to slightly right of its worst;
    * one trace per classifier, name = the classifier (meta ``"classifier"``): x[0] = its average
      rank on the axis (y = 0), then the elbow to its label.

    Examples
    --------
    >>> import pandas as pd
    >>> fig = critical_difference_figure(pd.Series({"A": 1.2, "B": 1.9, "C": 2.9}), cd=1.25)
    >>> [t.name for t in fig.data if t.meta == "classifier"]
    ['A', 'B', 'C']
    """
    groups = nemenyi_groups(avg_ranks, cd)          # validates avg_ranks and cd
    ranks = pd.to_numeric(pd.Series(avg_ranks)).astype(float).sort_values(kind="stable")
    names = [str(n) for n in ranks.index]
    k = len(ranks)
    lo = float(min(1, math.floor(ranks.min())))
    hi = float(max(k, math.ceil(ranks.max()), lo + 1))
    span = hi - lo
    pad = 0.015 * span

    fig = go.Figure()
    ticks = list(range(int(lo), int(hi) + 1))
    tick_x, tick_y = [lo, hi], [0.0, 0.0]
    for t in ticks:
        tick_x += [None, t, t]
        tick_y += [None, 0.0, TICK_HEIGHT]
    fig.add_scatter(x=tick_x, y=tick_y, mode="lines", name="rank axis", meta="axis",
                    line=dict(color=AXIS_COLOUR, width=1.5), hoverinfo="skip")
    fig.add_scatter(x=ticks, y=[TICK_HEIGHT + 0.1] * len(ticks), mode="text", name="rank ticks", meta="ticks",
                    text=[str(t) for t in ticks], textposition="top center", hoverinfo="skip")

    cd_y = TICK_HEIGHT + 0.55
    fig.add_scatter(x=[lo, lo + cd], y=[cd_y, cd_y], mode="lines+markers+text", name="CD", meta="cd",
                    line=dict(color=CD_COLOUR, width=2), marker=dict(symbol="line-ns", size=10,
                                                                     line=dict(width=2, color=CD_COLOUR)),
                    text=["", f"CD = {cd:.3g}"], textposition="middle right",
                    hovertemplate=f"critical difference {cd:.4g}<extra></extra>")

    for g, members in enumerate(groups):
        y = GROUP_TOP - GROUP_STEP * g
        first, last = float(ranks[members[0]]), float(ranks[members[-1]])
        label = ", ".join(members)
        fig.add_scatter(x=[first - pad, last + pad], y=[y, y], mode="lines", name=f"group {g + 1}: {label}",
                        meta="group", customdata=[members, members], line=dict(color=GROUP_COLOUR, width=5),
                        hovertemplate=f"not significantly different: {label}<extra></extra>")

    label_top = GROUP_TOP - GROUP_STEP * len(groups) - 0.2
    n_left = math.ceil(k / 2)
    for i, (name, rank) in enumerate(zip(names, ranks.to_numpy(float))):
        left = i < n_left
        level = i if left else k - 1 - i               # the outermost classifiers get the shortest lines
        y = label_top - LABEL_STEP * level
        end = lo - 0.06 * span if left else hi + 0.06 * span
        fig.add_scatter(x=[rank, rank, end], y=[0.0, y, y], mode="lines+markers+text", name=name,
                        meta="classifier", line=dict(color=CLASSIFIER_COLOUR, width=1.2),
                        marker=dict(size=[8, 0, 0], color=CLASSIFIER_COLOUR),
                        text=["", "", f"{name} ({rank:.2f})" if left else f"({rank:.2f}) {name}"],
                        textposition="middle left" if left else "middle right", cliponaxis=False,
                        hovertemplate=f"{name}: average rank {rank:.3f}<extra></extra>")

    n_levels = max(n_left, k - n_left)
    bottom = label_top - LABEL_STEP * (n_levels - 1) - 0.25
    margin_x = max(0.8, 0.45 * span)
    fig.update_layout(
        title=title if title is not None else f"Average ranks (1 = best); CD = {cd:.3g}",
        showlegend=False, template="plotly_white", height=int(170 + 26 * (n_levels + len(groups))),
        margin=dict(l=20, r=20, t=50, b=10),
        xaxis=dict(visible=False, range=[lo - margin_x, max(hi, lo + cd) + margin_x]),
        yaxis=dict(visible=False, range=[bottom, cd_y + 0.35]),
    )
    return fig
