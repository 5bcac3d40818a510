"""Headless tests of the page "Classifier selection" (004) with streamlit.testing.v1.AppTest."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _apptest import unlinked
from streamlit.testing.v1 import AppTest

from credal_core.resampling import repeated_holdout
from credal_core.selection.threshold import ThresholdSelector

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "classifier_selection.py")
TIMEOUT = 120
FAST = {"runs": "10"}          # 10 splits instead of 004's 100: same code path, faster tests
F1, F2 = ["color", "size", "act", "age"], ["color", "act", "age"]


def run_page(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    at.query_params.update({**FAST, **(query or {})})
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _array(data) -> np.ndarray:
    if isinstance(data, dict):
        return np.frombuffer(base64.b64decode(data["bdata"]), dtype=np.dtype(data["dtype"]))
    return np.asarray(data, dtype=float)


def traces(at: AppTest, key: str) -> dict[str, dict]:
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}")]
    assert len(charts) == 1, [c.proto.id for c in at.get("plotly_chart")]
    out = {}
    for trace in json.loads(charts[0].proto.spec)["data"]:
        for axis in ("x", "y", "customdata"):
            if axis in trace:
                trace[axis] = _array(trace[axis])
        out[trace["meta"]] = trace
    return out


def page_text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [m.value for m in at.caption] + [m.value for m in at.info]
    parts += [t.value.to_string() for t in at.table]
    return unlinked("\n".join(parts))


def balloons():
    frame = pd.read_csv(ROOT / "sample_data" / "balloons.csv", dtype=str)
    return frame, frame.pop("inflated").to_numpy()


def check_default_view_is_004_balloons_and_matches_the_api(at: AppTest) -> None:
    assert at.title[0].value == "Classifier selection"
    assert len(at.latex) >= 2 and any("Try this" in i.value for i in at.info)
    assert at.multiselect(key="cs_f1").value == F1 and at.multiselect(key="cs_f2").value == F2
    assert at.slider(key="cs_k").value == 3
    # the same selector through the public API, fitted on the same split
    X, y = balloons()
    train, test = next(repeated_holdout(y, n_repeats=1, test_size=0.3, stratify=False, seed=0))
    sel = ThresholdSelector(features_1=F1, features_2=F2, k=3).fit(X.iloc[train], y[train])
    assert at.number_input(key="cs_row").value == 4
    info = sel.explain(X.iloc[[test[4]]]).iloc[0]
    text = page_text(at)
    assert f"s₁ = {info['threshold_1']:.4f}" in text and f"s₂ = {info['threshold_2']:.4f}" in text
    assert f"the prediction is **{info['prediction']}**" in text
    plane = traces(at, "plane_chart")
    assert plane["test"]["x"][0] == pytest.approx(info["threshold_1"])
    assert plane["test"]["y"][0] == pytest.approx(info["threshold_2"])
    table = sel.training_table()
    shown = sum(int(np.sum(plane[o]["customdata"])) for o in ("both right", "only C1", "only C2", "neither")
                if o in plane)
    assert shown == len(table) == len(train)
    # the neighbour markers sit on the neighbours' points
    near = table.iloc[list(info["neighbours"])]
    got = set(zip(plane["neighbours-euclidean"]["x"], plane["neighbours-euclidean"]["y"]))
    assert got == set(zip(near["threshold_1"], near["threshold_2"]))
    # the accuracy curve: four classifiers, k = 2..20, the paper's Fig. 3 points shown
    curves = traces(at, "accuracy_chart")
    assert {"C1", "C2", "selector (Euclidean)", "selector (Chebyshev)", "paper"} <= set(curves)
    assert curves["C1"]["x"].tolist() == list(range(2, 21))
    assert "004 reports C1 0.776502" in text
    assert not re.search(r"\b(nan|inf)\b", text.lower())
    assert at.query_params["data"] == "balloons" and at.query_params["k"] == "3"


def _api_explain(k: int, distance: str, row: int = 4) -> pd.Series:
    """explain() of test row ``row`` of Balloons split 0, plus ``points``: its neighbours' points."""
    X, y = balloons()
    train, test = next(repeated_holdout(y, n_repeats=1, test_size=0.3, stratify=False, seed=0))
    sel = ThresholdSelector(features_1=F1, features_2=F2, k=k, distance=distance).fit(X.iloc[train], y[train])
    info = sel.explain(X.iloc[[test[row]]]).iloc[0].copy()
    info["points"] = [tuple(p) for p in sel.training_thresholds_[list(info["neighbours"])]]
    return info


