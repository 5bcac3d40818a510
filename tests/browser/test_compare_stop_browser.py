"""Real-browser test of the page "Compare on your data": a long comparison stopped, then a short one.

Runs the whole app (``app.py``, page at ``/compare``) with Playwright driving Debian's chromium.
"""

from __future__ import annotations

import pytest
from _server import chromium_browser, playwright_or_skip, streamlit_app

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()

LONG = ("compare?samples=breast_cancer,tic_tac_toe&folds=10&repeats=10"
        "&clf=NBC,NCC,LNCC_α%3D0.75,Selector%20(Li%20et%20al.%202019)")


@pytest.fixture(scope="module")
def base_url():
    with streamlit_app("streamlit_compare_stop.log") as url:
        yield url


def slider(page, label):
    return page.get_by_test_id("stSlider").filter(has_text=label).get_by_role("slider")


def test_stop_a_long_comparison_then_run_a_short_one(base_url):
    expect = sync_api.expect
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 3000})
        page.goto(base_url + LONG, wait_until="domcontentloaded")
        bar = page.get_by_test_id("stProgress")
        expect(bar).to_contain_text("fold", timeout=120_000)
        page.get_by_role("button", name="Stop", exact=True).click()
        stopped = page.get_by_text("The comparison was stopped before it finished")
        expect(stopped).to_be_visible(timeout=60_000)
        expect(page.get_by_test_id("stDataFrame")).to_have_count(0)

        for label in ("Folds", "Repetitions"):           # to the smallest protocol: 2 folds, 1 run
            thumb = slider(page, label)
            thumb.focus()
            thumb.press("Home")
        expect(slider(page, "Folds")).to_have_value("2")
        page.get_by_role("button", name="Run the comparison").click()
        expect(page.get_by_test_id("stDataFrame").first).to_be_visible(timeout=180_000)
        expect(stopped).to_have_count(0)
