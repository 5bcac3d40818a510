"""The Determinacy page's figure builders: the points are the summary's means and the error bars its
standard deviations over the runs (the product's one rule, as the Compare page's figures), named in
every figure's title (the Compare page's figures: tests/app_support/compare/test_compare_figures.py)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from app_support.determinacy_curves.figures import (
    INDICATOR_LABELS,
    SPREAD,
    determinacy_vs_d_figure,
    indicator_vs_parameter_figure,
)
from credal_core.experiments import ClassifierGrid, artificial_experiment, summarise


@pytest.fixture(scope="module")
def summary() -> pd.DataFrame:
    runs = artificial_experiment(sample_sizes=(25, 50), n_theta=2, n_train=3, n_test=200, seed=1,
                                 grid=ClassifierGrid(epsilons=(0.05, 0.25), alphas=(0.55, 0.75)))
    return summarise(runs)


def _rows(summary: pd.DataFrame, **where) -> pd.DataFrame:
    mask = np.ones(len(summary), dtype=bool)
    for column, value in where.items():
        mask &= (summary[column] == value).to_numpy()
    return summary[mask]


@pytest.mark.parametrize("indicator", ["determinacy", "single_accuracy", "indeterminate_size"])
def test_fig5_bars_are_the_standard_deviation_over_runs(summary, indicator):
    scale = 1 if indicator == "indeterminate_size" else 100
    figure = determinacy_vs_d_figure(summary, indicator)
    assert SPREAD in figure.layout.xaxis.title.text and SPREAD == "mean ± sd over runs"     # the bars' rule
    assert len(figure.data) == 4
    for trace in figure.data:
        line = _rows(summary, setting=trace.name).sort_values("d")
        assert (line[f"{indicator}_runs"] > 1).any()            # a standard error would be smaller
        np.testing.assert_allclose(trace.y, scale * line[f"{indicator}_mean"])
        np.testing.assert_allclose(trace.error_y.array, scale * line[f"{indicator}_std"], equal_nan=True)


@pytest.mark.parametrize("indicator", list(INDICATOR_LABELS))
def test_parameter_figure_bars_are_the_standard_deviation_over_runs(summary, indicator):
    scale = 1 if indicator == "indeterminate_size" else 100
    figure = indicator_vs_parameter_figure(summary, indicator)
    assert SPREAD in figure.layout.title.text
    for trace in figure.data:
        key = "epsilon" if trace.meta == "NCC" else "alpha"
        line = _rows(summary, classifier=trace.meta, d=int(trace.name.removeprefix("d = "))).sort_values(key)
        np.testing.assert_allclose(trace.y, scale * line[f"{indicator}_mean"], equal_nan=True)
        np.testing.assert_allclose(trace.error_y.array, scale * line[f"{indicator}_std"], equal_nan=True)
