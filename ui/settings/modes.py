"""Presenter mode and high-contrast projector mode: two switches of the link (its "presenter"
and "projector" values) that every layer reads (the page shell's CSS, the charts' fonts and
marks, the player's layout, the pages). Their values live in session state under the sidebar
toggles' keys; `FIELDS` binds them to the link (ui.store.shared_settings.LINK)."""
from __future__ import annotations

import streamlit as st

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


FIELDS = [
    Kept("presenter", "Presenter mode", False, _read_switch, _write_switch, presenter,
         _use_presenter),
    Kept("projector", "High-contrast projector mode", False, _read_switch, _write_switch,
         projector, _use_projector),
]
