"""A page's heading: its title, and under it the lede (a sentence or two on what the page
shows). In presenter mode the title only: the page shows the lede under its live figure
(`lede`), so that the figure and the player fit a 1024 x 768 projector's first screen."""
from __future__ import annotations

import streamlit as st

from ui.settings.modes import presenter


def title(text: str, lede_text: str | None = None, markdown: bool = False) -> None:
    """The page's h1 and, out of presenter mode, its lede (as a caption, or as markdown)."""
    st.title(text)
    if lede_text is not None and not presenter():
        lede(lede_text, markdown)


def lede(text: str, markdown: bool = False) -> None:
    """The lede on its own: where presenter mode puts it, under the live figure."""
    if markdown:
        st.markdown(text)
    else:
        st.caption(text)
