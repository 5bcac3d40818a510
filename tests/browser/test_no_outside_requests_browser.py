"""Real-browser test: visiting every page, the browser requests nothing outside the app's own server.

A classroom may have no internet, and students' visits must not leak to third parties. Every request the
browser makes (Playwright's ``request`` event on the whole context: documents, scripts, fonts, images,
favicons, websockets) is recorded while each page is opened by its URL, and any whose host is not the
app's server fails the test. The page's favicon link is checked too, since a browser may fetch it later.

Why it exists: Streamlit's frontend loads a Material icon favicon
(``st.Page(..., icon=":material/home:")`` becomes the tab's icon) from
``https://fonts.gstatic.com/s/i/short-term/release/materialsymbolsrounded/<name>/default/24px.svg``.
app.py avoids that with a ``page_icon`` of its own in ``st.set_page_config`` (an emoji, sent as an inline
``data:`` SVG; an image file of the repository would be served from the app's ``/media/`` endpoint): a
favicon set there takes precedence over the pages' icons, which still show in the navigation (drawn with
the Material Symbols font bundled with Streamlit). Without it this test lists the eight favicon URLs.
"""

from __future__ import annotations

import urllib.parse

import pytest
from _server import chromium_browser, playwright_or_skip, streamlit_app

pytestmark = pytest.mark.browser
sync_api = playwright_or_skip()

# every page of app.py's navigation, by URL path, with its title
PAGES = {
    "": "Credal classification explorer",
    "profile_likelihood": "Profile likelihood",
    "intervals_vs_n": "Intervals vs N",
    "determinacy_curves": "Determinacy curves",
    "aode_weights": "AODE compression weights",
    "classifier_selection": "Classifier selection",
    "compare": "Compare on your data",
    "missing_values": "Missing values",
}
LOCAL_SCHEMES = {"data", "blob", "about", "chrome", "chrome-extension", "devtools"}
FIX = ("app.py must give st.set_page_config a locally served page_icon (an emoji, or an image file of the "
       "repository); otherwise Streamlit's frontend fetches each page's Material icon favicon from "
       "fonts.gstatic.com (see this module's docstring)")


@pytest.fixture(scope="module")
def base_url():
    with streamlit_app("streamlit_no_outside_requests.log") as url:
        yield url


def outside(urls: list[str], server: str) -> list[str]:
    """The URLs whose host is not the app's server (inline data: and blob: URLs never leave the browser)."""
    found = []
    for url in urls:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme in LOCAL_SCHEMES:
            continue
        if parts.netloc != server:
            found.append(url)
    return sorted(set(found))


def test_no_request_leaves_the_apps_server(base_url):
    expect = sync_api.expect
    server = urllib.parse.urlsplit(base_url).netloc
    requested: list[str] = []
    favicons: dict[str, list[str]] = {}
    with chromium_browser() as browser:
        context = browser.new_context(viewport={"width": 1400, "height": 1500})
        context.on("request", lambda request: requested.append(request.url))
        page = context.new_page()
        for path, title in PAGES.items():
            page.goto(base_url + path, wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name=title, exact=True)).to_be_visible(timeout=120_000)
            # the favicon and lazily loaded chunks (plotly, katex fonts) come after the first render
            page.wait_for_timeout(2_000)
            favicons[path or "home"] = page.evaluate(
                "() => [...document.querySelectorAll('link[rel~=icon]')].map(link => link.href)")
        context.close()

    assert any(urllib.parse.urlsplit(u).netloc == server for u in requested)     # the recording works
    leaks = outside(requested, server)
    assert leaks == [], f"requests outside {server}: {leaks}. {FIX}"
    foreign_icons = {page: outside(links, server) for page, links in favicons.items()}
    foreign_icons = {page: links for page, links in foreign_icons.items() if links}
    assert foreign_icons == {}, f"favicons outside {server}: {foreign_icons}. {FIX}"
