"""Real-browser test of the page "Determinacy curves": a run, a long run stopped from the page, a new run.

Runs the whole app (``app.py``, page at ``/determinacy_curves``) with Playwright driving Debian's chromium.
"""

from __future__ import annotations

import re

import pytest
from _server import chromium_browser, open_page, playwright_or_skip, save_screenshot

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()

QUICK = "?source=artificial&m=6&theta=2&train=3&test=500&sizes=20,60&eps=0.05,0.25&alpha=0.55,0.95&seed=1"


def test_run_stop_and_run_again_in_chromium(app_url):
    expect = sync_api.expect
    with chromium_browser() as browser:
        page = open_page(browser, app_url + "determinacy_curves" + QUICK, "Determinacy curves", height=3600)
        charts = page.get_by_test_id("stPlotlyChart")
        expect(charts).to_have_count(2, timeout=120_000)
        expect(charts.nth(0)).to_contain_text("LNCC_α=0.95", timeout=30_000)
        expect(charts.nth(0)).to_contain_text("NCC_ε=0.25")

        # a long run (the paper's full protocol at one size), stopped from the page
        sizes = page.get_by_role("textbox", name="Sample sizes d")
        sizes.fill("25, 50, 100, 200")
        page.get_by_test_id("stSlider").filter(has_text="θ draws").get_by_role("slider").focus()
        page.keyboard.press("End")                  # 20 draws
        page.get_by_role("button", name="Run", exact=True).click()
        bar = page.get_by_test_id("stProgress")
        expect(bar).to_be_visible(timeout=60_000)
        expect(bar).to_contain_text(re.compile(r"of \d+ tasks"), timeout=60_000)
        page.get_by_role("button", name="Stop the run").click()
        expect(page.get_by_text("The run was stopped before it finished")).to_be_visible(timeout=60_000)
        expect(bar).to_have_count(0)
        expect(charts).to_have_count(0)

        # the session still works: a quick run again
        sizes.fill("20, 60")
        page.get_by_test_id("stSlider").filter(has_text="θ draws").get_by_role("slider").focus()
        page.keyboard.press("Home")                 # 1 draw
        page.get_by_role("button", name="Run", exact=True).click()
        expect(charts).to_have_count(2, timeout=120_000)
        expect(page.get_by_text("The run was stopped before it finished")).to_have_count(0)
        expect(page).to_have_url(re.compile(r"[?&]theta=1\b"), timeout=10_000)
        save_screenshot(page, "determinacy_curves", settle_ms=1500)
