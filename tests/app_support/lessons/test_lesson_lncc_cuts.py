"""Lesson 3's α-cuts come from one pass over the α slider's values: each is ``PairProfile.alpha_cut`` of
that α alone, and the step's figure shows it."""
from __future__ import annotations

import numpy as np

from app_support.lessons import lesson_lncc
from app_support.lessons.problems import pair_params, random_pair
from app_support.profile_likelihood.figures import CUT_COLOURS
from credal_core.likelihood.pair_input import lncc_answer, paper_pairs


def _pairs():
    rng = np.random.default_rng(3)
    return [*paper_pairs().values(), *(random_pair(rng, features=k, lo=2, hi=10) for k in (1, 1, 2, 3))]


def test_the_grid_is_the_sliders():
    widget = lesson_lncc.ALPHA_WIDGET
    steps = round((widget.hi - widget.lo) / widget.step)
    assert lesson_lncc.ALPHA_GRID == tuple(round(widget.lo + i * widget.step, 2) for i in range(steps + 1))


def test_every_cut_is_alpha_cut_alone():
    for pair in _pairs():
        for include in (True, False):
            profile = pair.profile(include)
            for alpha in lesson_lncc.ALPHA_GRID[::7] + (0.23, 0.5, 1.0, 0.505):    # 0.505: off the grid
                np.testing.assert_array_equal(lesson_lncc.alpha_cut(pair, include, alpha),
                                              profile.alpha_cut(alpha))


def test_the_figure_shows_the_cut_and_the_verdict_of_its_alpha():
    for pair in _pairs()[:4]:
        for alpha in (0.0, 0.21, 0.5, 0.87):
            params = {**pair_params(pair), "alpha": alpha, "include_instance": True}
            traces = lesson_lncc.figure(params).to_dict()["data"]
            profile = pair.profile(True)
            cut = [t for t in traces if t["name"].endswith("(exact)")][0]
            assert cut["x"] == list(profile.alpha_cut(alpha)) and cut["y"] == [alpha, alpha]
            colour = CUT_COLOURS[lncc_answer(profile, alpha).returned]
            assert cut["line"]["color"] == colour
