"""The modern continuous network (Ramsauer et al. 2020): beta, step size, metastable states.
Layout only: the pieces are in ui/pages/modern/."""
import streamlit as st

from ui.pages.modern import explain, sections
from ui.pages.modern.settings import SETTINGS, TOL
from ui.player import dynamics_view, runs
from ui.shell import sidebar
from ui.store import patterns, query, store

PAGE = "modern"


def main() -> None:
    SETTINGS.bind()
    sidebar.panels(binary=False)
    explain.intro()
    c = sections.controls()

    ps = patterns.from_store(binary=False)
    if ps.N == 0:
        st.info(store.store_first())
        explain.explanation()
        explain.try_this()
        return
    q, qkey = query.make(ps)
    traj = runs.run("modern", {"beta": c.beta}, ps, q, max_steps=c.max_steps, tol=TOL,
                     gamma=c.gamma)
    dynamics_view.show(PAGE, traj, ps, monotone=True, finding=sections.finding(traj, ps))
    sections.run_summary(traj, ps, (ps.fingerprint, qkey, c.beta, c.gamma, c.max_steps, TOL))
    explain.explanation()
    explain.try_this()

    # one section at a time: only the chosen one runs
    view = SETTINGS.show("view", label_visibility="collapsed", width="stretch")
    with st.container():
        if view == "sweep":
            sections.sweep_section(ps, q, qkey, c.beta, c.gamma, c.max_steps,
                                   sections.beta_for_all(ps, c.beta))
        elif view == "bound":
            sections.bound_section(ps, q, c.beta)
        else:
            sections.step_size_section(ps, q, qkey, c.beta, c.gamma)


main()
