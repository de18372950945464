"""The page's style, every page, every screen: the CSS every page gets, presenter mode's for
the back row, and presenter mode's way out."""
from __future__ import annotations

import streamlit as st

from .shared_settings import LINK, presenter

# every page, every screen: nothing is cut with an ellipsis, formulas shrink a little on
# narrow screens and flow side by side where they fit (ui.layout.explain), and a column of
# controls that a link's `<key>_hide=1` left empty takes no room (the others widen); rows of
# formulas sit close (a small row gap, a wide column gap); Streamlit never draws a chart
# narrower than 150 px (PlotlyChart's minimum), so a row of 4 columns holding charts goes
# 2 x 2 where a column would be narrower (4 x 150 px + 3 gaps = 648 px; 3 columns stack below
# 482 px), and so do columns holding a table to read (its grid's cells are read-only; an
# editable grid, a set of inputs, stays beside its neighbours) to get the whole width; a
# sidebar image caption takes two lines, broken between words, never mid-word (a longer name
# ends in an ellipsis; the remove button's tooltip names it in full), so the remove buttons
# under a row line up
PAGE_CSS = """
<style>
[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] *,
[data-testid="stMetricValue"], [data-testid="stMetricValue"] *
  { white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] *
  { line-height: 1.15; word-break: keep-all !important; overflow-wrap: normal !important; }
html body [data-testid="stMetricValue"], html body [data-testid="stMetricValue"] *
  { font-size: clamp(1.3rem, 2.2vw, 2.25rem); }
[class*="st-key-formulas"] [data-testid="stElementContainer"] { flex: 0 1 auto !important; width: auto !important;
  max-width: 100% !important; }
@media (max-width: 1300px) { .katex-display { font-size: 0.95em; } h1 { font-size: 2.25rem !important; } }
.block-container { padding-top: 3rem !important; }
[data-testid="stPageLink"] *, [data-testid="stButton"] button * { white-space: normal !important; }
.stMarkdownEllipsis, .stMarkdownEllipsis * { white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; }
[data-testid="stMain"] [class*="st-key-controls"] [data-testid="stColumn"]:has(> [data-testid="stVerticalBlock"]:empty)
  { display: none !important; }
[class*="st-key-formulas"] { row-gap: 0.25rem !important; column-gap: 3rem !important; align-items: center; }
[data-testid="stMainBlockContainer"] { container-type: inline-size; }
@container (max-width: 647px) {
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"]:nth-child(4)):has([data-testid="stPlotlyChart"])
    > [data-testid="stColumn"] { flex: 1 1 calc(50% - 1rem) !important; min-width: calc(50% - 1rem) !important; }
  [data-testid="stHorizontalBlock"]:has([data-testid="stDataFrame"] td[aria-readonly="true"])
    > [data-testid="stColumn"] { flex: 1 1 100% !important; min-width: 100% !important; }
}
@container (max-width: 481px) {
  [data-testid="stHorizontalBlock"]:has([data-testid="stPlotlyChart"]) > [data-testid="stColumn"]
    { flex: 1 1 100% !important; min-width: 100% !important; }
}
[data-testid="stSidebar"] [data-testid="stImageCaption"] { height: 2.7em; line-height: 1.35em; overflow: hidden;
  display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; word-break: normal;
  overflow-wrap: normal; }
</style>
"""

PRESENTER_CSS = """
<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[class*="st-key-controls"] { display: none !important; }
.block-container { max-width: 100% !important; padding-top: 4rem !important; }
html, body, [data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li
  { font-size: 1.35rem !important; }
html body h1 { font-size: clamp(2.2rem, 3.2vw, 3rem) !important; }
html body [data-testid="stMetricValue"], html body [data-testid="stMetricValue"] *
  { font-size: clamp(1.5rem, 2.8vw, 2.6rem) !important; }
html body [data-testid="stMetricLabel"] p { font-size: 1.2rem !important; }
html body [data-testid="stCaptionContainer"], html body [data-testid="stCaptionContainer"] p
  { font-size: 1.1rem !important; }
</style>
"""


def apply() -> None:
    """The page CSS, and in presenter mode the back row's."""
    st.html(PAGE_CSS)  # style only: takes no room on the page
    if presenter():
        st.html(PRESENTER_CSS)
        st.button("Leave presenter mode", key="leave_presenter", on_click=_leave_presenter)


def _leave_presenter() -> None:
    LINK.assign("presenter", False)
