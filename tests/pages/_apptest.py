"""Shared by the AppTest page tests: open a page (or the app) with URL parameters, read its plotly charts."""

from __future__ import annotations

import base64
import json
import re

import numpy as np
from streamlit.testing.v1 import AppTest


def plotly_array(data) -> np.ndarray:
    """A plotly JSON array: a plain list, or plotly's typed-array form {"dtype", "bdata"}."""
    if isinstance(data, dict):
        return np.frombuffer(base64.b64decode(data["bdata"]), dtype=np.dtype(data["dtype"]))
    if any(isinstance(v, str) for v in data):          # category names on an axis
        return np.asarray(data, dtype=object)
    return np.asarray(data, dtype=float)


def chart_traces(at: AppTest, key: str) -> list[dict]:
    """The traces of the plotly chart with ``key``, x and y decoded to arrays."""
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}")]
    assert len(charts) == 1, [c.proto.id for c in at.get("plotly_chart")]
    data = json.loads(charts[0].proto.spec)["data"]
    for trace in data:
        trace["x"], trace["y"] = plotly_array(trace["x"]), plotly_array(trace["y"])
    return data


def open_page(path: str, query: dict[str, str] | None = None, timeout: float = 60) -> AppTest:
    """Run the script at ``path`` once with these URL parameters; it must not raise."""
    at = AppTest.from_file(path, default_timeout=timeout)
    if query:
        at.query_params.update(query)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


PAPER_LINK = re.compile(r'\[([^\]]*)\]\(/references#paper-\d{3} "[^"]*"\)')


def unlinked(text: str) -> str:
    """``text`` with the paper citations' links (``app_support.text.cite``) read as their words."""
    return PAPER_LINK.sub(r"\1", text)
