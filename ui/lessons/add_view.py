""""Add this view to a lesson", in the sidebar of every page with a view to take: a click adds the
page's current view as the next step of this tab's draft lesson (ui/lessons/draft.py)."""
from __future__ import annotations

import streamlit as st

from ui.settings import layer

from . import draft

_SAID = "_lesson_view_added"
NOT_TAKEN = ("home", "lessons")  # pages without a view of their own


def button(page: str, title: str) -> None:
    if page in NOT_TAKEN:
        return
    st.button("Add this view to a lesson", key="add_view_to_lesson", on_click=_add, args=(page, title),
              icon=":material/playlist_add:", width="stretch",
              help="The page as it is now (its settings, the sidebar's and the stored patterns) becomes "
                   "the next step of your draft lesson; build it on the Lessons page.")
    said = st.session_state.pop(_SAID, None)
    if said:
        st.caption(said)


def _add(page: str, title: str) -> None:
    shown = layer.page()  # the settings of the page that ran last: this one
    st.session_state[_SAID] = draft.add(page, title, shown if shown is not None and shown.page == page else None)
