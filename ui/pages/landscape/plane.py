"""(b) A plane through image space: the energy on the PCA plane of the stored patterns or on
the plane through three of them, with the query's trajectory projected onto it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from hopfield_core import landscape as core
from ui.charts import charts, figures, pictures
from ui.player import runs
from ui.serving import shared_cache
from ui.settings import gate
from ui.store import query

from . import cache, explain
from . import figures as figs
from .settings import SETTINGS


@dataclass(frozen=True)
class Controls:
    """The plane's controls: the values in use (a link may hide some)."""

    mode: str                # how the plane is chosen
    chosen: tuple[int, ...]  # the three patterns it passes through ("three"), else ()
    beta: float
    max_steps: int


def controls(ps) -> Controls:
    with st.container(key="controls_landscape_plane"):
        c1, c2, c3 = st.columns([2, 3, 2], gap="large")
        mode = SETTINGS.show("plane", c1)
        with c2:
            labels = [f"{i + 1}. {n}" for i, n in enumerate(ps.names)]
            cols = st.columns(3)
            chosen = tuple(SETTINGS.show(f"p{k}", col, options=range(ps.N),
                                         format_func=labels.__getitem__, disabled=mode != "three")
                           for k, col in zip((1, 2, 3), cols))
        with c3:
            beta = float(SETTINGS.show("pbeta"))
            max_steps = int(SETTINGS.show("psteps"))
    return Controls(mode, chosen if mode == "three" else (), beta, max_steps)


def show(ps) -> None:
    if ps.N < 3:
        st.info("A plane needs at least 3 stored patterns: add some in the sidebar.")
        explain.plane_view()
        return
    c = controls(ps)
    mode, chosen, beta, max_steps = c.mode, c.chosen, c.beta, c.max_steps
    try:
        plane = cache.plane_for(ps.fingerprint, mode, chosen, ps.X)
    except ValueError as e:
        st.error(str(e))
        explain.plane_view()
        return
    note = cache.plane_note(ps.d, ps.N, ps.X.dtype.itemsize)
    if note:
        st.warning(note, icon=":material/memory:")
        explain.plane_view()
        return
    q, qkey = query.make(ps)
    traj = runs.run("modern", {"beta": beta}, ps, q, max_steps=max_steps)
    held = gate.hides("landscape")  # presenter mode, a question: the query alone until the reveal
    pc, tc_all = plane.project(ps.X), plane.project(traj.states)
    tc = tc_all[:1] if held else tc_all
    off = plane.distance(traj.states)
    extent = core.box_extent(np.vstack([pc, tc_all]), margin=0.2)  # the same frame before and after
    extent = tuple(tuple(round(v, 6) for v in pair) for pair in extent)
    us, vs, E = cache.plane_grid(ps.fingerprint, mode, chosen, beta, extent, ps.X, plane)
    hover = [f"step {t}: its own E = {e:.5g}, {o:.3f} off the plane"
             for t, (e, o) in enumerate(zip(traj.energies[:len(tc)], off))]
    axes = (("u: 1st principal direction", "v: 2nd principal direction") if mode == "pca" else
            (f"u: from {ps.names[chosen[0]]} towards {ps.names[chosen[1]]}", "v"))
    title = f"E on the {'PCA plane' if mode == 'pca' else 'plane of three patterns'}, β = {beta:g}"
    left, right = st.container(key="landscape_plane_wide_row").columns([3, 2], gap="large")  # stacks when narrow
    key = ("landscape", "plane", ps.fingerprint, tuple(ps.names), mode, chosen, beta, qkey, max_steps, held)
    charts.plot(left, shared_cache.shared(key, lambda: figs.plane(us, vs, E, pc, ps.names, tc, hover,
                                                           title, axes)),
                      key="landscape_plane_chart")
    with right:
        m1, m2 = st.columns(2)
        m1.metric("Query off the plane", f"{off[0]:.3f}")
        if not gate.closed("landscape"):  # where it ends, its steps and its energy wait for the reveal
            _outcome(plane, mode, traj, off, key, m2)
    _origin_and_axes(plane, mode, ps)
    explain.plane_view()


def _outcome(plane, mode: str, traj, off, key: tuple, m2) -> None:
    """Where the run ended on and off the plane (m2: the metric's place beside the query's), its
    steps, its own energy per step."""
    m2.metric("End off the plane", f"{off[-1]:.3f}")
    m3, m4 = st.columns(2)
    m3.metric("Steps taken", traj.steps)
    if mode == "pca":
        m4.metric("Variance the plane holds", f"{100 * sum(plane.explained):.0f} %")
    st.caption("The colours are the energy *on the plane*. A state off the plane has its own "
               "energy (in the hover), usually higher than the colour under its dot. Stored "
               "patterns on the plane sit in their valleys; the PCA plane of more than three "
               "patterns passes only near them.")
    charts.plot(st, shared_cache.shared(key + ("energy",), lambda: figures.energy_curve(
                        traj.energies, traj.steps, title="Own energy per step", height=260)),
                key="landscape_plane_energy")


def _origin_and_axes(plane, mode: str, ps) -> None:
    with st.expander("What the plane's origin and axes look like"):
        st.caption("Grey is 0; the directions are shown with their own contrast (white: +, black: -).")
        cols = st.columns(3)
        pics = [(plane.origin, "origin: " + ("the mean pattern" if mode == "pca" else "mean of the three")),
                (plane.basis[0], "direction u"), (plane.basis[1], "direction v")]
        for col, (vec, cap) in zip(cols, pics):
            lim = float(np.max(np.abs(vec))) or 1.0
            col.image(pictures.picture_png(vec, ps.shape, -lim, lim, width=160), caption=cap, width=160,
                      output_format="PNG")
