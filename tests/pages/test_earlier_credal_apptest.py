"""Headless tests of the page "Credal model averaging, trees and the reject option" (AppTest): the default
view, a deep link, the URL following the widgets."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from _apptest import open_page, plotly_array, unlinked

from app_support.data import load_sample
from credal_core.model_averaging import CMA
from credal_core.tree import CredalDecisionTree

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "earlier_credal.py")
TIMEOUT = 180


def chart(at, key: str) -> dict:
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}")]
    assert len(charts) == 1, [c.proto.id for c in at.get("plotly_chart")]
    return json.loads(charts[0].proto.spec)


def test_default_view_shows_the_three_sections_on_weather():
    at = open_page(PAGE, None, TIMEOUT)
    assert [unlinked(s.value) for s in at.subheader] == [
        "1 · Which features matter: CMA against BMA-AODE", "2 · A credal decision tree",
        "3 · Credal classification against a reject option (001 §3.5)"]
    assert len(at.get("plotly_chart")) == 4
    X, y = load_sample("weather")
    bar = chart(at, "ec_inclusion")["data"][0]
    np.testing.assert_allclose(plotly_array(bar["base"]), CMA(s=1.0).fit(X, y).inclusion_interval_[:, 0])
    cdt = CredalDecisionTree(s=1.0).fit(X, y)
    members = np.asarray(cdt.predict_set(X.iloc[[0]]))[0]
    expected = ", ".join(str(c) for c, m in zip(cdt.classes_, members) if m)
    assert any(f"The CDT returns **{{{expected}}}**" in m.value for m in at.markdown)
    reject = at.dataframe[1].value
    assert reject["classifier"].tolist() == ["NCC", "CMA", "BMA-AODE*", "COMP-AODE*", "CDT"]
    assert any("At d = 0.20" in c.value for c in at.caption)
    section_3 = next(m.value for m in at.markdown if m.value.startswith("A precise classifier can"))
    assert len(section_3.split()) <= 120
    assert at.query_params["data"] == "weather" and at.query_params["d"] == "0.2"


def test_deep_link_opens_the_chosen_instance_depth_and_cost():
    at = open_page(PAGE, {"data": "tic_tac_toe", "row": "5", "depth": "2", "d": "0.1", "s": "2"}, TIMEOUT)
    assert at.selectbox(key="ec_data").value == "tic_tac_toe"
    assert at.number_input(key="ec_row").value == 5 and at.slider(key="ec_depth").value == 2
    assert any(m.value.startswith("Instance 5:") for m in at.markdown)
    assert any("At d = 0.10" in c.value for c in at.caption)
    X, y = load_sample("tic_tac_toe")
    lower, upper = CredalDecisionTree(s=2.0).fit(X, y).intervals(X.iloc[[5]])
    np.testing.assert_allclose(at.dataframe[0].value["upper"], np.round(upper[0], 3))
    tree = chart(at, "ec_tree")
    texts = [t for trace in tree["data"] for t in (trace.get("text") or [])]
    assert any(" …" in t for t in texts)                      # depth 2 folds the deeper splits


def test_widgets_write_the_url_and_a_new_data_set_starts_at_row_0():
    at = open_page(PAGE, {"row": "7"}, TIMEOUT)
    at.slider(key="ec_d").set_value(0.33).run()
    assert not at.exception and at.query_params["d"] == "0.33"
    at.selectbox(key="ec_data").set_value("balloons").run()
    assert not at.exception
    assert at.query_params["data"] == "balloons" and at.query_params["row"] == "0"


def test_present_mode_lowers_the_charts_but_not_the_tree():
    from streamlit.testing.v1 import AppTest

    from app_support.figures import PRESENT_HEIGHT
    from app_support.page import PRESENT_KEY

    query = {"data": "tic_tac_toe", "depth": "4"}
    plain = open_page(PAGE, query, TIMEOUT)
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.session_state[PRESENT_KEY] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    tall = chart(plain, "ec_tree")["layout"]["height"]
    assert tall > PRESENT_HEIGHT                                   # a deep tree: capping would squash it
    assert chart(at, "ec_tree")["layout"]["height"] == tall
    assert chart(at, "ec_reject")["layout"]["height"] <= PRESENT_HEIGHT
