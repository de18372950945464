"""Side by side: every Hopfield variant on the same stored patterns and the same corrupted query.
Layout only: the pieces are in ui/pages/side_by_side/."""
import streamlit as st

from ui.pages.side_by_side import explain, sections
from ui.pages.side_by_side.settings import SETTINGS
from ui.settings.modes import presenter
from ui.shell import sidebar
from ui.store import patterns, store


def main() -> None:
    SETTINGS.bind()
    sidebar.panels()
    explain.intro()
    chosen = sections.controls()
    ps = patterns.from_store(binary=True)
    if ps.N == 0:
        st.info(store.store_first())
        if presenter():
            explain.lede()
        explain.explain()
        explain.try_this()
        return
    comparison = sections.run_all(chosen, ps, patterns.from_store(binary=False))
    if presenter():  # the finals on the projector's first screen, then the lede and the query
        verdicts = sections.finals_section(comparison)
        explain.lede()
        sections.query_section(comparison)
    else:
        sections.query_section(comparison)
        verdicts = sections.finals_section(comparison)
    sections.energies_section(comparison, chosen.view)
    sections.summary_section(comparison, verdicts)
    explain.explain()
    explain.try_this()


main()
