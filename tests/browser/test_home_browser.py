"""Real-browser test of the home page: `streamlit run app.py` + Playwright driving Debian's chromium."""

from __future__ import annotations

import re

import pytest
from _server import chromium_browser, move_slider, open_page, playwright_or_skip, save_screenshot

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()


def determinacy(page) -> str:
    metric = page.get_by_test_id("stMetric").filter(has_text="NCC determinacy")
    return metric.get_by_test_id("stMetricValue").inner_text().strip()


def test_home_page_in_chromium(app_url):
    with chromium_browser() as browser:
        page = open_page(browser, app_url, "Credal classification explorer", height=1500)
        expect = sync_api.expect
        expect(page).to_have_title("Credal classification explorer", timeout=10_000)
        expect(page.get_by_test_id("stMetricValue").first).to_have_text(re.compile(r"\d+%"),
                                                                       timeout=60_000)
        expect(page.locator(".katex").first).to_be_visible()  # the dominance formula is rendered
        expect(page.get_by_test_id("stPlotlyChart")).to_be_visible(timeout=30_000)

        before = determinacy(page)
        thumb = page.get_by_role("slider")
        expect(thumb).to_have_value("2")
        move_slider(thumb, "End", 1, "10")  # one key, one rerun: s goes from 2.0 to its largest value, 10
        metric_value = page.get_by_test_id("stMetric").filter(has_text="NCC determinacy").get_by_test_id(
            "stMetricValue")
        expect(metric_value).not_to_have_text(before, timeout=30_000)
        expect(page).to_have_url(re.compile(r"[?&]s=10(\.0)?(&|$)"), timeout=10_000)

        save_screenshot(page, "home", settle_ms=1000)


def test_a_request_outside_the_apps_server_fails_a_browser_test(app_url):
    """The check every browser test ends with (``chromium_browser``, see tests/browser/_server.py) sees a
    request to another host, here the favicon fetch it exists to catch. The request is aborted in the
    browser: nothing leaves the machine."""
    outside = "https://fonts.gstatic.com/s/i/short-term/release/materialsymbolsrounded/home/default/24px.svg"
    with pytest.raises(AssertionError, match=re.escape(f"requests outside ['{app_url[7:-1]}']: "
                                                         f"['{outside}']")):
        with chromium_browser() as browser:
            context = browser.new_context()
            context.route("**/*", lambda route: route.abort() if "gstatic" in route.request.url
                          else route.continue_())
            page = context.new_page()
            page.goto(app_url + "_stcore/health")           # a page of the app's server, no frontend
            page.evaluate(f"() => fetch({outside!r}).catch(() => null)")
