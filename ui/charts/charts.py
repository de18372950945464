"""Showing a figure: `plot(where, fig, ...)` is st.plotly_chart, with the fonts of the figure
enlarged for the back row in presenter mode, and its marks darker and thicker in high-contrast
projector mode.

The figures themselves are built once and shared by every session (ui.serving.shared_cache), so the
presenter's and the projector's copies are made here, at show time, for the one session that
asks: the shared figure is never changed. They arrive in the house style (ui/charts/style.py,
applied by figures.make to every figure); the copy keeps it, its legend's band grown with its
fonts."""
from __future__ import annotations

import re

import plotly.graph_objects as go
import streamlit as st

from .style import HIGH_CONTRAST, NAMED, NARROW_PX, TITLE_CHAR_PX, TITLE_LINE_PX, TITLE_PX, title_pad, wrap_lines

PROJECTOR_SCALE = 1.5   # fonts: 13 px become about 20 px
TITLE_LINE = 1.3        # a title's line: its font size times this
# the narrowest chart in presenter mode, which has no sidebar: the player's chart columns at
# 1024 x 768 (361 px, measured), a phone's whole width
PRESENTER_NARROW_PX = 350
PROJECTOR_HEIGHT = 1.2  # a little taller, so the larger labels keep the plot readable
BASE_FONT = 13
LINE_SCALE, MIN_LINE = 1.75, 3.5  # projector mode: lines 1.75 x as thick, at least 3.5 px
MARKER_SCALE = 1.3                # ... markers 1.3 x as large
INK = "#000000"                   # ... text, axis lines and ticks
GRID = "#8c959f"                  # ... grid lines: seen, still lighter than any mark
_AXIS = re.compile(r"^[xy]axis\d*$")


def _size(font, default: int) -> int:
    return round((font.size or default) * PROJECTOR_SCALE)


def for_projector(fig: go.Figure) -> go.Figure:
    """A copy of `fig` with every font (title, ticks, axis titles, legend, annotations, hover,
    colour bars) PROJECTOR_SCALE times larger and the plot a little taller; the title broken
    again for its larger font (in as many lines as the narrowest chart needs) and the band
    above the plot grown to hold its lines and the legend, so no title is cut at the top or
    the side."""
    big = go.Figure(fig)
    L = big.layout
    base = L.font.size or BASE_FONT
    L.font.size = round(base * PROJECTOR_SCALE)
    if L.title.text:
        L.title.font.size = _size(L.title.font, 16)
    for name in [k for k in L.to_plotly_json() if _AXIS.match(k)]:
        axis = L[name]
        axis.tickfont.size = _size(axis.tickfont, base)
        axis.title.font.size = _size(axis.title.font, base)
    for ann in L.annotations:
        ann.font.size = _size(ann.font, base)
    L.legend.font.size = _size(L.legend.font, base)
    L.hoverlabel.font.size = _size(L.hoverlabel.font, base)
    old_height, old_top = L.height, L.margin.t or 0
    title_px = old_lines = 0
    if L.title.text:  # broken again for its larger font, its band as tall as its lines
        size = L.title.font.size
        old_lines = L.title.text.count("<br>") + 1
        narrowest = max(PRESENTER_NARROW_PX, (L.meta if isinstance(L.meta, dict) else {}).get("narrowest_px", NARROW_PX))
        lines = wrap_lines(L.title.text, narrowest, TITLE_CHAR_PX * size / 16)
        L.title.text = "<br>".join(lines)
        L.title.pad.t = title_pad(L.title.text, size)
        title_px = 14 + round(len(lines) * size * TITLE_LINE)
    legend_band = L.showlegend and L.legend.yref == "container" and old_height
    if legend_band:  # the legend's band under the title (style.finish) grows with its fonts
        top = TITLE_PX + TITLE_LINE_PX * (old_lines - 1) if old_lines else round((1 - L.legend.y) * old_height)
        band = round((old_top - top) * PROJECTOR_SCALE)
        L.margin.t = max(title_px, round(top * PROJECTOR_SCALE)) + band
    elif title_px:
        L.margin.t = max(old_top, title_px)
    if old_height:  # a little taller; taller still where the title's lines outgrew the scaled band
        L.height = round(old_height * PROJECTOR_HEIGHT) + max(0, (L.margin.t or 0) - round(old_top * PROJECTOR_SCALE))
    if legend_band:
        L.legend.y = 1 - (L.margin.t - band) / L.height
    for trace in big.data:
        if "colorbar" in trace and trace.colorbar is not None:
            trace.colorbar.tickfont.size = _size(trace.colorbar.tickfont, base)
            trace.colorbar.title.font.size = _size(trace.colorbar.title.font, base)
        if "textfont" in trace and trace.textfont is not None:
            trace.textfont.size = _size(trace.textfont, base)
    return big


