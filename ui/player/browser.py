"""The player in the browser: a Streamlit components v2 component (JavaScript in the page, no
iframe, no shadow root) that gets a run's frames once (ui/player/frames.py) and then steps,
plays and scrubs through them with no message to the server.

The server's part per student is what the student changes: a page open or a change of settings
computes (or finds in the shared cache) the run and its payload, and sends it. A rerun that does
not change the run sends the same bytes, which Streamlit's message cache turns into a reference
to the copy the browser holds; the component keeps its step and its Play across such reruns, and
goes back to the run's start when the run changes.

The keyboard keys are those of ui/player/keyboard.py; the help beside the buttons says them."""
from __future__ import annotations

import hashlib
import json
import threading
from functools import partial
from pathlib import Path

import streamlit as st

from ui.settings import gate, modes
from ui.settings.modes import SPEEDS

from . import frames, keyboard, plotly_static

HERE = Path(__file__).parent

TAB_ORDER = ("Tab goes through Reset, Step, Run, Play, the speed, this Keyboard help and the step "
             "slider, in that order (a button that is off is skipped); Enter or Space presses the "
             "focused button, the arrow keys move the slider.")


def help_lines() -> list[str]:
    """The Keyboard help, as plain lines."""
    keys = [f"{keyboard.SHORTCUTS[button]}: {what}" for button, what in keyboard.DOES.items()]
    return [TAB_ORDER, "Keys: " + "; ".join(keys) + ".", keyboard.IN_FIELDS, keyboard.AT_THE_END, keyboard.CLICKER_HELP]


def _js() -> str:
    js = (HERE / "browser_player.js").read_text(encoding="utf-8")
    return (js.replace("__PLOTLY__", plotly_static.URL)
              .replace("__HELP__", json.dumps(help_lines()))
              .replace("__KEYS__", json.dumps(keyboard.SHORTCUTS))
              .replace("__CLICKER__", json.dumps(keyboard.CLICKER))
              .replace("__SPEEDS__", json.dumps([list(s) for s in SPEEDS])))


plotly_static.ensure()
_PLAYER = st.components.v2.component(
    "hopfield_player", html='<div class="hp-root"></div>',
    css=(HERE / "browser_player.css").read_text(encoding="utf-8"), js=_js(), isolate_styles=False)


def show(page: str, data: bytes, name: str = "player", on_pick=None) -> None:
    """The player of `page` with a run's payload (frames.encoded(frames.payload(...))); a
    follower of it (frames.follower) under another `name`. on_pick: called (before the rerun)
    when a point of a chart's `pick` trace is clicked; picked(page) says where."""
    if gate.pending(page):  # a lesson's question waits: step 0 alone, nothing past it sent
        data = held(data)
    elif (said := gate.answer(page)) is not None:  # shown when the run ends
        data = answered(data, said)
    kw = {"on_picked_change": on_pick} if on_pick is not None else {}
    key = f"{page}_{name}"
    _PLAYER(data=data, key=key, width="stretch", on_speed_change=partial(_speed_changed, key),
            on_ended_change=partial(gate.reveal, page), **kw)


def _speed_changed(key: str) -> None:
    """The student chose another Play speed: kept for every player, and in the link (the browser
    starts from the link's speed, ui.settings.modes)."""
    state = st.session_state.get(key)
    if isinstance(state, dict) and isinstance(state.get("speed"), (int, float)):
        modes.use_speed(state["speed"])


_HELD: dict[bytes, bytes] = {}  # a run's bytes' digest -> its step 0 alone (a few KB to 100 KB each)
_HELD_MOST = 64
_held_lock = threading.Lock()


def held(data: bytes) -> bytes:
    """The payload with step 0 alone and the gate's sentence (frames.withheld), made once per run."""
    h = gate.held()
    text = h.held_text if h is not None else gate.HELD_TEXT  # a lesson's, or a live class's
    digest = hashlib.sha1(data + text.encode("utf-8")).digest()
    with _held_lock:
        found = _HELD.get(digest)
    if found is None:
        found = frames.encoded(frames.withheld(json.loads(data), 0, text))
        with _held_lock:
            if len(_HELD) >= _HELD_MOST:
                _HELD.pop(next(iter(_HELD)))
            _HELD[digest] = found
    return found


def answered(data: bytes, sentence: str) -> bytes:
    """The payload with the comparison of a locked prediction (shown when the run ends)."""
    return data[:-1] + b',"answer":' + json.dumps(sentence).encode("utf-8") + b"}"


def picked(page: str, name: str = "player"):
    """The point the browser says was clicked ({x, y, id} as it sent them, unchecked), during the
    rerun the click caused; None otherwise."""
    state = st.session_state.get(f"{page}_{name}")
    return state.get("picked") if isinstance(state, dict) else None


__all__ = ["show", "picked", "frames", "SPEEDS"]
