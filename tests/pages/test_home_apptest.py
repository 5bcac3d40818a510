"""Headless tests of the home page with streamlit.testing.v1.AppTest (no browser)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _apptest import open_page
from streamlit.testing.v1 import AppTest

from app_support.data import load_sample
from credal_core import NCC

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 60


def run_app(query: dict[str, str] | None = None) -> AppTest:
    return open_page(APP, query, TIMEOUT)


def metric(at: AppTest, label: str) -> str:
    for m in at.metric:
        if m.label == label:
            return m.value
    raise AssertionError(f"no metric {label!r}; have {[m.label for m in at.metric]}")


def test_home_loads_with_formula_slider_metrics_and_chart():
    at = run_app()
    assert at.title[0].value == "Credal classification explorer"
    assert any(r"\inf_{t \in \mathcal{T}}" in x.value for x in at.latex)
    assert at.slider(key="home_s").value == pytest.approx(2.0)
    assert len(at.metric) == 4
    for m in at.metric:
        assert m.value.endswith("%") or m.value == "—"
        assert "nan" not in m.value.lower()
    assert at.get("plotly_chart"), "the set-size bar chart is shown"
    links = " ".join(str(link.proto.label) for link in at.get("page_link"))
    for page in ("Profile likelihood", "Intervals vs N", "Determinacy curves", "AODE compression weights",
                 "Classifier selection", "Compare on your data", "Missing values"):
        assert page in links


def test_moving_s_changes_determinacy_and_url():
    at = run_app()
    before = metric(at, "NCC determinacy")
    at.slider(key="home_s").set_value(10.0).run()
    assert not at.exception
    after = metric(at, "NCC determinacy")
    assert after != before
    # more hidden instances -> more caution -> no more determinate answers than before
    assert float(after.rstrip("%")) <= float(before.rstrip("%"))
    assert at.query_params.get("s") == "10"


def test_shared_link_sets_the_slider_and_the_view():
    at = run_app({"s": "7.5"})
    assert at.slider(key="home_s").value == pytest.approx(7.5)
    default = run_app()
    assert metric(at, "NCC determinacy") != metric(default, "NCC determinacy")
    default.slider(key="home_s").set_value(7.5).run()   # the same view as the link's
    assert dict(default.query_params) == {"s": "7.5"}
    assert [m.value for m in default.metric] == [m.value for m in at.metric]
    # the page's shared grid (one NCC fit, its s moved) gives what an NCC fitted at s = 7.5 gives
    X, y = load_sample("synthetic_nb")
    sets = NCC(s=7.5).fit(X.iloc[:200], y.iloc[:200]).predict_set(X.iloc[200:])
    assert metric(at, "NCC determinacy") == f"{100 * (sets.sum(axis=1) == 1).mean():.0f}%"


def test_links_to_every_other_page_of_the_registry_in_navigation_order():
    from app_support.registry import by_section

    at = run_app()
    links = at.get("page_link")
    expected = [entry for section, group in by_section().items() for entry in group if not entry.default]
    assert [link.proto.label for link in links] == [f"{e.title}: {e.description}" for e in expected]
    assert [link.proto.icon for link in links] == [e.icon for e in expected]
    headers = [h.value for h in at.subheader]
    assert [s for s in by_section() if s] == [h for h in headers if h in by_section()]


def test_present_mode_from_the_url_and_the_sidebar_toggle():
    """?present=1 turns presentation mode on (the toggle shows it, the style sheet grows the type, a moved
    slider's link keeps it); the toggle turns it off and takes it out of the link."""
    from app_support.style import PRESENT_CSS

    def styles(at):
        return " ".join(str(h.proto.body) for h in at.get("html"))

    at = run_app({"present": "1"})
    toggle = at.sidebar.toggle(key="present_mode")
    assert toggle.value is True
    assert PRESENT_CSS.strip() in styles(at)
    at.slider(key="home_s").set_value(3.0).run()
    assert at.query_params.get("present") in ("1", ["1"]) and at.query_params.get("s") in ("3", "3.0", ["3"])
    at.sidebar.toggle(key="present_mode").set_value(False).run()
    assert "present" not in at.query_params
    assert PRESENT_CSS.strip() not in styles(at)
    plain = run_app()
    assert plain.sidebar.toggle(key="present_mode").value is False
    assert PRESENT_CSS.strip() not in styles(plain) and "katex-display" in styles(plain)


def test_home_links_lesson_1_and_the_step_on_a_larger_s():
    import re
    import urllib.parse

    from app_support.lessons.catalogue import lessons

    at = run_app()
    links = [dict(urllib.parse.parse_qsl(q)) for m in at.markdown
             for q in re.findall(r"\]\(/lessons\?([^)]+)\)", m.value)]
    first = lessons()[0]
    assert [(q["lesson"], int(q["step"])) for q in links] == [(first.id, 1), (first.id, 5)]
    assert "larger" in first.steps[4].title.lower()                 # the step that explains it
