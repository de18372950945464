"""The CSS that fits the pages to phones, tablets and projectors (issue 30), every page: touch
targets of at least 24 x 24 px (WCAG 2.5.8) and the layouts of the pages whose figures need
the whole width on a narrow screen. ui.shell.page_style.apply sends it with the page CSS.

* Touch targets: a help icon (16 px) gets a 24 px box around it, a radio's or a checkbox's
  label (22 px high) grows to 24 px.
* Rows keyed `*_wide_row` (st.container(key=...) around st.columns): a figure beside a
  column of numbers stacks above them where the main area is under 700 px wide (a phone, a
  tablet with its sidebar open), so the figure gets the whole width.
* Rows keyed `*_pair_row`: pictures two to a row where the main area is under 700 px wide,
  never one to a row (a phone shows two 32 x 32 pictures side by side, 170 px each).
* Rows keyed `*_pair_first`: where the main area is under 700 px wide, the first two columns
  share a row (two short controls side by side), the others take a row each.
"""
from __future__ import annotations

NARROW_PX = 700        # under this main-area width, a figure's row stacks
# (the browser player's own layouts: its pictures, the state picture's width, the ET's stage in
# presenter mode, are in ui/player/browser_player.css, at the same widths)

RESPONSIVE_CSS = f"""
<style>
[data-testid="stTooltipIcon"] button {{ min-width: 24px; min-height: 24px;
  display: inline-flex; align-items: center; justify-content: center; }}
[data-testid="stRadio"] label, [data-testid="stCheckbox"] label {{ min-height: 24px; }}
[data-testid="stMainBlockContainer"] {{ container-type: inline-size; }}
@container (max-width: {NARROW_PX - 1}px) {{
  [class*="_wide_row"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap !important; }}
  [class*="_wide_row"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] > [data-testid="stColumn"]
    {{ flex: 1 1 100% !important; min-width: 100% !important; }}
  [class*="_pair_row"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap !important; }}
  [class*="_pair_row"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] > [data-testid="stColumn"]
    {{ flex: 1 1 calc(50% - 0.5rem) !important; min-width: calc(50% - 0.5rem) !important; }}
  [class*="_pair_first"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap !important; }}
  [class*="_pair_first"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] > [data-testid="stColumn"]
    {{ flex: 1 1 100% !important; min-width: 100% !important; }}
  [class*="_pair_first"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] > [data-testid="stColumn"]:nth-child(-n+2)
    {{ flex: 1 1 calc(50% - 0.5rem) !important; min-width: calc(50% - 0.5rem) !important; }}
}}
</style>
"""
