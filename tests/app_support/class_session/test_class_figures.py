"""The class session's figures: the bars / histogram of the class's answers (right answer marked only after
the reveal), the pooled experiment histogram, and the join link's QR code (a PNG whose modules are the QR
matrix of the link)."""
from __future__ import annotations

import io

import numpy as np
import pytest

from app_support.class_session.figures import ORANGE, answers_figure, pooled_figure, qr_png
from app_support.class_session.logic import Tally


def _bars(fig):
    (trace,) = fig.data
    return trace


@pytest.mark.parametrize("revealed", [False, True])
def test_choice_bars_show_every_count_and_mark_the_right_one_only_after_the_reveal(revealed):
    result = Tally("choice", ("yes", "no", "maybe"), (5, 2, 0), right="no")
    bars = _bars(answers_figure(result, revealed=revealed))
    assert list(bars.x) == ["yes", "no", "maybe"] and list(bars.y) == [5, 2, 0]
    marked = [color == ORANGE for color in bars.marker.color]
    assert marked == [False, revealed, False]
    assert [("right" in t) for t in bars.text] == [False, revealed, False]
    assert [shape == "/" for shape in bars.marker.pattern.shape] == marked, "not by colour alone"


def test_number_answers_make_a_histogram_with_the_right_value_marked_after_the_reveal():
    result = Tally("number", values=(0.2, 0.25, 0.25, 0.4), right=0.25)
    before = answers_figure(result, revealed=False)
    after = answers_figure(result, revealed=True)
    assert list(_bars(before).x) == [0.2, 0.25, 0.25, 0.4]
    assert not before.layout.shapes
    (line,) = after.layout.shapes
    assert line.x0 == line.x1 == 0.25
    bins = _bars(after).xbins
    assert bins.start < 0.2 and bins.end > 0.4


def test_no_answers_yet_draws_an_empty_chart():
    bars = _bars(answers_figure(Tally("choice", ("a", "b"), (0, 0), right="a"), revealed=True))
    assert list(bars.y) == [0, 0]
    assert _bars(answers_figure(Tally("number", values=()), revealed=False)).x in (None, ())


def test_the_pooled_histogram_holds_every_result_and_marks_mine():
    values = [0.5, 0.6, 0.6, 0.9]
    fig = pooled_figure(values, mine=0.6, label="determinacy")
    assert list(_bars(fig).x) == values
    assert "4 so far" in fig.layout.title.text
    (line,) = fig.layout.shapes
    assert line.x0 == 0.6
    assert any(f"{np.mean(values):.3g}" in a.text for a in fig.layout.annotations)
    assert not pooled_figure([], label="x").layout.shapes


def test_the_qr_code_is_a_png_of_the_link_s_qr_matrix():
    PIL = pytest.importorskip("PIL.Image")
    import segno

    url = "http://127.0.0.1:8501/class?code=ABCD2345"
    scale, border = 8, 4
    image = PIL.open(io.BytesIO(qr_png(url, scale=scale))).convert("L")
    matrix = np.array(segno.make(url, error="m", micro=False).matrix, dtype=bool)
    size = (matrix.shape[0] + 2 * border) * scale
    assert image.size == (size, size)
    pixels = np.array(image)
    centres = pixels[border * scale + scale // 2::scale, border * scale + scale // 2::scale]
    centres = centres[:matrix.shape[0], :matrix.shape[1]]
    assert np.array_equal(centres < 128, matrix), "dark modules where the QR matrix has them"
    assert (pixels[:border * scale] > 128).all(), "a white quiet zone"
    # finder patterns: the three 7x7 corners every QR code has
    for r, c in ((0, 0), (0, matrix.shape[1] - 7), (matrix.shape[0] - 7, 0)):
        corner = matrix[r:r + 7, c:c + 7]
        assert corner[0].all() and corner[:, 0].all() and corner[2:5, 2:5].all() and not corner[1, 1:6].any()
