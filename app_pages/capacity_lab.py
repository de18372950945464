"""The capacity lab: measure how many patterns each network holds, how wide its basins are,
and where the classical network's memory melts. Layout only: the parts are in ui/pages/capacity_lab/."""
import streamlit as st

from ui.pages.capacity_lab import explain, sections
from ui.pages.capacity_lab.settings import SETTINGS
from ui.settings.modes import presenter


def main() -> None:
    S = SETTINGS.bind()
    explain.intro()
    view = S.show("view", label_visibility="collapsed", width="stretch")
    if view == "phase":
        sections.phase_section()
    else:
        c = sections.curve_controls(view)
        if view == "basins":
            sections.basins_section(c)
        else:
            sections.curves_section(c)
    if presenter():  # under the charts, which have the projector's first screen
        explain.lede()
    with st.expander("Seed"):
        S.show("seed")
    explain.explain(view)
    explain.try_this()


main()
