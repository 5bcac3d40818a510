"""Headless tests of the "Profile likelihood in a network" page (streamlit.testing.v1.AppTest) and of its
model (graphs from text, the view's numbers against NetworkLikelihood)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from app_support.data import load_sample
from app_support.network_likelihood.figures import profile_figure
from app_support.network_likelihood.model import graph_parents, parse_edges, ratio_view

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
