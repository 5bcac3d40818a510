"""A class survives a worker's death and a server restart (issue 25, item 6), through ``scripts/serve.sh
--workers 2`` on one SQLite class database, in Chromium.

- A first link on a fresh server: the class is created in the database before serve.sh starts, so the
  very first page any worker runs is a student's ``/class?code=…``; it shows the join form and no
  "Page not found" dialog (``/class`` is not a file name of pages/; serving.worker starts each worker
  with Streamlit's legacy pages mode off — app_support/routing.py).
- Two students join (fresh cookies: HAProxy spreads them over both workers); the teacher's page is open;
  student A answers step 2.  Then A's worker is killed (SIGKILL).  A's page reconnects through the proxy
  to the other worker by itself (no reload: its key and step are in its address) and still shows the class
  and step; the teacher unlocks step 3 and A's page follows it — it is live on a worker again; A's stored
  answer is still in the database and B never noticed.  The supervisor restarts the killed worker.
- The whole server is stopped and started again on the same database: A's address (a reload) lands on the
  same class and step, and the teacher's page still counts A's answer.
"""
from __future__ import annotations

import contextlib
import signal
import time
import urllib.parse

import psutil
import pytest
from _server import OUTPUT, chromium_browser, playwright_or_skip
from test_class_session_browser import serve

from app_support.class_session import logic
from app_support.class_store import ClassStore
from app_support.lessons.catalogue import lessons

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()
TIMEOUT = 120_000
LIVE = 20_000       # polling (1 s) and a reconnection (the frontend's back-off), on 2 loaded cores
RECONNECT = 60_000


def query_of(page) -> dict:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(page.url).query))


def worker_port(context, base: int) -> int:
    """The port of the worker HAProxy's cookie sends this browser to (``w<i>`` -> base + i)."""
    cookie = next(c["value"] for c in context.cookies() if c["name"] == "CREDAL_WORKER")
    return base + int(cookie.removeprefix("w"))


def worker_process(serve_pid: int, port: int) -> psutil.Process:
    """The Streamlit worker (a descendant of serve.sh) listening on ``port``."""
    for proc in psutil.Process(serve_pid).children(recursive=True):
        cmd = proc.cmdline()
        if "--server.port" in cmd and cmd[cmd.index("--server.port") + 1] == str(port):
            return proc
    raise AssertionError(f"no worker listens on {port}")


def restarted(serve_pid: int, port: int) -> int | None:
    """The pid of the worker on ``port`` now (None while there is none)."""
    try:
        return worker_process(serve_pid, port).pid
    except (AssertionError, psutil.Error):
        return None


def no_page_not_found(page) -> None:
    page.wait_for_timeout(1500)                       # the dialog would come with the first run's messages
    assert page.get_by_text("Page not found").count() == 0
    assert page.get_by_role("dialog").count() == 0


def join(browser, url: str, code: str, name: str, heading: str):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{url}class?code={code}", wait_until="domcontentloaded")
    sync_api.expect(page.get_by_role("heading", name="Join a class")).to_be_visible(timeout=TIMEOUT)
    no_page_not_found(page)
    page.get_by_label("Nickname").fill(name)
    page.get_by_label("Nickname").press("Enter")
    page.get_by_role("button", name="Join", exact=True).click()
    sync_api.expect(page.get_by_role("heading", name=heading)).to_be_visible(timeout=TIMEOUT)
    return context, page


def answer(page, value: str) -> None:
    box = page.get_by_test_id("stTextInput").locator("input")
    box.fill(value)
    box.press("Enter")
    page.wait_for_timeout(300)
    page.get_by_role("button", name="Check").click()
    sync_api.expect(page.get_by_text("Your answer is in")).to_be_visible(timeout=TIMEOUT)


class Stages:
    """Which stage of the scenario is running, and the pages open in it: a failure names the stage and
    leaves a screenshot of each page in tests/browser/output/ (a loaded CI machine gives no second look)."""

    def __init__(self) -> None:
        self.name, self.pages = "start", {}

    def __call__(self, name: str) -> None:
        self.name = name

    @contextlib.contextmanager
    def guard(self):
        """Inside the browser's ``with``: on a failure, a screenshot of each page (still open) and the
        stage's name in the error."""
        try:
            yield
        except (AssertionError, sync_api.Error) as problem:
            for label, page in self.pages.items():
                with contextlib.suppress(Exception):               # a closed page: nothing to show
                    page.screenshot(path=str(OUTPUT / f"failover_{label}.png"))
            raise AssertionError(f"class fail-over, stage {self.name!r}: {problem}") from problem


def wait_until(condition, timeout_ms: int, what: str) -> None:
    deadline = time.monotonic() + timeout_ms / 1000
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.25)


def test_a_killed_worker_and_a_restarted_server_keep_the_class(tmp_path):
    scenario(tmp_path, Stages())


