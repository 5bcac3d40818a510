"""The AODE page's cached computations: the comparison is the evaluation engine's, nothing else."""
from __future__ import annotations

import contextlib

import numpy as np
import pandas as pd
import plotly.io as pio
import plotly.tools as tools
import pytest

import app_support.cache_aode as cache
from app_support.data import load_sample
from app_support.figures_aode import shared_figure, weights_figure
from credal_core.experiments.compare import compare_classifiers, summarise_comparison


def test_the_five_classifiers_carry_the_pages_epsilon_where_they_have_one():
    specs = cache.aode_specs(0.03)
    assert tuple(s.label for s in specs) == cache.AODE_FAMILY
    with_eps = {s.label for s in specs if s.params.get("epsilon") == 0.03}
    assert with_eps == {"COMP-AODE", "BMA-AODE*", "COMP-AODE*"}
    assert all("epsilon" not in s.params for s in specs if s.label in ("AODE", "BMA-AODE"))
    assert specs[4].make().epsilon == 0.03


def test_the_comparison_is_the_engines_mean_over_folds(monkeypatch):
    @contextlib.contextmanager
    def here(what):            # no worker processes in a unit test: the engine runs in this process
        yield None

    monkeypatch.setattr(cache, "queued_job", here)
    got = cache.comparison("weather", 0.02, 3, 2)
    X, y = load_sample("weather")
    runs = compare_classifiers(X, y, specs=cache.aode_specs(0.02), n_splits=3, n_repeats=2, seed=0)
    pd.testing.assert_frame_equal(got, summarise_comparison(runs))
    assert got["classifier"].tolist() == list(cache.AODE_FAMILY) and (got["folds"] == 6).all()
    per_fold = runs[runs["classifier"] == "BMA-AODE*"]["u65"]
    # the mean of the folds' u65, not u65 of all predictions pooled
    assert got.set_index("classifier").loc["BMA-AODE*", "u65_mean"] == pytest.approx(per_fold.mean())
    view = cache.comparison_view(got)
    assert view.columns.tolist() == ["classifier", "accuracy", "brier", "determinacy", "single acc.",
                                     "set acc.", "indet. size", "disc. acc.", "u65", "u80", "folds"]
    assert "±" in view.loc[0, "accuracy"] and "nan" not in view.to_string().lower()


def test_cells_say_mean_and_sd_or_a_dash():
    summary = pd.DataFrame({"classifier": ["a"], "folds": [3],
                            **{f"{k}_{w}": [v] for k in cache.SHOWN_INDICATORS
                               for w, v in (("mean", 0.5), ("std", 0.1))}})
    summary["set_accuracy_mean"], summary["u65_std"] = np.nan, np.nan
    row = cache.comparison_view(summary).iloc[0]
    assert row["accuracy"] == "0.500 ± 0.100" and row["set acc."] == "—" and row["u65"] == "0.500"


def test_a_shared_figure_sends_the_same_chart():
    X, y = load_sample("weather")
    table = pd.DataFrame({"super_parent": list(X.columns), "bma_weight": [0.1, 0.2, 0.3, 0.4],
                          "comp_weight": [0.25] * 4})
    plain, shared = weights_figure(table), shared_figure(weights_figure(table))

    def sent(fig):           # what st.plotly_chart puts in the page
        return pio.to_json(tools.return_figure_from_figure_or_data(fig, validate_figure=True), validate=False)

    assert sent(shared) == sent(plain)
    assert shared.to_dict() is shared.to_dict()          # built once
