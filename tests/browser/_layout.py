"""What the layout tests share (test_layout_overflow_browser.py, test_present_mode_browser.py): the pages and
lesson steps to walk, waiting for a page to settle, and the in-page measurement of what is clipped.

:data:`MEASURE_JS` returns every problem it finds, in page order, as a sentence naming the element
(``[]`` when nothing is clipped):

* a KaTeX formula, chart, table (``st.dataframe`` / ``st.table`` / a markdown table), page link's text,
  widget label (a widget's label, a radio / checkbox / toggle option, a button's or expander's text) or
  metric label / value / delta that reaches beyond an ancestor hiding its overflow (a scroll container on
  the way is a way to see it and ends the search), or is cut inside itself (overflow hidden, an ellipsis);
  a widget label or metric whose text is wider than its box (sticking out over what is beside it); a page
  title in the navigation (when the sidebar is open) cut;
* a chart title (plotly's ``.gtitle``) beyond its chart's bounds, or overlapping the legend; Plotly's mode
  bar, where shown at all, over a chart title or legend;
* an ``st.dataframe`` grid wider than its box whose scroll cue (``app_support.style``: a dark edge on the
  side with more columns) is not shown, or a grid that fits and shows one.
"""

from __future__ import annotations

import re

SETTLE_MS = 60_000

MEASURE_JS = r"""
() => {
  const name = (el) => {
    const block = el.closest('[data-testid]');
    const kind = block ? block.getAttribute('data-testid') : el.tagName.toLowerCase();
    const text = (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 70);
    return `${kind} <${el.tagName.toLowerCase()} class="${(el.getAttribute('class') || '').slice(0, 40)}">`
         + (text ? ` "${text}"` : '');
  };
  const visible = (el) => {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0;
  };
  // the ancestor that hides part of el, or null (a scroll container on the way lets the user see it)
  const clipper = (el, rect) => {
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      const over = s.overflowX;
      if (over === 'auto' || over === 'scroll') return null;
      if (over === 'hidden' || over === 'clip') {
        const r = a.getBoundingClientRect();
        if (rect.right > r.right + 1.5 || rect.left < r.left - 1.5) return a;
      }
    }
    if (rect.right > document.documentElement.clientWidth + 1.5) return document.documentElement;
    return null;
  };
  const hides = (el) => {
    const s = getComputedStyle(el);
    return s.overflowX === 'hidden' || s.overflowX === 'clip' || s.textOverflow === 'ellipsis';
  };
  // content cut inside el itself (overflow hidden, text-overflow: ellipsis, a fixed width); with `deep`,
  // inside any of its HTML descendants too (a label's or metric's inner text blocks), or sticking out of
  // one of them over what is beside it (a label that does not wrap)
  const cutInside = (el, deep) => {
    for (const e of deep ? [el, ...el.querySelectorAll('*')] : [el]) {
      if (e instanceof HTMLElement && visible(e) && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1
          && (hides(e) || deep)) return e;
    }
    return null;
  };
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
                         && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  const checks = [];
  const add = (selector, what, deep = false, keep = () => true) => {
    for (const el of main.querySelectorAll(selector)) if (keep(el)) checks.push([el, what, deep]);
  };
  // a formula's block fills its container's width; its parts (.base, inline blocks) are what may stick out
  add('.katex-display', 'formula');
  add('.katex-display .katex-html > .base', 'formula');
  add('.katex', 'inline formula', false, (el) => !el.closest('.katex-display'));
  add('[data-testid="stPlotlyChart"] .main-svg', 'chart');
  add('[data-testid="stDataFrame"], [data-testid="stTable"] table, [data-testid="stMarkdownContainer"] table',
      'table');
  add('[data-testid="stPageLink"] p, [data-testid="stPageLink"] span', 'link text');
  add('[data-testid="stWidgetLabel"], label[data-baseweb="radio"], label[data-baseweb="checkbox"], '
      + '[data-testid="stExpander"] summary, [data-testid^="stBaseButton"]', 'widget label', true);
  add('[data-testid="stMetricLabel"], [data-testid="stMetricValue"], [data-testid="stMetricDelta"]',
      'metric', true);
  for (const el of document.querySelectorAll('[data-testid="stSidebarNavLink"]'))     // an open sidebar's
    if (el.getBoundingClientRect().left >= 0) checks.push([el, 'page title', true]);
  const problems = [];
  const seen = new Set();
  const report = (text) => { if (!seen.has(text)) { seen.add(text); problems.push(text); } };
  for (const [el, what, deep] of checks) {
    if (!visible(el)) continue;
    const hidden = clipper(el, el.getBoundingClientRect());
    if (hidden) { report(`${what} cut by ${name(hidden).slice(0, 60)}: ${name(el)}`); continue; }
    const cut = cutInside(el, deep);
    if (cut) report(`${what} ${hides(cut) ? 'cut inside itself' : 'wider than its box'} `
                    + `(${cut.scrollWidth} > ${cut.clientWidth} px): ${name(cut)}`);
  }
  for (const plot of main.querySelectorAll('.js-plotly-plot')) {
    if (!visible(plot)) continue;
    const svg = plot.querySelector('.main-svg');
    const box = svg.getBoundingClientRect();
    const title = plot.querySelector('.gtitle');
    const legend = plot.querySelector('.legend');
    const t = title && visible(title) ? title.getBoundingClientRect() : null;
    const l = legend && visible(legend) ? legend.getBoundingClientRect() : null;
    if (t && (t.left < box.left - 1 || t.right > box.right + 1 || t.top < box.top - 1))
      report(`chart title beyond its chart (${Math.round(t.left - box.left)}..`
             + `${Math.round(t.right - box.left)} of ${Math.round(box.width)} px): ${name(title)}`);
    if (t && l && overlap(t, l)) report(`chart legend over its title: ${name(title)}`);
    const bar = plot.querySelector('.modebar-container');
    if (bar) {
      const s = getComputedStyle(bar);
      const shown = s.display !== 'none' && s.visibility !== 'hidden' && parseFloat(s.opacity) > 0;
      const m = bar.querySelector('.modebar');
      if (shown && m && visible(m)) {
        const r = m.getBoundingClientRect();
        if (t && overlap(r, t)) report(`mode bar over the chart title: ${name(title)}`);
        if (l && overlap(r, l)) report(`mode bar over the legend: ${name(legend)}`);
      }
    }
  }
  // a grid wider than its box shows its scroll cue (the edge on the side with more), one that fits none
  for (const grid of main.querySelectorAll('[data-testid="stDataFrameResizable"]')) {
    const scroller = grid.querySelector('.dvn-scroller');
    if (!visible(grid) || !scroller) continue;
    const wide = scroller.scrollWidth > scroller.clientWidth + 1;
    const more = parseFloat(getComputedStyle(grid, '::after').opacity);
    const head = name(grid.closest('[data-testid="stDataFrame"]') || grid).slice(0, 90);
    const size = `${scroller.scrollWidth} > ${scroller.clientWidth} px`;
    if (wide && scroller.scrollLeft < 1 && !(more > 0.5))
      report(`wide table (${size}) shows no scroll cue: ${head}`);
    if (!wide && more > 0.05) report(`table that fits shows a scroll cue: ${head}`);
  }
  return problems;
}
"""