def scenario(tmp_path, stage: Stages) -> None:
    expect = sync_api.expect
    lesson = lessons()[0]
    database = tmp_path / "classes.sqlite"
    store = ClassStore(f"sqlite:///{database}")
    code, key = store.create_class(lesson.id)
    store.set_unlocked_step(code, key, 1)                 # step 2 unlocked before anyone arrives
    question = lesson.steps[1].question.generate(logic.class_seed(code))
    value = f"{lesson.steps[1].question.solve(question.params):.3f}"
    OUTPUT.mkdir(exist_ok=True)
    with serve(OUTPUT / "serve_failover.log", database) as (url, proc, base), \
            chromium_browser() as browser, stage.guard():
        stage("students join")
        a_context, a = join(browser, url, code, "A", lesson.steps[1].title)     # the first page ever run
        b_context, b = join(browser, url, code, "B", lesson.steps[1].title)
        a_port, b_port = worker_port(a_context, base), worker_port(b_context, base)
        assert a_port != b_port, "HAProxy sends the second browser to the other worker"
        assert query_of(a)["step"] == "2" and "k" in query_of(a)
        teacher = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        teacher.goto(f"{url}class?code={code}&teacher={key}", wait_until="domcontentloaded")
        expect(teacher.get_by_role("heading", name=f"Class: {lesson.title}")).to_be_visible(timeout=TIMEOUT)
        stage.pages.update(a=a, b=b, teacher=teacher)
        stage("A answers")
        answer(a, value)
        expect(teacher.get_by_test_id("stMetric").filter(has_text="Answered")).to_contain_text("1",
                                                                                           timeout=LIVE)
        before = store.export_csv(code, key)

        stage("A's worker killed")
        victim = worker_process(proc.pid, a_port)
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
        # A's page notices, reconnects through the proxy (to the other worker: the dead one refuses) and
        # reruns its address: the same class and step, without a reload.  HAProxy's cookie names the
        # worker that answered the page's last request: it moves to the other one when the page has
        # reconnected.  The teacher's page, if it was on the dead worker too, reconnects the same way;
        # a click made before then would go down a closed socket (the teacher would click again).
        stage("A's page reconnects to the other worker")
        wait_until(lambda: worker_port(a_context, base) == b_port, RECONNECT, "A's page did not reconnect")
        expect(a.get_by_role("heading", name=lesson.steps[1].title)).to_be_visible(timeout=RECONNECT)
        if worker_port(teacher.context, base) == a_port:
            stage("the teacher's page reconnects")
            wait_until(lambda: worker_port(teacher.context, base) == b_port, RECONNECT,
                       "the teacher's page did not reconnect")
        # A's page has run on its new worker once this shows: a new session has not seen A's Check, so it
        # reads A's answer back from the class ("kept with the class": nothing lost from A's page either)
        expect(a.get_by_test_id("stApp")).to_have_attribute("data-test-connection-state", "CONNECTED",
                                                             timeout=RECONNECT)
        expect(a.get_by_text("Your answer is in (kept with the class).", exact=False)).to_be_visible(
            timeout=RECONNECT)
        stage("the teacher unlocks step 3; A and B follow")
        teacher.get_by_role("button", name="Next step →").click()
        wait_until(lambda: store.state(code).unlocked_step == 2, LIVE, "the teacher's click did not unlock")
        for page in (a, b):                # live again: A's page follows the lecture from its new worker
            expect(page.get_by_role("heading", name=lesson.steps[2].title)).to_be_visible(
                timeout=RECONNECT)
            assert query_of(page)["step"] == "3"
            assert page.get_by_test_id("stException").count() == 0
        assert query_of(a)["k"] and store.export_csv(code, key) == before        # A's answer kept, once
        stage("the supervisor restarts the worker")
        deadline = time.monotonic() + 180                  # the supervisor restarts the killed worker
        while restarted(proc.pid, a_port) in (None, victim.pid):
            assert time.monotonic() < deadline, "the killed worker was not restarted"
            time.sleep(1)
        a_address = a.url
        teacher_address = teacher.url

    with serve(OUTPUT / "serve_failover_again.log", database, workers=1) as (url2, _, _), \
            chromium_browser() as browser, stage.guard():   # the whole server restarted, same database
        stage("the whole server restarted")
        again = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        moved = urllib.parse.urlsplit(a_address)
        again.goto(url2 + moved.path.lstrip("/") + "?" + moved.query, wait_until="domcontentloaded")
        expect(again.get_by_role("heading", name=lesson.steps[2].title)).to_be_visible(timeout=TIMEOUT)
        assert query_of(again)["step"] == "3"
        no_page_not_found(again)
        teacher = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        moved = urllib.parse.urlsplit(teacher_address)
        teacher.goto(url2 + moved.path.lstrip("/") + "?" + moved.query, wait_until="domcontentloaded")
        expect(teacher.get_by_role("heading", name=f"Class: {lesson.title}")).to_be_visible(timeout=TIMEOUT)
        expect(teacher.get_by_test_id("stMetric").filter(has_text="Joined")).to_contain_text("2",
                                                                                         timeout=LIVE)
    assert store.export_csv(code, key) == before
    assert len(before.strip().splitlines()) == 2                   # the header and A's one answer
    store.close()

