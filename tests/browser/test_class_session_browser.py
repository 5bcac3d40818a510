"""A class through the proxy (issue 25, item 8): ``scripts/serve.sh --workers 2`` (HAProxy in front of two
Streamlit workers, one SQLite class database), one teacher and three students in separate browser contexts
(fresh cookies: HAProxy spreads them over both workers).  The teacher starts a class; the students join;
the teacher unlocks step 2 and every student's page follows without a reload; the students answer; the
teacher's live view counts 3 answers and draws their distribution; the teacher reveals and each student
sees their verdict (again without a reload); the exported CSV has 3 rows.  Nothing requested outside the
server (``chromium_browser``)."""
from __future__ import annotations

import contextlib
import csv
import io
import os
import re
import signal
import subprocess
import time
import urllib.parse
from pathlib import Path

import pytest
from _server import OUTPUT, ROOT, chromium_browser, free_port, playwright_or_skip, save_screenshot

from app_support.class_session import logic
from app_support.lessons.catalogue import lessons

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()
TIMEOUT = 120_000
LIVE = 15_000     # a change reaches a page by polling (1 s) without a reload; slack for 2 loaded cores


@contextlib.contextmanager
def serve(output: Path, database: Path, workers: int = 2):
    """serve.sh with ``workers`` workers on one class database, until it says "ready"; yields the proxy's
    URL, the serve.sh process and the first worker's port.  No page is opened first: a first deep link
    to ``/class`` on a fresh worker lands in app.py's navigation (serving.worker, app_support/routing.py),
    and test_class_failover_browser.py checks that it does."""
    from benchmarks.load_test import free_port_block

    port, base = free_port(), free_port_block(workers)
    cmd = ["bash", str(ROOT / "scripts" / "serve.sh"), "--workers", str(workers), "--port", str(port),
           "--worker-base-port", str(base)]
    env = {**os.environ, "CREDAL_CLASS_DB": str(database)}
    with output.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while "serve.sh: ready" not in output.read_text():
            assert proc.poll() is None, f"serve.sh exited early:\n{output.read_text()}"
            assert time.monotonic() < deadline, f"serve.sh not ready:\n{output.read_text()}"
            time.sleep(0.3)
        yield f"http://127.0.0.1:{port}/", proc, base
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def worker_of(context) -> str:
    return next((c["value"] for c in context.cookies() if c["name"] == "CREDAL_WORKER"), "")


def query_of(page) -> dict:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(page.url).query))


def answered_chart_x(page) -> list:
    """The x values of the teacher's answers chart, read from Plotly's own figure in the page (the live
    fragment redraws it every second: the locator waits for the one on screen)."""
    chart = page.locator(".js-plotly-plot").filter(has_text="How the class answered").first
    return chart.evaluate("el => [...el.data[0].x].map(Number)", timeout=TIMEOUT)


def test_a_teacher_and_three_students_through_the_proxy(tmp_path):
    expect = sync_api.expect
    lesson = lessons()[0]
    OUTPUT.mkdir(exist_ok=True)
    with serve(OUTPUT / "serve_class.log", tmp_path / "classes.sqlite") as (url, _, _), \
            chromium_browser() as browser:
        teacher_context = browser.new_context(viewport={"width": 1280, "height": 720}, accept_downloads=True)
        teacher = teacher_context.new_page()
        teacher.goto(url + "class", wait_until="domcontentloaded")
        teacher.get_by_role("button", name="Start a class").click()
        expect(teacher.get_by_role("heading", name=f"Class: {lesson.title}")).to_be_visible(timeout=TIMEOUT)
        code, key = query_of(teacher)["code"], query_of(teacher)["teacher"]
        expect(teacher.get_by_test_id("stImage")).to_be_visible()                    # the QR code

        students, contexts = [], []
        for number in range(3):
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            page.goto(f"{url}class?code={code}", wait_until="domcontentloaded")
            page.get_by_label("Nickname").fill(f"S{number}")
            page.get_by_label("Nickname").press("Enter")
            page.get_by_role("button", name="Join", exact=True).click()
            expect(page.get_by_role("heading", name=lesson.steps[0].title)).to_be_visible(timeout=TIMEOUT)
            assert key not in page.url and key not in page.content(), "a student never holds the teacher key"
            students.append(page)
            contexts.append(context)
        workers = {worker_of(c) for c in (teacher_context, *contexts)}
        assert len(workers) == 2, f"the four browsers are spread over both workers: {workers}"

        teacher.get_by_role("button", name="Next step →").click()
        step = lesson.steps[1]
        for page in students:                      # no reload: the page polls and follows the lecture
            expect(page.get_by_role("heading", name=step.title)).to_be_visible(timeout=LIVE)
            assert query_of(page)["step"] == "2"

        question = step.question.generate(logic.class_seed(code))
        right = step.question.solve(question.params)
        given = [f"{right:.3f}", f"{right:.3f}", f"{right + 0.25:.3f}"]
        for page, value in zip(students, given):
            box = page.get_by_test_id("stTextInput").locator("input")
            box.fill(value)
            box.press("Enter")
            page.wait_for_timeout(300)
            page.get_by_role("button", name="Check").click()
            expect(page.get_by_text("Your answer is in")).to_be_visible(timeout=TIMEOUT)

        answered = teacher.get_by_test_id("stMetric").filter(has_text="Answered")
        expect(answered).to_contain_text("3", timeout=LIVE)
        expect(teacher.get_by_test_id("stMetric").filter(has_text="Share right")).to_contain_text("67 %")
        assert sorted(answered_chart_x(teacher)) == pytest.approx(sorted(float(v) for v in given))
        save_screenshot(teacher, "class_session")

        teacher.get_by_role("button", name="Reveal the answer").click()
        for page, verdict in zip(students, ("Right", "Right", "Not quite")):
            expect(page.get_by_test_id("stAlert").filter(has_text=re.compile(f"^{verdict}"))).to_be_visible(
                timeout=LIVE)
            assert page.get_by_test_id("stException").count() == 0

        teacher.get_by_text("Export or delete the class").click()
        with teacher.expect_download(timeout=TIMEOUT) as download:
            teacher.get_by_role("button", name="Export the answers (CSV)").click()
        saved = tmp_path / "export.csv"
        download.value.save_as(saved)
        rows = list(csv.DictReader(io.StringIO(saved.read_text())))
        assert len(rows) == 3
        assert sorted(r["right"] for r in rows) == ["no", "yes", "yes"]
        assert {r["question"] for r in rows} == {question.id} and "nickname" not in rows[0]
        assert teacher.get_by_test_id("stException").count() == 0
