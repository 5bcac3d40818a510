"""Headless tests of the page "Determinacy curves" with streamlit.testing.v1.AppTest (no browser)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from _apptest import chart_traces, open_page
from streamlit.testing.v1 import AppTest

import credal_core.experiments.determinacy as experiments

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "determinacy_curves.py")
TIMEOUT = 120
# small runs: a few seconds each
QUICK = {"source": "artificial", "m": "5", "theta": "2", "train": "2", "test": "300", "sizes": "20, 40",
         "eps": "0.1,0.35", "alpha": "0.55,0.95", "seed": "3"}


def run_page(query: dict[str, str] | None = None) -> AppTest:
    return open_page(PAGE, query, TIMEOUT)


def charts(at: AppTest) -> list[dict]:
    """Both figures as {"data": traces} with decoded arrays (Fig. 5 first)."""
    return [{"data": chart_traces(at, key)} for key in ("dc_fig_d", "dc_fig_param")
            if any(c.proto.id.endswith(f"-{key}") for c in at.get("plotly_chart"))]


def run_button(at: AppTest):
    return next(b for b in at.button if b.label == "Run")


def test_default_view_runs_a_small_paper_protocol():
    at = run_page()
    figs = charts(at)
    assert len(figs) == 2
    names = {t["name"] for t in figs[0]["data"]}
    assert names == {f"NCC_ε={e:g}" for e in (0.05, 0.15, 0.25, 0.35)} | {
        f"LNCC_α={a:g}" for a in (0.35, 0.55, 0.75, 0.95)}
    assert sorted(figs[0]["data"][0]["x"].tolist()) == [25, 50, 100]
    assert at.query_params["theta"] == "4" and at.query_params["eps"] == "0.05,0.15,0.25,0.35"
    table = at.dataframe[0].value
    assert {"Det", "Sgl-acc", "D-acc", "NBC-I", "close determinacy"} <= set(table.columns)
    assert len(table) == 8 * 3
    paper = at.dataframe[1].value                      # the printed Table 1 in the expander
    assert paper["Det"].tolist()[:2] == [90.1, 90.1]
    assert any("Closest pair per sample size" in m.value for m in at.markdown)
    assert len(at.get("download_button")) == 2


def test_url_sets_the_run_and_a_run_cut_short_is_reported_and_can_be_restarted():
    at = run_page(QUICK)
    fig = charts(at)[0]
    assert {t["name"] for t in fig["data"]} == {"NCC_ε=0.1", "NCC_ε=0.35", "LNCC_α=0.55", "LNCC_α=0.95"}
    assert sorted(fig["data"][0]["x"].tolist()) == [20, 40]
    assert at.slider(key="dc_m").value == 5
    table = at.dataframe[0].value
    assert set(table["runs"]) == {4}                 # 2 θ × 2 training sets
    assert table["Det"].between(0, 100).all()
    # the table shown (built once per run and shared) is Table 1's view of the run's own results
    from app_support.determinacy_curves.figures import table1_view
    from credal_core.experiments import closest_pairs, summarise
    results = experiments.run_study(json.loads(at.session_state["dc_active"]), None, None)
    expected = table1_view(summarise(results), closest_pairs(results))
    pd.testing.assert_frame_equal(table.reset_index(drop=True), expected, check_dtype=False)
    chart = next(c for c in at.get("plotly_chart") if c.proto.id.endswith("-dc_fig_d"))
    assert "Antonucci, Cattaneo & Corani 2011" in json.loads(chart.proto.spec)["layout"]["title"]["text"]
    # a run cut short (in the same session, on the same settings) is reported, then restarted
    at.session_state["dc_running"] = True          # what a click during a run leaves behind
    at.run()
    assert not at.exception
    assert any("stopped before it finished" in w.value for w in at.warning)
    assert not at.get("plotly_chart")
    run_button(at).click().run()
    assert not at.exception and not at.warning
    assert len(charts(at)) == 2


BAD_SETTINGS = [
    ({"dc_sizes": "1, 20"}, "smaller than the number of classes"),
    ({"dc_eps": [], "dc_alpha": []}, "grid is empty"),
    ({"dc_test": 0}, "at least one instance"),
    ({"dc_sizes": "twenty"}, "whole numbers"),
    ({"dc_sizes": "25, 50, 100, 200", "dc_theta": 20, "dc_train": 30}, "2,400 training sets"),
]
QUICK_STATE = {"dc_sizes": "20, 40", "dc_eps": [0.1, 0.35], "dc_alpha": [0.55, 0.95], "dc_test": 300,
               "dc_theta": 2, "dc_train": 2}       # the widgets' values under QUICK


def test_bad_settings_are_refused_and_a_good_run_follows():
    """Each bad setting, made alone on the QUICK settings, is refused with its message and no figure;
    then, in the same session, a good run draws the figure again (one page run serves every case)."""
    at = run_page(QUICK)
    assert {key: at.session_state[key] for key in QUICK_STATE} == QUICK_STATE
    for change, message in BAD_SETTINGS:
        for key, value in {**QUICK_STATE, **change}.items():        # only this change from QUICK
            at.session_state[key] = value
        run_button(at).click().run()
        assert not at.exception
        assert any(message in e.value for e in at.error), (message, [e.value for e in at.error])
        assert not at.get("plotly_chart")
    good = {"dc_sizes": "20, 40", "dc_eps": [0.1], "dc_alpha": [0.55], "dc_test": 300,
            "dc_theta": 2, "dc_train": 2}
    for key, value in good.items():
        at.session_state[key] = value
    run_button(at).click().run()
    assert not at.exception and not at.error
    assert {t["name"] for t in charts(at)[0]["data"]} == {"NCC_ε=0.1", "LNCC_α=0.55"}


def test_going_back_to_an_earlier_setting_is_served_from_the_cache(monkeypatch):
    calls = []
    real = experiments.artificial_experiment

    def counting(**kwargs):
        calls.append(kwargs["n_theta"])
        return real(**kwargs)

    monkeypatch.setattr(experiments, "artificial_experiment", counting)
    at = run_page({**QUICK, "seed": "101"})
    first = at.dataframe[0].value
    at.session_state["dc_theta"] = 1
    run_button(at).click().run()
    at.session_state["dc_theta"] = 2
    run_button(at).click().run()
    assert not at.exception
    assert calls == [2, 1]                                    # the third run was a cache hit
    assert at.dataframe[0].value.equals(first)


def test_a_sample_data_set_under_cross_validation():
    at = run_page({"source": "sample", "data": "weather", "protocol": "cv", "folds": "2", "repeats": "2",
                   "eps": "0,0.25", "alpha": "0.75"})
    assert at.query_params["data"] == "weather" and "theta" not in at.query_params
    table = at.dataframe[0].value
    assert set(table["classifier"]) == {"NCC_ε=0", "NCC_ε=0.25", "LNCC_α=0.75"}
    assert set(table["runs"]) == {4}
    assert any("One training size only" in i.value for i in at.info)
    at.session_state["dc_dsizes"] = "4, 6"
    run_button(at).click().run()
    assert not at.exception
    assert sorted(charts(at)[0]["data"][0]["x"].tolist()) == [4, 6]


def test_a_second_visit_shows_the_very_elements_of_the_run_that_computed_it():
    """A visit after the run finished takes the kept rows (no replay of the cached run): the page's
    elements, placeholders included, are those of the visit that computed them."""
    from app_support.determinacy_curves.model import run_experiment

    def shown(at):
        return [(node.type, str(node.proto).split("deferred_file_id")[0]) for node in _leaves(at._tree)]

    def _leaves(node):
        children = getattr(node, "children", None)
        if not children:
            yield node
            return
        for key in sorted(children):
            yield from _leaves(children[key])
    query = {"theta": "2", "train": "2", "test": "200", "sizes": "20, 40"}
    run_experiment.clear()
    first, second = run_page(query), run_page(query)
    assert shown(first) == shown(second) and len(shown(first)) > 20
