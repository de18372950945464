"""A browser's malformed widget value in the server's log: one short line, not a traceback.

A crafted websocket message can give a widget a value no browser sends: component state that
is not JSON, nested 2,000 deep or a 5,000-digit number, a radio given a number for its text.
Streamlit decodes it when the session's next run starts, the decoding raises, and that
session's runs fail (only the sender's: no other session sees the value). Streamlit then logs
the exception with its whole traceback, about 100 lines a run, so a script could fill the
log. `install()` puts a filter on that logger which turns such a record into one line (the
session, the widget, what was wrong) and keeps at most LINES a session in any WINDOW_S, with
one line saying when a session's further lines are dropped. Every other exception is logged
as before. It needs `logger.enableRich = false` (.streamlit/config.toml): Streamlit's rich
traceback goes to the console without passing through logging.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from pathlib import Path
from types import TracebackType

LOGGER = "streamlit.error_util"  # where Streamlit logs an uncaught exception of a script run
LINES = 3            # lines per session ...
WINDOW_S = 60.0      # ... in any minute
MAX_SESSIONS = 1000  # sessions remembered; the longest quiet are forgotten first
_STATE_FILE = "runtime/state/session_state.py"
_APP = str(Path(__file__).resolve().parents[2]).replace("\\", "/") + "/"  # the app's own files


def malformed_widget(ex: BaseException | None) -> str | None:
    """The id of the widget whose stored value raised `ex` while Streamlit's session state
    read, decoded or re-encoded it (a frame of session_state.py holding that widget's id on the
    way, and no frame of the app's own code after it: an on_change callback's error is the
    app's, with its whole traceback), or None for any other exception."""
    tb: TracebackType | None = ex.__traceback__ if ex is not None else None
    found = None
    while tb is not None:
        path = tb.tb_frame.f_code.co_filename.replace("\\", "/")
        if found is not None and path.startswith(_APP):  # raised in the app (a callback): its bug
            return None
        if found is None and path.endswith(_STATE_FILE):
            for name in ("widget_id", "k"):
                widget = tb.tb_frame.f_locals.get(name)
                if isinstance(widget, str) and widget.startswith("$$ID-"):
                    found = widget
        tb = tb.tb_next
    return found


def _session_id() -> str:
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
    except Exception:  # noqa: BLE001 - a log filter never raises
        return "?"
    return ctx.session_id if ctx is not None else "?"


def what(ex: BaseException) -> str:
    """The exception's type and the start of its message, on one line."""
    text = " ".join(str(ex).split())
    return f"{type(ex).__name__}: {text[:80]}{'...' if len(text) > 80 else ''}"


class OneLine(logging.Filter):
    def __init__(self, lines: int = LINES, window_s: float = WINDOW_S):
        super().__init__()
        self.lines, self.window_s = lines, window_s
        self._times: dict[str, deque] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        ex = record.exc_info[1] if record.exc_info else None
        widget = malformed_widget(ex)
        if widget is None:
            return True
        session = _session_id()
        allowed, last = self._count(session, time.monotonic())
        if not allowed:
            return False
        key = widget.rsplit("-", 1)[-1] if widget.startswith("$$ID-") else widget
        record.msg = (f"session {session[:8]}: widget {key[:60]!r} holds a value Streamlit "
                      f"cannot read ({what(ex)}), e.g. from a crafted message; the session's run stopped"
                      + (f"; its further ones are not logged for {self.window_s:.0f} s" if last else ""))
        record.args, record.exc_info, record.exc_text, record.stack_info = (), None, None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True

    def _count(self, session: str, now: float) -> tuple[bool, bool]:
        """(log this one, it is the last logged for now) for this session at `now`."""
        with self._lock:
            times = self._times.pop(session, deque())  # re-inserted: the dict stays in quiet order
            while times and now - times[0] >= self.window_s:
                times.popleft()
            allowed = len(times) < self.lines
            if allowed:
                times.append(now)
            self._times[session] = times
            while len(self._times) > MAX_SESSIONS:
                self._times.pop(next(iter(self._times)))
            return allowed, allowed and len(times) == self.lines


_installed: OneLine | None = None


def install() -> OneLine:
    """Put the filter on Streamlit's logger of uncaught exceptions, once per process."""
    global _installed
    if _installed is None:
        _installed = OneLine()
        logging.getLogger(LOGGER).addFilter(_installed)
    return _installed
