"""The Determinacy page's figure builders: the points are the summary's means and the error bars its
standard deviations over the runs (the product's one rule, as the Compare page's figures), named in
every figure's title."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from app_support.figures_compare import determinacy_accuracy_figure, utilities_figure
from app_support.figures_determinacy import (
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
    assert SPREAD in figure.layout.title.text and SPREAD == "mean ± sd over runs"
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


def test_compare_figures_name_and_use_the_same_rule():
    summary = pd.DataFrame({"classifier": ["NBC", "NCC"], "determinacy_mean": [1.0, 0.8],
                            "determinacy_std": [0.0, 0.1], "single_accuracy_mean": [0.7, 0.8],
                            "single_accuracy_std": [0.05, np.nan],
                            **{f"{k}_{w}": [0.7, 0.75] if w == "mean" else [0.02, 0.04]
                               for k in ("accuracy", "discounted_accuracy", "u65", "u80")
                               for w in ("mean", "std")}})
    scatter, bars = determinacy_accuracy_figure(summary), utilities_figure(summary)
    for figure in (scatter, bars):
        assert "mean ± sd over folds" in figure.layout.title.text
    assert list(scatter.data[1].error_x.array) == pytest.approx([10.0])
    assert list(scatter.data[1].error_y.array) == pytest.approx([0.0])      # one fold: no bar
    assert list(bars.data[0].error_y.array) == pytest.approx([2.0, 4.0])
