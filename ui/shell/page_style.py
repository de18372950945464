"""The page's style, every page, every screen: the CSS every page gets, presenter mode's for
the back row, high-contrast projector mode's for a washed-out projector, and presenter mode's
way out and its own projector switch (its sidebar is hidden)."""
from __future__ import annotations

import streamlit as st

from ui.settings.modes import PROJECTOR_HELP, presenter, projector
from ui.store.shared_settings import LINK

from . import history
from .responsive_css import RESPONSIVE_CSS

# every page, every screen: nothing is cut with an ellipsis, formulas shrink a little on
# narrow screens and flow side by side where they fit (ui.shell.layout.explain), and a column of
# controls that a link's `<key>_hide=1` left empty takes no room (the others widen); rows of
# formulas sit close (a small row gap, a wide column gap); Streamlit never draws a chart
# narrower than 150 px (PlotlyChart's minimum), so a row of 4 columns holding charts goes
# 2 x 2 where a column would be narrower (4 x 150 px + 3 gaps = 648 px; 3 columns stack below
# 482 px), and so do columns holding a table to read (its grid's cells are read-only; an
# editable grid, a set of inputs, stays beside its neighbours) to get the whole width; a
# sidebar image caption takes two lines, broken between words, never mid-word (a longer name
# ends in an ellipsis; the remove button's tooltip names it in full), so the remove buttons
# under a row line up; the player's slider and Play's progress bar take the same height (Play
# moves nothing below them)
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
.block-container { padding-top: 4rem !important; }  /* under the 60 px header, not behind it (a banner's top) */
.block-container h1 { padding-top: 0.25rem !important; }  /* the title where it was */
[data-testid="stPageLink"] *, [data-testid="stButton"] button * { white-space: normal !important; }
.stMarkdownEllipsis, .stMarkdownEllipsis * { white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; }
[data-testid="stMain"] [class*="st-key-controls"] [data-testid="stColumn"]:has(> [data-testid="stVerticalBlock"]:empty)
  { display: none !important; }
[class*="st-key-formulas"] { row-gap: 0.25rem !important; column-gap: 3rem !important; align-items: center; }
[data-testid="stMainBlockContainer"] { container-type: inline-size; }
[data-testid="stElementContainer"]:has(> [data-testid="stFullScreenFrame"] > [data-testid="stDataFrame"]) { margin-top: 2rem; }
  /* a table's toolbar shows above it on hover (or a tap): room for it, not over the control above */
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

# WCAG contrast (issue 30) where no theme option reaches it (.streamlit/config.toml has the
# theme): Streamlit fades captions with opacity 0.6 (3.9:1 on white) and disabled widgets'
# labels and values to 40 % of the text colour (2.3:1), both derived from textColor with no
# option of their own; a lighter fade keeps the look in both themes (opacity blends the
# theme's own text colour, tests/ui/shell/test_theme_contrast.py checks the blends). A
# selected segmented control and a slider's value are written in the primary colour, which
# in the dark theme cannot reach 4.5:1 both as text on the page and under white button text
# (the two ratios multiply to 18): they take the text colour, the selection still shown by
# the control's tint and border.
CAPTION_OPACITY = 0.8
DISABLED_OPACITY = 0.72
CONTRAST_CSS = f"""
<style>
[data-testid="stCaptionContainer"] {{ opacity: {CAPTION_OPACITY} !important; }}
[data-testid="stElementContainer"]:has(:disabled, [aria-disabled="true"]) :is([data-testid="stWidgetLabel"],
  [data-testid="stWidgetLabel"] *, input, [data-testid="stSliderThumbValue"], [data-testid="stSliderThumbValue"] *,
  [data-testid="stSliderTickBar"], [data-testid="stSliderTickBar"] *)
  {{ color: inherit !important; -webkit-text-fill-color: currentColor !important; }}
[data-testid="stElementContainer"]:has(:disabled, [aria-disabled="true"]) [data-testid="stWidgetLabel"],
[data-testid="stElementContainer"]:has(:disabled, [aria-disabled="true"]) :is(input, [data-testid="stSliderThumbValue"],
  [data-testid="stSliderTickBar"]) {{ opacity: {DISABLED_OPACITY} !important; }}
[data-testid="stButtonGroup"] [data-selected="true"], [data-testid="stButtonGroup"] [data-selected="true"] *,
[data-testid="stSliderThumbValue"], [data-testid="stSliderThumbValue"] * {{ color: inherit !important; }}
</style>
"""

PRESENTER_CSS = """
<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[class*="st-key-controls"], [data-testid="stLayoutWrapper"]:has(> [class*="st-key-controls"])
  { display: none !important; }  /* the wrapper too: hidden, it still took a gap */
.block-container { max-width: 100% !important; padding: 3.9rem 1.5rem 2rem !important; }
.block-container [data-testid="stVerticalBlock"] > div:has(> [data-testid="stVerticalBlock"]:empty)
  { display: none !important; }  /* an empty slot (no lesson, no message) takes no gap */
html, body, [data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li
  { font-size: 1.35rem !important; }
html body h1 { font-size: clamp(1.6rem, 2.5vw, 2.6rem) !important; padding: 0 !important; }
@media (min-width: 760px) {  /* the teacher's row sits in the header's band: the figure gains its room */
  html body .st-key-presenter_row { position: fixed !important; top: 0.55rem; left: 1.5rem; z-index: 999991;
    width: auto !important; max-width: calc(100vw - 5rem); }
  html body [data-testid="stLayoutWrapper"]:has(> .st-key-presenter_row) { display: contents; }  /* no gap */
}
html body .st-key-presenter_row :is(p, button, label, span) { font-size: 1rem !important; }
html body .st-key-presenter_row button { min-height: 2.2rem !important; padding: 0.1rem 0.7rem !important; }
html body [data-testid="stMetricValue"], html body [data-testid="stMetricValue"] *
  { font-size: clamp(1.5rem, 2.8vw, 2.6rem) !important; }
html body [data-testid="stMetricLabel"] p { font-size: 1.2rem !important; }
/* a page's section switcher is the teacher's to press, not the back row's to read: one row */
html body [data-testid="stButtonGroup"] button p { font-size: 17px !important; }  /* px: rem is 1.35 x here */
html body [data-testid="stButtonGroup"] button { padding-left: 10px !important; padding-right: 10px !important; }
html body [data-testid="stCaptionContainer"], html body [data-testid="stCaptionContainer"] p
  { font-size: 1.1rem !important; }
</style>
"""


