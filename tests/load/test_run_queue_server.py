"""The fair gate of heavy runs (ui/serving/run_queue.py) on a real server with one slot
(HOPFIELD_HEAVY_SLOTS=1), driven by the protocol client (tests/support/st_client.py): each
session presses Run on a capacity-lab curve that is costly enough to need the Run button.

a) two sessions press Run together: the second is told that one run is ahead of it, and
   computes only after the first has computed its last point;
b) three sessions: the second cancels while it waits (the third moves up), the first cancels
   while it computes (its computation stops before its last point, its page says Cancelled
   and offers Run again), and the third then computes to the end;
c) two sessions press Run on the same settings: it is computed once, both draw it.

The client reads each session's messages as they arrive, with the time they arrived.
"""
from __future__ import annotations

import os
import re
import threading
import time
from urllib.parse import urlencode

import pytest

from tests.support.capacity_runs import COSTLY_NS, costly
from tests.support.server import Server, tracebacks
from tests.support.st_client import FINISHED, StClient
from ui.serving.run_queue_view import about

PAGE = "capacity_lab"
TICK = re.compile(r"\((\d+) of (\d+)\)$")


@pytest.fixture(scope="module")
def server():
    s = Server(env=dict(os.environ, HOPFIELD_HEAVY_SLOTS="1"))
    s.skip_unless_healthy()
    yield s
    s.stop()


class Session:
    """One tab, and what it was shown, each element with the time it arrived."""

    def __init__(self, url: str, seed: int, seconds: float = 2.0):
        """A curve estimated at `seconds` or a little more (most of it in its last points:
        the time of a point grows with N)."""
        self.c = StClient(url, timeout=90)
        self.c.connect()
        query, self.estimate = costly(seed, seconds)
        run = self.c.open(PAGE, urlencode(query))
        assert not run.errors and self.c.has("capacity_lab_run_curve"), (run, self.c.button_labels())
        self.shown: list[tuple[float, str, str]] = []  # (time, element kind, text)
        self.pending: dict = {}                         # the running script's elements

    def _note(self, msg) -> None:
        if msg.WhichOneof("type") == "new_session":
            self.shown.append((time.monotonic(), "new run", ""))
        if msg.WhichOneof("type") == "delta" and msg.delta.WhichOneof("type") == "new_element":
            el = msg.delta.new_element
            kind = el.WhichOneof("type")
            proto = getattr(el, kind)
            text = getattr(proto, "body", "") or getattr(proto, "text", "") or \
                getattr(proto, "label", "")
            self.shown.append((time.monotonic(), kind, text))

    def press(self, key: str) -> None:
        """Press a button and do not wait for the run to end."""
        self.c.elements.update(self.pending)  # a button drawn by the running script
        self.c.click(key, wait=False)

    def read_until(self, what) -> str:
        """Read the running script's messages until a new element's text matches `what`;
        returns that text. (The client's own reader; it empties self.pending when a new run
        starts.)"""
        before = len(self.shown)

        def done(msg):
            self._note(msg)
            return len(self.shown) > before and bool(re.search(what, self.shown[-1][2]))
        self.c._read_until(done, time.perf_counter(), self.pending)
        return self.shown[-1][2]

    def shown_or_read(self, what) -> str:
        """The text matching `what` if the running script already showed it (it can come in the
        same messages as what read_until last waited for, before it), else read_until(what)."""
        start = max((i for i, (_, kind, _) in enumerate(self.shown) if kind == "new run"), default=0)
        for _, _, text in self.shown[start:]:
            if re.search(what, text):
                return text
        return self.read_until(what)

    def finish(self) -> str:
        """Read until the run ends (not one stopped for a rerun); returns its status."""
        def done(msg):
            self._note(msg)
            return (msg.WhichOneof("type") == "script_finished"
                    and msg.script_finished != FINISHED.FINISHED_EARLY_FOR_RERUN)
        msg = self.c._read_until(done, time.perf_counter(), self.pending)
        self.c.elements, self.pending = self.pending, {}
        return FINISHED.Name(msg.script_finished)

    def ticks(self, since: float = 0.0, until: float = float("inf")) -> list[tuple[float, int]]:
        """(time, points done) of each progress update shown in that time. (Streamlit drops
        an update that a later one of the same element replaces before it was sent, e.g. the
        last one, which the bar's removal replaces.)"""
        return [(t, int(TICK.search(text).group(1))) for t, kind, text in self.shown
                if kind == "progress" and TICK.search(text) and since <= t <= until]

    def charts(self) -> int:
        return sum(el.kind == "plotly_chart" for el in self.c.elements.values())

    def close(self) -> None:
        self.c.close()


