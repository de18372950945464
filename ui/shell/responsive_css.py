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
* A dynamics page's state picture (keyed `*_pic_state`) at most STATE_PX wide where the main
  area is under 700 px wide: on a phone the energy curve under it then ends within two screens.
* Pictures keyed `*_pic_*` keep their pixels crisp when enlarged.
* A row keyed `*_stage` (presenter mode: the player beside the input and the result, three
  columns, so all three fit on a 1024 x 768 projector's first screen) puts the player on a
  row of its own above two pictures half the width each where the main area is 1500 px wide
  or more (a 1920 px projector: each picture 40 % of the screen or more).
"""
from __future__ import annotations

NARROW_PX = 700        # under this main-area width, a figure's row stacks
WIDE_PX = 1500         # from this main-area width, a stage's player goes above its pictures
STATE_PX = 240         # under NARROW_PX, a dynamics page's state picture (keyed *_pic_state)

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
  [class*="_pic_state"] img {{ max-width: min(100%, {STATE_PX}px) !important; }}
}}
[class*="_pic_"] img {{ image-rendering: pixelated; }}
@container (min-width: {WIDE_PX}px) {{
  [class*="_stage"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap !important; }}
  [class*="_stage"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] > [data-testid="stColumn"]
    {{ flex: 1 1 calc(50% - 1rem) !important; min-width: calc(50% - 1rem) !important; }}
  [class*="_stage"] > [data-testid="stLayoutWrapper"] > [data-testid="stHorizontalBlock"] > [data-testid="stColumn"]:first-child
    {{ flex: 1 1 100% !important; min-width: 100% !important; }}
}}
</style>
"""
