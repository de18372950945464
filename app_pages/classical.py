"""The classical network (Hopfield 1982): Hebbian weights, sync vs async, temperature.
Layout only: the pieces are in ui/classical/."""
import streamlit as st

from ui import pattern_editor, patterns, sidebar, store
from ui.classical import explain, sections
from ui.classical.settings import SETTINGS

PAGE = sections.PAGE


def main() -> None:
    S = SETTINGS.bind()
    sidebar.panels()
    explain.intro(S["mode"], S["T"], S["rule"])
    mode, temperature, rule, max_steps = sections.controls()
    ps = patterns.from_store(binary=True)
    q, _ = pattern_editor.panel(PAGE, ps)  # draw a pattern, flip the query's pixels
    if ps.N == 0:
        st.info(store.store_first(drawn=True))
        explain.explain(mode, temperature, rule)
        explain.try_this()
        return
    sections.run_view(ps, q, mode, temperature, rule, max_steps)
    explain.explain(mode, temperature, rule)
    explain.try_this()
    if S.show("W"):
        sections.weights_section(ps, rule)


main()
