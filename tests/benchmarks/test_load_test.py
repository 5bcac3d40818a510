"""The load tester's protocol code (benchmarks/load_test.py) against real Streamlit servers.

The app's tests use the run's one shared Streamlit server (tests/browser/_server.py; a process run outside
scripts/test.sh starts its own); one test starts a three-line app that raises from inside an
``st.fragment``, to check that fragment reruns complete and that exceptions rendered on the page are
counted as errors.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import textwrap
import urllib.parse

import pytest

from benchmarks.load_test import (
    FINISHED,
    LESSON_STEPS,
    PAGES,
    ProcessTree,
    Student,
    find_server_pid,
    flood_scenario,
    judge,
    page_scenario,
    quantile,
    started_server,
)
from tests.browser._server import streamlit_app


@pytest.fixture(scope="module")
def app_url():
    # the tests only need a server of the app: the run's shared one (one Streamlit start per run; the
    # tests of this module may land in different xdist workers)
    with streamlit_app("streamlit_load_test.log") as url:
        pid = find_server_pid(url)
        assert pid is not None, f"no process listens at {url}"
        yield url, pid


def test_two_students_move_the_home_slider(app_url):
    url, pid = app_url
    args = argparse.Namespace(ramp=0.2, seed=0, moves=2, interval=0.2, timeout=120.0, deadline=None)
    row = asyncio.run(page_scenario(url, "home", 2, args, ProcessTree(pid), "app"))
    assert row["errors"] == 0, row["groups"]["home"]["error_samples"]
    assert row["first_render"]["n"] == 2
    assert row["rerun"]["n"] == 4          # 2 students × 2 moves, each run to script_finished
    assert 0 < row["rerun"]["p50"] <= row["rerun"]["max"]
    assert row["server_cpu_s"] > 0
    assert row["server_rss_peak_mb"] > 50   # a Streamlit process with numpy, pandas, plotly loaded


def test_a_held_key_is_coalesced_and_the_others_still_get_answers(app_url):
    # the flooder sends many reruns without waiting; Streamlit keeps one run per session (a new request
    # stops the one in progress), so the server finishes far fewer runs than were sent, and the other
    # students' moves all complete without errors
    url, pid = app_url
    args = argparse.Namespace(ramp=0.2, seed=0, moves=2, interval=0.3, timeout=120.0, flood_page="home",
                              flood_interval=0.01, flood_others=2)
    row = asyncio.run(flood_scenario(url, args, ProcessTree(pid), "app"))
    assert row["errors"] == 0, row["groups"]
    assert row["rerun"]["n"] == 4                     # the two others' moves, judged group
    assert row["flooder_reruns_sent"] >= 20
    assert 0 < row["flooder_runs_finished"] < row["flooder_reruns_sent"]


def test_deep_link_state_and_a_slider_move_reach_the_page(app_url):
    url, _ = app_url

    async def drive():
        student = Student(url, timeout=120)
        try:
            await student.open("", "s=3.0")
            slider = student.find_for(PAGES["home"])
            assert student.values[slider.proto.id] == [3.0]       # the deep link's s, as rendered
            assert student.page_hash                                # navigation told us the page
            await student.move(slider, random.Random(0), walk=1)
            # the page mirrors s in the URL: a page_info_changed message with the new query string
            assert "s=3.1" in student.query
            assert student.errors == []
        finally:
            await student.close()

    asyncio.run(drive())


FRAGMENT_APP = textwrap.dedent("""
    import streamlit as st

    st.title("fragment test")

    @st.fragment
    def part():
        x = st.slider("x", 0, 10, 0)
        if x >= 2:
            raise ValueError(f"boom at {x}")
        st.write(f"x is {x}")

    part()
