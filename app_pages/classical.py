"""The classical network (Hopfield 1982): Hebbian weights, sync vs async, temperature.
Layout only: the pieces are in ui/pages/classical/."""
import streamlit as st

from ui.pages.classical import explain, sections
from ui.pages.classical.settings import SETTINGS
from ui.shell import sidebar
from ui.store import pattern_editor, patterns, store

PAGE = sections.PAGE


def main() -> None:
    S = SETTINGS.bind()
    sidebar.panels()
    explain.intro(S["mode"], S["T"], S["rule"])
    c = sections.controls()
    ps = patterns.from_store(binary=True)
    q, _ = pattern_editor.panel(PAGE, ps)  # draw a pattern, flip the query's pixels
    if ps.N == 0:
        st.info(store.store_first(drawn=True))
        explain.explain(c.mode, c.temperature, c.rule)
        explain.try_this()
        return
    sections.run_view(ps, q, c.mode, c.temperature, c.rule, c.max_steps)
    explain.explain(c.mode, c.temperature, c.rule)
    explain.try_this()
    if S.show("W"):
        sections.weights_section(ps, c.rule)


main()
