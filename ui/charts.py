"""Showing a figure: `plot(where, fig, ...)` is st.plotly_chart, with the fonts of the figure
enlarged for the back row in presenter mode.

The figures themselves are built once and shared by every session (ui.shared_cache), so the
presenter's copy is made here, at show time, for the one session that asks: the shared figure
is never changed. They arrive in the house style (ui/chart_style.py, applied by figures.make
to every figure); the copy keeps it, its legend's band grown with its fonts."""
from __future__ import annotations

import re

import plotly.graph_objects as go
import streamlit as st

PROJECTOR_SCALE = 1.5   # fonts: 13 px become about 20 px
PROJECTOR_HEIGHT = 1.2  # a little taller, so the larger labels keep the plot readable
BASE_FONT = 13
_AXIS = re.compile(r"^[xy]axis\d*$")


def _size(font, default: int) -> int:
    return round((font.size or default) * PROJECTOR_SCALE)


def for_projector(fig: go.Figure) -> go.Figure:
    """A copy of `fig` with every font (title, ticks, axis titles, legend, annotations, hover,
    colour bars) PROJECTOR_SCALE times larger and the plot a little taller."""
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
    old_height = L.height
    if L.height:
        L.height = round(L.height * PROJECTOR_HEIGHT)
    if L.showlegend and L.legend.yref == "container" and old_height:
        # the legend's band under the title (chart_style.finish) grows with its fonts
        L.margin.t = round(L.margin.t * PROJECTOR_SCALE)
        L.legend.y = 1 - (1 - L.legend.y) * old_height * PROJECTOR_SCALE / L.height
    elif L.margin.t is not None and L.title.text:
        L.margin.t = max(L.margin.t, round(L.title.font.size * 2.4))
    for trace in big.data:
        if "colorbar" in trace and trace.colorbar is not None:
            trace.colorbar.tickfont.size = _size(trace.colorbar.tickfont, base)
            trace.colorbar.title.font.size = _size(trace.colorbar.title.font, base)
        if "textfont" in trace and trace.textfont is not None:
            trace.textfont.size = _size(trace.textfont, base)
    return big


def plot(where, fig: go.Figure, **kw):
    """where.plotly_chart(fig, **kw); in presenter mode, the back row's copy of fig."""
    if st.session_state.get("presenter"):
        fig = for_projector(fig)
    return where.plotly_chart(fig, **kw)