""")


def test_fragment_reruns_and_page_exceptions(tmp_path):
    (tmp_path / "app.py").write_text(FRAGMENT_APP)

    async def drive(url):
        student = Student(url, timeout=60)
        try:
            await student.open("")
            slider = student.find("slider", "^x$")
            assert slider is not None and slider.fragment_id      # the widget sits in a fragment
            finished = []
            original = student._handle

            def spy(message):
                if message.WhichOneof("type") == "script_finished":
                    finished.append(message.script_finished)
                original(message)

            student._handle = spy
            await student.move(slider, random.Random(0), walk=1)   # x = 1: fine
            assert student.errors == []
            assert finished[-1] == FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
            await student.move(slider, random.Random(0), walk=1)   # x = 2: raises on the page
            assert len(student.errors) == 1 and "ValueError" in student.errors[0]
            assert "boom at 2" in student.errors[0]
        finally:
            await student.close()

    with started_server("app", app_dir=tmp_path) as (url, _):
        asyncio.run(drive(url))


def test_quantiles_interpolate_like_numpy():
    assert quantile([1.0, 2.0, 3.0, 4.0, 5.0], 0.95) == pytest.approx(4.8)
    assert quantile([2.0], 0.5) == 2.0
    assert quantile([], 0.5) != quantile([], 0.5)             # NaN


def _row(p95: float, errors: int, rss: float) -> dict:
    return {"scenario": "home", "students": 30, "rerun": {"p95": p95}, "errors": errors,
            "server_rss_peak_mb": rss, "groups": {"home": {"error_samples": ["x"] * errors}}}


def test_limits_decide_the_exit_status():
    limits = argparse.Namespace(command="run", max_p95=1.0, max_errors=0, max_rss_mb=2048)
    assert judge([_row(0.9, 0, 900)], limits) == 0
    assert judge([_row(1.1, 0, 900)], limits) == 1
    assert judge([_row(0.9, 1, 900)], limits) == 1
    assert judge([_row(0.9, 0, 2100)], limits) == 1
    assert judge([_row(float("nan"), 0, 900)], limits) == 1   # no rerun measured is no pass
    no_limits = argparse.Namespace(command="run", max_p95=None, max_errors=None, max_rss_mb=None)
    assert judge([_row(9.0, 3, 9000)], no_limits) == 0


def test_the_scenarios_are_registered_pages_at_their_addresses():
    from app_support.registry import REGISTRY, page
    from benchmarks.load_test import CONTROLS

    assert set(CONTROLS) <= {entry.stem for entry in REGISTRY}
    for name, spec in PAGES.items():
        if name in LESSON_STEPS or "@" in name:               # a deep link of a page (test below)
            continue
        assert name in CONTROLS and spec.name == name and spec.url_path == page(name).url_path


def test_a_page_at_a_deep_link_is_a_scenario_of_its_own():
    from benchmarks.load_test import parse_args

    args = parse_args(["run", "--pages", "earlier_credal@data=balloons&s=2.5,home"])
    spec, base = PAGES["earlier_credal@data=balloons&s=2.5"], PAGES["earlier_credal"]
    assert args.pages.split(",")[0] == spec.name
    same = ("url_path", "kind", "label", "press")
    assert [getattr(spec, f) for f in same] == [getattr(base, f) for f in same]
    assert spec.query == "data=balloons&s=2.5" and base.query == ""
    parse_args(["run", "--pages", "nowhere@data=x"])
    assert "nowhere@data=x" not in PAGES                     # an unknown page stays unknown (an error later)


def test_every_lesson_step_with_a_slider_is_a_scenario_on_the_lessons_page():
    from app_support.lessons.catalogue import lessons as all_lessons
    from app_support.lessons.catalogue import locate
    from app_support.registry import page

    expected = {(item.id, n) for item in all_lessons() for n, step in enumerate(item.steps, start=1)
                if step.widget.kind != "toggle"}
    found = set()
    for name, spec in LESSON_STEPS.items():
        where = locate(dict(urllib.parse.parse_qsl(spec.query)))
        assert spec.url_path == page("lessons").url_path and spec.kind == "slider"
        found.add((where.lesson.id, where.step + 1))
        assert name == f"lesson-{where.lesson.id}-{where.step + 1}"
    assert found == expected


def test_a_lesson_steps_slider_moves(app_url):
    url, _ = app_url
    spec = LESSON_STEPS["lesson-naive-credal-2"]

    async def drive():
        student = Student(url, timeout=120)
        try:
            await student.open(spec.url_path, spec.query)
            assert student.find("slider") is None                  # predict first: no figure yet
            await student.submit(student.find("button", spec.press))
            slider = student.find_for(spec)
            assert student.find("slider", spec.label) is slider          # the step's own slider, by label
            before = list(student.values[slider.proto.id])
            await student.move(slider, random.Random(0), walk=1)
            assert student.values[slider.proto.id] != before and student.errors == []
        finally:
            await student.close()

    asyncio.run(drive())
