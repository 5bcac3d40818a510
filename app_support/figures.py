"""Plain plotly figure builders for the pages. They take arrays, return ``go.Figure``, never import
streamlit, and do no credal mathematics themselves."""

from __future__ import annotations

import base64
import functools

import numpy as np
import plotly.graph_objects as go


@functools.cache
def default_template() -> dict:
    """The layout template a validated ``go.Figure`` carries (plotly's default), as a plain dict, once."""
    return go.Figure().to_dict()["layout"]["template"]


def typed_array(values) -> dict:
    """A float array as plotly's typed array (base64 of float64), as a validated figure sends it."""
    data = np.ascontiguousarray(values, dtype="<f8")
    return {"dtype": "f8", "bdata": base64.b64encode(data.tobytes()).decode()}


class DeclaredFigure(go.Figure):
    """A figure given as plain dicts and sent as they are: ``st.plotly_chart`` reads a figure through
    ``to_dict``, and this one returns its specification without plotly's validation and deep copies
    (several milliseconds per figure; a figure built on a slider move pays them on every new value).

    The layout gets the template a validated figure carries, so the page receives the same chart;
    tests check each builder's figure against ``go.Figure(spec)`` (plotly validates it there).
    :meth:`validated` gives the ordinary figure (e.g. for an HTML export).  Read only: the dicts are
    shared with every session that shows the figure.
    """

    def __init__(self, data: list[dict], layout: dict):    # noqa: D107 - go.Figure's own init is skipped
        self._declared = {"data": data, "layout": {**layout, "template": default_template()}}

    def to_dict(self) -> dict:
        return self._declared

    def to_plotly_json(self) -> dict:
        return self._declared

    def validated(self) -> go.Figure:
        """The same figure as an ordinary, validated ``go.Figure``."""
        return go.Figure(self._declared)

    @property
    def data(self):
        """The traces, validated (a copy: read only)."""
        return self.validated().data

    @property
    def layout(self):
        """The layout, validated (a copy: read only)."""
        return self.validated().layout

    def __repr__(self) -> str:
        return f"DeclaredFigure({len(self._declared['data'])} traces)"


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
                for label, mask, colour in (("set contains the true class", hit, "#4c78a8"),
                                            ("set misses the true class", ~hit, "#e45756"))]
        layout.update(barmode="stack", legend=dict(orientation="h", traceorder="normal", y=1.0,
                                                   yanchor="bottom", x=1, xanchor="right"))
    return go.Figure(data=[dict(type="bar", **bar) for bar in bars], layout=layout)
