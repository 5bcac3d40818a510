"""Figure helpers shared by the pages' figure builders (each page's own are in ``app_support/<page>/``):
figures declared as plain dicts, plotly's typed arrays, a figure shared by every session.  Never
imports streamlit, does no credal mathematics."""

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


def shared_figure(fig: go.Figure) -> go.Figure:
    """``fig`` with its plotly dict computed once, for a figure cached and shown to every session:
    ``st.plotly_chart`` reads a figure through ``to_dict``, which otherwise deep-copies it on each
    rerun.  The figure must not be changed afterwards (a :class:`DeclaredFigure` is already so)."""
    if isinstance(fig, DeclaredFigure):
        return fig
    spec = fig.to_dict()
    fig.to_dict = lambda: spec
    return fig
