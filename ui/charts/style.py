"""The house style of every chart, in one place: pure layout dicts, no Streamlit.

Every builder in ui/ ends in `figures.figure` / `figures.make`, which passes its layout through
`finish` (tests/ui/charts/test_chart_style.py builds every figure and checks the rules):

* a title too long for the narrowest width breaks in two (the chart grows by the line);
* legends sit outside the data: in a band of their own between the title and the plot, placed
  in pixels (the figure's height is known here), its rows counted for the narrowest width the
  chart is drawn at, so the band is never too small; the band adds to the chart's height, so
  the plot keeps the size its builder gave it;
* integer axes (steps, layers, counts) run from half a step before the first value to half a
  step after the last, so no end marker is cut in half, and tick at whole numbers only: every
  value when there are few, else as many as the axis's width in pixels allows (Plotly's own
  tick density, which follows the width), never rotated;
* category labels (pattern names) are numbered (the sidebar's gallery numbers the patterns the
  same way) and cut to what the narrowest width leaves each bar, the number dropped before the
  name is cut below MIN_NAME_CHARS, the full name on hover. Where even that leaves a name no
  room, a chart of patterns turns: the patterns run down the chart, one ROW_PX row each with
  its name beside it, and the chart grows with their number (`runs_down`, `row_axis`), so each
  of the store's 40 is named. Only an axis that cannot turn (the attention heatmap's keys, its
  rows being the queries) falls back to labelling every k-th;
* heatmaps over a matrix's indices run 0 .. n-1 on both axes, square, and shrink their frame
  rather than widen the range into negative indices;
* every text has a colour of its own (TEXT, AXIS_TEXT: at least TEXT_CONTRAST on white), not
  the page theme's, which is pale on the white plot;
* every line, marker and bar on the white plot keeps a WCAG contrast of at least MARK_CONTRAST
  against it (`contrast`), and each house colour has a darker twin of at least
  PROJECTOR_CONTRAST for projector mode (HIGH_CONTRAST, used by ui.charts.charts.high_contrast).

# T steps, n categories
"""
from __future__ import annotations

import math

NARROW_PX = 200     # the narrowest a chart is drawn at: the player's chart columns at 1024 px
AXIS_PX = 50        # what a y axis's labels and title take of a chart's width
CHAR_PX = 7.5       # the width of a character of the chart font (14 px) on average
LEGEND_ROW_PX = 24  # one row of a horizontal legend
TITLE_PX = 34       # the band the title takes at the top
TITLE_LINE_PX = 20  # a second line of title
TITLE_CHAR_PX = 8.5  # a character of the title's 16 px bold font, on average
TITLE_MIN_PX = 260  # titles are measured against at least this width (a half column at 1024)
SYMBOL_PX = 46      # a legend entry's line, marker and gaps, beside its text
FEW_TICKS = 6       # up to this many steps, every step is labelled
LABEL_CHARS = 18    # a category label is never longer than this
MIN_NAME_CHARS = 4  # across, a name cut shorter than this reads as nothing: the chart turns
ROW_PX = 20         # a pattern's row where the patterns run down a chart
ROW_CHARS = 16      # a name beside its row is cut to this
TEXT = "#2f2d2b"       # a chart's titles, legend and notes: the light theme's text, 13.7:1 on white
AXIS_TEXT = "#57544f"  # tick labels and axis titles, a little lighter: 7.5:1 on white


def _get(trace, key: str):
    """A trace's property, from a plotly trace object (None where it has no such property) or
    a plain dict."""
    if isinstance(trace, dict):
        return trace.get(key)
    return trace[key] if key in trace else None


def _legend_entries(data, layout: dict) -> list[str]:
    """The names a legend would show: traces drawn in the legend (not switched off, not of a
    kind Plotly leaves out of it), when the layout shows a legend at all."""
    if layout.get("showlegend") is False:
        return []
    names = []
    for trace in data:
        kind = _get(trace, "type") or "scatter"
        shown = _get(trace, "showlegend")
        if shown is False or (shown is None and kind in ("heatmap", "contour", "image", "surface")):
            continue
        names.append(str(_get(trace, "name") or ""))
    if len(names) < 2 and layout.get("showlegend") is not True:
        return []
    return names


def title_pad(text: str, size: float = 16) -> int:
    """The gap above a title anchored to the top of its chart. Plotly lifts a title of two or
    more lines by about 0.7 of its font size (measured in Chromium: 11 px at 16 px, 17 px at
    24 px, whatever the number of lines), which cut its first line at the chart's top edge;
    the pad gives that back."""
    return 10 + (round(0.75 * size) if "<br>" in text else 0)


