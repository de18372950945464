"""Dense associative memory (Krotov & Hopfield 2016; Demircigil et al. 2017). Layout only:
the pieces are in ui/pages/dense/."""
import streamlit as st

from ui.pages.dense import explain, sections
from ui.pages.dense.settings import SETTINGS
from ui.player import dynamics_view, runs
from ui.shell import sidebar
from ui.store import pattern_editor, patterns, store
from ui.store.shared_settings import SIDEBAR

PAGE = "dense"


def main() -> None:
    SETTINGS.bind()
    sidebar.panels()
    explain.intro()
    c = sections.controls()

    ps = patterns.from_store(binary=True)
    q, _ = pattern_editor.panel(PAGE, ps)  # draw a pattern, flip the query's pixels
    if ps.N == 0:
        st.info(store.store_first(drawn=True))
        explain.explain()
        explain.try_this()
        return
    seed = int(SIDEBAR["q_seed"])
    cfg, mode, steps = c.cfg, c.mode, c.steps
    traj = runs.run("dense", cfg, ps, q, share=0.5, mode=mode, max_steps=steps, rng=seed,
                     readable=True)
    dynamics_view.show(PAGE, traj, ps, monotone=(mode == "async"), rise_reason=sections.RISE_REASON,
                       energy_label=sections.ENERGY_LABEL[cfg["interaction"]], sync=mode == "sync",
                       finding=sections.finding(ps, q, mode, steps, seed))
    explain.explain()
    explain.try_this()

    # one section at a time: only the chosen one runs
    view = SETTINGS.show("view", label_visibility="collapsed", width="stretch")
    with st.container():
        if view == "compare":
            sections.comparison(ps, q, traj, cfg, mode, steps, seed)
        else:
            sections.capacity_context(ps, cfg, sections.model_label(**cfg))


main()