def test_default_view_then_the_row_flips_between_k_3_and_4_as_the_hint_says_and_k_moves_the_url():
    """The hint: at k = 3 three training rows at distance 0, C2 right on 2 and C1 on 1 -> C2, right;
    at k = 4 four more rows tie at the 4th distance, 7 rows, C1 right on 4 and C2 on 3 -> C1, wrong."""
    at = run_page()
    check_default_view_is_004_balloons_and_matches_the_api(at)
    chebyshev_at_3 = traces(at, "plane_chart")["neighbours-chebyshev"]["customdata"].sum()
    hint = next(i.value for i in at.info if "Try this" in i.value)
    assert "test row 4" in hint and "4 more rows" in hint and "4 times against 3" in hint
    for distance in ("euclidean", "chebyshev"):       # the hint holds under both distances
        at3, at4 = _api_explain(3, distance), _api_explain(4, distance)
        assert (at3["prediction_1"], at3["prediction_2"]) == ("F", "T")
        assert at3["n_neighbours"] == 3 and at3["distances"] == (0.0, 0.0, 0.0)
        assert (at3["hits_1"], at3["hits_2"], at3["chosen"]) == (1, 2, "C2")
        assert at4["n_neighbours"] == 7 and len(set(at4["points"][3:])) == 1         # 4 more rows, one point
        assert at4["distances"][3] > 0 and (at4["hits_1"], at4["hits_2"], at4["chosen"]) == (4, 3, "C1")
    text = page_text(at)
    assert "predicts **F**" in text and "predicts **T**" in text      # C1 and C2 disagree
    assert "Among its 3 nearest training points (Euclidean distance) C2 was right more often (2 of 3 " \
           "against 1)" in text
    assert "selector uses **C2**" in text and "the selector is right" in text
    at.slider(key="cs_k").set_value(4).run()
    text = page_text(at)
    assert ("Among its 4 nearest training points (Euclidean distance; 7 rows, because 4 of them tie at the "
            "distance of neighbour number 4 and all of them count) C1 was right") in text
    assert "(4 of 7 against 3 for C2; ties go to C1)" in text
    assert "selector uses **C1**" in text and "the selector is wrong" in text
    assert traces(at, "plane_chart")["neighbours-euclidean"]["customdata"].sum() == 7
    # moving k moves the neighbours and the URL (same session, on to k = 15)
    at.slider(key="cs_k").set_value(15).run()
    assert not at.exception
    after = traces(at, "plane_chart")["neighbours-chebyshev"]
    assert chebyshev_at_3 == _api_explain(3, "chebyshev")["n_neighbours"] == 3
    assert after["customdata"].sum() == _api_explain(15, "chebyshev")["n_neighbours"] >= 15
    assert at.query_params["k"] == "15"
    assert "Among its 15 nearest training points" in page_text(at)


@pytest.mark.parametrize("target", ["decision", "curve_frame", "table2"])
def test_a_value_error_of_the_computation_is_a_message_not_a_traceback(monkeypatch, target):
    import app_support.classifier_selection.model as cache

    def refuse(*args, **kwargs):
        raise ValueError("the training part holds a single class")

    monkeypatch.setattr(cache, target, refuse)
    at = run_page({"table2": "1"})
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "the training part holds a single class" in errors[0]
    if target == "decision":                          # nothing to show without a selector
        assert not at.get("plotly_chart")
    else:                                             # the rest of the page is still there
        assert traces(at, "plane_chart")["test"]["x"].size == 1


def test_shared_link_reproduces_the_view():
    query = {"data": "weather", "k": "5", "dist": "chebyshev", "seed": "7", "row": "2", "f1": "outlook,windy",
             "f2": "humidity", "mode": "cross_validation"}
    at = run_page(query)
    assert at.selectbox(key="cs_data").value == "weather"
    assert at.slider(key="cs_k").value == 5 and at.radio(key="cs_dist").value == "chebyshev"
    assert at.number_input(key="cs_seed").value == 7 and at.number_input(key="cs_row").value == 2
    assert at.multiselect(key="cs_f1").value == ["outlook", "windy"]
    assert at.radio(key="cs_mode").value == "cross_validation"
    for key, value in query.items():
        assert at.query_params[key] == value
    assert "Chebyshev distance" in page_text(at)


def test_k_above_the_training_size_uses_every_training_row():
    at = run_page({"data": "weather", "k": "30"})
    text = page_text(at)
    assert "more than the 10 training rows" in text and "Among its 10 nearest training points" in text
    assert traces(at, "plane_chart")["neighbours-euclidean"]["customdata"].sum() == 10


def test_empty_feature_set_gives_a_message_not_a_traceback():
    at = run_page()
    at.multiselect(key="cs_f2").set_value([]).run()
    assert not at.exception
    assert any("at least one feature" in w.value for w in at.warning)


