"""Page layout shared by the pages: the explanation (prose, then the formulas flowing side by
side where they fit and wrapping where they do not, so none is cut on a projector)."""
from __future__ import annotations

import streamlit as st


def explain(key: str, heading: str | None = "How it works"):
    """(prose, formulas): two containers, one below the other, for a page's explanation; put
    it below the live figure. st.latex calls in `formulas` flow side by side."""
    if heading:
        st.header(heading)
    prose = st.container()
    formulas = st.container(horizontal=True, wrap=True, gap="large", key=f"formulas_{key}")
    return prose, formulas


def note(key: str, prose: str, formulas: list[str], heading: str = "What this view shows") -> None:
    """A section's explanation in one call: a heading, the prose, the formulas flowing."""
    text, eq = explain(key, heading)
    text.markdown(prose)
    for formula in formulas:
        eq.latex(formula)
