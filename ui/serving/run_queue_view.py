"""A heavy run through the fair gate (ui/serving/run_queue.py), as a page shows it: while it waits,
how many runs are ahead of it and a Cancel button; while it computes, the page's own progress
and the Cancel button; after a Cancel, nothing is computed until the user presses Run again.

Every wait happens in the waiting session's own script thread: it looks again at least every
run_queue.POLL_SECONDS, and each look is a Streamlit yield point, so a click (Cancel, or any
other widget) stops the wait at once, and a run that stops leaves the gate (its slot, or its
place in the queue, goes to the next run).

Cancel does what any click does while a script runs: Streamlit stops the run at its next yield
point (the wait's, or the next progress update), and the rerun begins with the button's
callback, which records the cancel in session state for the page (`cancelled`).
A session whose tab has gone (no client for GONE_AFTER_S) cancels its ticket: the wait ends,
or the computation stops at its next progress check, instead of computing for no one.
"""
from __future__ import annotations

import time

import streamlit as st
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

try:  # Streamlit's stop/rerun check without drawing anything (recent versions)
    from streamlit.runtime.scriptrunner_utils.script_run_context import (
        get_run_yield_check,
    )
except ImportError:  # older ones: the status line below is redrawn at each look instead
    def get_run_yield_check():
        return None

from . import memory_gate, run_queue

CANCELLED = "heavy_cancelled"  # session state: {what: the key of the run the user cancelled}
GONE_AFTER_S = 3.0             # a session without a client this long has left


def about(seconds: float) -> str:
    return f"about {max(1, round(seconds))} s"


def _computing(seconds: tuple) -> str:
    lo, hi = max(1, round(min(seconds))), max(1, round(max(seconds)))
    span = f"about {lo} s" if lo == hi else f"about {lo} to {hi} s"
    return f"{span} of computing{' each' if len(seconds) > 1 else ''} on a quiet server"


def waiting_text(w: run_queue.Waiting, waited: float = 0.0) -> str:
    """What a waiting session reads: the wait, never a promise of when it ends."""
    if w.shared and w.ahead == 0:
        done = f": {w.progress[0]} of {w.progress[1]} done" if w.progress else ""
        return ("Another session is computing this same run (the same settings) right now"
                f"{done}. Its result shows here as soon as it is done.")
    runs = f"{w.ahead} run{'s' if w.ahead > 1 else ''} ahead of "
    if w.ahead == 1:
        when = "it finishes"
    elif w.must_finish == 1:
        when = "one finishes"
    else:
        when = f"{w.must_finish} of them have finished"
    text = (f"{runs}{'it' if w.shared else 'yours'}; {'it' if w.shared else 'yours'} starts "
            f"when {when} ({_computing(w.seconds)}).")
    if w.shared:
        text = ("Another session asked for this same run (the same settings): you will both "
                f"get its result. {text[0].upper()}{text[1:]}")
    return text + (f" Waiting for {waited:.0f} s." if waited >= 1 else "")


def cancelled(what: str, key) -> bool:
    """Did the user cancel this run (and not press Run since)?"""
    return st.session_state.get(CANCELLED, {}).get(what) == key


def forget_cancel(what: str) -> None:
    st.session_state.get(CANCELLED, {}).pop(what, None)


def _on_cancel(what: str, key) -> None:
    st.session_state.setdefault(CANCELLED, {})[what] = key


class _Session:
    """Has this session's tab gone? True once it has had no client for GONE_AFTER_S, after it
    had one (a script run outside a server, whose session never had a client, never counts
    as gone)."""

    def __init__(self):
        ctx = get_script_run_ctx(suppress_warning=True)
        self.id = ctx.session_id if ctx is not None else None
        self.seen = False
        self.since = None

    def gone(self) -> bool:
        if self.id is None or not Runtime.exists():
            return False
        if Runtime.instance().is_active_session(self.id):
            self.seen, self.since = True, None
            return False
        self.since = self.since or time.monotonic()
        return self.seen and time.monotonic() - self.since >= GONE_AFTER_S


def run(what: str, key, seconds: float, compute, cached: bool = False,
        show_cancel_after: float = 0.3, nbytes: int = 0):
    """compute(check) when this run's turn in the gate comes, with check(done, total) its
    progress callback (it raises run_queue.Cancelled once the run is cancelled). Returns what
    compute returned, or what it returned for another session that asked for the same key;
    None when the session left. `cached`: every result is in the cache already, so compute
    runs at once, outside the gate. The Cancel button shows while the run waits, and while it
    computes when it is estimated to take over `show_cancel_after` seconds. `nbytes`: the
    run's estimated peak, held from ui/serving/memory_gate.py's pool while it computes."""
    if cached:
        return compute(lambda done=None, total=None: None)
    status, cancel_at = st.empty(), st.empty()
    session, t0, shown = _Session(), time.monotonic(), {}
    yield_point = get_run_yield_check()

    def offer_cancel():
        if not shown.get("cancel"):
            shown["cancel"] = True
            cancel_at.button("Cancel", key=f"cancel_{what.replace(' ', '_')}",
                             on_click=_on_cancel, args=(what, key))

    def on_wait(w):
        if session.gone():
            ticket.cancel()
        offer_cancel()
        text = waiting_text(w, time.monotonic() - t0)
        if text != shown.get("text") or yield_point is None:
            shown["text"] = text
            status.info(text)  # a stop or rerun request ends the wait here ...
        else:
            yield_point()      # ... or here

    def check(done=None, total=None):
        if session.gone():
            ticket.cancel()
        ticket.check(done, total)

    def start(_ticket):
        status.empty()
        if seconds > show_cancel_after:
            offer_cancel()
        with memory_gate.reserve(nbytes):
            return compute(check)

    ticket = run_queue.GATE.join(key, seconds)
    try:
        result = ticket.run(start, on_wait)
    except run_queue.Cancelled:
        return None
    status.empty()
    cancel_at.empty()
    return result