def _dark(colour):
    """A colour (or a list of them) with each house colour swapped for its high-contrast twin
    (chart_style.HIGH_CONTRAST); any other colour (white outlines, black, a colour scale's)
    as it is."""
    if isinstance(colour, str):
        c = colour.strip().lower()
        return HIGH_CONTRAST.get(NAMED.get(c, c), colour)
    if isinstance(colour, (list, tuple)):
        return [_dark(c) for c in colour]
    return colour


def _thicker(width, default: float = 2.0) -> float:
    return max((width or default) * LINE_SCALE, MIN_LINE)


def high_contrast(fig: go.Figure) -> go.Figure:
    """A copy of `fig` for a washed-out projector: every house colour of its lines, markers,
    bars, text and shapes swapped for its darker twin (at least PROJECTOR_CONTRAST on white),
    lines LINE_SCALE times thicker (at least MIN_LINE px), markers MARKER_SCALE times larger,
    text, axis lines and ticks black, grid lines darker. Colour scales stay as they are."""
    hc = go.Figure(fig)
    L = hc.layout
    L.font.color = INK
    L.title.font.color = INK
    for name in [k for k in L.to_plotly_json() if _AXIS.match(k)]:
        axis = L[name]
        axis.update(linecolor=INK, linewidth=2, tickcolor=INK, zerolinecolor=INK, gridcolor=GRID)
        axis.tickfont.color = INK
        axis.title.font.color = INK
    for shape in L.shapes:
        shape.line.color = _dark(shape.line.color)
        shape.line.width = _thicker(shape.line.width, 1.0)
    for ann in L.annotations:
        ann.font.color = _dark(ann.font.color) if ann.font.color else INK
    for trace in hc.data:
        if "line" in trace and trace.line is not None and trace.type != "contour":
            trace.line.color = _dark(trace.line.color)
            if trace.type in ("scatter", "scattergl") and "lines" in (trace.mode or "lines"):
                trace.line.width = _thicker(trace.line.width)
        if "marker" in trace and trace.marker is not None:
            m = trace.marker
            m.color = _dark(m.color)
            if "line" in m and m.line is not None:
                m.line.color = _dark(m.line.color)
            if trace.type in ("scatter", "scattergl", "scatter3d") and m.size is not None:
                m.size = _scaled(m.size)
        if "textfont" in trace and trace.textfont is not None:
            trace.textfont.color = _dark(trace.textfont.color)
    return hc


def _scaled(size):
    if isinstance(size, (int, float)):
        return size * MARKER_SCALE
    return [s * MARKER_SCALE for s in size]


NO_TOOLBAR = {"displayModeBar": False}  # Plotly's mode bar: off, unless a chart asks for it


def for_mode(fig: go.Figure, presenter: bool, projector: bool) -> go.Figure:
    """`fig` as a session in presenter mode (the back row's copy) and projector mode (the
    high-contrast copy) sees it; the figure itself when neither is on."""
    if presenter:
        fig = for_projector(fig)
    if projector:
        fig = high_contrast(fig)
    return fig


def plot(where, fig: go.Figure, toolbar: dict | None = None, **kw):
    """where.plotly_chart(fig, **kw); in presenter mode, the back row's copy of fig; in
    projector mode, the high-contrast copy (ui.settings.modes.projector). Plotly's toolbar
    (the mode bar) is hidden, unless `toolbar` gives its config ({} for Plotly's own; the
    capacity lab's names the PNG its camera button downloads)."""
    fig = for_mode(fig, bool(st.session_state.get("presenter")), bool(st.session_state.get("projector")))
    return where.plotly_chart(fig, config=NO_TOOLBAR if toolbar is None else toolbar, **kw)
