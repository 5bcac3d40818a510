"""Shared by the page benchmarks: AppTest rendering, timing, and the trivial-script baseline."""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

TIMEOUT = 60
FIRST_RENDER_TARGET = 2.0
RERUN_TARGET = 0.3
BASELINE_SCRIPT = """
import streamlit as st
st.title("baseline")
st.slider("x", 0.0, 1.0, 0.5, key="x")
"""


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def checked(at: AppTest) -> AppTest:
    if at.exception:
        raise RuntimeError([e.value for e in at.exception])
    return at


def render(path: str, query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(path, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    return checked(at.run())


def baseline_times(repeat: int) -> tuple[float, float]:
    """Best first render and best slider re-run of a trivial script, measured in this process."""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "baseline.py")
        Path(path).write_text(BASELINE_SCRIPT)
        render(path)  # warm-up: streamlit's own imports
        first = min(timed(lambda: render(path)) for _ in range(repeat))
        at = render(path)
        rerun = min(timed(lambda v=v: at.slider(key="x").set_value(v).run())
                    for v in (0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9)[:repeat])
    return first, rerun
