"""Real-browser test of the page "Intervals vs N": `streamlit run` + Playwright driving Debian's chromium.

Runs the whole app (``app.py``, page at ``/intervals_vs_n``).
"""

from __future__ import annotations

import re

import pytest
from _server import chromium_browser, move_slider, playwright_or_skip, save_screenshot

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()


def alpha_thumb(page):
    return page.get_by_test_id("stSlider").filter(has_text="α (likelihood cut-off)").get_by_role("slider")


def first_row_cells(page):
    """The cells of the first row (N = 10) of the interval table."""
    return page.get_by_test_id("stTable").nth(0).locator("tbody tr").first.locator("th, td")


def test_intervals_vs_n_page_in_chromium(app_url):
    expect = sync_api.expect
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 3000})
        # Arrive from the front door and click through the navigation, as a student would (a shared
        # link as the very first request is covered by the Profile likelihood browser test).
        page.goto(app_url, wait_until="domcontentloaded")
        nav = page.get_by_test_id("stSidebarNav")
        expect(nav).to_contain_text("Intervals vs N", timeout=60_000)
        nav.get_by_role("link", name="Intervals vs N").click()
        expect(page).to_have_url(re.compile(r"/intervals_vs_n$"), timeout=30_000)
        expect(page.get_by_role("heading", name="Intervals vs N")).to_be_visible(timeout=60_000)
        expect(page).to_have_title("Credal classification explorer", timeout=10_000)
        expect(page.locator(".katex").first).to_be_visible(timeout=30_000)

        # both plotly charts rendered, with their curves drawn
        charts = page.get_by_test_id("stPlotlyChart")
        expect(charts).to_have_count(2, timeout=60_000)
        for i in range(2):
            expect(charts.nth(i).locator(".scatterlayer .trace").first).to_be_attached(timeout=30_000)
        expect(charts.nth(0)).to_contain_text("likelihood interval (α = 0.85)")
        expect(charts.nth(1)).to_contain_text("NCC (s = 2)")
        expect(page.get_by_test_id("stAlert").filter(has_text="reproduce 003 Example 2")).to_be_visible()

        cells = first_row_cells(page)  # N = 10 | likelihood interval | width | IDM interval | width
        expect(cells).to_have_count(5)
        before = [text.strip() for text in cells.all_inner_texts()]

        # α from 0.85 to 0.80 with the keyboard
        thumb = alpha_thumb(page)
        expect(thumb).to_have_value("0.85")
        move_slider(thumb, "ArrowLeft", 5, "0.8")
        expect(cells.nth(1)).not_to_have_text(before[1], timeout=30_000)  # the likelihood interval
        expect(cells.nth(3)).to_have_text(before[3])  # the IDM interval does not depend on α
        expect(charts.nth(0)).to_contain_text("likelihood interval (α = 0.8)", timeout=30_000)
        expect(page).to_have_url(re.compile(r"[?&]alpha=0\.80?\b"), timeout=10_000)
        after = [text.strip() for text in cells.all_inner_texts()]

        # the shared link reproduces the view in a fresh page
        shared = page.url
        other = browser.new_page(viewport={"width": 1400, "height": 3000})
        other.goto(shared, wait_until="domcontentloaded")
        other_thumb = alpha_thumb(other)
        expect(other_thumb).to_have_value("0.8", timeout=60_000)
        expect(first_row_cells(other)).to_have_text(after, timeout=30_000)
        other.close()

        save_screenshot(page, "intervals_vs_n", settle_ms=1000)
