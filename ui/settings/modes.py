"""Presenter mode and high-contrast projector mode: two switches of the link (its "presenter"
and "projector" values) that every layer reads (the page shell's CSS, the charts' fonts and
marks, the player's layout, the pages); and the players' Play speed (its "speed" value), which
the browser player starts from and reports back when it is changed. Their values live in session
state (the modes under the sidebar toggles' keys); `FIELDS` binds them to the link
(ui.store.shared_settings.LINK)."""
from __future__ import annotations

import streamlit as st

from ui.serving.text import quoted

from .fields import Kept


def presenter() -> bool:
    """Presenter mode: the controls hidden, everything larger for a projector (the sidebar's
    toggle, key "presenter")."""
    return bool(st.session_state.get("presenter", False))


def _use_presenter(on: bool) -> None:
    st.session_state.presenter = on


PROJECTOR_HELP = ("Black text on white, stronger borders and focus outlines, and darker, thicker "
                  "chart lines: for a washed-out projector.")


def projector() -> bool:
    """High-contrast projector mode: black text on white, stronger borders and focus outlines,
    darker and thicker chart marks, for a washed-out projector (ui.shell.page_style, ui.charts.charts; the
    sidebar's toggle, key "projector", and presenter mode's own)."""
    return bool(st.session_state.get("projector", False))


def _use_projector(on: bool) -> None:
    st.session_state.projector = on


def _read_switch(text: str) -> tuple[bool, tuple]:
    """A switch in the link: "1" or "true" is on, anything else off (no message)."""
    return text in ("1", "true"), ()


def _write_switch(on: bool) -> str | None:
    return "1" if on else None


# the Play speeds: times the default pace, and their names in the player's "Speed" list
SPEEDS = ((0.5, "Slow"), (1, "Normal"), (2, "Fast"), (4, "Fastest"))
_SPEED_KEY = "player_speed"


def speed() -> float:
    """The Play speed in use (1: the default pace)."""
    return st.session_state.get(_SPEED_KEY, 1)


def use_speed(factor) -> None:
    """A speed the player reports (or the link names); one it does not offer is ignored."""
    if any(factor == f for f, _ in SPEEDS):
        st.session_state[_SPEED_KEY] = factor


def _read_speed(text: str) -> tuple[float, tuple]:
    """The link's speed: one of the player's factors (0.5, 1, 2, 4), else the default, said."""
    try:
        factor = float(text)
    except ValueError:
        factor = None
    for f, _ in SPEEDS:
        if factor == f:
            return f, ()
    offered = ", ".join(f"{f:g}" for f, _ in SPEEDS)
    return 1, (f"The link sets speed = {quoted(text)}, which the player does not offer ({offered}); "
               "using 1, the normal pace.",)


def _write_speed(factor) -> str | None:
    return None if factor == 1 else f"{factor:g}"


FIELDS = [
    Kept("presenter", "Presenter mode", False, _read_switch, _write_switch, presenter,
         _use_presenter),
    Kept("projector", "High-contrast projector mode", False, _read_switch, _write_switch,
         projector, _use_projector),
    Kept("speed", "Play speed", 1, _read_speed, _write_speed, speed, use_speed),
]
