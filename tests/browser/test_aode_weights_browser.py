"""Real-browser test of the page "AODE compression weights": fewer training rows concentrate BMA's weights;
the comparison runs on demand.

Runs the whole app (``app.py``, page at ``/aode_weights``) with Playwright driving Debian's chromium.
"""

from __future__ import annotations

import re

import pytest
from _server import chromium_browser, move_slider, open_page, playwright_or_skip, save_screenshot

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()


def test_training_rows_slider_changes_the_weights_in_chromium(app_url):
    expect = sync_api.expect
    with chromium_browser() as browser:
        page = open_page(browser, app_url + "aode_weights?n=200&folds=2&repeats=1",
                         "AODE compression weights", height=3800)
        charts = page.get_by_test_id("stPlotlyChart")
        expect(charts).to_have_count(3, timeout=120_000)
        summary = page.get_by_test_id("stMarkdown").filter(has_text="BMA's largest weight is")
        expect(summary).to_contain_text("0.94", timeout=60_000)       # 'try this': 0.94 at 200 rows

        rows = page.get_by_test_id("stSlider").filter(has_text="Training rows").get_by_role("slider")
        move_slider(rows, "Home", 1, "4", timeout=30_000)              # 4 rows
        move_slider(rows, "ArrowRight", 6, "10", timeout=30_000)
        expect(page).to_have_url(re.compile(r"[?&]n=10\b"), timeout=30_000)
        expect(summary).to_contain_text("0.14", timeout=60_000)       # … and 0.14 at 10 rows
        expect(page.get_by_test_id("stTable").or_(page.get_by_test_id("stDataFrame")).first).to_be_visible()

        # the comparison runs on demand, in the worker processes, and reports the mean over folds
        page.get_by_role("button", name="Run comparison").click()
        expect(page.get_by_text("mean over the 2 folds ± standard deviation")).to_be_visible(timeout=180_000)
        expect(page.get_by_test_id("stTable").filter(has_text="u65")).to_contain_text("±")
        save_screenshot(page, "aode_weights", settle_ms=1500)