def wrap_title(text: str, width_px: float = NARROW_PX) -> str:
    """A title too long for the chart's width (at least TITLE_MIN_PX) broken in two, so the
    chart's edge never cuts it: after a colon or comma where both lines fit, else at its
    middlemost space."""
    fits = (max(width_px, TITLE_MIN_PX) - 30) / TITLE_CHAR_PX
    if len(text) <= fits or " " not in text or "<br>" in text:
        return text
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    pauses = [i for i in spaces if text[i - 1] in ":," and max(i, len(text) - i - 1) <= fits]
    cut = pauses[-1] if pauses else min(spaces, key=lambda i: abs(i - len(text) / 2))
    return text[:cut] + "<br>" + text[cut + 1:]


def wrap_lines(text: str, width_px: float = NARROW_PX, char_px: float = TITLE_CHAR_PX) -> list[str]:
    """text (its "<br>" breaks undone) in as few lines as fit width_px (at least TITLE_MIN_PX) at
    char_px a character, broken at spaces; a word longer than a line keeps a line of its own.
    For the presenter's copy of a chart, whose larger title font breaks a title the normal
    font fitted on one line."""
    fits = max(1, int((max(width_px, TITLE_MIN_PX) - 30) / char_px))
    lines: list[str] = []
    for word in text.replace("<br>", " ").split():
        if lines and len(lines[-1]) + 1 + len(word) <= fits:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def legend_rows(names: list[str], width_px: float = NARROW_PX, char_px: float = CHAR_PX) -> int:
    """How many rows a horizontal legend of these entries takes in width_px (entries packed
    left to right, a new row when the next one does not fit)."""
    rows, used = 1, 0.0
    for name in names:
        w = SYMBOL_PX + char_px * len(name)
        if used and used + w > width_px:
            rows, used = rows + 1, 0.0
        used += w
    return rows


def finish(data, layout: dict, width_px: float = NARROW_PX) -> dict:
    """The layout with the house rules applied (see the module's docstring): the legend, if
    any, in a band of its own above the plot; the title pinned to the top."""
    data = data if isinstance(data, (list, tuple)) else [data]
    names = _legend_entries(data, layout)
    height = layout.get("height") or 450
    margin = dict(layout.get("margin") or {})
    title = layout.get("title")
    has_title = bool(title and title.get("text"))
    top = TITLE_PX if has_title else 6
    if has_title:
        text = wrap_title(title["text"], width_px)
        if "<br>" in text:  # a second line: the title's band, and the chart, grow by one line
            top += TITLE_LINE_PX
            margin["t"] = margin.get("t", 0) + TITLE_LINE_PX
            height += TITLE_LINE_PX
            layout["height"] = height
        size = (title.get("font") or {}).get("size", 16)
        layout["title"] = {**title, "text": text, "y": 1.0, "yref": "container", "yanchor": "top",
                           "pad": dict(t=title_pad(text, size)), "x": title.get("x", 0.02), "xanchor": "left"}
    integer_axes = {k[0] + k[5:] for k, v in layout.items()  # "xaxis2" -> "x2"
                    if k.startswith("xaxis") and isinstance(v, dict) and v.get("tickformat") == "d"}
    for trace in data:  # an end marker on an integer axis is drawn whole, past the axis line
        if _get(trace, "type") == "scatter" and (_get(trace, "xaxis") or "x") in integer_axes:
            trace["cliponaxis"] = False
    if names:  # a band under the title, added to the chart's height: the plot keeps its size
        band = legend_rows(names, width_px) * LEGEND_ROW_PX + 8
        height += band
        layout["legend"] = dict(orientation="h", x=0, xanchor="left", xref="container",
                                y=1 - top / height, yanchor="top", yref="container",
                                bgcolor="rgba(255,255,255,0)", tracegroupgap=0)
        margin["t"] = max(margin.get("t", 0), top) + band
        layout["height"] = height
        layout["showlegend"] = True
    else:
        layout["showlegend"] = False
    layout["margin"] = margin
    meta = layout.get("meta")  # the narrowest width, for the presenter's copy (charts.for_projector)
    layout["meta"] = {**(meta if isinstance(meta, dict) else {}), "narrowest_px": width_px}
    text_colours(data, layout)
    return layout


def _ink(part, colour: str) -> dict:
    """part (a title, an axis title, a legend, a note; a string is a title's text) with its
    font's colour set, unless its builder chose one."""
    part = {"text": part} if isinstance(part, str) else dict(part)
    part["font"] = {"color": colour, **(part.get("font") or {})}
    return part