# every chart as wide as its box at most (Plotly's relayout after a resize is done)
CHARTS_FIT_JS = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')].every(box => {
    const svg = box.querySelector('.main-svg');
    return !svg || svg.getBoundingClientRect().width <= box.getBoundingClientRect().width + 2;
})"""


def lesson_addresses() -> list[str]:
    """``lessons?lesson=<id>&step=<n>`` for every step of every lesson ([] while the package is written)."""
    try:
        from app_support.lessons.catalogue import lessons
        found = lessons()
    except Exception:                # a lessons package being written: its pages are checked when it imports
        return []
    return [f"lessons?lesson={item.id}&step={n}" for item in found for n in range(1, len(item.steps) + 1)]


def addresses() -> list[str]:
    """Every registered page's address (``""``: Home), then every lesson step's."""
    from app_support.registry import pages

    return [entry.url_path for entry in pages()] + lesson_addresses()


def settle(page, timeout_ms: int = SETTLE_MS) -> None:
    """Wait for the page's script to finish (no running indicator for 1.2 s) and its charts to draw."""
    page.wait_for_selector('[data-testid="stMain"]', timeout=timeout_ms)
    page.wait_for_function(
        """() => {
             const app = document.querySelector('[data-testid="stApp"]');
             const busy = !app || app.getAttribute('data-test-script-state') !== 'notRunning'
               || document.querySelector('[data-testid="stSkeleton"]')
               || document.querySelector('[data-stale="true"]');
             const now = Date.now();
             if (busy) {
               window.__calmSince = now; return false; }
             window.__calmSince = window.__calmSince || now;
             return now - window.__calmSince > 1200;
           }""", polling=200, timeout=timeout_ms)


def open_settled(page, url: str) -> None:
    page.goto(url, wait_until="domcontentloaded")
    page.evaluate("() => { window.__calmSince = 0; }")
    settle(page)


def _step(path: str) -> tuple[str, int] | None:
    """``("naive-credal", 3)`` for ``lessons?lesson=naive-credal&step=3``; None for another address."""
    found = re.fullmatch(r"lessons\?lesson=([^&]+)&step=(\d+)(?:&.*)?", path)
    return (found.group(1), int(found.group(2))) if found else None


def visit(page, base: str, path: str, previous: str | None = None) -> None:
    """Open ``path`` settled.  A lesson step right after ``previous``, the step before it in the same
    lesson, is reached by its Next button (a rerun in the same session, as a student goes on), which saves
    a page load; any other address is loaded."""
    here, before = _step(path), _step(previous or "")
    if here and before and here == (before[0], before[1] + 1):
        page.evaluate("() => { window.__calmSince = 0; }")
        page.get_by_role("button", name="Next →").click()
        page.wait_for_function(f"() => location.search.includes('step={here[1]}')", timeout=SETTLE_MS)
        settle(page)
    else:
        open_settled(page, base + path)


def reveal_lesson_answer(page) -> None:
    """Show a lesson step's answer, which draws its figure (what the step shows after the question)."""
    button = page.get_by_role("button", name="Show the answer")
    if button.count():
        button.first.click()
        page.evaluate("() => { window.__calmSince = 0; }")
        page.wait_for_timeout(300)
        settle(page)


def resize(page, size: tuple[int, int]) -> None:
    """Set the viewport and wait for the charts' relayout (the layout itself is CSS: no rerun)."""
    current = page.viewport_size
    if current and (current["width"], current["height"]) == tuple(size):
        return
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.wait_for_timeout(250)
    page.wait_for_function(CHARTS_FIT_JS, polling=100, timeout=15_000)
    page.wait_for_timeout(300)                 # plotly's last relayout, the grids' redraw


def where(size: tuple[int, int], path: str) -> str:
    return f"{size[0]}x{size[1]} /{path}"
