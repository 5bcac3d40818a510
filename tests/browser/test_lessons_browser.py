"""Real-browser walk through every lesson at 1280×720 (`streamlit run app.py` + Playwright on Debian's
chromium): each step's question answered once wrongly and once rightly (both verdicts checked, then the
figure), Next to the following step, and on each lesson's first step the link into the full page followed
and Back again.  No exception on any step; nothing requested outside the app's server
(``chromium_browser``)."""

from __future__ import annotations

import re
import time

import pytest
from _server import chromium_browser, playwright_or_skip, save_screenshot, streamlit_app

from app_support import registry
from app_support.lessons.catalogue import lessons
from app_support.lessons.model import CHOICE, CLASSES

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()
SEED = 7
TIMEOUT = 60_000


@pytest.fixture(scope="module")
def server_url():
    with streamlit_app("streamlit.log") as url:
        yield url


def wrong_answer(question, right):
    if question.kind == CHOICE:
        return next(o for o in question.options if o != right)
    if question.kind == CLASSES:
        return [o for o in question.options if o not in right] or [question.options[0]]
    return f"{right + 3:.4f}"


def right_text(question, right):
    if question.kind != "number":
        return right
    return f"{right:.3f}" if question.unit != "%" else f"{right:.2f}"


def give(page, question, answer, selected: set) -> set:
    """Enter ``answer`` in the step's input; return the classes now selected (pills keep their state)."""
    if question.kind == CHOICE:
        page.get_by_test_id("stRadio").get_by_text(answer, exact=True).click()
        return selected
    if question.kind == CLASSES:
        for label in question.options:
            if (label in answer) != (label in selected):
                page.get_by_test_id("stButtonGroup").get_by_role("button", name=label, exact=True).click()
                page.wait_for_timeout(300)
        return set(answer)
    box = page.get_by_test_id("stTextInput").locator("input")
    box.fill(answer)
    box.press("Enter")
    page.wait_for_timeout(300)
    return selected


def check(page, expected: str) -> None:
    page.get_by_role("button", name="Check").click()
    sync_api.expect(page.get_by_test_id("stAlert").filter(has_text=re.compile(expected))).to_be_visible(
        timeout=TIMEOUT)


def settled(page, quiet_ms: int = 1500) -> None:
    """Wait until the app has finished running the page: its script state (Streamlit's own
    ``data-test-script-state`` on the app's root) "notRunning" and the address unchanged for ``quiet_ms``
    in a row.  One look is not enough on a loaded machine: a rerun is requested some time after a click,
    and a run still going when the test presses Back writes its own query parameters onto the lesson's
    address (the list then opens instead of the step)."""
    app = page.get_by_test_id("stApp")
    deadline = time.monotonic() + TIMEOUT / 1000
    quiet_since, address = time.monotonic(), page.url
    while time.monotonic() - quiet_since < quiet_ms / 1000:
        assert time.monotonic() < deadline, f"the page at {page.url} never settled"
        page.wait_for_timeout(100)
        if app.get_attribute("data-test-script-state") != "notRunning" or page.url != address:
            quiet_since, address = time.monotonic(), page.url


def no_exception(page) -> None:
    assert page.get_by_test_id("stException").count() == 0


def test_walk_every_lesson_with_wrong_and_right_answers(server_url):
    expect = sync_api.expect
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(server_url + "lessons", wait_until="domcontentloaded")
        expect(page.get_by_role("heading", name="Lessons", exact=True)).to_be_visible(timeout=TIMEOUT)
        for lesson in lessons():
            first = f"{server_url}lessons?lesson={lesson.id}&step=1&seed={SEED}"
            page.goto(first, wait_until="domcontentloaded")
            for index, step in enumerate(lesson.steps):
                heading = page.get_by_role("heading", name=step.title, exact=True)
                expect(heading).to_be_visible(timeout=TIMEOUT)
                expect(page).to_have_url(re.compile(rf"step={index + 1}(&|$)"))
                question = step.question.generate(SEED)
                right = step.question.solve(question.params)
                selected = give(page, question, wrong_answer(question, right), set())
                check(page, r"^Not quite")
                selected = give(page, question, right_text(question, right), selected)
                check(page, r"^Right")
                expect(page.get_by_test_id("stPlotlyChart")).to_be_visible(timeout=TIMEOUT)
                no_exception(page)
                if index == 0:                          # into the full page at the same values, and back
                    title = registry.page(step.page).title
                    page.get_by_test_id("stPageLink").filter(has_text=f"Open {title}").click()
                    expect(page).to_have_url(re.compile(rf"/{step.page}(\?|$)"), timeout=TIMEOUT)
                    expect(page.get_by_role("heading", name=title, exact=True)).to_be_visible(timeout=TIMEOUT)
                    settled(page)                       # its run done: nothing rewrites the URL after Back
                    no_exception(page)
                    for _ in range(5):                  # the full page may have written its own URL too
                        page.go_back()
                        settled(page)
                        if "/lessons" in page.url:
                            break
                    settled(page)
                    expect(heading).to_be_visible(timeout=TIMEOUT)       # the step the student left
                    assert "/lessons" in page.url, page.url
                if index in (0, 2):
                    save_screenshot(page, f"lesson_{lesson.id}_{index + 1}", settle_ms=500)
                if index + 1 < len(lesson.steps):
                    page.get_by_role("button", name="Next →").click()
        no_exception(page)


def test_a_malformed_link_opens_the_list_with_a_note(server_url):
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(server_url + "lessons?lesson=naive-credal&step=42", wait_until="domcontentloaded")
        sync_api.expect(page.get_by_test_id("stAlert").filter(has_text="steps 1 to")).to_be_visible(
            timeout=TIMEOUT)
        sync_api.expect(page.get_by_role("heading", name="Lessons", exact=True)).to_be_visible()
        no_exception(page)
