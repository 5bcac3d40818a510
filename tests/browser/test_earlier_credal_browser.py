"""Real-browser test of the page "Credal model averaging, trees and the reject option": a deep link opens
the tree at a chosen instance; at 1280×720 and 390×844 the charts render with their titles inside
their boxes; the d slider moves the URL.

Runs the whole app (``app.py``, page at ``/earlier_credal``) with Playwright driving Debian's chromium.
Screenshots go to ``CREDAL_SHOT_DIR`` when set (to look at them), and to the README's folder through
``save_screenshot``.
"""

from __future__ import annotations

import re

import pytest
from _server import (
    CLIPPED_TITLES,
    chromium_browser,
    open_page,
    playwright_or_skip,
    save_screenshot,
    shots_to_folder,
)

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()

@pytest.mark.parametrize("width, height", [(1280, 720), (390, 844)])
def test_deep_link_tree_and_reject_option_in_chromium(app_url, width, height):
    expect = sync_api.expect
    with chromium_browser() as browser:
        page = open_page(browser, app_url + "earlier_credal?data=weather&row=2&depth=3&d=0.25",
                         "Credal model averaging, trees and the reject option", width=width, height=height)
        charts = page.get_by_test_id("stPlotlyChart")
        expect(charts).to_have_count(4, timeout=120_000)
        expect(page.get_by_text("Instance 2: outlook = overcast")).to_be_visible(timeout=30_000)
        expect(page.get_by_text("The CDT returns")).to_contain_text("yes")
        for title in ("CMA: P(feature in the model", "AODE: weight of each SPODE", "Credal decision tree",
                      "Expected cost per instance"):
            expect(page.locator(".gtitle").filter(has_text=title)).to_have_count(1, timeout=30_000)
        page.wait_for_timeout(500)
        assert page.evaluate(CLIPPED_TITLES) == []
        shots_to_folder(page, f"earlier_credal_{width}x{height}")

        slider = page.get_by_test_id("stSlider").filter(has_text="Rejection cost d").get_by_role("slider")
        slider.focus()
        slider.press("ArrowRight")
        expect(page).to_have_url(re.compile(r"[?&]d=0\.26\b"), timeout=30_000)
        expect(page.get_by_text("At d = 0.26")).to_be_visible(timeout=60_000)
        if width == 1280:
            save_screenshot(page, "earlier_credal", settle_ms=1000)
            # the data set sits in the part of the page that reruns alone: a new one reruns the whole page,
            # whose row bound and URL follow it
            data = page.get_by_role("combobox", name="Data set")
            data.click()
            data.press_sequentially("balloons")
            data.press("Enter")
            expect(page).to_have_url(re.compile(r"[?&]data=balloons\b"), timeout=30_000)
            expect(page.get_by_text("Instance 0: color = YELLOW")).to_be_visible(timeout=60_000)
            expect(page.get_by_text("Instance (row 0 to 75)")).to_be_visible(timeout=30_000)
