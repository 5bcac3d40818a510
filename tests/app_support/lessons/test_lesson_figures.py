"""The lessons' own figure helpers (declared figures that send what plotly validates) and every step's
figure as shown (title wrapped for a phone), valid for several widget values."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from app_support.figures import TITLE_WIDTH, for_screen
from app_support.lessons.catalogue import lessons
from app_support.lessons.figures import bars, curve
from tests.app_support.test_declared_figures import same_chart


def test_bars_and_curves_send_what_plotly_validates():
    same_chart(bars(["a", "b"], [0.2, 0.8], title="Two bars", y_title="p"))
    same_chart(bars(["a"], [3.0], title="No range", y_title="p", y_range=None))
    same_chart(curve([1, 2, 3], [0.1, 1.0, 10.0], title="A curve", x_title="x", y_title="y", hline=1.0,
                     hline_name="one", mark=2.0, log_y=True))
    same_chart(curve([1, 2], None, band=([0.1, 0.2], [0.5, 0.6]), band_name="band", title="A band",
                     x_title="x", y_title="y", y_range=(0, 1)))


def test_a_long_title_is_wrapped_as_every_chart_is_and_the_shared_figure_is_untouched():
    text = "A title far too long to fit on a phone's narrow screen"
    figure = bars(["a", "b"], [0.2, 0.8], title=text, y_title="p")
    shown = for_screen(figure)
    assert "<br>" in shown.to_dict()["layout"]["title"]["text"]
    assert shown.to_dict()["layout"]["title"]["text"].replace("<br>", " ") == text
    assert figure.to_dict()["layout"]["title"]["text"] == text
    assert all(len(line) <= TITLE_WIDTH for line in shown.to_dict()["layout"]["title"]["text"].split("<br>"))


@pytest.mark.parametrize("lesson", lessons(), ids=lambda lesson: lesson.id)
def test_every_step_figure_is_valid_at_both_ends_of_its_widget(lesson):
    for step in lesson.steps:
        params = step.question.generate(1).params
        for value in (step.widget.lo, step.widget.hi) if step.widget.kind == "slider" else (True, False):
            figure = for_screen(step.figure({**params, step.widget.name: value}))
            go.Figure(figure.to_dict())  # plotly validates the specification
