"""The numbers behind a chart, as a table: the data-table alternative to a Plotly figure for
anyone who cannot see it (screen readers) or wants the values.

Pure part (no streamlit call): `tables(fig)` turns a figure into `Numbers` (a title, columns for a
table, every value as CSV):
- line, marker and bar traces (scatter, scattergl, bar, ...) together in one long table, one
  row per point: series (the trace's name, when there are several), x, y (and z, marker text
  when the traces have them), the columns named after the axis titles where the figure has
  them; a decoration (no legend entry, no hover: a marker repeating a point) is left out;
- a matrix trace (heatmap, contour, surface) on its own: one row per cell (row, column,
  value) up to MAX_CELLS cells; a larger matrix is not tabled (a table of thousands of
  cells is no help to anyone), only offered whole as CSV, a row per matrix row;
- pictures (image traces) are skipped: their "numbers" are pixels; the alt text says what
  they show.

Streamlit part: `show(where, figs_or_fig, key)` renders an expander "Show the numbers" with
a table and a CSV download per `Numbers`; `show_columns(where, columns, key, ...)` does the same
for columns a page already has (e.g. a run's energies and overlaps). The tables are built and
sent only while the expander is open: a closed one costs the page nothing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from typing import Callable

import numpy as np
import streamlit as st

from ui.serving.text import escaped

from .exports import csv_bytes

MAX_CELLS = 400        # a matrix with more cells is offered as CSV only
MATRIX_TYPES = {"heatmap", "heatmapgl", "contour", "surface"}
SKIPPED_TYPES = {"image"}
_TAGS = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Numbers:
    """One table of a chart: `columns` (equal-length lists) to show, `csv()` the bytes of a CSV
    with every value (made only when asked: on a click of its download button), `note` a
    sentence when the table is left out (too big), else ""."""

    title: str
    columns: dict
    csv: Callable[[], bytes]
    note: str = ""


def plain(text) -> str:
    """A Plotly title as plain text: <br> as a space, other tags dropped."""
    text = "" if text is None else str(text)
    return re.sub(r"\s+", " ", _TAGS.sub("", text.replace("<br>", " "))).strip()


def _axis_title(fig, trace, letter: str, values=()) -> str:
    """The column's name: its axis title, else "category" for an axis of names, else x / y."""
    ref = getattr(trace, f"{letter}axis", None) or letter  # "x", "x2", ...
    name = f"{letter}axis{ref[1:]}"
    axis = fig.layout[name] if name in fig.layout else None
    title = plain(axis.title.text) if axis is not None and axis.title is not None else ""
    named = len(values) > 0 and all(isinstance(v, str) for v in values)
    return title or ("category" if named else letter)


def _values(v) -> list:
    """A trace's array as a list of Python numbers or strings."""
    if v is None:
        return []
    return [x.item() if isinstance(x, np.generic) else x for x in np.asarray(v, dtype=object).ravel()]


def decoration(trace) -> bool:
    """A trace with no legend entry and no hover (e.g. the big dot on the current step): it
    repeats a point of another trace, so it adds no numbers."""
    return trace.showlegend is False and trace.hoverinfo == "skip"


def _trace_name(trace, i: int) -> str:
    return plain(trace.name) if trace.name else f"series {i + 1}"


def _xy(fig, traces: list) -> Numbers | None:
    """Every xy trace of `fig` (list of (index, trace)) as one long table."""
    names = {"series": [], "x": [], "y": []}
    z, text = [], []
    has_z = any(getattr(t, "z", None) is not None for _, t in traces)
    has_text = any(isinstance(getattr(t, "text", None), (list, tuple, np.ndarray)) for _, t in traces)
    for i, tr in traces:
        y = _values(tr.y)
        x = _values(tr.x)
        if not y and not x:
            continue
        n = max(len(x), len(y))
        x = x or list(range(n))
        y = y or list(range(n))
        names["series"] += [_trace_name(tr, i)] * n
        names["x"] += x[:n]
        names["y"] += y[:n]
        if has_z:
            zs = _values(getattr(tr, "z", None))
            z += (zs + [None] * n)[:n]
        if has_text:
            ts = getattr(tr, "text", None)
            ts = _values(ts) if isinstance(ts, (list, tuple, np.ndarray)) else []
            text += ([plain(s) for s in ts] + [""] * n)[:n]
    if not names["series"]:
        return None
    first = traces[0][1]
    columns = {"series": names["series"]} if len(set(names["series"])) > 1 else {}
    columns[_axis_title(fig, first, "x", names["x"])] = names["x"]
    y_title = _axis_title(fig, first, "y", names["y"])
    columns[y_title if y_title not in columns else f"{y_title} (y)"] = names["y"]
    if getattr(first, "orientation", None) == "h":  # turned bars: the category first
        columns = {k: columns[k] for k in [*list(columns)[:-2], list(columns)[-1], list(columns)[-2]]}
    if has_z:
        columns["z"] = z
    if has_text:
        columns["label"] = text
    return Numbers(plain(fig.layout.title.text), columns, partial(csv_bytes, columns))


