"""Real-browser test of the page "Profile likelihood": `streamlit run` + Playwright driving Debian's chromium.

Runs the whole app (``app.py``, page at ``/profile_likelihood``).
"""

from __future__ import annotations

import re

import pytest
from _server import chromium_browser, open_page, playwright_or_skip, save_screenshot

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()


# plotly.js's decoded traces (``el.data`` keeps the base64 typed arrays sent by plotly.py)
PLOT_POINTS = """el => (el._fullData || []).filter(t => t.mode === 'markers')
                                          .reduce((n, t) => n + t._length, 0)"""


def edit_first_cell(page, old: str, new: str, done) -> None:
    """Replace ``old`` by ``new`` in the first data cell of the counts table.

    The table is a canvas grid (glide data grid): a double click at the cell's position opens an
    ``input.gdg-input`` overlay, which is checked to hold ``old`` before it is filled. A click that lands
    while the page re-lays itself out is lost, hence up to three attempts, each confirmed by ``done``.
    """
    grid = page.get_by_test_id("stDataFrame").first
    editor = page.locator("input.gdg-input")
    for attempt in range(3):
        grid.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        box = grid.bounding_box()
        page.mouse.dblclick(box["x"] + box["width"] * 0.45, box["y"] + 35 + 17)   # header, then row 1
        try:
            editor.wait_for(state="visible", timeout=3_000)
        except sync_api.TimeoutError:
            continue
        if editor.input_value() != old:
            editor.press("Escape")
            continue
        editor.fill(new)
        editor.press("Enter")
        page.get_by_role("heading", name="Profile likelihood", exact=True).click()   # leave the grid
        try:
            done(timeout=10_000)
            return
        except AssertionError:
            if attempt == 2:
                raise
    raise AssertionError(f"could not edit the first cell of the counts table ({old} -> {new})")


def test_profile_likelihood_page_in_chromium(app_url):
    expect = sync_api.expect
    with chromium_browser() as browser:
        # a shared link: 000 Example 2 at α = 0.24, just above the critical α = 0.233, with a Monte Carlo
        # sample of 500 (the default 3,000 is checked by the page's AppTest; every rerun of the page
        # redraws the cloud, seconds of a software-rendering chromium's CPU at 3,000 points); a deep link
        # as the very first request to a freshly started server is the serve proxy browser test's step
        page = open_page(browser, app_url + "profile_likelihood?preset=000-ex2&alpha=0.24&samples=500",
                         "Profile likelihood", height=1500, exact=True)
        # app.py ran (its navigation, not the legacy pages/ listing; streamlit#9624)
        expect(page.get_by_test_id("stSidebarNav")).to_contain_text("Intervals vs N", timeout=30_000)
        expect(page.locator(".katex").first).to_be_visible(timeout=30_000)
        verdict = page.get_by_role("heading", name=re.compile("dominates"))
        expect(verdict).to_have_text(re.compile(r"c dominates ¬c for α > 0\.233"), timeout=60_000)

        # the plotly chart rendered, with the link's 500 Monte Carlo points and the envelope in its data
        plot = page.locator(".js-plotly-plot").first
        expect(plot).to_be_attached(timeout=60_000)
        expect(plot.locator(".scatterlayer .trace").first).to_be_attached(timeout=30_000)
        page.wait_for_function(
            "el => el._fullData && el._fullData.length >= 4", arg=plot.element_handle(), timeout=30_000)
        assert plot.evaluate(PLOT_POINTS) == 500
        names = plot.evaluate("el => el.data.map(t => t.name)")
        assert "profile likelihood (exact upper envelope)" in names
        expect(plot).to_contain_text("posterior P(c | f̃)")

        answer = page.get_by_test_id("stAlert").filter(has_text="the LNCC returns")
        expect(answer).to_contain_text("At α = 0.24 the LNCC returns {c}", timeout=30_000)

        # α from 0.24 to 0.23 with the keyboard: below 0.233 c no longer dominates (one step: every
        # rerun redraws the cloud)
        thumb = page.get_by_test_id("stSlider").filter(has_text="α (likelihood threshold").get_by_role(
            "slider")
        expect(thumb).to_have_value("0.24")
        thumb.focus()
        thumb.press("ArrowLeft")
        expect(thumb).to_have_value("0.23", timeout=10_000)
        expect(answer).to_contain_text("At α = 0.23 the LNCC returns {c, ¬c}", timeout=30_000)
        expect(page).to_have_url(re.compile(r"[?&]alpha=0\.23\b"), timeout=10_000)
        expect(page).to_have_url(re.compile(r"[?&]preset=000-ex2\b"))
        expect(page).to_have_url(re.compile(r"[?&]samples=500\b"))

        save_screenshot(page, "profile_likelihood", settle_ms=1000)

        # edit the counts table (a canvas grid): n(c, f̃_1) = 5 -> 3 makes a shareable custom example
        edit_first_cell(page, "5", "3", lambda timeout: expect(page).to_have_url(
            re.compile(r"[?&]preset=custom&counts=3-1&n=6-2\b"), timeout=timeout))
        expect(verdict).to_have_text("c dominates ¬c for α > 0.593", timeout=30_000)   # 16/27
        expect(page.get_by_role("combobox", name="Example")).to_have_value("Custom")

        # bad input: n(c) = 2 < n(c, f̃_1) = 3 is refused next to the table, the last valid state stays
        n_c = page.get_by_label("n(c)", exact=True)
        n_c.fill("2")
        n_c.press("Enter")
        error = page.get_by_test_id("stAlert").filter(has_text="cannot be used")
        expect(error).to_contain_text("exceeds n(c) = 2", timeout=30_000)
        expect(verdict).to_have_text("c dominates ¬c for α > 0.593")
        expect(plot).to_be_attached()
        n_c.fill("6")
        n_c.press("Enter")
        expect(error).to_have_count(0, timeout=30_000)
