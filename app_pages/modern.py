"""The modern continuous network (Ramsauer et al. 2020): beta, step size, metastable states.
Layout only: the pieces are in ui/modern/."""
import streamlit as st

from ui import dynamics_view, patterns, query, runs, sidebar, store
from ui.modern import explain, sections
from ui.modern.settings import SETTINGS, TOL

PAGE = "modern"


def main() -> None:
    SETTINGS.bind()
    sidebar.panels(binary=False)
    explain.intro()
    beta, gamma, max_steps = sections.controls()

    ps = patterns.from_store(binary=False)
    if ps.N == 0:
        st.info(store.store_first())
        explain.explanation()
        explain.try_this()
        return
    q, qkey = query.make(ps)
    traj = runs.run("modern", {"beta": beta}, ps, q, max_steps=max_steps, tol=TOL,
                     gamma=gamma)
    dynamics_view.show(PAGE, traj, ps, monotone=True)
    sections.run_summary(traj, ps, (ps.fingerprint, qkey, beta, gamma, max_steps, TOL))
    explain.explanation()
    explain.try_this()

    # one section at a time: only the chosen one runs
    view = SETTINGS.show("view", label_visibility="collapsed", width="stretch")
    with st.container():
        if view == "sweep":
            sections.sweep_section(ps, q, qkey, beta, gamma, max_steps, sections.beta_for_all(ps, beta))
        elif view == "bound":
            sections.bound_section(ps, q, beta)
        else:
            sections.step_size_section(ps, q, qkey, beta, gamma)


main()