def test_same_subsets_warns_that_the_selector_is_c1():
    at = run_page({"f2": ",".join(F1)})
    assert any("same features" in w.value for w in at.warning)
    assert "selector uses **C1**" in page_text(at)


def test_typed_instance_and_three_classes():
    at = run_page({"data": "synthetic_nb", "source": "typed", "x": "hi|hi|lo|lo|mid|mid|hi|lo"})
    assert any("3 classes" in i.value for i in at.info)
    text = page_text(at)
    assert "f1 = hi, f2 = hi, f3 = lo" in text
    assert "The true class" not in text                 # a typed instance has no known class
    assert at.query_params["x"] == "hi|hi|lo|lo|mid|mid|hi|lo"


def test_tic_tac_toe_uses_the_papers_subsets_and_table2_row():
    from app_support.classifier_selection.model import DATASETS
    if "tic_tac_toe" not in DATASETS:
        pytest.skip("sample_data/tic_tac_toe.csv is not shipped")
    at = run_page({"data": "tic_tac_toe", "table2": "1"})
    assert at.multiselect(key="cs_f1").value == ["top_left", "middle_middle", "bottom_left", "bottom_middle"]
    table2 = [t.value for t in at.table if "004 Table 2" in t.value.to_string()]
    assert len(table2) == 1 and "0.7337" in table2[0].to_string()      # 004's Euclidean selector on TIC


@pytest.mark.parametrize("distance", ["euclidean", "chebyshev"])
def test_one_fit_serves_every_k_exactly_as_a_fresh_fit(distance):
    """The page fits the selector of a split once and changes only k: the same explanations as a
    selector fitted with that k, for every k of the slider's range."""
    from app_support.classifier_selection.model import fitted_selector

    X, y = balloons()
    train, test = next(repeated_holdout(y, n_repeats=1, test_size=0.3, stratify=False, seed=0))
    for k in (1, 2, 3, 4, 12, 30):
        fresh = ThresholdSelector(features_1=F1, features_2=F2, k=k, distance=distance).fit(X.iloc[train],
                                                                                               y[train])
        page = fitted_selector("balloons", tuple(F1), tuple(F2), 0, k, distance, "resubstitution")
        assert page.k_ == k
        pd.testing.assert_frame_equal(page.explain(X.iloc[test]), fresh.explain(X.iloc[test]))


def test_the_decision_of_every_k_is_that_of_a_fresh_fit():
    """The page explains an instance for the whole k slider in one pass: each k's explanation (both
    distances), table and plane are those of selectors fitted with that k."""
    from app_support.classifier_selection.figures import threshold_plane_figure
    from app_support.classifier_selection.model import decision

    X, y = balloons()
    train, test = next(repeated_holdout(y, n_repeats=1, test_size=0.3, stratify=False, seed=0))
    for row in (0, 4):
        instance = tuple(X.iloc[test[row]])
        for k in (1, 3, 4, 17, 30):
            view = decision("balloons", tuple(F1), tuple(F2), 0, k, "resubstitution", instance)
            fresh = {d: ThresholdSelector(features_1=F1, features_2=F2, k=k, distance=d).fit(X.iloc[train],
                                                                                              y[train])
                     for d in ("euclidean", "chebyshev")}
            for d, sel in fresh.items():
                pd.testing.assert_series_equal(view["info"][d], sel.explain(X.iloc[[test[row]]]).iloc[0])
            training = fresh["euclidean"].training_table()
            assert view["counts"] == training["outcome"].value_counts().to_dict()
            want = threshold_plane_figure(training, test_point=(view["info"]["euclidean"]["threshold_1"],
                                                                view["info"]["euclidean"]["threshold_2"]),
                                          neighbours={d: view["info"][d]["neighbours"] for d in fresh},
                                          k=min(k, len(training)))
            assert view["plane"].to_dict() == want.to_dict()


def test_table2_toggle_shows_ours_beside_the_paper_and_a_cut_short_run_is_reported():
    at = run_page({"table2": "1"})
    tables = [t.value for t in at.table]
    table2 = [t for t in tables if "004 Table 2" in t.to_string()]
    assert len(table2) == 1
    assert "0.7765" in table2[0].to_string()           # 004's C1 on Balloons, beside ours
    assert at.query_params["table2"] == "1"
    # a Table 2 run cut short (same session) is reported, not restarted
    at.session_state["cs_t2_running"] = True      # what a click during the run leaves behind
    at.slider(key="cs_k").set_value(4).run()
    assert any("Table 2 was stopped" in w.value for w in at.warning)
    assert not [t for t in at.table if "004 Table 2" in t.value.to_string()]
    at.button(key="cs_t2_button").click().run()
    assert not at.warning and [t for t in at.table if "004 Table 2" in t.value.to_string()]


