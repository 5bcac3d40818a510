"""What every chart is shown with (app_support.figures.PLOTLY_CONFIG, for_screen, wrap_title): no browser."""
from __future__ import annotations

import re

import plotly.graph_objects as go
import pytest

from app_support.figures import (
    PLOTLY_CONFIG,
    PRESENT_FONT,
    PRESENT_HEIGHT,
    TITLE_WIDTH,
    DeclaredFigure,
    for_screen,
    wrap_title,
)

LONG = "Determinacy against the sample size d (000 Fig. 5; mean ± sd over runs of the experiment)"


def visible(line: str) -> str:
    return re.sub(r"<[^>]*>", "", line)


@pytest.mark.parametrize("text", [LONG, "<b>" + LONG + "</b>", "a " * 60, "x" * 80 + " y"])
def test_a_long_title_is_broken_at_spaces_into_lines_that_fit(text):
    wrapped = wrap_title(text)
    lines = wrapped.split("<br>")
    assert len(lines) >= 2
    assert wrapped.replace("<br>", " ") == text.strip() or wrapped.replace("<br>", " ") == text
    for line in lines:                     # a single word longer than the width stays whole
        assert len(visible(line)) <= TITLE_WIDTH or " " not in visible(line)


def test_a_short_title_or_one_already_broken_is_kept():
    assert wrap_title("Short title") == "Short title"
    assert wrap_title(LONG[:30] + "<br>" + LONG) == LONG[:30] + "<br>" + LONG


def test_markup_is_never_split_and_not_counted():
    text = '<span style="color: red">' + "word " * 12 + "</span>"
    wrapped = wrap_title(text)
    assert '<span style="color: red">' in wrapped          # the tag's own space is not a break
    assert all(len(visible(line)) <= TITLE_WIDTH for line in wrapped.split("<br>"))


def test_for_screen_wraps_the_title_grows_the_margin_and_leaves_the_figure_alone():
    figure = go.Figure(go.Scatter(x=[1, 2], y=[3, 4]), layout=dict(title=dict(text=LONG, x=0),
                                                                     margin=dict(t=50), height=300))
    before = figure.to_dict()
    shown = for_screen(figure)
    layout = shown.to_dict()["layout"]
    extra = layout["title"]["text"].count("<br>")
    assert extra >= 1 and layout["title"]["x"] == 0 and layout["title"]["automargin"]
    assert layout["margin"]["t"] > 50 and layout["height"] > 300
    assert figure.to_dict() == before                        # the given (maybe shared) figure untouched
    assert shown.to_dict()["data"] == before["data"]
    go.Figure(shown.to_dict())                               # plotly accepts the new layout


def test_for_screen_returns_the_same_figure_when_nothing_changes():
    figure = go.Figure(layout=dict(title=dict(text="Short")))
    assert for_screen(figure) is figure
    declared = DeclaredFigure([], {"title": {"text": "Short"}})
    assert for_screen(declared) is declared


def test_present_mode_lowers_the_chart_and_enlarges_its_type():
    tall = go.Figure(layout=dict(height=900, title="Short"))
    shown = for_screen(tall, present=True).to_dict()["layout"]
    assert shown["height"] == PRESENT_HEIGHT and shown["font"]["size"] == PRESENT_FONT
    low = for_screen(go.Figure(layout=dict(height=200)), present=True).to_dict()["layout"]
    assert low["height"] == 200


def test_keep_height_leaves_a_tall_drawing_its_height_in_present_mode():
    tall = go.Figure(layout=dict(height=900, title="A tree"))
    shown = for_screen(tall, present=True, keep_height=True).to_dict()["layout"]
    assert shown["height"] == 900 and shown["font"]["size"] == PRESENT_FONT


def test_the_chart_config_shows_the_mode_bar_only_on_hover_without_the_logo():
    assert PLOTLY_CONFIG["displayModeBar"] == "hover" and PLOTLY_CONFIG["displaylogo"] is False


def _declared(title: str = LONG) -> DeclaredFigure:
    return DeclaredFigure([{"type": "scatter", "x": [0.0, 1.0], "y": [2.0, float("nan")], "name": "line"}],
                          {"title": {"text": title}, "height": 600})


@pytest.mark.parametrize("present", [False, True])
def test_a_shared_figures_json_and_screen_figure_are_computed_once_and_equal_plotlys(present):
    """st.plotly_chart calls plotly.io.to_json(dict, validate=False) on every rerun: for a shared figure
    the same text as plotly's own encoder, computed once; any other figure still goes to plotly."""
    import plotly.io

    from app_support import figures

    fresh, shared = _declared(), figures.shared_figure(_declared())
    shown = for_screen(shared, present=present)
    assert for_screen(shared, present=present) is shown                       # computed once
    first = plotly.io.to_json(shown.to_dict(), validate=False)
    # as for an unshared figure (compared as JSON: the NaN, sent as null, is not equal to itself in a dict)
    assert first == figures._PLOTLY_TO_JSON(for_screen(fresh, present=present).to_dict(), validate=False)
    assert '"y":[2.0,null]' in first
    assert plotly.io.to_json(shown.to_dict(), validate=False) is first
    other = for_screen(fresh, present=present).to_dict()
    assert plotly.io.to_json(other, validate=False) is not plotly.io.to_json(other, validate=False)
    assert plotly.io.to_json(shown.to_dict(), pretty=True) == figures._PLOTLY_TO_JSON(shown.to_dict(),
                                                                                     pretty=True)


def test_the_kept_figures_are_bounded(monkeypatch):
    from app_support import figures

    monkeypatch.setattr(figures, "SHARED_ENTRIES", 3)
    monkeypatch.setattr(figures, "_SHARED", {})
    kept = [figures.shared_figure(_declared(f"title {k}")) for k in range(5)]
    assert len(figures._SHARED) == 3
    assert [figures._kept(f.to_dict()) is not None for f in kept] == [False, False, True, True, True]


def test_streamlit_sends_the_kept_json():
    """The memo relies on st.plotly_chart looking plotly.io.to_json up on each call: the chart's spec on
    the page is the kept text (a Streamlit upgrade that changed this would fail here, not slow down)."""
    from streamlit.testing.v1 import AppTest

    def script():
        import streamlit as st

        from app_support import figures
        from app_support.figures import DeclaredFigure, shared_figure

        figure = shared_figure(DeclaredFigure([{"type": "bar", "x": [1, 2], "y": [3, 4]}], {"height": 300}))
        kept = figures._kept(figure.to_dict())
        st.plotly_chart(figure, key="chart")
        st.text(str("json" in kept and kept["json"]))

    at = AppTest.from_function(script, default_timeout=60).run()
    spec = at.get("plotly_chart")[0].proto.spec
    assert spec.startswith("{") and at.text[0].value == spec
