"""The player of every dynamics page: Reset, Step, Run, Play and a scrubber over a precomputed
run, the fragment that Play re-runs on a timer, and the delta line of a stepped metric."""
from __future__ import annotations

import streamlit as st

from . import keyboard

START = "step 0: the start"  # a stepped metric's delta line at step 0 (step_delta)
PLAY_INTERVAL_S = 0.4


def _cursor(page: str) -> str:
    return f"{page}_t"


def _set_t(page: str, value: int) -> None:
    st.session_state[_cursor(page)] = value
    st.session_state[f"{page}_playing"] = False


def _scrubbed(page: str) -> None:
    """The scrub slider moved. While playing there is no slider on screen, so a change then is
    the browser replaying the slider's value from before Play (it sends the states of widgets
    it last drew with the next fragment run): ignored, or it would stop Play partway."""
    if st.session_state.get(f"{page}_playing"):
        return
    _set_t(page, st.session_state[f"{page}_scrub"])


def playing(page: str) -> bool:
    """Whether the page's player is playing (its timer re-runs the view every PLAY_INTERVAL_S)."""
    return bool(st.session_state.get(f"{page}_playing", False))


def frame(page: str) -> tuple:
    """What the page's player shows: (its run's key, the step), one value per frame."""
    return st.session_state.get(f"{page}_run"), st.session_state.get(_cursor(page), 0)


def _play(page: str, T: int) -> None:
    if st.session_state.get(_cursor(page), 0) >= T:
        st.session_state[_cursor(page)] = 0
    st.session_state[f"{page}_playing"] = True


def player(page: str, T: int, run_key: str) -> int:
    """Reset / Step / Run / Play over a precomputed run of T steps; returns the step shown.

    The cursor goes back to 0 whenever the run changes (new query, new settings).
    """
    if st.session_state.get(f"{page}_run") != run_key:
        st.session_state[f"{page}_run"] = run_key
        st.session_state[_cursor(page)] = 0
        st.session_state[f"{page}_playing"] = False
    t = min(st.session_state.get(_cursor(page), 0), T)
    playing = st.session_state.get(f"{page}_playing", False)
    # buttons as wide as their labels, wrapping onto a second line on a narrow screen
    row = st.container(horizontal=True, wrap=True, gap="small", vertical_alignment="center")
    keys = keyboard.SHORTCUTS
    row.button("Reset", icon=":material/first_page:", key=f"{page}_reset", on_click=_set_t, args=(page, 0),
               shortcut=keys["reset"])
    row.button("Step", icon=":material/step:", key=f"{page}_step", on_click=_set_t, args=(page, min(t + 1, T)),
                   disabled=t >= T, type="primary", shortcut=keys["step"])
    row.button("Run", icon=":material/last_page:", key=f"{page}_run_all", on_click=_set_t, args=(page, T),
                   disabled=t >= T, shortcut=keys["run_all"])
    if playing:
        row.button("Pause", icon=":material/pause:", key=f"{page}_pause", on_click=_set_t, args=(page, t),
                   shortcut=keys["pause"])
    else:
        row.button("Play", icon=":material/play_arrow:", key=f"{page}_play", on_click=_play, args=(page, T),
                       disabled=T == 0, shortcut=keys["play"])
    row.markdown(f"**step {t} of {T}**", width="content")
    keyboard.help_popover(row, page)
    keyboard.keep_focus(row, page)  # Step off at the end: the focus goes to Reset, not the page
    # the slider and Play's progress bar share a box as tall as the slider, so starting Play
    # moves nothing below it (page_style.PAGE_CSS: st-key-scrubber_)
    box = st.container(key=f"scrubber_{page}")
    if playing and T > 0:
        # no slider while playing: each timed rerun carries the browser's last slider value,
        # which lags the server's cursor, and its on_change would read as the user scrubbing
        # (and stop Play partway)
        box.progress(t / T)
    elif T > 0:
        st.session_state[f"{page}_scrub"] = t
        box.slider("Scrub through the steps", 0, T, key=f"{page}_scrub", label_visibility="collapsed",
                  on_change=_scrubbed, args=(page,))
    return t


def step_delta(change: str | None, why_none: str = START) -> dict:
    """st.metric's delta arguments for a value the player steps through: the change since step
    0 (lower is better), or, where there is none, a grey line saying why; so the metric is as
    tall at step 0 as after it, and starting Play moves nothing below it."""
    if change:
        return dict(delta=change, delta_color="inverse")
    return dict(delta=why_none, delta_color="off", delta_arrow="off")


def animated(page: str, body) -> None:
    """Run `body()` as a fragment that the browser re-runs every PLAY_INTERVAL_S while
    playing: each tick advances the cursor one step, without rerunning the whole page."""
    playing = st.session_state.get(f"{page}_playing", False)
    st.session_state[f"{page}_timer"] = playing  # whether this fragment gets a timer

    def tick():
        now = st.session_state.get(f"{page}_playing", False)
        if now != st.session_state.get(f"{page}_timer"):
            # Play or Pause was pressed inside the fragment: only a full rerun can start
            # or stop the fragment's timer
            st.rerun(scope="app")
        if now:
            st.session_state[_cursor(page)] = st.session_state.get(_cursor(page), 0) + 1
        body()

    st.fragment(tick, run_every=PLAY_INTERVAL_S if playing else None)()


def stop_if_done(page: str, t: int, T: int) -> None:
    """Called by the body at the last step: stop the timer with a full rerun."""
    if st.session_state.get(f"{page}_playing") and t >= T:
        st.session_state[f"{page}_playing"] = False
        st.rerun(scope="app")
