"""Home's "Join a class": the code from the board typed (any case, spaces or dashes allowed), or
the QR code's link, which opens Home with the code (ui.live.attending reads it). No name asked."""
from __future__ import annotations

import streamlit as st

from ui.lessons import bar as lesson_bar

from . import attending

_FAILED = "_class_join_failed"


def draw() -> None:
    with st.container(key="join_class", border=True):
        st.markdown("**Join a class.** Type the code your teacher shows (6 letters and digits). "
                    "No name or account: the app gives this tab a random id.")
        with st.form("join_class_form", border=False, enter_to_submit=True):
            st.text_input("Class code", key="join_code", max_chars=40, placeholder="K7M2QX")
            st.form_submit_button("Join", type="primary", on_click=_join)
        failed = st.session_state.pop(_FAILED, None)
        if failed:
            st.error(lesson_bar.plain(failed))


def _join() -> None:
    text = st.session_state.get("join_code") or ""
    why = attending.join_typed(text, attending.pages())
    if why:
        st.session_state[_FAILED] = why
