"""Headless tests of the page "Missing values" with streamlit.testing.v1.AppTest.

The sets the page shows are checked against NCCs fitted here directly on the same training rows
(with the cells hidden by hand), not through the page's own pipeline.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
from _apptest import open_page
from streamlit.testing.v1 import AppTest

from app_support.data import load_sample, sample_bytes
from credal_core import NCC, NaiveBayes

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "missing_values.py")
TIMEOUT = 60


def run_page(query: dict[str, str] | None = None) -> AppTest:
    return open_page(PAGE, query, TIMEOUT)


def summary(at: AppTest) -> pd.DataFrame:
    frames = [d.value for d in at.dataframe if "classes returned" in d.value.columns]
    assert len(frames) == 1
    return frames[0].set_index("treatment")


def counts(at: AppTest) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "factor" in d.value.columns).set_index("feature")


def as_set(text: str) -> set:
    return set(text.strip("{}").split(", "))


def test_default_scenario_matches_nccs_fitted_by_hand():
    at = run_page()
    assert at.title[0].value == "Missing values"
    X, y = load_sample("weather")
    X = X.astype(object)
    X.loc[X["outlook"] == "sunny", "outlook"] = np.nan          # every sunny outlook hidden (not at random)
    train, labels = X.drop(index=7), y.drop(index=7)            # row 8 is the instance, left out
    instance = load_sample("weather")[0].iloc[[7]].astype(object)
    instance["outlook"] = np.nan
    table = summary(at)
    assert list(table.index) == ["NBC (MAR)", "NCC, MAR (ignore)", "NCC, imputed (mode)",
                                 "NCC, not MAR: outlook"]
    assert as_set(table.loc["NBC (MAR)", "classes returned"]) == {
        NaiveBayes(s=1.0).fit(train, labels).predict(instance)[0]} == {"yes"}
    mar = NCC(s=1.0).fit(train, labels).predict_set(instance)[0]
    cons = NCC(s=1.0, non_mar_training=["outlook"], non_mar_testing=["outlook"]).fit(train, labels) \
        .predict_set(instance)[0]
    assert as_set(table.loc["NCC, MAR (ignore)", "classes returned"]) == {"yes"}
    assert mar.tolist() == [False, True]
    assert as_set(table.loc["NCC, not MAR: outlook", "classes returned"]) == {"no", "yes"} and cons.all()
    assert table["contains the truth"].tolist() == ["no", "no", "yes", "yes"]
    grid = [c for c in at.get("plotly_chart") if c.proto.id.endswith("-mv_grid")]
    assert len(grid) == 1 and "NCC, not MAR: outlook" in json.loads(grid[0].proto.spec)["layout"]["yaxis"][
        "ticktext"]
    # the counts of the default pair (the NBC's class "yes" against "no") under the conservative rule
    rows = counts(at)
    assert rows.loc["humidity", ["n(yes, v)", "n_j(yes)", "n(no, v)", "n_j(no)"]].tolist() == [3, 9, 3, 4]
    assert rows.loc["outlook", "missing (no)"] == 2
    assert rows.loc["outlook", "treatment"].startswith("missing, not")
    assert any("does not dominate" in m.value for m in at.markdown)


def test_sets_grow_as_features_are_declared_not_mar():
    at = run_page({"row": "1", "missing": "outlook|humidity", "mech": "mcar", "hfeat": "windy", "hide": "0.5",
                   "seed": "3"})
    table = summary(at)
    steps = [name for name in table.index if name.startswith("NCC, not MAR")]
    assert steps == ["NCC, not MAR: outlook", "NCC, not MAR: outlook, humidity",
                     "NCC, not MAR: outlook, humidity, windy"]
    previous = as_set(table.loc["NCC, MAR (ignore)", "classes returned"])
    for step in steps:
        current = as_set(table.loc[step, "classes returned"])
        assert previous <= current
        previous = current


def test_widgets_write_the_link_and_a_new_data_set_resets_the_instance():
    at = run_page()
    at.radio(key="mv_mech").set_value("mcar").run()
    assert not at.exception and at.query_params.get("mech") == "mcar"
    at.slider(key="mv_s").set_value(2.5).run()
    assert at.query_params.get("s") == "2.5"
    at.selectbox(key="mv_data").set_value("balloons").run()
    assert not at.exception
    assert at.multiselect(key="mv_missing").value == ["color"] and at.number_input(key="mv_row").value == 1
    assert at.query_params.get("data") == "balloons" and at.query_params.get("missing") == "color"
    assert list(summary(at).index)[-1] == "NCC, not MAR: color"
    assert at.slider(key="mv_hide").value == 0.0 and at.query_params.get("hide") == "0"   # nothing hidden
    at.selectbox(key="mv_data").set_value("weather").run()                      # back to the lecture's case
    assert at.number_input(key="mv_row").value == 8 and at.slider(key="mv_hide").value == 1.0
    assert (at.radio(key="mv_mech").value, at.selectbox(key="mv_hfeat").value,
            at.selectbox(key="mv_hval").value) == ("mnar", "outlook", "sunny")
    assert at.slider(key="mv_s").value == 2.5                                  # s is kept


def test_a_broken_link_falls_back_without_an_error():
    at = run_page({"data": "monks1", "row": "5000", "missing": "nope|a1", "hfeat": "zzz", "hval": "?",
                   "tr": "12", "a": "x", "b": "x"})
    assert not at.error
    assert at.number_input(key="mv_row").value == 1 and at.multiselect(key="mv_missing").value == ["a1"]
    assert at.slider(key="mv_hide").value == 0.0            # the link's feature is not in monks1
    assert at.selectbox(key="mv_a").value != at.selectbox(key="mv_b").value


def test_an_upload_is_made_categorical_with_its_holes_kept():
    # outside a script run the cache is bypassed
    from app_support.missing_values.model import upload_data

    text = sample_bytes("iris").decode().splitlines()
    text[1] = ",".join(["?"] + text[1].split(",")[1:])      # a hole in the first numeric column
    X, y, notes, problem = upload_data("\n".join(text).encode(), "iris_holes.csv", "class")
    assert problem == "" and X.shape == (150, 4) and X.iloc[0].isna().tolist() == [True, False, False, False]
    assert all(X[c].dropna().nunique() == 2 for c in X.columns)
    assert any("median" in n for n in notes) and set(y) == {"setosa", "versicolor", "virginica"}