def test_the_second_run_waits_for_the_first(server):
    a, b = Session(server.url, 11), Session(server.url, 12)
    try:
        a.press("capacity_lab_run_curve")
        a.read_until(TICK.pattern)  # a computes
        b.press("capacity_lab_run_curve")
        assert b.read_until("ahead of yours") == (
            f"1 run ahead of yours; yours starts when it finishes ({about(a.estimate)} of "
            "computing on a quiet server).")
        status = {}
        reader = threading.Thread(target=lambda: status.update(b=b.finish()), daemon=True)
        reader.start()
        status["a"] = a.finish()
        reader.join(90)
        assert status == {"a": "FINISHED_SUCCESSFULLY", "b": "FINISHED_SUCCESSFULLY"}, status
        assert a.charts() == 2 and b.charts() == 2
        a_ticks, b_ticks = a.ticks(), b.ticks()
        assert a_ticks and b_ticks
        assert b_ticks[0][0] > a_ticks[-1][0], "the second run computed beside the first"
        waits = [t for t, kind, text in b.shown if "ahead of yours" in text]
        assert waits[-1] < b_ticks[0][0]  # told to wait, then computed
    finally:
        a.close()
        b.close()
    assert not tracebacks(server.log()), tracebacks(server.log())[0]


def test_cancel_frees_the_place_and_the_slot(server):
    a = Session(server.url, 21, seconds=7.5)  # the longer run: cancelled well before its end
    b, c = Session(server.url, 22), Session(server.url, 23)
    try:
        a.press("capacity_lab_run_curve")
        a.read_until(TICK.pattern)
        b.press("capacity_lab_run_curve")
        assert b.read_until("ahead of yours").startswith("1 run ahead of yours")
        c.press("capacity_lab_run_curve")
        assert c.read_until("ahead of yours").startswith("2 runs ahead of yours")

        b.shown_or_read("^Cancel$")  # the Cancel button, while it waits (drawn before or after the place)
        b.press("cancel_curve")
        assert b.finish() == "FINISHED_SUCCESSFULLY" and b.charts() == 0
        assert "Cancelled: nothing was drawn. Press Run to start this curve again." in b.c.texts()
        assert b.c.has("capacity_lab_run_curve")
        c.read_until("^1 run ahead of yours")  # it moved up

        pressed = time.monotonic()
        a.press("cancel_curve")  # while it computes
        assert a.finish() == "FINISHED_SUCCESSFULLY" and a.charts() == 0
        assert "Cancelled: nothing was drawn. Press Run to start this curve again." in a.c.texts()
        done = [k for _, k in a.ticks()]  # had it run on, the last but one at least would show
        assert done and max(done) < len(COSTLY_NS) - 1, f"a's computation went on: {done}"
        assert c.finish() == "FINISHED_SUCCESSFULLY" and c.charts() == 2
        assert c.ticks(since=pressed) and not c.ticks(until=pressed)  # it computed after
        assert not b.ticks(), "b computed after it cancelled"
    finally:
        for s in (a, b, c):
            s.close()
    assert not tracebacks(server.log()), tracebacks(server.log())[0]


def test_the_same_run_asked_twice_is_computed_once(server):
    """Single flight: the second session shares the first one's run instead of queueing a
    copy of it, and draws its result without computing a point."""
    a, b = Session(server.url, 31), Session(server.url, 31)
    try:
        a.press("capacity_lab_run_curve")
        a.read_until(TICK.pattern)
        b.press("capacity_lab_run_curve")
        assert b.read_until("same run").startswith(
            "Another session is computing this same run (the same settings) right now")
        assert a.finish() == "FINISHED_SUCCESSFULLY" and b.finish() == "FINISHED_SUCCESSFULLY"
        assert a.charts() == 2 and b.charts() == 2
        assert a.ticks() and not b.ticks()
    finally:
        a.close()
        b.close()
    assert not tracebacks(server.log()), tracebacks(server.log())[0]