# high-contrast projector mode (PhET's "projector mode"): pure black text on white whatever
# the theme, nothing faded (captions, disabled labels, placeholders), thicker focus outlines,
# 2 px black borders on fields, buttons and expanders, links underlined in a dark blue. The
# theme (.streamlit/config.toml) cannot be switched per session, so this is CSS over
# Streamlit's own; the charts get their own copy (ui.charts.charts.high_contrast)
PROJECTOR_CSS = """
<style>
html body .stApp, html body .stApp [data-testid="stHeader"], html body [data-testid="stSidebar"],
html body [data-testid="stSidebarContent"], html body .stApp [data-testid="stBottomBlockContainer"]
  { background-color: #ffffff !important; color: #000000 !important; }
html body .stApp :is(p, li, span, label, h1, h2, h3, h4, h5, h6, summary, small, td, th,
  [data-testid="stCaptionContainer"], [data-testid="stWidgetLabel"], [data-testid="stMetricLabel"],
  [data-testid="stMetricValue"], [data-testid="stMarkdownContainer"], .katex)
  { color: #000000 !important; opacity: 1 !important; }
html body .stApp :is(input, textarea, [data-baseweb="select"] > div, [data-baseweb="input"],
  [data-baseweb="base-input"], [data-testid="stExpander"] details, [data-testid="stBaseButton-secondary"],
  [data-testid="stButtonGroup"] button, [data-testid="stFileUploaderDropzone"])
  { background-color: #ffffff !important; color: #000000 !important; border: 2px solid #000000 !important; }
html body .stApp :is([data-testid="stAlertContainer"], [data-testid="stPopoverButton"], [data-testid="stCode"] pre,
  [data-testid="stNumberInputStepDown"], [data-testid="stNumberInputStepUp"], [data-baseweb="select"],
  [data-baseweb="select"] div, [data-testid="stNumberInputContainer"], [data-testid="stExpander"] summary, code)
  { background-color: #ffffff !important; color: #000000 !important; }
html body .stApp [data-testid="stTooltipIcon"] * { opacity: 1 !important; }
html body .stApp :is([data-testid="stAlertContainer"], [data-testid="stPopoverButton"])
  { border: 2px solid #000000 !important; }
html body .stApp :is([data-testid="stAlertContainer"], [data-testid="stPopoverButton"], [data-testid="stTooltipIcon"],
  [data-testid="stNumberInputStepDown"], [data-testid="stNumberInputStepUp"], [data-baseweb="select"]) *
  { color: #000000 !important; }
html body .stApp [data-testid="stButtonGroup"] [data-selected="true"],
html body .stApp [data-testid="stButtonGroup"] [data-selected="true"] *
  { background-color: #000000 !important; color: #ffffff !important; }
html body .stApp [data-testid="stBaseButton-primary"]
  { background-color: #a40e26 !important; border: 2px solid #000000 !important; color: #ffffff !important; }
html body .stApp [data-testid="stBaseButton-primary"] * { color: #ffffff !important; }
html body .stApp button:disabled, html body .stApp button:disabled *
  { color: #000000 !important; background-color: #e6e6e6 !important; border-color: #000000 !important; }
html body .stApp input::placeholder, html body .stApp textarea::placeholder { color: #333333 !important; }
html body .stApp a, html body .stApp a * { color: #0a3069 !important; text-decoration: underline !important; }
html body .stApp :focus-visible, html body .stApp :focus-visible + div
  { outline: 4px solid #000000 !important; outline-offset: 2px !important; }
html body .stApp hr { border-color: #000000 !important; }
</style>
"""


def apply():
    """The page CSS; in projector mode the high-contrast CSS; in presenter mode the back
    row's, its way out and, beside it, the projector switch (the sidebar's is hidden). Returns
    presenter mode's row of buttons, for the student link (None outside presenter mode)."""
    st.html(PAGE_CSS + CONTRAST_CSS + RESPONSIVE_CSS)  # style only: takes no room on the page
    history.one_entry_per_page()  # one Back press per page (hidden: takes no room)
    if projector():
        st.html(PROJECTOR_CSS)
    if presenter():
        st.html(PRESENTER_CSS)
        row = st.container(horizontal=True, gap="small", vertical_alignment="center", key="presenter_row")
        row.button("Leave presenter mode", key="leave_presenter", on_click=_leave_presenter)
        st.session_state.projector_presenter = projector()  # follows the sidebar's switch
        row.toggle("High-contrast projector mode", key="projector_presenter",
                   on_change=_switch_projector, help=PROJECTOR_HELP)
        return row.container(width="content")
    return None


def _leave_presenter() -> None:
    LINK.assign("presenter", False)


def _switch_projector() -> None:
    """on_change of presenter mode's projector switch: through the layer, as the link would."""
    LINK.assign("projector", bool(st.session_state.projector_presenter))
