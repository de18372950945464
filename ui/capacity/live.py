"""A run that shows itself as it goes: a progress bar, and charts redrawn with the points
measured so far (at most every REDRAW_SECONDS, so the redraws stay a small part of the run).
Quick runs (under SHOW_AFTER seconds, estimated) show neither: the result comes at once."""
from __future__ import annotations

import time

import streamlit as st

from .. import charts
from .export import png

SHOW_AFTER = 0.3
REDRAW_SECONDS = 0.5


class Live:
    def __init__(self, seconds: float, total: int, text: str, draw):
        """draw(final) draws the charts from what has been measured so far; final is True
        at the end, else the number of units done (for the partial charts' keys)."""
        self.total, self.count, self.draw = total, 0, draw
        self.show = seconds > SHOW_AFTER
        self.bar = st.progress(0.0, text=text) if self.show else None
        self.last = time.monotonic()

    def tick(self, text: str) -> None:
        """One more unit of work done."""
        self.count += 1
        if not self.show:
            return
        self.bar.progress(min(1.0, self.count / self.total),
                          text=f"{text} ({self.count} of {self.total})")
        if self.count < self.total and time.monotonic() - self.last >= REDRAW_SECONDS:
            self.draw(self.count)
            self.last = time.monotonic()

    def finish(self) -> None:
        if self.bar is not None:
            self.bar.empty()
        self.draw(True)


def plot(where, fig, key: str, final, name: str) -> None:
    """A chart in its placeholder, which each partial draw replaces. final: True, or the
    number of points so far (a partial chart gets a key of its own)."""
    charts.plot(where, fig, key=key if final is True else f"{key}_{final}", config=png(name))
