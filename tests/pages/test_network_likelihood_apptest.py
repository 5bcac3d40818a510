"""Headless tests of the "Profile likelihood in a network" page (streamlit.testing.v1.AppTest) and of its
model (graphs from text, the view's numbers against NetworkLikelihood)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from app_support.data import load_sample
from app_support.network_likelihood.figures import profile_figure
from app_support.network_likelihood.model import graph_parents, parse_edges, ratio_view
from tests.pages._apptest import plotly_array

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "network_likelihood.py")


def run_page(query=None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=90)
    if query:
        at.query_params.update(query)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def metric(at, label_start):
    return next(m.value for m in at.metric if m.label.startswith(label_start))


def test_default_view_shows_the_profile_of_the_tan():
    at = run_page()
    X, y = load_sample("weather")
    parents = graph_parents("tan", X, y.astype(str), "play")
    view = ratio_view(X, y.astype(str), "play", parents, 0, "no", "yes", 0.15)
    assert metric(at, "MLE") == f"{view.mle:.4g}"
    assert not at.error


def test_typed_edges_with_a_cycle_say_so():
    at = run_page({"graph": "edges", "edges": "outlook -> play, play -> outlook"})
    assert at.error and "cycle" in at.error[0].value


def test_typed_edges_and_naive_graph_run():
    at = run_page({"graph": "edges", "edges": "play -> outlook, outlook -> humidity", "row": "3"})
    assert not at.error
    at = run_page({"graph": "naive", "data": "balloons", "beta": "0.5"})
    assert not at.error and at.metric


def test_parse_edges_errors():
    assert parse_edges("A -> B; B->C", ["A", "B", "C"]) == {"A": (), "B": ("A",), "C": ("B",)}
    with pytest.raises(ValueError, match="unknown node 'Z'"):
        parse_edges("A -> Z", ["A", "B"])
    with pytest.raises(ValueError, match="parent -> child"):
        parse_edges("A B", ["A", "B"])


def test_figure_is_valid_plotly():
    fig = profile_figure(np.geomspace(0.01, 100, 20), np.linspace(0, 1, 20), [0.5, 1, 2], [0.3, 0.8, 1.0],
                         (0.2, 5.0), 2.0, 0.15, title="t")
    fig.validated()


@pytest.mark.parametrize("beta", [0.05, 0.15, 0.62])
def test_the_cached_chart_at_any_beta_is_ratio_view_at_that_beta(beta):
    """The profile is computed once and shared over β; its region at β is ratio_view's own."""
    from app_support.network_likelihood.views import graph_view, ratio_chart, sample_view
    X, y = load_sample("tic_tac_toe")
    X.columns = [str(c) for c in X.columns]
    data = sample_view("tic_tac_toe")
    parents = graph_parents("tan", X, y.astype(str), data["class_name"])
    assert graph_view("tic_tac_toe", "tan", "")["parents"] == parents
    a, b = data["classes"][:2]
    expected = ratio_view(X, y.astype(str), data["class_name"], parents, 7, a, b, beta)
    got = ratio_chart("tic_tac_toe", "tan", "", 7, a, b, beta)["view"]
    assert got.region == expected.region and got.mle == expected.mle and got.at_one == expected.at_one
    np.testing.assert_array_equal(got.curve.to_numpy(), expected.curve.to_numpy())
    assert data["rows"][7] == ", ".join(f"{k} = {v}" for k, v in X.iloc[7].items())


def test_a_move_of_beta_updates_region_chart_and_link_and_keeps_the_tables():
    """β lives in a fragment (a move reruns the slider, metrics and chart only): after a move the region
    is ratio_view's at the new β, the chart's band and line follow it, the URL says it, the tables stay."""
    at = run_page({"data": "tic_tac_toe", "row": "7"})
    tables = [frame.value.to_json() for frame in at.dataframe]
    at.slider(key="nl_beta").set_value(0.42).run()
    assert not at.exception and not at.error
    X, y = load_sample("tic_tac_toe")
    classes = sorted(y.astype(str).unique())
    parents = graph_parents("tan", X, y.astype(str), "class")
    view = ratio_view(X, y.astype(str), "class", parents, 7, classes[0], classes[1], 0.42)
    assert metric(at, "Region {lik > 0.42}") == f"[{view.region[0]:.3g}, {view.region[1]:.3g}]"
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    curve = spec["data"][0]
    np.testing.assert_array_equal(plotly_array(curve["x"]), view.curve["gamma"].to_numpy())   # exact values
    np.testing.assert_array_equal(plotly_array(curve["y"]), view.curve["likelihood"].to_numpy())
    beta_line = [s for s in spec["layout"]["shapes"] if s["type"] == "line" and s.get("y0") == s.get("y1")]
    assert beta_line[0]["y0"] == 0.42
    assert at.query_params["beta"] in ("0.42", ["0.42"])
    assert [frame.value.to_json() for frame in at.dataframe] == tables


def test_the_tables_are_sent_as_st_dataframe_sends_their_frames():
    """The graph's and the cells' tables go out as Arrow converted once (cached): the same bytes as
    ``st.dataframe`` makes of the pandas frames themselves."""
    from streamlit import dataframe_util

    from app_support.network_likelihood.views import graph_view, ratio_chart, sample_view
    at = run_page({"data": "balloons", "graph": "naive", "row": "2"})
    classes = sample_view("balloons")["classes"]
    frames = [graph_view("balloons", "naive", "")["table"],
              ratio_chart("balloons", "naive", "", 2, classes[0], classes[1], 0.15)["view"].profile.cells]
    assert [e.proto.arrow_data.data for e in at.dataframe] == [
        dataframe_util.convert_pandas_df_to_arrow_bytes(frame) for frame in frames]
    assert [e.value.to_dict() for e in at.dataframe] == [frame.to_dict() for frame in frames]
