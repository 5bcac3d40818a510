"""The shared computations of "Classifier selection" as a class of students calls them: what each student's
run reads must be what the Streamlit caches behind it hold, and st.table must be given the same table."""
from __future__ import annotations

import pandas as pd
import pytest
from streamlit import dataframe_util
from streamlit.elements.table import _compute_hide_index

import app_support.classifier_selection.model as model
from app_support.classifier_selection.figures import neighbour_table

F1, F2 = model.PAPER_SUBSETS["balloons"]


def test_curve_frame_runs_each_curve_once_per_process_and_keeps_the_newest(monkeypatch):
    calls = []

    def fake_curve(*key):
        calls.append(key)
        return pd.DataFrame({"k": [2], "accuracy": [len(calls)]})

    monkeypatch.setattr(model, "accuracy_curve", fake_curve)
    monkeypatch.setattr(model, "_CURVES", type(model._CURVES)())
    monkeypatch.setattr(model, "_CURVES_MAX", 3)
    first = model.curve_frame("balloons", F1, F2, 10, "resubstitution")
    assert model.curve_frame("balloons", list(F1), F2, 10, "resubstitution") is first and len(calls) == 1
    for runs in (20, 30, 40):                       # three more: the oldest (the first) is dropped
        model.curve_frame("balloons", F1, F2, runs, "resubstitution")
    assert len(calls) == 4
    assert model.curve_frame("balloons", F1, F2, 10, "resubstitution") is not first and len(calls) == 5


def test_a_refused_curve_is_not_kept(monkeypatch):
    def refuse(*key):
        raise ValueError("a single class")

    monkeypatch.setattr(model, "accuracy_curve", refuse)
    monkeypatch.setattr(model, "_CURVES", type(model._CURVES)())
    for _ in range(2):
        with pytest.raises(ValueError, match="a single class"):
            model.curve_frame("balloons", F1, F2, 10, "resubstitution")
    assert not model._CURVES


@pytest.mark.parametrize("name, args", [
    ("split", ("balloons", 3)),
    ("decision", ("balloons", F1, F2, 3, 4, "resubstitution", ("PURPLE", "LARGE", "DIP", "ADULT"))),
    ("column_values", ("weather",)),
])
def test_the_memo_in_front_returns_the_shared_cached_value(name, args):
    """A memo hit is the object the Streamlit cache behind it holds (computed once, shared)."""
    front = getattr(model, name)
    assert front(*args) is front(*args) is front.__wrapped__(*args)


def test_the_neighbour_table_is_the_arrow_table_st_table_would_make():
    """``decision`` hands st.table the Arrow table of the neighbour frame, converted once: the bytes sent and
    the index shown are those of the frame itself."""
    instance = ("PURPLE", "LARGE", "DIP", "ADULT")
    for k in (1, 3, 4, 12):
        view = model.decision("balloons", F1, F2, 0, k, "resubstitution", instance)
        frame = neighbour_table(view["info"])
        assert (dataframe_util.convert_anything_to_arrow_bytes(view["table"])
                == dataframe_util.convert_anything_to_arrow_bytes(frame))
        assert _compute_hide_index(frame, None) is False          # the page passes hide_index=False


def test_class_names_and_default_subsets_of_a_count_table():
    name = "counts:8-6,5-2,3-4"
    assert model.class_names(name) == ("c", "¬c")
    assert model.default_subsets(name) == (("f1",), ("f1", "f2"))
    assert model.column_values(name) == {"f1": ["x", "o"], "f2": ["x", "o"]}
    assert model.class_names("weather") == tuple(sorted(set(map(str, model.load_dataset("weather")[1]))))


def test_the_decision_in_words_is_the_text_of_each_view():
    """The memoised words of a view are those the page wrote from the view itself, for each k, distance and
    truth (no two views share an entry)."""
    from app_support.classifier_selection.figures import DISTANCE_LABELS, decision_text

    instance = ("PURPLE", "LARGE", "DIP", "ADULT")
    n_train = len(model.split("balloons", 0)[0])
    described = ", ".join(f"{c} = {v}" for c, v in zip(model.load_dataset("balloons")[0].columns, instance))
    for k in (1, 3, 4, 30):
        view = model.decision("balloons", F1, F2, 0, k, "resubstitution", instance)
        for distance in model.DISTANCES:
            for truth in (None, "T", "F"):
                words = model.decision_words("balloons", F1, F2, 0, k, "resubstitution", instance,
                                             distance, truth)
                assert words == decision_text(view["info"][distance], distance=distance, k=k, n_train=n_train,
                                              described=described, truth=truth)
                assert DISTANCE_LABELS[distance] in words and (truth is None) == ("true class" not in words)


def test_the_default_warm_fills_the_first_view_then_every_k(monkeypatch):
    """serve.sh's warm at start (``default_warm``): after its steps the page's first view (default URL) is
    drawn from what they computed — no selector fitted, no explanation, no split run, no figure built."""
    from pathlib import Path

    import streamlit as st
    from streamlit.testing.v1 import AppTest

    st.cache_resource.clear()                   # nothing left from other tests: only the warm fills them
    for memo in (model.decision, model.decision_words, model.curve_view, model.explained_each_k,
                 model._training):
        memo.cache_clear()
    real = model.accuracy_curve
    monkeypatch.setattr(model, "accuracy_curve", lambda name, f1, f2, n, mode: real(name, f1, f2, 10, mode))
    monkeypatch.setattr(model, "_CURVES", type(model._CURVES)())
    key, steps = model.default_warm()
    assert key == "classifier_selection balloons" and len(steps) == 1 + 1 + (model.K_MAX - model.K_MIN)
    for step in steps:
        step()

    def no_more(*args, **kwargs):
        raise AssertionError("computed again")
    for name in ("accuracy_curve", "_fitted_once", "explained_each_k", "_training", "threshold_plane_figure",
                 "accuracy_vs_k_figure", "decision_text"):
        monkeypatch.setattr(model, name, no_more)
    for k in (3, 4, 30):                        # a new session each (the default view, k from the link)
        at = AppTest.from_file(str(Path(__file__).resolve().parents[3] / "pages" / "classifier_selection.py"),
                               default_timeout=60)
        at.query_params["k"] = str(k)
        at.run()
        assert not at.exception and not at.error, [e.value for e in (*at.exception, *at.error)]
        assert f"Among its {k} nearest" in " ".join(m.value for m in at.markdown)
