"""A run that shows itself as it goes: a progress bar, and charts redrawn with the points
measured so far (at most every REDRAW_SECONDS, so the redraws stay a small part of the run).
Quick runs (under SHOW_AFTER seconds, estimated) show neither: the result comes at once.
Each unit of work reports to `check` (ui/serving/run_queue_view.run's progress callback), which
stops a cancelled run and tells the sessions that share the run how far it is."""
from __future__ import annotations

import time

import streamlit as st

from ui.charts import charts

from .export import png

SHOW_AFTER = 0.3
REDRAW_SECONDS = 0.5


class Live:
    def __init__(self, seconds: float, total: int, text: str, draw, check):
        """draw(final) draws the charts from what has been measured so far; final is True
        at the end, else the number of units done (for the partial charts' keys).
        check(done, total) after each unit (it may raise to stop the run)."""
        self.total, self.count, self.draw, self.check = total, 0, draw, check
        self.show = seconds > SHOW_AFTER
        self.bar = st.progress(0.0, text=text) if self.show else None
        self.last = time.monotonic()

    def tick(self, text: str) -> None:
        """One more unit of work done."""
        self.count += 1
        self.check(self.count, self.total)
        if not self.show:
            return
        self.bar.progress(min(1.0, self.count / self.total),
                          text=f"{text} ({self.count} of {self.total})")
        if self.count < self.total and time.monotonic() - self.last >= REDRAW_SECONDS:
            self.draw(self.count)
            self.last = time.monotonic()

    def close(self) -> None:
        """The work is done: the bar goes (the caller draws the final charts)."""
        if self.bar is not None:
            self.bar.empty()


def plot(where, fig, key: str, final, name: str) -> None:
    """A chart in its placeholder, which each partial draw replaces. final: True, or the
    number of points so far (a partial chart gets a key of its own)."""
    charts.plot(where, fig, key=key if final is True else f"{key}_{final}", toolbar=png(name))
