"""The lessons' own figure helpers: a long title is wrapped on a new figure, the shared one untouched; every
step's figure is a valid plotly figure for several seeds and widget values."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from app_support.lessons.catalogue import lessons
from app_support.lessons.figures import bars, narrow_title


def test_a_long_title_is_wrapped_on_a_copy():
    figure = bars(
        ["a", "b"], [0.2, 0.8], title="A title far too long to fit on a phone's narrow screen", y_title="p"
    )
    wrapped = narrow_title(figure)
    assert "<br>" in wrapped.layout.title.text and "<br>" not in figure.layout.title.text
    assert wrapped.layout.title.text.replace("<br>", " ") == figure.layout.title.text
    short = bars(["a"], [1.0], title="Short", y_title="p")
    assert narrow_title(short) is short


@pytest.mark.parametrize("lesson", lessons(), ids=lambda lesson: lesson.id)
def test_every_step_figure_is_valid_at_both_ends_of_its_widget(lesson):
    for step in lesson.steps:
        params = step.question.generate(1).params
        for value in (step.widget.lo, step.widget.hi) if step.widget.kind == "slider" else (True, False):
            figure = narrow_title(step.figure({**params, step.widget.name: value}))
            go.Figure(figure.to_dict())  # plotly validates the specification
