"""Real-browser test of the page "Missing values": `streamlit run app.py` + Playwright driving chromium.

The default link is the lecture's scenario (weather, every sunny outlook hidden in training, row 8 with its
outlook missing): the grid must show the MAR rows answering "yes" alone and the conservative row both
classes; switching the mechanism to "at random" must rewrite the link.
"""

from __future__ import annotations

import re

import pytest
from _server import chromium_browser, open_page, playwright_or_skip, save_screenshot

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()

GRID = "el => ({rows: el.layout.yaxis.ticktext, text: el.data[0].text})"


def test_missing_values_page_in_chromium(app_url):
    expect = sync_api.expect
    with chromium_browser() as browser:
        page = open_page(browser, app_url + "missing_values", "Missing values", exact=True)
        chart = page.locator(".js-plotly-plot").first
        expect(chart).to_be_visible(timeout=30_000)
        grid = chart.evaluate(GRID)
        assert grid["rows"] == ["NBC (MAR)", "NCC, MAR (ignore)", "NCC, imputed (mode)",
                                "NCC, not MAR: outlook"]
        # columns "no", "yes": the MAR rows return "yes" alone, the conservative row both classes
        assert grid["text"][:4] == ["", "✓", "", "✓"] and grid["text"][6:] == ["✓", "✓"]
        expect(page.get_by_text("does not dominate").first).to_be_visible()
        expect(page.locator(".katex").first).to_be_visible()
        assert page.get_by_test_id("stException").count() == 0

        save_screenshot(page, "missing_values", settle_ms=500)

        page.get_by_text("at random (MCAR)", exact=True).click()
        expect(page).to_have_url(re.compile(r"[?&]mech=mcar(&|$)"), timeout=15_000)
        expect(page.get_by_role("heading", name="Missing values", exact=True)).to_be_visible()
        expect(page.get_by_test_id("stException")).to_have_count(0)
