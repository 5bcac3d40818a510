"""Nothing clipped on a projector or a phone (issue 24 item 3): at 1280x720 and at 390x844, on every page of
app_support.registry and every lesson step (``/lessons?lesson=<id>&step=<n>``, its answer shown so that its
figure is drawn too), the DOM measurement of ``_layout.MEASURE_JS`` finds no formula, chart, chart title,
table, page link, widget label or metric clipped without a way to see it, no mode bar over a title or
legend, and every ``st.dataframe`` wider than its box showing its scroll cue; the test names, per page and
size, the first element that fails.

One browser walk: each page is loaded once and measured at both sizes (the layout is CSS, so a resize needs
no rerun; the sizes alternate in order so that every other page needs no resize before its load).  The
measurement itself is checked on a page where each kind of clipping is made on purpose.
"""

from __future__ import annotations

import pytest
from _layout import MEASURE_JS, addresses, open_settled, resize, reveal_lesson_answer, visit, where
from _server import chromium_browser, playwright_or_skip, streamlit_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]
sync_api = playwright_or_skip()

SIZES = ((1280, 720), (390, 844))

WIDE_GRIDS_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] .dvn-scroller')]
    .filter(s => s.getBoundingClientRect().width > 0 && s.scrollWidth > s.clientWidth + 1).length"""


@pytest.fixture(scope="module")
def server_url():
    with streamlit_app("streamlit.log") as url:
        yield url


def test_nothing_is_clipped_at_1280x720_or_390x844(server_url):
    paths = addresses()
    assert len(paths) >= 5, paths
    problems, wide_grids = {}, {size: 0 for size in SIZES}
    with chromium_browser() as browser:
        page = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]}).new_page()
        for i, path in enumerate(paths):
            order = SIZES if i % 2 == 0 else SIZES[::-1]      # the size the last page ended at first
            resize(page, order[0])
            visit(page, server_url, path, paths[i - 1] if i else None)
            if path.startswith("lessons?"):
                reveal_lesson_answer(page)
            for size in order:
                resize(page, size)
                found = page.evaluate(MEASURE_JS)
                if found:
                    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
                    problems[where(size, path)] = found[0] + more
                wide_grids[size] += page.evaluate(WIDE_GRIDS_JS)
    assert problems == {}, "\n".join(f"{at}: {what}" for at, what in problems.items())
    # the scroll-cue check ran: a phone is too narrow for some table (Missing values' summary, Compare's)
    assert wide_grids[SIZES[1]] > 0, wide_grids


def test_the_measure_names_each_kind_of_clipping(server_url):
    """At 390x844, on a page with formulas, metrics and widgets, each kind of clipping made on purpose is
    named, and gone once undone; on a page with a table wider than a phone, hiding its cue fails, and so
    does showing one on a table that fits (the test above cannot pass for want of a look)."""
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        open_settled(page, server_url + "profile_likelihood")
        before = page.evaluate(MEASURE_JS)

        def made(script: str, undo: str) -> list[str]:
            page.evaluate(script)
            page.wait_for_timeout(300)
            new = [p for p in page.evaluate(MEASURE_JS) if p not in before]
            page.evaluate(undo)
            page.wait_for_timeout(300)
            assert page.evaluate(MEASURE_JS) == before
            return new

        def squeeze(selector: str) -> tuple[str, str]:
            return (f"""() => Object.assign(document.querySelector('{selector}').style,
                         {{width: '12px', overflow: 'hidden', whiteSpace: 'nowrap'}})""",
                    f"""() => document.querySelector('{selector}').removeAttribute('style')""")

        new = made("""() => Object.assign(document.querySelector('.katex-display').style,
                       {overflowX: 'hidden', width: '120px'})""",
                   "() => Object.assign(document.querySelector('.katex-display').style, "
                   "{overflowX: '', width: ''})")
        assert new and new[0].startswith("formula cut "), new
        new = made(*squeeze('[data-testid="stMetricValue"]'))
        assert new and new[0].startswith("metric cut inside itself"), new
        new = made(*squeeze('[data-testid="stMain"] [data-testid="stWidgetLabel"]'))
        assert new and new[0].startswith("widget label cut inside itself"), new


        # Missing values' summary table is wider than a phone, its first table fits
        open_settled(page, server_url + "missing_values")
        before = page.evaluate(MEASURE_JS)
        assert page.evaluate(WIDE_GRIDS_JS) > 0
        cue = """(show) => { const s = document.createElement('style'); s.id = 'cue-test';
            s.textContent = '[data-testid="stMain"] [data-testid="stDataFrameResizable"]::after '
                          + `{ animation: none !important; opacity: ${show ? 1 : 0} !important; }`;
            document.head.appendChild(s); }"""
        undo = "() => document.getElementById('cue-test').remove()"
        new = made(f"() => ({cue})(false)", undo)
        assert new and new[0].startswith("wide table ") and "shows no scroll cue" in new[0], new
        new = made(f"() => ({cue})(true)", undo)
        assert new and new[0].startswith("table that fits shows a scroll cue"), new
