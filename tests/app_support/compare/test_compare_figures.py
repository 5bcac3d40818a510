"""The Compare page's figure builders name and use the product's one rule: mean ± sd over the folds (as the
Determinacy page's figures do over the runs)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from app_support.compare.figures import determinacy_accuracy_figure, utilities_figure


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
