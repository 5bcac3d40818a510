"""The Compare page's new views (issues 26 and 28) show the core's numbers: the optional classifiers'
specs, the Bayesian tests, 001 Figs. 5-7's frames and the reject option's costs, each against the core
called directly."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest

from app_support.compare.model import (
    ALL_CLASSIFIERS,
    D_GRID,
    DEFAULT_LABELS,
    OPTIONAL_CLASSIFIERS,
    bayesian_tests,
    fig5_frame,
    fig6_frame,
    fig7_views,
    reject_table,
    specs,
)
from app_support.data import load_sample
from credal_core.data.counts import labels_as_text
from credal_core.data.preparation import Preparation
from credal_core.experiments.compare import DEFAULT_CLASSIFIERS
from credal_core.experiments.engine import make_splits
from credal_core.model_averaging import CMA
from credal_core.reject import reject_costs_of
from credal_core.stats import across_datasets
from credal_core.stats_bayesian import correlated_t_tests, signed_rank_tests


def test_defaults_are_the_core_defaults_and_the_optional_ones_are_offered():
    assert DEFAULT_LABELS == tuple(s.label for s in DEFAULT_CLASSIFIERS)
    assert {"CMA", "CDT"} <= set(DEFAULT_LABELS)
    labels = {s.label for s in OPTIONAL_CLASSIFIERS}
    assert {"conformal-NBC", "Mondrian-NBC", "conformal-AODE", "Mondrian-AODE", "LTANC_α=0.75",
            "BMA (naive subsets)", "Tree (upper entropy)"} == labels
    assert len({s.label for s in ALL_CLASSIFIERS}) == len(ALL_CLASSIFIERS)


def test_specs_carry_the_pages_parameters():
    chosen = specs(["CMA", "CDT", "conformal-NBC", "Mondrian-AODE", "LTANC_α=0.75", "NBC"], 2.0, 0.1, 0.3,
                   significance=0.2, match="cma")
    by_label = {s.label: s for s in chosen}
    assert by_label["CMA"].params["s"] == 2.0 and by_label["CDT"].params["s"] == 2.0
    assert by_label["LTANC_α=0.75"].params["alpha"] == 0.3
    for label in ("conformal-NBC", "Mondrian-AODE"):
        assert by_label[label].params["significance"] == 0.2 and by_label[label].params["match"] == "cma"
        by_label[label].make().check_parameters()                      # the core accepts them
    assert "match" not in specs(["conformal-NBC"], 1.0, 0.05, 0.75)[0].params


def _summaries() -> dict:
    rng = np.random.default_rng(3)
    out = {}
    for d in range(4):
        rows = []
        for name in ("NBC", "NCC", "CDT", "CMA", "COMP-AODE*"):
            credal = name != "NBC"
            det = rng.uniform(0.6, 0.95) if credal else 1.0
            rows.append({"classifier": name, "determinacy_mean": det,
                         "single_accuracy_mean": rng.uniform(0.7, 0.9),
                         "nbc_i_mean": rng.uniform(0.3, 0.6) if credal else np.nan,
                         "u65_mean": rng.uniform(0.6, 0.8), "u80_mean": rng.uniform(0.65, 0.85),
                         "accuracy_mean": rng.uniform(0.6, 0.8)})
        out[f"data {d}"] = pd.DataFrame(rows)
    return out


def test_fig5_and_fig6_frames_are_the_summaries_columns_of_the_credal_classifiers():
    tables = _summaries()
    fig5, fig6 = fig5_frame(tables), fig6_frame(tables)
    assert set(fig5["classifier"]) == {"NCC", "CDT", "CMA", "COMP-AODE*"} == set(fig6["classifier"])
    row = tables["data 2"].set_index("classifier").loc["CDT"]
    got5 = fig5.set_index(["dataset", "classifier"]).loc[("data 2", "CDT")]
    assert got5["accuracy_safe"] == row["single_accuracy_mean"]
    assert got5["accuracy_prior_dependent"] == row["nbc_i_mean"]
    got6 = fig6.set_index(["dataset", "classifier"]).loc[("data 2", "CDT")]
    assert (got6["u65"], got6["u80"], got6["accuracy"]) == (row["u65_mean"], row["u80_mean"],
                                                            row["accuracy_mean"])


def test_fig7_is_the_critical_difference_of_the_four_classifiers():
    tables = _summaries()
    views = fig7_views("fig7-test", _summaries=tables)
    for indicator in ("u65", "u80"):
        kept = {k: t[t["classifier"] != "NBC"] for k, t in tables.items()}
        want = across_datasets(kept, indicator)
        assert f"CD = {want.critical_difference:.2f}" in views[indicator].layout.title.text
        labels = json.dumps(views[indicator].to_plotly_json()["data"], default=str)
        assert "NBC" not in labels and all(name in labels for name in ("NCC", "CDT", "CMA", "COMP-AODE*"))


def test_bayesian_tests_are_the_cores():
    rng = np.random.default_rng(0)
    scores = pd.DataFrame(rng.uniform(0.6, 0.9, (5, 3)), columns=["A", "B", "C"],
                          index=[f"d{i}" for i in range(5)])
    folds = pd.DataFrame([{"dataset": f"d{i}", "classifier": c, "repeat": r, "fold": f,
                           "u65": rng.uniform(0.5, 0.9)} for i in range(2) for c in "AB" for r in range(2)
                          for f in range(3)])
    got = bayesian_tests("bayes-test", "u65", 0.02, 3, _scores=scores, _folds=folds)
    pdt.assert_frame_equal(got["signed_rank"], signed_rank_tests(scores, rope=0.02))
    pdt.assert_frame_equal(got["correlated_t"], correlated_t_tests(folds, "u65", n_folds=3, rope=0.02))


@pytest.mark.parametrize("name", ["weather", "synthetic_nb"])
def test_reject_table_is_the_mean_of_reject_costs_of_over_the_pages_folds(name):
    X, y = load_sample(name)
    settings = {"clf": ["NCC", "CMA", "NBC"], "s": 1.0, "eps": 0.05, "alpha": 0.75, "disc": "mdl", "bins": 5,
                "missing": "impute", "folds": 2, "repeats": 1, "seed": 0}
    table = reject_table(f"test-{name}", X, y, (), (), json.dumps(settings))
    labels, classes = labels_as_text(y)
    assert set(table["model"]) == {"NCC", "CMA"}            # the NCC on multi-class data too (no gaps)
    assert sorted(table["d"].unique()) == list(D_GRID)
    parts = []
    for split in make_splits(labels, protocol="cv", n_splits=2, n_repeats=1, seed=0):
        prep = Preparation(numeric=[], discretiser="mdl", n_bins=5, missing="impute", non_mar=[])
        X_train = prep.fit_transform(X.iloc[split.train], labels[split.train])
        model = CMA(s=1.0).fit(X_train, labels[split.train], classes=classes)
        X_test = prep.transform(X.iloc[split.test])
        parts.append(reject_costs_of(model, X_test, labels[split.test], list(D_GRID)))
    want = pd.concat(parts).groupby(["d", "classifier"])["cost"].mean().sort_index()
    got = table[table["model"] == "CMA"].set_index(["d", "classifier"])["cost"].sort_index()
    pdt.assert_series_equal(got, want, check_names=False)


def test_reject_table_has_the_ncc_on_three_class_iris_equal_to_a_literal_loop():
    from app_support.data import sample_bytes
    from credal_core.data.csv_loader import read_csv_bytes
    from credal_core.naive.ncc import NCC

    frame = read_csv_bytes(sample_bytes("iris"), name="iris.csv").frame
    y = frame.pop("class")
    numeric = tuple(frame.columns)
    settings = {"clf": ["NCC"], "s": 1.0, "eps": 0.05, "alpha": 0.75, "disc": "mdl", "bins": 5,
                "missing": "impute", "folds": 2, "repeats": 1, "seed": 0}
    table = reject_table("test-iris", frame, y, numeric, (), json.dumps(settings))
    labels, classes = labels_as_text(y)
    assert classes.size == 3 and set(table["model"]) == {"NCC"}
    parts = []
    for split in make_splits(labels, protocol="cv", n_splits=2, n_repeats=1, seed=0):
        prep = Preparation(numeric=list(numeric), discretiser="mdl", n_bins=5, missing="impute", non_mar=[])
        X_train = prep.fit_transform(frame.iloc[split.train], labels[split.train])
        model = NCC(s=1.0).fit(X_train, labels[split.train], classes=classes)
        parts.append(reject_costs_of(model, prep.transform(frame.iloc[split.test]), labels[split.test],
                                     list(D_GRID)))
    want = pd.concat(parts).groupby(["d", "classifier"])["cost"].mean().sort_index()
    got = table.set_index(["d", "classifier"])["cost"].sort_index()
    pdt.assert_series_equal(got, want, check_names=False)
