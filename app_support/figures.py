"""Figure helpers shared by the pages' figure builders (each page's own are in ``app_support/<page>/``):
figures declared as plain dicts, plotly's typed arrays, a figure shared by every session, and what every
chart is shown with (:data:`PLOTLY_CONFIG`, :func:`for_screen`; ``app_support.page.show_chart`` applies
both).  Never imports streamlit, does no credal mathematics."""

from __future__ import annotations

import base64
import functools
import re
import threading

import numpy as np
import plotly.graph_objects as go
import plotly.io


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


# A shared figure's dict never changes, so what st.plotly_chart derives from it on every rerun is kept with
# it: its JSON (plotly.io.to_json, called by Streamlit with validate=False, encodes, parses and encodes the
# dict again in Python: a seventh of a cached rerun's CPU on Credal model averaging) and what for_screen
# makes of it. Keyed by the dict's id, with the dict kept beside it (so the id is never reused by another
# object); the oldest entries go beyond SHARED_ENTRIES.
SHARED_ENTRIES = 1024
_SHARED: dict[int, tuple[dict, dict]] = {}           # id(spec) -> (spec, {"json": …, screen key: figure})
_SHARED_LOCK = threading.Lock()
_PLOTLY_TO_JSON = plotly.io.to_json


def _share(spec: dict) -> None:
    with _SHARED_LOCK:
        while len(_SHARED) >= SHARED_ENTRIES:
            _SHARED.pop(next(iter(_SHARED)))
        _SHARED.setdefault(id(spec), (spec, {}))


def _kept(spec) -> dict | None:
    """What is kept with a shared figure's dict (None for any other object)."""
    entry = _SHARED.get(id(spec))
    return entry[1] if entry is not None and entry[0] is spec else None


def _to_json(fig, *args, **kwargs):
    """``plotly.io.to_json``; for a shared figure's dict called as Streamlit calls it, computed once."""
    kept = _kept(fig) if not args and kwargs == {"validate": False} else None
    if kept is None:
        return _PLOTLY_TO_JSON(fig, *args, **kwargs)
    if "json" not in kept:
        kept["json"] = _PLOTLY_TO_JSON(fig, validate=False)
    return kept["json"]


plotly.io.to_json = _to_json         # Streamlit looks it up on every call (plotly_chart: plotly.io.to_json)


def shared_figure(fig: go.Figure) -> go.Figure:
    """``fig`` with its plotly dict computed once, for a figure cached and shown to every session:
    ``st.plotly_chart`` reads a figure through ``to_dict``, which otherwise deep-copies it on each rerun;
    its JSON and :func:`for_screen`'s figures of it are computed once too.  The figure must not be
    changed afterwards (a :class:`DeclaredFigure` is already so)."""
    if not isinstance(fig, DeclaredFigure):
        spec = fig.to_dict()
        fig.to_dict = lambda: spec
    _share(fig.to_dict())
    return fig


# every chart's plotly config (through app_support.page.show_chart): the mode bar only while a mouse hovers
# (the app's style sheet hides it on touch screens and narrow windows, where it covered titles and
# legends), no plotly logo, no lasso / box select (nothing on the pages reads a selection)
PLOTLY_CONFIG = {"displayModeBar": "hover", "displaylogo": False, "responsive": True,
                 "modeBarButtonsToRemove": ["lasso2d", "select2d", "autoScale2d"]}
TITLE_WIDTH = 44             # characters per title line: a phone's 390 px at plotly's title font
LINE_PX = 22                 # height of one more title line
PRESENT_HEIGHT = 460         # a chart's height at most in presentation mode: beside its widget within 720 px
PRESENT_FONT = 14            # and its base font (plotly's default is 12)
TITLE_FONT = 16              # the title's size, fixed: the pad below is measured at it (Streamlit's theme
                             # sizes it from the page's type, larger in presentation mode)
_TAG = re.compile(r"<[^>]*>")


def wrap_title(text: str, width: int = TITLE_WIDTH) -> str:
    """``text`` broken with ``<br>`` at spaces into lines of at most ``width`` visible characters (markup
    such as ``<b>`` is not counted and never split); a text that already has a ``<br>`` is kept."""
    if "<br>" in text or len(_TAG.sub("", text)) <= width:
        return text
    # split at spaces outside tags
    words, depth, current = [], 0, ""
    for char in text:
        depth += (char == "<") - (char == ">")
        if char == " " and depth == 0:
            words.append(current)
            current = ""
        else:
            current += char
    words.append(current)
    lines, line = [], ""
    for word in words:
        candidate = f"{line} {word}" if line else word
        if line and len(_TAG.sub("", candidate)) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    lines.append(line)
    return "<br>".join(lines)


def _as_declared(spec: dict) -> DeclaredFigure:
    figure = DeclaredFigure.__new__(DeclaredFigure)
    figure._declared = spec
    return figure


def for_screen(figure: go.Figure, *, present: bool = False, width: int = TITLE_WIDTH,
               keep_height: bool = False) -> go.Figure:
    """``figure`` as every page shows it: a long title wrapped (:func:`wrap_title`) with the top margin
    grown by its extra lines and allowed to grow more (``automargin``); in presentation mode a larger
    font and a height of at most :data:`PRESENT_HEIGHT` (unless ``keep_height``: a drawing whose height
    follows its content, such as a tree, keeps it and scrolls).  A new figure (sharing the traces) when
    anything changes, else ``figure`` itself; the given one is never modified (it may be shared). For a
    :func:`shared_figure`, computed once per (present, width, keep_height) and shared in turn."""
    spec = figure.to_dict()
    kept = _kept(spec)
    if kept is None:
        return _for_screen(figure, spec, present, width, keep_height)
    key = ("screen", present, width, keep_height)
    if key not in kept:
        shown = _for_screen(figure, spec, present, width, keep_height)
        if shown is not figure:
            _share(shown.to_dict())
        kept[key] = shown
    return kept[key]


def _for_screen(figure: go.Figure, spec: dict, present: bool, width: int, keep_height: bool) -> go.Figure:
    layout = dict(spec.get("layout") or {})
    title = layout.get("title")
    title = {"text": title} if isinstance(title, str) else dict(title or {})
    text = title.get("text") or ""
    wrapped = wrap_title(text, width) if text else text
    if wrapped == text and not present:
        return figure
    if wrapped != text:
        extra = wrapped.count("<br>") - text.count("<br>")
        margin = dict(layout.get("margin") or {})
        margin["t"] = int(margin.get("t", 80)) + LINE_PX * extra
        layout["margin"] = margin
        if layout.get("height"):
            layout["height"] = int(layout["height"]) + LINE_PX * extra
        # hung from the container's top (centred in the margin, its first line went above the chart); plotly
        # lifts a title's first line by about a line per extra line even so: the pad gives that back
        title.update(text=wrapped, automargin=True, yref="container", y=1, yanchor="top",
                     pad={"t": 8 + LINE_PX * extra}, font={**(title.get("font") or {}), "size": TITLE_FONT})
        layout["title"] = title
    if present:
        if not keep_height:
            layout["height"] = min(int(layout.get("height") or 450), PRESENT_HEIGHT)
        layout["font"] = {**(layout.get("font") or {}), "size": PRESENT_FONT}
    return _as_declared({**spec, "layout": layout})
