"""The page's messages about its link, above the page: what the link asked for that could not be
used (one box until dismissed), and the "Settings for this lesson" line of hidden controls."""
from __future__ import annotations

import streamlit as st

from ui.settings.lesson_line import unsaid

MANY_NOTES = 5       # beyond these, the box's list scrolls
NOTES_HEIGHT = 300   # px: how tall the box of many notes stands


def notes_text(notes: list[str]) -> str:
    """One box's text for the link's messages: the message itself, or a count and a list.
    Each message already shows the user's text inertly (ui.serving.text.quoted), so a list item
    can hold it as it is."""
    if len(notes) == 1:
        return notes[0]
    return (f"{len(notes)} things in this link could not be used as written:\n\n"
            + "\n".join(f"- {note}" for note in notes))


def link_messages() -> None:
    """What the link asked for that could not be used, in one box until the user dismisses it
    (a long list scrolls inside its box rather than pushing the page down)."""
    notes = st.session_state.get("link_messages")
    if not notes:
        return
    with st.container(key="link_messages"):
        box = st.container(height=NOTES_HEIGHT) if len(notes) > MANY_NOTES else st.container()
        box.warning(notes_text(notes), icon=":material/link_off:")
        st.button("Dismiss", key="dismiss_link_messages", on_click=st.session_state.pop,
                  args=("link_messages", None))


def lesson_line() -> None:
    """The "Settings for this lesson" line of hidden controls that no row of controls named,
    at the top of the page: in a box, which the app's header does not cover."""
    text = unsaid()
    if text:
        st.info(text, icon=":material/school:")
