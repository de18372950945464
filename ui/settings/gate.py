"""The lesson gate (DESIGN 5.3): one mechanism that keeps a question's answer off a page until the
student has locked a prediction.

The lesson layer (ui/lessons/) `hold`s the gate for a step's page and question before the page
runs, with the prediction already locked, if any. While the hold has no prediction, the gate is
`pending`: the player (ui/player/browser.py) sends step 0 alone, and every section that shows an
outcome (the run's numbers and downloads, a verdict, k90, a comparison) asks `closed()` first
and draws one line instead. The page's own run `offer`s what the question needs: its options for
this run, and a function giving the outcome, read from the run by the core
(hopfield_core.questions). The lesson layer draws the question from the offer, after the page
ran, in a place it kept above the page; once a prediction is locked, `answer()` is the sentence
comparing it with the outcome, which the player shows when the run ends. No outcome is computed
for the browser while the gate is pending. Kept in session state; a hold lasts until the lesson
layer changes it.

Presenter mode holds the same sections without a lesson, so that the class sees a run's result
when the run reaches it and not before (`start_run(page, reveal)`, from the registry): on a page
with a player the result shows once the player reports the run's end (`reveal`, from the
player's "ended" trigger), on a page without one once the teacher presses "Show the result"
(drawn by the first section that is closed). A change of any value that defines the run holds
it again (layer.identity)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import streamlit as st

from hopfield_core import questions

from . import layer
from .modes import presenter

_HOLD, _OFFER = "_gate_hold", "_gate_offer"
CLOSED_TEXT = "Lock a prediction in the lesson bar above to see the outcome here."
REVEAL_TEXT = "Shown when the run reaches its end: press Run, or step to the end."
SHOW_TEXT = "The result is shown when you press Show the result."
_REVEAL_RUN, _REVEALED, _BUTTON = "_gate_reveal_run", "_gate_revealed", "_gate_reveal_button"
NOT_THE_RUN = ("view", "presenter", "projector", "speed")  # values that change no run's result
HELD_TEXT = "Step, Run and Play open when you lock a prediction (or choose \"Not sure yet\") above."


CLASS_CLOSED_TEXT = "Shown when your teacher reveals the answer to the class."
CLASS_HELD_TEXT = "Step, Run and Play open when your teacher reveals the answer to the class."


@dataclass(frozen=True)
class Hold:
    page: str
    kind: str            # a question kind (hopfield_core.questions.KINDS)
    locked: str | None   # the option locked, None while the prediction is pending
    closed_text: str = CLOSED_TEXT  # what a closed section says (a live class: the teacher reveals)
    held_text: str = HELD_TEXT      # what the held player says


@dataclass(frozen=True)
class Offer:
    options: list        # hopfield_core.questions.Option, the run's own
    outcome: Callable    # () -> hopfield_core.questions.Outcome, read from the run


def hold(page: str, kind: str, locked: str | None = None, by_teacher: bool = False) -> None:
    """Hold page's question; by_teacher: a live class's, opened by the teacher's reveal (the
    closed sections and the player say so)."""
    texts = (CLASS_CLOSED_TEXT, CLASS_HELD_TEXT) if by_teacher else (CLOSED_TEXT, HELD_TEXT)
    st.session_state[_HOLD] = Hold(page, kind, locked, *texts)


def release() -> None:
    st.session_state.pop(_HOLD, None)


def held() -> Hold | None:
    return st.session_state.get(_HOLD)


def start_run(page: str | None = None, reveal: str | None = None) -> None:
    """Before a page runs: no offer yet (the page's run makes this run's); in presenter mode, how
    page's result is revealed ("end": its player's end, "button": Show the result; None: as it is
    computed)."""
    st.session_state.pop(_OFFER, None)
    st.session_state.pop(_BUTTON, None)
    st.session_state[_REVEAL_RUN] = (page, reveal) if reveal and presenter() else None


def reveal(page: str) -> None:
    """The run of page's current values has reached its end (or the teacher asked): show it."""
    st.session_state.setdefault(_REVEALED, {})[page] = layer.identity(page, NOT_THE_RUN)


def presenter_holds(page: str) -> bool:
    """Whether presenter mode keeps page's result off the screen until its run reaches it."""
    run = st.session_state.get(_REVEAL_RUN)
    if not run or run[0] != page:
        return False
    return st.session_state.get(_REVEALED, {}).get(page) != layer.identity(page, NOT_THE_RUN)


def hides(page: str) -> bool:
    """Whether what the run will reveal is kept off the page (a lesson's question, presenter mode)."""
    return pending(page) or presenter_holds(page)


def pending(page: str) -> bool:
    """Whether page's question waits for a prediction: its outcome must not be shown."""
    h = held()
    return h is not None and h.page == page and h.locked is None


def closed(page: str, where=None) -> bool:
    """For a section that shows an outcome: True (and one line in its place) while pending, or
    while presenter mode holds it (the first such section of a page without a player draws the
    "Show the result" button)."""
    where = where or st
    if pending(page):
        where.caption(held().closed_text)
        return True
    if presenter_holds(page):
        if st.session_state[_REVEAL_RUN][1] == "button":
            if not st.session_state.get(_BUTTON):
                st.session_state[_BUTTON] = True
                where.button("Show the result", key=f"{page}_show_result", type="primary",
                             on_click=reveal, args=(page,), icon=":material/visibility:")
            where.caption(SHOW_TEXT)
        else:
            where.caption(REVEAL_TEXT)
        return True
    return False


def wants(page: str, kind: str) -> bool:
    """Whether a hold asks page this kind of question (so its run should offer it)."""
    h = held()
    return h is not None and h.page == page and h.kind == kind


def offer(page: str, kind: str, options: list, outcome: Callable) -> None:
    """The page's run: the options of this kind of question for this run, and its outcome."""
    if wants(page, kind):
        st.session_state[_OFFER] = Offer(options, outcome)


def offered() -> Offer | None:
    return st.session_state.get(_OFFER)


def answer(page: str) -> str | None:
    """The sentence comparing the locked prediction with this run's outcome (None: no question
    on this page, nothing locked, or the page offered none)."""
    h, o = held(), offered()
    if h is None or h.page != page or h.locked is None or o is None:
        return None
    return questions.compare(h.locked, o.options, o.outcome())
