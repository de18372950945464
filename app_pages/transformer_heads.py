"""Inside a trained Transformer: its attention heads as modern Hopfield networks, and the three
kinds of fixed points (Ramsauer et al. 2020). Layout only: the pieces are in
ui/pages/transformer_heads/."""
import streamlit as st

from ui.pages.transformer_heads import cache, explain, head, sections
from ui.pages.transformer_heads.settings import SETTINGS


def main() -> None:
    SETTINGS.bind()
    explain.intro()
    model, why = sections.model_choice()
    if why:
        st.warning(why)
    source, heads = sections.top_places()
    with source:
        inp = sections.minilm_input() if model == "minilm" else sections.vit_input()
    if inp is not None:
        with heads:
            sections.head_map_section(inp)
        explain.lede_below()
        view = SETTINGS.show("view", label_visibility="collapsed", width="stretch")
        if view == "head":
            head.section(inp, inp.key)
        else:
            sections.model_section(inp)
    explain.paper_and_here(*cache.shapes(), cache.tables())

main()
