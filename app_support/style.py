"""The app's one style sheet: projector, phone and print (issue 24 item 3).

Constant CSS only, injected once per run by ``app.py`` (:func:`inject`); never any user text.  What it does:

* formulas (KaTeX blocks) scroll sideways instead of being cut, with a visible scroll bar and a shadow at the
  side that has more, and a smaller type on a phone;
* page links (Home's lists) wrap instead of being cut mid-word; so do widget labels (a toggle's, a radio
  option's), metric labels and the navigation's page titles, which Streamlit cuts with an ellipsis;
* wide tables keep a visible horizontal scroll bar; an ``st.dataframe`` grid wider than its box shows a
  dark fading edge on each side that has more columns (a CSS scroll-driven animation on the grid's own
  scroller: no edge when the table fits, the right one fading out as the last column comes into view);
* Plotly's mode bar only on hover with a mouse, and never on a touch screen or a narrow window (there a tap
  is a hover, and the bar covered titles and legends); chart titles a little smaller on a phone;
* print: no sidebar, header or toolbars, the main column the page's width, charts scaled to it;
* presentation mode (:data:`PRESENT_CSS`, only when on): a larger base font and the whole width.
"""
from __future__ import annotations

import streamlit as st

__all__ = ["BASE_CSS", "PRESENT_CSS", "inject"]

# a shadow on the side that has more to scroll to (background-attachment: local covers it at the end)
_SCROLL_CUE = """
  background:
    linear-gradient(to right, var(--cue-bg, #fff) 30%, rgba(255,255,255,0))
      left center / 24px 100% no-repeat local,
    linear-gradient(to left, var(--cue-bg, #fff) 30%, rgba(255,255,255,0))
      right center / 24px 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(0,0,0,.22), rgba(0,0,0,0))
      left center / 10px 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(0,0,0,.22), rgba(0,0,0,0))
      right center / 10px 100% no-repeat scroll;
  scrollbar-width: thin;
  scrollbar-color: #8a8f98 transparent;
"""

# st.dataframe draws on a canvas under a transparent scroller (.dvn-scroller): the cue is a shadow on the
# grid's box, its opacity driven by that scroller's horizontal position. A scroll timeline is inactive
# when nothing overflows, so the edges keep their base opacity 0 when the table fits. (The !important
# names and timeline outrank a blanket `animation: none !important`, as the browser tests set: this is
# no motion, only a state.)
_GRID_CUE = """
[data-testid="stDataFrameResizable"] { timeline-scope: --credal-grid-x; }
[data-testid="stDataFrameResizable"] .dvn-scroller { scroll-timeline: --credal-grid-x x; }
[data-testid="stDataFrameResizable"]::before, [data-testid="stDataFrameResizable"]::after {
  content: ""; position: absolute; top: 1px; bottom: 1px; width: 32px; z-index: 2; pointer-events: none;
  opacity: 0;
  animation-timeline: --credal-grid-x !important; animation-fill-mode: both !important;
  animation-timing-function: linear !important; animation-duration: auto !important;
}
[data-testid="stDataFrameResizable"]::after {
  right: 1px; border-radius: 0 0.5rem 0.5rem 0;
  background: linear-gradient(to left, rgba(49, 51, 63, 0.45), rgba(49, 51, 63, 0));
  animation-name: credal-more-right !important;
}
[data-testid="stDataFrameResizable"]::before {
  left: 1px; border-radius: 0.5rem 0 0 0.5rem;
  background: linear-gradient(to right, rgba(49, 51, 63, 0.45), rgba(49, 51, 63, 0));
  animation-name: credal-more-left !important;
}
@keyframes credal-more-right { 0%, 92% { opacity: 1; } 100% { opacity: 0; } }
@keyframes credal-more-left { 0% { opacity: 0; } 8%, 100% { opacity: 1; } }
"""