def _matrix(fig, i: int, trace) -> Numbers:
    """A matrix trace: cells as rows (row, column, value) when small, else CSV only."""
    Z = np.asarray(trace.z, dtype=np.float64)  # (rows, cols)
    if Z.ndim == 1:
        Z = Z[None, :]
    rows, cols = Z.shape
    xs = _values(trace.x) or list(range(cols))
    ys = _values(trace.y) or list(range(rows))
    x_title, y_title = _axis_title(fig, trace, "x", xs), _axis_title(fig, trace, "y", ys)
    if x_title == y_title:
        x_title, y_title = f"{x_title} (column)", f"{y_title} (row)"
    title = plain(fig.layout.title.text) or _trace_name(trace, i)
    if trace.name:
        title = f"{title}: {plain(trace.name)}" if title != plain(trace.name) else title
    whole = partial(matrix_csv, Z, xs[:cols], ys[:rows], x_title, y_title)
    if Z.size > MAX_CELLS:
        note = (f"A {rows} by {cols} matrix ({Z.size:,} cells) is too large for a table here: "
                "download the CSV for every value.")
        return Numbers(title, {}, whole, note)
    r, c = np.divmod(np.arange(Z.size), cols)
    columns = {y_title: [ys[k] for k in r], x_title: [xs[k] for k in c], "value": Z.ravel().tolist()}
    return Numbers(title, columns, whole)


def matrix_csv(Z: np.ndarray, xs: list, ys: list, x_title: str, y_title: str) -> bytes:
    """A matrix (rows, cols) as CSV laid out as drawn: a row per matrix row, headed by its
    label, a column per matrix column ("<x title> = <label>")."""
    return csv_bytes({y_title: ys, **{f"{x_title} = {x}": Z[:, j].tolist()
                                      for j, x in enumerate(xs)}})


def tables(fig) -> list[Numbers]:
    """The numbers of a Plotly figure: one table for its line, marker and bar traces, one per
    matrix trace (see the module's docstring); pictures skipped."""
    xy, out = [], []
    for i, tr in enumerate(fig.data):
        if tr.type in SKIPPED_TYPES or decoration(tr):
            continue
        if tr.type in MATRIX_TYPES:
            out.append(_matrix(fig, i, tr))
        else:
            xy.append((i, tr))
    first = _xy(fig, xy) if xy else None
    return ([first] if first else []) + out


# ------------------------------------------------------------------ streamlit


def _render(numbers: list[Numbers], key: str) -> None:
    for n, part in enumerate(numbers):
        if part.title:
            st.markdown(f"**{escaped(part.title)}**")
        if part.note:
            st.caption(part.note)
        if part.columns:
            st.dataframe(part.columns, hide_index=True, key=f"{key}_table_{n}")
        st.download_button("Download these numbers (CSV)", part.csv,
                           file_name=f"{key}_{n + 1}.csv", mime="text/csv",
                           key=f"{key}_csv_{n}", on_click="ignore")


def _expander(where, label: str, key: str):
    """The expander, and whether it is open: its content is built and sent only then (Streamlit
    tracks an expander's state when it has a key and on_change; opening it reruns the page)."""
    box = where.expander(label, key=f"{key}_open", on_change="rerun")
    return box, bool(box.open)


def show(where, figs_or_fig, key: str, label: str = "Show the numbers") -> None:
    """An expander `label` in `where` with the numbers of one Plotly figure or a list of them:
    a table (st.dataframe) and a CSV download each, built only while it is open. `key` names
    its widgets (unique per page; the expander's state is session state `<key>_open`)."""
    box, is_open = _expander(where, label, key)
    if is_open:
        figs = figs_or_fig if isinstance(figs_or_fig, (list, tuple)) else [figs_or_fig]
        with box:
            _render([part for fig in figs for part in tables(fig)], key)


def show_columns(where, columns: dict, key: str, title: str = "",
                 label: str = "Show the numbers") -> None:
    """The same expander for columns a page already holds (equal-length lists or arrays)."""
    box, is_open = _expander(where, label, key)
    if is_open:
        cols = {name: _values(v) for name, v in columns.items()}
        with box:
            _render([Numbers(title, cols, partial(csv_bytes, cols))], key)