def text_colours(data, layout: dict) -> None:
    """Every text of the chart in a colour of its own (TEXT, AXIS_TEXT), unless its builder
    chose one: left unset, Streamlit's chart theme writes it in the page's colours, pale grey
    ticks on the white plot in the light theme (#808495, 3.8:1) and near-white text on it in
    the dark theme (1.2:1)."""
    layout["font"] = {"color": TEXT, **(layout.get("font") or {})}
    for key in ("title", "legend"):
        if isinstance(layout.get(key), dict):
            layout[key] = _ink(layout[key], TEXT)
    layout["annotations"] = [_ink(a, TEXT) for a in layout.get("annotations") or []]
    owners = [layout] + [v for k, v in layout.items() if k.startswith("scene") and isinstance(v, dict)]
    for owner in owners:
        for key in [k for k in owner if k[:5] in ("xaxis", "yaxis", "zaxis")]:
            axis = dict(owner[key] or {})
            axis["tickfont"] = {"color": AXIS_TEXT, **(axis.get("tickfont") or {})}
            if axis.get("title") is not None:
                axis["title"] = _ink(axis["title"], AXIS_TEXT)
            owner[key] = axis
    for trace in data:  # colour bars (plotly trace objects): ticks and title
        if not isinstance(trace, dict) and "colorbar" in trace:
            trace.colorbar.tickfont.color = trace.colorbar.tickfont.color or AXIS_TEXT
            trace.colorbar.title.font.color = trace.colorbar.title.font.color or AXIS_TEXT


def integer_axis(first: int, last: int, title: str | None = None, **extra) -> dict:
    """An axis of whole numbers first .. last (steps, layers, eigenvalue numbers): half a step
    of room at each end, ticks on whole numbers only, never rotated. Up to FEW_TICKS steps every
    value is labelled; beyond, Plotly's automatic ticks, whose number follows the axis's width in
    pixels, land on whole numbers too (a span of 8 or more over at most 10 ticks)."""
    first, last = int(first), int(max(last, first))
    axis = dict(range=[first - 0.5, last + 0.5], tickformat="d", tickangle=0, autorange=False)
    if last - first <= FEW_TICKS:
        axis.update(tickmode="linear", tick0=first, dtick=1)
    else:
        axis.update(tickmode="auto", nticks=0)
    if title is not None:
        axis["title"] = title
    return {**axis, **extra}


def step_axis(last: int, title: str = "step t", **extra) -> dict:
    """Steps 0 .. last: see integer_axis."""
    return integer_axis(0, last, title, **extra)


def padded(values, share: float = 0.08) -> list[float] | None:
    """A value axis's range over the whole of `values` (a run's energies: the axis stays put
    while the run is played), share of the span added at each end; None (automatic) where
    the values are not finite."""
    v = [float(x) for x in values]
    if not v or not all(math.isfinite(x) for x in v):
        return None
    lo, hi = min(v), max(v)
    pad = (hi - lo) * share or abs(hi) * share or 1.0
    return [lo - pad, hi + pad]


def index_axis(n: int, title: str, reverse: bool = False, **extra) -> dict:
    """The axis of a matrix's rows or columns, 0 .. n-1, cells centred on their index; reversed
    for rows (row 0 on top). Constrained to its domain, so a square aspect shrinks the frame
    instead of stretching the range past the matrix (no negative indices)."""
    lo, hi = -0.5, n - 0.5
    axis = dict(range=[hi, lo] if reverse else [lo, hi], autorange=False, constrain="domain",
                title=title, tickformat="d", tickangle=0, showgrid=False, zeroline=False)
    if n <= FEW_TICKS + 1:
        axis.update(tickmode="linear", tick0=0, dtick=1)
    return {**axis, **extra}


def short(label: str, chars: int) -> str:
    """label cut to `chars` characters, an ellipsis marking the cut."""
    chars = max(1, chars)
    return label if len(label) <= chars else label[: max(1, chars - 1)].rstrip() + "…"


def _name(label: str) -> str:
    """"astronaut" of a numbered label "3. astronaut"; any other label as it is."""
    number, dot, name = label.partition(". ")
    return name if dot and number.isdigit() else label


def tick_labels(labels: list[str], width_px: float = NARROW_PX) -> list[str] | None:
    """Each label as it fits under its category in width_px, every one of them named: whole
    ("3. astronaut"); else the number and the name cut to what is left, when each keeps at least
    MIN_NAME_CHARS of its name (or the whole of a shorter one); else the name alone, cut the
    same way. None when even that leaves a name too little (the chart should turn)."""
    slot = (width_px - AXIS_PX) / max(1, len(labels))  # px per category, 8 of them a gap
    chars = min(LABEL_CHARS, int((slot - 8) / CHAR_PX))
    if all(len(label) <= chars for label in labels):
        return list(labels)
    names = [_name(label) for label in labels]
    for prefix in ([label[: len(label) - len(name)] for label, name in zip(labels, names)],
                   [""] * len(labels)):
        room = [chars - len(p) for p in prefix]
        if all(len(n) <= r or r >= MIN_NAME_CHARS for n, r in zip(names, room)):
            return [p + short(n, r) for p, n, r in zip(prefix, names, room)]
    return None


