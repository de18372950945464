"""Lesson codes typed by hand: a wrong one gets a message, and more than WRONG_PER_MINUTE wrong
codes a minute from one session get a wait (a script cannot walk the codes)."""
from __future__ import annotations

import time

import streamlit as st

_WRONG = "_lesson_wrong_codes"
WRONG_PER_MINUTE = 10


def wait_s(now: float | None = None) -> float:
    """Seconds this session must wait before trying another code (0: none)."""
    now = time.time() if now is None else now
    wrong = [t for t in st.session_state.get(_WRONG, []) if now - t < 60]
    st.session_state[_WRONG] = wrong
    return 0.0 if len(wrong) < WRONG_PER_MINUTE else 60 - (now - wrong[0])


def wrong(now: float | None = None) -> None:
    st.session_state.setdefault(_WRONG, []).append(time.time() if now is None else now)
