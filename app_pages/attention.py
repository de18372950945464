"""The attention limit: one modern Hopfield step is softmax(Q K^T / sqrt(d_k)) V.
Layout only: the pieces are in ui/pages/attention/."""
import streamlit as st

from ui.pages.attention import explain, sections
from ui.pages.attention.settings import SETTINGS
from ui.settings.modes import presenter
from ui.shell import sidebar
from ui.store import patterns, query, store


def main() -> None:
    SETTINGS.bind()
    sidebar.panels(binary=False)
    explain.intro()
    chosen = sections.controls()
    ps = patterns.from_store(binary=False)
    if ps.N == 0:
        st.info(store.store_first())
        if presenter():
            explain.lede()
        explain.explain()
        explain.try_this()
        return
    q, qkey = query.make(ps)
    s = sections.setup(chosen, ps, q, qkey)
    torch_gap = sections.weights_section(s)
    if presenter():  # under the heatmap, which has the projector's first screen
        explain.lede()
    sections.check_section(s, torch_gap)
    sections.iterate_section(s)
    explain.explain()
    explain.try_this()


main()