def runs_down(labels: list[str], width_px: float = NARROW_PX) -> bool:
    """Whether a chart of these categories should turn, the categories running down it: across
    the narrowest width, at least one name would get no room (tick_labels)."""
    return tick_labels(labels, width_px) is None


def row_axis(labels: list[str], chars: int = ROW_CHARS, **extra) -> dict:
    """The axis of categories running down a chart: the first on top, every one labelled, each
    cut to `chars` (the full label on hover)."""
    return {**dict(type="category", tickmode="array", tickvals=list(labels),
                   ticktext=[short(label, chars) for label in labels], autorange="reversed",
                   tickangle=0, automargin=True, showgrid=False), **extra}


def rows_height(n: int, height: int) -> int:
    """A chart's height with n categories running down it: ROW_PX each and the title's and the
    value axis's bands, never less than the height it was given."""
    return max(height, n * ROW_PX + 90)


def category_axis(labels: list[str], width_px: float = NARROW_PX, **extra) -> dict:
    """An axis of categories across (the traces' x values are `labels`, which hover shows in
    full), every one labelled by tick_labels. Never rotated. Where a name gets no room (the
    charts of patterns turn first: runs_down), numbers, every k-th when even those crowd."""
    n = len(labels)
    text = tick_labels(labels, width_px)
    every = 1
    if text is None:
        text = [label.partition(". ")[0] for label in labels]
        widest = max((len(t) for t in text), default=1) * CHAR_PX + 8
        every = max(1, math.ceil(n * widest / (width_px - AXIS_PX)))
    idx = list(range(0, n, every))
    return {**dict(type="category", tickmode="array", tickvals=[labels[i] for i in idx],
                   ticktext=[text[i] for i in idx], tickangle=0, automargin=True), **extra}


def numbered(names: list[str]) -> list[str]:
    """The full labels "1. name", "2. name", ... (the categories; hover shows them)."""
    return [f"{i}. {n}" for i, n in enumerate(names, start=1)]


# ----------------------------------------------------------------- colour contrast (WCAG 2)

MARK_CONTRAST = 3.0       # WCAG 1.4.11: a chart's marks against the plot's background
TEXT_CONTRAST = 4.5       # WCAG 1.4.3: its text
PROJECTOR_CONTRAST = 7.0  # projector mode's marks: a washed-out projector loses about half
NAMED = {"white": "#ffffff", "black": "#000000", "red": "#ff0000"}  # the names figures use
# projector mode's twin of each house colour (ui/charts/figures.py and the pages' figures): the same
# hue, dark enough for PROJECTOR_CONTRAST on white (GitHub Primer's darker steps)
HIGH_CONTRAST = {
    "#1f6feb": "#0550ae",  # blue
    "#d1242f": "#a40e26",  # red
    "#1a7f37": "#116329",  # green
    "#8c959f": "#424a53",  # grey
    "#bf8700": "#7d4e00",  # amber
    "#8250df": "#6639ba",  # purple
    "#bc4c00": "#953800",  # orange
    "#ff0000": "#a40e26",  # plain red (the exponential family's cloud)
}


def rgb(colour: str) -> tuple[int, int, int]:
    """An opaque colour as figures write it ("#rrggbb", "#rgb", "rgb(r, g, b)", or a name in
    NAMED) as 0..255 channels; ValueError for anything else (a new colour name belongs in
    NAMED, so that its contrast is checked)."""
    c = NAMED.get(colour.strip().lower(), colour.strip().lower())
    if c.startswith("#") and len(c) in (4, 7):
        h = c[1:] if len(c) == 7 else "".join(ch * 2 for ch in c[1:])
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    if c.startswith("rgb(") and c.endswith(")"):
        r, g, b = (int(float(v)) for v in c[4:-1].split(","))
        return r, g, b
    raise ValueError(f"not an opaque colour this module reads: {colour!r}")


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance: the sRGB channels linearised, weighted 0.2126 R +
    0.7152 G + 0.0722 B (0 black .. 1 white)."""
    def linear(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(v) for v in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2's contrast ratio of two colours, 1 (the same) .. 21 (black on white)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
