"""Headless tests of the "Profile likelihood" page (streamlit.testing.v1.AppTest, no browser).

The page script is run on its own (app.py only adds navigation and page config around it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "profile_likelihood.py")
TIMEOUT = 60
COL_C, COL_NOT = "n(c, f̃_j)", "n(¬c, f̃_j)"
DEFAULT_URL = {"preset": "000-ex2", "alpha": "0.5", "include_instance": "1", "samples": "3000"}


def run_page(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.run()
    assert_ok(at)
    return at


def assert_ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def metric(at: AppTest, label: str) -> str:
    for m in at.metric:
        if m.label == label:
            return m.value
    raise AssertionError(f"no metric {label!r}; have {[m.label for m in at.metric]}")


def verdict(at: AppTest) -> str:
    return at.subheader[0].value


def returned_set(at: AppTest) -> str:
    """The sentence "At α = … the LNCC returns {…}" (a success box when determinate, else a warning)."""
    boxes = [b.value for b in list(at.success) + list(at.warning) if "the LNCC returns" in b.value]
    assert len(boxes) == 1, boxes
    return boxes[0]


def chart_count(at: AppTest) -> int:
    return len(at.get("plotly_chart"))


def editor_key(at: AppTest) -> str:
    keys = [e.key for e in at.data_editor]
    assert len(keys) == 1 and keys[0], keys
    return keys[0]


def edit_table(at: AppTest, edited=None, added=None, deleted=None) -> AppTest:
    """Apply cell edits to the counts table the way the browser reports them, then rerun."""
    at.session_state[editor_key(at)] = {"edited_rows": edited or {}, "added_rows": added or [],
                                        "deleted_rows": deleted or []}
    at.run()
    assert_ok(at)
    return at


# ------------------------------------------------------------------------------------ loading
def test_default_view_is_example_2_and_its_sliders_move_the_verdict_and_the_cloud():
    at = run_page()
    assert at.title[0].value == "Profile likelihood"
    assert any(r"\inf_{\theta" in x.value for x in at.latex), "the LNCC dominance formula is shown"
    assert any("l'(t)" in x.value and "p''(t)" in x.value for x in at.latex), "the profile likelihood"
    assert any("Try this" in i.value for i in at.info)
    assert at.selectbox(key="pl_preset").value == "000-ex2"
    assert at.selectbox(key="pl_preset").options == [                  # each paper named (cite_plain)
        "000 Example 2 (Antonucci, Cattaneo & Corani 2011)", "000 Example 3 (Antonucci, Cattaneo & Corani "
        "2011)", "003 Example 1 (Cattaneo 2010)", "Custom"]
    assert at.slider(key="pl_alpha").value == pytest.approx(0.5)
    assert at.slider(key="pl_samples").value == 3000
    assert at.toggle(key="pl_include_instance").value is True
    assert chart_count(at) == 1
    assert not at.error
    assert dict(at.query_params) == DEFAULT_URL
    # the α slider flips the verdict on example 2 (same session)
    at.slider(key="pl_alpha").set_value(0.23).run()
    assert_ok(at)
    below = returned_set(at)
    assert "returns **{c, ¬c}**" in below
    assert at.warning, "no dominance: a warning box"
    at.slider(key="pl_alpha").set_value(0.24).run()
    assert_ok(at)
    above = returned_set(at)
    assert "returns **{c}**" in above
    assert above != below
    assert at.query_params["alpha"] == "0.24"
    assert verdict(at) == "c dominates ¬c for α > 0.233"   # the critical value itself does not move
    # the sample-size slider changes the cloud and the URL
    at.slider(key="pl_samples").set_value(6000).run()
    assert_ok(at)
    assert at.query_params["samples"] == "6000"
    figure = at.get("plotly_chart")[0].proto.spec
    assert "6,000 random NBCs" in figure


def test_every_preset_loads_from_the_selectbox():
    at = run_page()
    for preset in ["000-ex2", "000-ex3", "003-ex1", "custom"]:       # one session goes through them all
        at.selectbox(key="pl_preset").set_value(preset).run()
        assert_ok(at)
        assert at.selectbox(key="pl_preset").value == preset
        assert chart_count(at) == 1, preset
        assert not at.error, preset
        for m in at.metric:
            assert "nan" not in m.value.lower(), preset


# ----------------------------------------------------------------------- the papers' numbers
def test_example_2_reproduces_000():
    at = run_page({"preset": "000-ex2"})
    assert verdict(at) == "c dominates ¬c for α > 0.233"
    assert metric(at, "critical α (c ≻ ¬c)") == "0.2333"
    assert metric(at, "critical α (¬c ≻ c)") == "1 (never)"
    assert metric(at, "[a, b]: range of t") == "[−5.5, 1.5]"       # 000 §4.1: [−11/2, 3/2]
    assert metric(at, "t̂: maximum of L") == "0.3333"               # the maximum of (11+2t)^5 (3−2t)
    assert metric(at, "t where r(t) = 1") == "−2"                  # (11+2t)/(3−2t) = 1


def test_example_3_reproduces_000_with_and_without_the_instance():
    at = run_page({"preset": "000-ex3"})
    assert verdict(at) == "c dominates ¬c for α > 0.212"          # 000: "when α ≥ 0.22"
    assert metric(at, "critical α (c ≻ ¬c)") == "0.2118"
    assert metric(at, "critical α (¬c ≻ c)") == "1 (never)"
    at.toggle(key="pl_include_instance").set_value(False).run()
    assert_ok(at)
    assert verdict(at) == "¬c dominates c for α > 0.981"          # 000: both classes "if α ≤ 0.98"
    assert metric(at, "critical α (c ≻ ¬c)") == "1 (never)"
    assert metric(at, "critical α (¬c ≻ c)") == "0.9806"
    assert at.query_params["include_instance"] == "0"
    at.toggle(key="pl_include_instance").set_value(True).run()
    assert metric(at, "critical α (c ≻ ¬c)") == "0.2118"


def test_003_example_1_reproduces_the_interval_and_moving_beta_changes_it():
    at = run_page({"preset": "003-ex1"})
    assert at.slider(key="pl_beta").value == pytest.approx(0.15)
    lower, upper = float(metric(at, "lower end")), float(metric(at, "upper end"))
    assert (round(lower, 2), round(upper, 2)) == (0.35, 0.90)
    assert "[0.35, 0.90]" in verdict(at)
    assert float(metric(at, "Wilks level").rstrip("%")) == pytest.approx(95, abs=0.5)
    assert metric(at, "maximum-likelihood γ̂") == "0.6667"          # 003: γ̂ = 2/3
    captions = " ".join(c.value for c in at.caption)
    assert "[0.35, 0.90]" in captions and "95 %" in captions and "β = 0.15" in captions
    assert any("19683" in x.value for x in at.latex)
    assert dict(at.query_params) == {"preset": "003-ex1", "beta": "0.15", "samples": "3000"}
    # a higher cutoff β, in the same session
    before = (metric(at, "lower end"), metric(at, "upper end"))
    at.slider(key="pl_beta").set_value(0.5).run()
    assert_ok(at)
    lower, upper = float(metric(at, "lower end")), float(metric(at, "upper end"))
    assert (metric(at, "lower end"), metric(at, "upper end")) != before
    assert float(before[0]) < lower < 2 / 3 < upper < float(before[1])   # a higher cutoff: narrower
    assert at.query_params["beta"] == "0.5"


# ------------------------------------------------------------------------------ interaction
def test_url_round_trip():
    query = {"preset": "custom", "counts": "3-1,2-2,4-0", "n": "4-3", "alpha": "0.35",
             "include_instance": "0", "samples": "1500"}
    at = run_page(query)
    assert at.selectbox(key="pl_preset").value == "custom"
    assert at.slider(key="pl_alpha").value == pytest.approx(0.35)
    assert at.slider(key="pl_samples").value == 1500
    assert at.toggle(key="pl_include_instance").value is False
    assert at.number_input(key="pl_n_c").value == 4 and at.number_input(key="pl_n_not").value == 3
    table = at.data_editor[0].value
    assert table[COL_C].tolist() == [3, 2, 4] and table[COL_NOT].tolist() == [1, 2, 0]
    assert dict(at.query_params) == query               # read back unchanged

    at.slider(key="pl_alpha").set_value(0.8).run()      # change the view, share it, reopen it
    shared = dict(at.query_params)
    assert shared == {**query, "alpha": "0.8"}
    reopened = run_page(shared)
    assert [m.value for m in reopened.metric] == [m.value for m in at.metric]
    assert verdict(reopened) == verdict(at)
    assert returned_set(reopened) == returned_set(at)


def test_preset_link_keeps_only_what_matters():
    at = run_page({"preset": "000-ex3", "alpha": "0.22", "include_instance": "1"})
    assert "returns **{c}**" in returned_set(at)        # 000: c from α ≥ 0.22
    assert dict(at.query_params) == {"preset": "000-ex3", "alpha": "0.22", "include_instance": "1",
                                     "samples": "3000"}


@pytest.mark.parametrize("bad", [
    {"preset": "custom"},                                           # no counts at all
    {"preset": "custom", "counts": "9-1", "n": "6-2"},              # refused: a feature count above n(c)
])
def test_unusable_custom_link_shows_the_default_example(bad):
    """Every other malformed value is a URL-state unit test (tests/app_support)."""
    at = run_page(bad)
    assert not at.error
    assert chart_count(at) == 1
    assert at.selectbox(key="pl_preset").value == "000-ex2"
    assert verdict(at) == "c dominates ¬c for α > 0.233"
    assert dict(at.query_params) == DEFAULT_URL


# ------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("edit, message", [
    (dict(edited={0: {COL_C: -1}}), "counts cannot be negative"),          # PairProfile's own messages
    (dict(edited={0: {COL_C: 7}}), "n(c, f~) = 7 exceeds n(c) = 6"),
    (dict(edited={0: {COL_NOT: 3}}), "n(not c, f~) = 3 exceeds n(not c) = 2"),
    (dict(deleted=[0]), "give at least one feature"),
    (dict(added=[{COL_C: 1}]), "finite numbers"),       # a new row with one cell left blank
    (dict(edited={0: {COL_C: "abc"}}), "finite numbers"),  # streamlit blanks what it cannot parse
])
def test_bad_table_input_is_refused_with_a_message(edit, message):
    at = run_page()
    before = verdict(at)
    edit_table(at, **edit)
    assert at.error, "an error next to the table"
    assert message in at.error[0].value
    assert chart_count(at) == 1, "the page stays usable: the last valid state is still drawn"
    assert verdict(at) == before
    assert dict(at.query_params) == DEFAULT_URL, "the link keeps the last valid counts"
    at.slider(key="pl_alpha").set_value(0.1).run()   # the other controls still work
    assert_ok(at)
    assert "returns **{c, ¬c}**" in returned_set(at)


def test_class_count_below_a_feature_count_is_refused():
    at = run_page()
    at.number_input(key="pl_n_c").set_value(3).run()   # n(c, f̃_1) = 5 > n(c) = 3
    assert_ok(at)
    assert at.error and "exceeds n(c) = 3" in at.error[0].value
    assert chart_count(at) == 1


def test_valid_table_edit_becomes_a_custom_link():
    at = run_page()
    edit_table(at, edited={0: {COL_C: 2}}, added=[{COL_C: 6, COL_NOT: 0}])
    assert not at.error
    assert at.query_params["preset"] == "custom"
    assert at.query_params["counts"] == "2-1,6-0" and at.query_params["n"] == "6-2"
    reopened = run_page(dict(at.query_params))
    assert [m.value for m in reopened.metric] == [m.value for m in at.metric]
    # repairing the table restores the computation
    edit_table(at, edited={0: {COL_C: 9}})
    assert at.error
    edit_table(at, edited={0: {COL_C: 5}})
    assert not at.error
    assert verdict(at) == "c dominates ¬c for α > 0.233"


def test_switching_presets_reloads_the_counts():
    at = run_page()
    edit_table(at, edited={0: {COL_C: 1}})
    at.selectbox(key="pl_preset").set_value("000-ex3").run()
    assert_ok(at)
    table = at.data_editor[0].value
    assert table[COL_C].tolist() == [50, 0] and table[COL_NOT].tolist() == [1, 1]
    assert at.number_input(key="pl_n_c").value == 50
    assert verdict(at) == "c dominates ¬c for α > 0.212"
    # the multinomial view and back: the two-class settings survive
    at.slider(key="pl_alpha").set_value(0.3).run()
    at.selectbox(key="pl_preset").set_value("003-ex1").run()
    assert_ok(at)
    at.selectbox(key="pl_preset").set_value("custom").run()
    assert_ok(at)
    assert at.slider(key="pl_alpha").value == pytest.approx(0.3)
    assert at.data_editor[0].value[COL_C].tolist() == [50, 0]
    assert verdict(at) == "c dominates ¬c for α > 0.212"


@pytest.mark.parametrize("include_instance", ["1", "0"])
@pytest.mark.parametrize("counts, n", [
    ("0-0", "0-0"),                 # no training data at all
    ("1-0", "1-0"),                 # one class never seen
    ("0-0,0-0", "3-3"),             # zero counts on both sides
    ("4-4,4-4", "4-4"),             # every feature value always seen with both classes (0/0 = 1)
    (",".join(["7-3"] * 40), "9-8"),  # many features
])
def test_edge_counts_never_crash(counts, n, include_instance):
    at = run_page({"preset": "custom", "counts": counts, "n": n, "include_instance": include_instance})
    if at.error:   # a clear message instead of a result is acceptable, a traceback is not
        assert "could not be computed" in at.error[0].value
        return
    assert chart_count(at) == 1
    for m in at.metric:
        assert "nan" not in m.value.lower() and "inf" not in m.value.lower()
    assert dict(at.query_params)["counts"] == counts


def test_back_through_the_navigation_the_page_shows_the_view_it_left():
    """A visit without URL parameters (the navigation's bare address) gets the last link back."""
    at = run_page({"preset": "000-ex3", "alpha": "0.7", "include_instance": "0"})
    left = dict(at.query_params)
    assert left["preset"] == "000-ex3" and left["alpha"] == "0.7"
    assert at.session_state["pl_last_view"] == left
    back = AppTest.from_file(PAGE, default_timeout=TIMEOUT)     # the page's widgets are gone once left,
    back.session_state["pl_last_view"] = left                  # the remembered link is not
    back.run()
    assert_ok(back)
    assert dict(back.query_params) == left
    at = back
    assert at.selectbox(key="pl_preset").value == "000-ex3"
    assert at.slider(key="pl_alpha").value == pytest.approx(0.7)


def test_the_intro_links_the_lesson_steps_that_explain_the_lncc():
    import re
    import urllib.parse

    from app_support.lessons.catalogue import lessons

    at = AppTest.from_file(PAGE, default_timeout=60)
    at.run()
    assert not at.exception
    links = [q for m in at.markdown for q in re.findall(r"\]\(/lessons\?([^)]+)\)", m.value)]
    assert len(links) == 1
    query = dict(urllib.parse.parse_qsl(links[0]))
    lesson = next(x for x in lessons() if x.id == query["lesson"])
    lessons_page = AppTest.from_file(str(Path(PAGE).with_name("lessons.py")), default_timeout=60)
    lessons_page.query_params.update(query)
    lessons_page.run()
    assert not lessons_page.exception
    step = lesson.steps[int(query["step"]) - 1]
    assert lessons_page.header[0].value == step.title and "likelihood" in step.text


def test_edits_never_change_the_shared_table_of_an_example():
    """Every session starts its editor from one shared table per problem (``counts_frame``): an edit and
    a new row change this session's counts, never that table."""
    from app_support.profile_likelihood.model import counts_frame
    from credal_core.likelihood.pair_input import paper_pairs
    pair = paper_pairs()["000 Example 2"]
    before = counts_frame(pair).copy()
    at = run_page()
    edit_table(at, edited={0: {COL_C: 4}}, added=[{COL_C: 1, COL_NOT: 1}])
    assert at.query_params["preset"] == "custom" and at.query_params["counts"] == "4-1,1-1"
    assert counts_frame(pair).equals(before) and counts_frame(pair)[COL_C].tolist() == [5]
    assert run_page().data_editor[0].value[COL_C].tolist() == [5]


def test_a_view_that_cannot_be_computed_says_so_and_keeps_its_controls(monkeypatch):
    """The α part is a fragment of its own: when the view fails, the error stands where the chart was, the
    α slider and the toggle stay usable, and the link is still written."""
    from app_support.profile_likelihood import model

    def failing(*args):
        raise ArithmeticError("a result is not a finite number")

    monkeypatch.setattr(model, "pair_view", failing)
    at = run_page({"alpha": "0.4"})
    assert len(at.error) == 1 and "could not be computed" in at.error[0].value
    assert chart_count(at) == 0 and not at.metric and not at.subheader
    assert at.slider(key="pl_alpha").value == pytest.approx(0.4)
    assert at.toggle(key="pl_include_instance").value is True
    assert dict(at.query_params)["alpha"] == "0.4"
    monkeypatch.undo()
    at.slider(key="pl_alpha").set_value(0.5).run()
    assert_ok(at)
    assert not at.error and chart_count(at) == 1 and verdict(at) == "c dominates ¬c for α > 0.233"


def test_an_alpha_move_changes_the_verdict_and_its_metric_not_the_rest():
    """An α move (a rerun of the α part alone) changes the verdict, its metric and the link; the critical
    α's and the second row (t's range, t̂, the ratio-one point) stay as they were."""
    at = run_page()
    rows = [(m.label, m.value) for m in at.metric]
    at.slider(key="pl_alpha").set_value(0.1).run()
    assert_ok(at)
    moved = [(m.label, m.value) for m in at.metric]
    assert moved[3:] == rows[3:] and moved[2] == ("LNCC at α = 0.10", "{c, ¬c}")
    assert "At α = 0.10 the LNCC returns **{c, ¬c}**" in returned_set(at)
    assert dict(at.query_params)["alpha"] == "0.1"
