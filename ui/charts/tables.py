"""Tables that fit their column: `show(where, data, key=...)` is st.dataframe with column widths
that add up to at most the narrowest width the table is drawn at, so its last column is never
past the right edge (the grid would hide it behind a horizontal scroll bar).

How a table is fitted (`plan`, pure, tested in tests/ui/charts/test_chart_style.py):
1. each column's natural width: its header or its widest value, whichever is wider;
2. if they do not fit, text columns wrap onto up to three lines (the rows grow taller: the grid
   wraps text only in rows taller than 4 rem), each narrowed in proportion to what it can give
   but never below its longest word or its header;
3. if they still do not fit, headers wider than their values are shortened (to the caller's
   short labels, or else with an ellipsis; the full header on hover), and text wraps again;
4. what is still too wide is taken from every column in proportion to its width (cells are cut
   at their edge; the whole value shows on click).
# R rows, C columns
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from ui.serving.text import escaped

from .style import short

FIT_PX = 540      # the main column at 1024 x 768 with the sidebar open is 562 px wide
CHAR_PX = 6.8     # a character of the grid's font, on average (measured: 5.6 to 6.2 for words,
                  # 7.6 for lower-case h, 9 to 11 for capitals and m)
CELL_PAD = 18     # a cell's padding, both sides
HEADER_PAD = 24   # a header's padding (measured 17) and a margin
CHECK_PX = 40     # a check box column's content
WRAP_ROW_PX = 66  # a row of three lines: the grid wraps text only in rows taller than 64 px
MIN_TEXT_PX = 60


@dataclass
class Plan:
    widths: dict[str, int]
    labels: dict[str, str] = field(default_factory=dict)  # shortened headers (full on hover)
    row_height: int | None = None  # None: one line per row


def _text(v, fmt: str | None) -> str:
    if isinstance(v, (bool, np.bool_)):
        return ""
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return (fmt % v) if fmt else f"{float(v):.4f}".rstrip("0").rstrip(".")
    return str(v)


def _kind(values) -> str:
    vals = list(values)
    if vals and all(isinstance(v, (bool, np.bool_)) for v in vals):
        return "bool"
    if vals and all(isinstance(v, (int, float, np.integer, np.floating)) for v in vals):
        return "number"
    return "text"


def plan(data: dict[str, list], width_px: float = FIT_PX, formats: dict[str, str] | None = None,
         short_labels: dict[str, str] | None = None) -> Plan:
    """Column widths (px) that add up to at most width_px, shortened headers and the row
    height: see the module's docstring. short_labels: the headers that may be shortened, and
    to what (without it any header may be, with an ellipsis)."""
    formats, short_labels = formats or {}, short_labels or {}
    names = list(data)
    kinds = {c: _kind(data[c]) for c in names}
    cells = {c: [_text(v, formats.get(c)) for v in data[c]] for c in names}
    content = {c: CHECK_PX if kinds[c] == "bool" else
               max((len(s) for s in cells[c]), default=1) * CHAR_PX + CELL_PAD for c in names}
    widths = {c: max(content[c], _header(c)) for c in names}
    if sum(widths.values()) <= width_px:
        return Plan({c: math.ceil(w) for c, w in widths.items()})
    labels: dict[str, str] = {}
    texts = [c for c in names if kinds[c] == "text"]
    word = {c: max((len(w) for s in cells[c] for w in s.split()), default=1) * CHAR_PX + CELL_PAD
            for c in texts}

    def wrap() -> None:  # text columns narrowed in proportion to what they can give
        over = sum(widths.values()) - width_px
        floor = {c: max(MIN_TEXT_PX, word[c], _header(labels.get(c, c))) for c in texts}
        spare = {c: max(0.0, widths[c] - floor[c]) for c in texts}
        total = sum(spare.values())
        if over > 0 and total > 0:
            for c in texts:
                widths[c] -= min(over, total) * spare[c] / total

    wrap()  # 2 first: wrapped text loses nothing, a cut header does
    need = {c: max(word[c] if c in texts else content[c], MIN_TEXT_PX) for c in names}
    may = [c for c in names if c in short_labels] if short_labels else names
    for c in sorted(may, key=lambda c: need[c] - _header(c)):  # 3: the longest headers first
        if sum(widths.values()) <= width_px:
            break
        if _header(c) > need[c]:
            room = max(content[c], word.get(c, 0), MIN_TEXT_PX)
            label = short_labels.get(c) or short(c, max(6, int((room - HEADER_PAD) / CHAR_PX)))
            if len(label) < len(c):
                labels[c] = label
                widths[c] = max(room if c in texts else content[c], _header(label))
    wrap()
    over = sum(widths.values()) - width_px
    if over > 0:  # 4: cut what is still too wide, in proportion to width
        scale = width_px / sum(widths.values())
        widths = {c: w * scale for c, w in widths.items()}
    lines = any(widths[c] < content[c] - 1 for c in texts)
    return Plan({c: math.floor(w) for c, w in widths.items()}, labels,
                WRAP_ROW_PX if lines else None)


def _header(label: str) -> float:
    return len(label) * CHAR_PX + HEADER_PAD


def show(where, data: dict[str, list], *, key: str, width_px: float = FIT_PX,
         column_config: dict | None = None, formats: dict[str, str] | None = None,
         short_labels: dict[str, str] | None = None, **kw):
    """where.dataframe(data) fitted to width_px (see plan), no index. formats: printf formats
    of number columns (also used to measure them); short_labels: headers for when the full one
    does not fit; column_config: more settings per column, merged with the fitted ones."""
    data = {c: list(v) for c, v in data.items()}
    p = plan(data, width_px, formats, short_labels)
    config = {}
    for c in data:
        given = dict((column_config or {}).get(c) or {})
        if formats and c in formats:
            given = {**dict(st.column_config.NumberColumn(format=formats[c])), **given}
        given["width"] = p.widths[c]
        if c in p.labels:
            given.update(label=p.labels[c], help=given.get("help") or escaped(c))  # plain text
        config[c] = given
    return where.dataframe(data, hide_index=True, key=key, column_config=config,
                           row_height=p.row_height, width="stretch", **kw)
