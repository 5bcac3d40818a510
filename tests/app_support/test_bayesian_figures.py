"""The simplex of the Bayesian signed-rank test and the coverage/determinacy scatter: points where the
definitions put them, region counts equal to the test's probabilities."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from app_support.bayesian_figures import CORNERS, coverage_determinacy_figure, simplex_figure, simplex_points


def test_a_certain_draw_sits_on_its_corner_and_the_centre_is_the_mean():
    np.testing.assert_allclose(simplex_points(np.eye(3)), CORNERS)
    np.testing.assert_allclose(simplex_points([[1 / 3] * 3]), [CORNERS.mean(axis=0)])
    with pytest.raises(ValueError, match=r"\(n, 3\)"):
        simplex_points(np.ones((4, 2)))


def test_the_legend_gives_each_regions_share_and_every_draw_is_drawn_once():
    rng = np.random.default_rng(2)
    sample = rng.dirichlet([2, 1, 3], 500)
    fig = simplex_figure(sample, ("NBC", "NCC"), rope=0.01)
    markers = [t for t in fig.data if t.mode == "markers"]
    assert sum(len(t.x) for t in markers) == 500
    shares = np.bincount(sample.argmax(axis=1), minlength=3) / 500
    for trace, share in zip(markers, shares):
        assert trace.name.endswith(f"P = {share:.3f}")
        region = markers.index(trace)
        xy = np.column_stack([trace.x, trace.y])
        np.testing.assert_allclose(xy, simplex_points(sample[sample.argmax(axis=1) == region]))
    assert markers[0].name.startswith("NBC better") and "rope ±0.01" in markers[1].name


def test_coverage_scatter_has_one_point_per_classifier_in_percent():
    summary = pd.DataFrame({"classifier": ["NCC", "conformal-NBC"], "determinacy_mean": [0.9, 0.5],
                            "determinacy_std": [0.01, np.nan], "coverage_mean": [0.8, 0.92],
                            "coverage_std": [0.02, 0.03]})
    fig = coverage_determinacy_figure(summary)
    assert [(t.x[0], t.y[0]) for t in fig.data] == [(90.0, 80.0), (50.0, 92.0)]
    assert fig.data[1].error_x.array[0] == 0.0
