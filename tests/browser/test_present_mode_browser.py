"""Presentation mode and print (issue 24 item 3).

``?present=1`` at 1280x720 on every registered page and every lesson step (its answer shown, so that its
figure is drawn): the base type is larger than the ordinary 16 px, the sidebar is folded away (the page
starts at the left), nothing is clipped (``_layout.MEASURE_JS``, as on the ordinary pages), and a lesson
step's live widget (and Home's slider) sits beside its figure (in one row, the chart right of the widget),
both in one screen once the widget is scrolled into view.  Printed (print media at an A4 page's width), a
page has no sidebar, header or toolbars and every chart fits the page's width.
"""

from __future__ import annotations

import pytest
from _layout import MEASURE_JS, addresses, open_settled, reveal_lesson_answer, visit, where
from _server import chromium_browser, playwright_or_skip, streamlit_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]
sync_api = playwright_or_skip()

SIZE = (1280, 720)

# the base type, and where the sidebar and the main column are
FRAME_JS = """() => {
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  const box = sidebar ? sidebar.getBoundingClientRect() : null;
  return {font: parseFloat(getComputedStyle(document.documentElement).fontSize),
          sidebarRight: box && box.width > 0 ? box.right : 0,
          mainLeft: document.querySelector('[data-testid="stMainBlockContainer"]').getBoundingClientRect().x};
}"""

# a lesson step's live widget (a slider or a toggle) beside its figure: "" when it is, else what is wrong
BESIDE_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const widget = main.querySelector('[data-testid="stSlider"], [data-testid="stCheckbox"]');
  if (!widget) return 'no slider or toggle';
  const row = widget.closest('[data-testid="stHorizontalBlock"]');
  const chart = row && row.querySelector('[data-testid="stPlotlyChart"]');
  if (!chart) return 'the widget is not in a row with a chart';
  widget.scrollIntoView({block: 'center'});
  const w = widget.getBoundingClientRect(), c = chart.getBoundingClientRect();
  const r = (b) => [b.left, b.right].map(Math.round).join('..') + ' x '
                 + [b.top, b.bottom].map(Math.round).join('..');
  if (c.left < w.right - 1) return `the chart (${r(c)}) is not right of the widget (${r(w)})`;
  if (w.bottom > innerHeight || w.top < 0 || c.top > innerHeight - 100 || c.bottom < 100)
    return `widget (${r(w)}) and chart (${r(c)}) not in one ${innerWidth}x${innerHeight} screen`;
  return '';
}"""


@pytest.fixture(scope="module")
def server_url():
    with streamlit_app("streamlit.log") as url:
        yield url


def present(path: str) -> str:
    return path + ("&" if "?" in path else "?") + "present=1"


def test_present_mode_on_every_page_and_lesson_step(server_url):
    paths = addresses()
    assert any(p.startswith("lessons?") for p in paths), paths
    problems = {}
    with chromium_browser() as browser:
        page = browser.new_context(viewport={"width": SIZE[0], "height": SIZE[1]}).new_page()
        for i, path in enumerate(paths):
            visit(page, server_url, present(path), present(paths[i - 1]) if i else None)
            found = []
            frame = page.evaluate(FRAME_JS)
            if not frame["font"] > 16:
                found.append(f"base type {frame['font']} px, not larger than 16 px")
            if frame["sidebarRight"] > 1 or frame["mainLeft"] > 100:
                found.append(f"sidebar not folded: {frame}")
            if path.startswith("lessons?"):
                reveal_lesson_answer(page)
            if path.startswith("lessons?") or path == "":              # Home's slider and chart too
                beside = page.evaluate(BESIDE_JS)
                if beside:
                    found.append(beside)
            found += page.evaluate(MEASURE_JS)
            if found:
                problems[where(SIZE, present(path))] = found[0] + (f" (and {len(found) - 1} more)"
                                                                  if len(found) > 1 else "")
    assert problems == {}, "\n".join(f"{at}: {what}" for at, what in problems.items())


def test_print_layout_has_no_sidebar_or_header_and_charts_fit_the_page(server_url):
    """Printed (print media at an A4 portrait page's width in CSS pixels): the sidebar, the header and the
    toolbars are gone and every chart fits the page's width."""
    with chromium_browser() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        open_settled(page, server_url + "intervals_vs_n")
        page.emulate_media(media="print")
        page.set_viewport_size({"width": 760, "height": 1100})
        page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot .main-svg')].every("
                               "s => s.getBoundingClientRect().right <= 760)", timeout=20_000)
        shown = page.evaluate("""() => ['stSidebar', 'stHeader', 'stToolbar'].filter(id => {
            const el = document.querySelector(`[data-testid="${id}"]`);
            return el && getComputedStyle(el).display !== 'none';
        })""")
        assert shown == []
        assert page.evaluate("() => document.querySelectorAll('.js-plotly-plot').length") == 2