# ---------------------------------------------------------------- a count table (lesson 6 steps 1-2)
def _lesson_6_step(question_id: str):
    from app_support.lessons.catalogue import lesson

    return next(s for s in lesson("classifier-selection").steps if s.question.id == question_id)


@pytest.mark.parametrize("question_id, seed, factor", [
    ("selection.threshold.size", 3, 1), ("selection.threshold.size", 11, 4),
    ("selection.threshold.more-data", 5, 1),
    ("selection.threshold.more-data", 5, None),          # None: the slider at the question's factor
])
def test_lesson_6_s_count_table_link_shows_the_step_s_thresholds(question_id, seed, factor):
    """The step's link opens the page on the step's count table × the slider's factor, C1 = f1, C2 = f1 and
    f2, the instance x|x typed in; section 0 prints both thresholds (all rows) to the lesson's precision:
    the bars of the step's figure, and the number its text states (step 1 at factor 1, step 2 at its
    factor)."""
    from app_support.lessons.lesson_selection import threshold

    step = _lesson_6_step(question_id)
    params = step.question.generate(seed).params
    factor = params.get("factor2") if factor is None else factor
    at = run_page(step.link({**params, "factor": float(factor)}))
    state = at.session_state
    assert (state["cs_data"], state["cs_source"], state["cs_f1"], state["cs_f2"]) == (
        "counts", "typed", ["f1"], ["f1", "f2"])
    assert state["cs_counts"] == "{}-{},{}".format(factor * params["n_c"], factor * params["n_not"], ",".join(
        f"{factor * a}-{factor * b}" for a, b in zip(params["counts_c"], params["counts_not"])))
    text = page_text(at)
    c1, c2 = threshold(params, (0,), factor), threshold(params, (0, 1), factor)
    assert f"**{c1:.3f}** for C1 (f1)" in text and f"**{c2:.3f}** for C2 (f1, f2)" in text, text[:600]
    assert f"all {factor * (params['n_c'] + params['n_not'])} rows" in text
    if factor in (1, params.get("factor2")):   # where the step's text states C2's threshold
        stated = step.question.prompt(params) + step.question.explain(params, step.question.solve(params))
        assert f"{c2:.3f}" in stated, stated
    assert "The instance** (f1 = x, f2 = x)" in text and not at.warning
    assert [i.value for i in at.info if "Try this" in i.value][0].startswith("**Try this:** section 0 shows")


@pytest.mark.parametrize("raw", ["9-9,10-1", "abc", "0-5,0-1", "300-300,1-1", "8-6" + ",1-1" * 7, "8-6,5--2"])
def test_a_malformed_count_table_gives_a_note_and_the_default_data(raw):
    at = run_page({"data": "counts", "counts": raw, "source": "typed", "f1": "f1", "x": "x|x"})
    assert any("count table in the link cannot be read" in w.value for w in at.warning)
    assert at.session_state["cs_data"] == "balloons" and at.multiselect(key="cs_f1").value == F1
    assert at.query_params["data"] == "balloons" and "counts" not in at.query_params


def test_a_count_table_chosen_or_typed_on_the_page():
    """Chosen in the data box: the default table and its section 0; a new table typed in is read (its own
    features and thresholds), a malformed one is refused with a note and the last table kept."""
    from app_support.classifier_selection.counts import DEFAULT_TABLE, parse_table, threshold

    at = run_page()
    at.selectbox(key="cs_data").select("counts").run()
    assert not at.exception and at.text_input(key="cs_counts").value == DEFAULT_TABLE
    pair = parse_table(DEFAULT_TABLE)
    assert f"**{threshold(pair, ('f1', 'f2')):.3f}** for C2 (f1, f2)" in page_text(at)
    assert at.query_params["counts"] == DEFAULT_TABLE and at.query_params["x"] == "x|x"
    at.text_input(key="cs_counts").input("12-9,2-7,6-1,9-3").run()
    pair = parse_table("12-9,2-7,6-1,9-3")
    assert at.multiselect(key="cs_f2").value == ["f1", "f2", "f3"] and not at.warning
    assert f"**{threshold(pair, ('f1', 'f2', 'f3')):.3f}** for C2 (f1, f2, f3)" in page_text(at)
    at.text_input(key="cs_counts").input("12-9,20-7").run()
    assert not at.exception and any("cannot be read" in w.value for w in at.warning)
    assert at.text_input(key="cs_counts").value == "12-9,2-7,6-1,9-3"