BASE_CSS = f"""
.katex-display {{
  overflow-x: auto;
  overflow-y: hidden;
  max-width: 100%;
  padding: 0.25rem 0 0.45rem;
{_SCROLL_CUE}
}}
.katex-display > .katex {{ white-space: nowrap; }}
[data-testid="stPageLink"] a, [data-testid="stPageLink-NavLink"] {{ max-width: 100%; height: auto; }}
[data-testid="stPageLink"] p, [data-testid="stPageLink"] span, [data-testid="stPageLink-NavLink"] p,
[data-testid="stPageLink-NavLink"] span {{
  white-space: normal !important;
  overflow: visible !important;
  text-overflow: clip !important;
  overflow-wrap: anywhere;
}}
[data-testid="stWidgetLabel"] .stMarkdownEllipsis, [data-testid="stWidgetLabel"] .stMarkdownEllipsis *,
label .stMarkdownEllipsis, label .stMarkdownEllipsis *,
[data-testid="stMetricLabel"] .stMarkdownEllipsis, [data-testid="stMetricLabel"] .stMarkdownEllipsis * {{
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
  overflow-wrap: break-word;
}}
[data-testid="stSidebarNavLink"] {{ height: auto !important; min-height: 1.75rem; }}
[data-testid="stSidebarNavLink"] span, [data-testid="stSidebarNavLink"] .stMarkdownEllipsis,
[data-testid="stSidebarNavLink"] .stMarkdownEllipsis * {{
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
  height: auto !important; line-height: 1.3;
}}
[data-testid="stMarkdownContainer"] table {{
  display: block; max-width: 100%; overflow-x: auto;
{_SCROLL_CUE}
}}
[data-testid="stTable"] {{ overflow-x: auto; {_SCROLL_CUE} }}
[data-testid="stDataFrame"] .dvn-scroller {{ scrollbar-width: thin; scrollbar-color: #8a8f98 transparent; }}
{_GRID_CUE}.js-plotly-plot .plotly .modebar-container {{ opacity: 0; transition: opacity 0.2s; }}
.js-plotly-plot:hover .plotly .modebar-container {{ opacity: 1; }}
@media (hover: none), (pointer: coarse), (max-width: 640px) {{
  .js-plotly-plot .plotly .modebar-container {{ display: none !important; }}
}}
@media (max-width: 640px) {{
  .katex-display > .katex {{ font-size: 1em; }}
  .js-plotly-plot .gtitle {{ font-size: 13px !important; }}
}}
@media print {{
  [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
  [data-testid="stToolbar"], [data-testid="stDecoration"], [data-testid="stStatusWidget"],
  [data-testid="stElementToolbar"], .modebar-container, header {{ display: none !important; }}
  [data-testid="stDataFrameResizable"]::before, [data-testid="stDataFrameResizable"]::after {{
    display: none !important;
  }}
  [data-testid="stMain"], [data-testid="stAppViewContainer"], [data-testid="stMainBlockContainer"] {{
    max-width: 100% !important; width: 100% !important; margin: 0 !important; padding: 0.5rem !important;
    overflow: visible !important;
  }}
  .stPlotlyChart, .stPlotlyChart .js-plotly-plot, .stPlotlyChart .plot-container,
  .stPlotlyChart .svg-container {{ max-width: 100% !important; overflow: hidden; }}
  .stPlotlyChart svg.main-svg {{ max-width: 100%; height: auto; }}
  .katex-display {{ overflow: visible; background: none; }}
  .katex-display > .katex {{ white-space: normal; font-size: 1em; }}
  [data-testid="stVerticalBlock"] > div {{ break-inside: avoid; }}
}}
"""

PRESENT_CSS = """
html { font-size: 20px; }
[data-testid="stMainBlockContainer"] { max-width: 100% !important; padding: 3.75rem 2rem 2rem !important; }
"""


class _Sheet:
    """A style sheet as ``st.html`` sends it (``_repr_html_``: its text taken as it is), cleaned once per
    process as ``st.html`` cleans a string (``clean_text``: dedented, stripped) instead of on every run."""

    def __init__(self, html: str):
        from streamlit.string_util import clean_text
        self.html = clean_text(html)

    def _repr_html_(self) -> str:
        return self.html


_SHEETS = {present: _Sheet(f"<style>{BASE_CSS}{PRESENT_CSS if present else ''}</style>")
           for present in (False, True)}


def inject(present: bool = False) -> None:
    """Add the style sheet (and the presentation one when ``present``) to the page; takes no space."""
    st.html(_SHEETS[bool(present)])
