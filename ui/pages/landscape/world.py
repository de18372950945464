"""(a) The 2-D world: 2 to 6 patterns in the plane, the exact energy as a contour, the
query's path; a click on the chart moves the query."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from hopfield_core import analysis, questions
from hopfield_core import landscape as core
from ui.charts import charts, figures
from ui.serving import shared_cache
from ui.serving.text import escaped
from ui.settings import gate
from ui.settings.modes import presenter

from . import cache, explain
from . import figures as figs
from .settings import QUERY_LIMIT, SETTINGS

CLICK_GRID = 25
PRESENTER_HEIGHT = 426  # px before ui.charts.charts' presenter copy (x 1.2): the map under presenter
# mode's header, title and section switcher on a 768 px projector screen, its square plot 40 % of
# the screen's 1024 px (the back row reads the step numbers)


def point_text(p) -> str:
    """(x, y) to 2 decimals, without the "-0.00" of tiny negative numbers."""
    return "(" + ", ".join(f"{v:.2f}".replace("-0.00", "0.00") for v in p) + ")"


def initial_points() -> pd.DataFrame:
    """The editor's starting table, fixed for the session: the link's `pts`, else a triangle.
    (The editor stores edits relative to this table, so it must never change under it.)"""
    if "_ls_points_initial" not in st.session_state:
        st.session_state._ls_points_initial = pd.DataFrame(
            list(SETTINGS["pts"]), columns=["x", "y"], dtype=float)
    return st.session_state._ls_points_initial


def apply_click() -> None:
    """A point picked on the chart (last run) becomes the query, once per new pick."""
    event = st.session_state.get("landscape_world_chart")
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError):
        return
    if not points:
        return
    picked = (float(points[0]["x"]), float(points[0]["y"]))
    if picked == st.session_state.get("_ls_click_applied"):
        return  # this pick was applied already; the number inputs may have moved on since
    st.session_state._ls_click_applied = picked
    for key, v in zip(("qx", "qy"), picked):
        SETTINGS.assign(key, round(float(np.clip(v, -QUERY_LIMIT, QUERY_LIMIT)), 3))


@dataclass(frozen=True)
class Controls:
    """The 2-D world's controls: the values in use (a link may hide some)."""

    table: pd.DataFrame   # the stored patterns as the table holds them (x, y)
    qx: float
    qy: float
    beta: float
    max_steps: int


def controls() -> Controls:
    with st.container(key="controls_landscape_world_wide_row"):  # stacks when narrow
        c1, c2 = st.columns([2, 3], gap="large")
        with c1:
            table = st.data_editor(
                initial_points(), key="landscape_points", num_rows="dynamic", width="stretch",
                column_config={c: st.column_config.NumberColumn(c, min_value=-5.0, max_value=5.0,
                                                                step=0.001, format="%.3f")
                               for c in ("x", "y")})
            st.caption("Stored patterns $x_1, x_2, \\dots$: edit, add or delete rows (2 to 6).")
        with c2:
            q1, q2 = st.columns(2)
            qx = SETTINGS.show("qx", q1, format="%.3f")
            qy = SETTINGS.show("qy", q2, format="%.3f")
            b1, b2 = st.columns([3, 2])  # one row: the figure below starts higher when stacked
            beta = SETTINGS.show("beta", b1)
            max_steps = SETTINGS.show("steps", b2)
    return Controls(table, float(qx), float(qy), float(beta), int(max_steps))


def show() -> None:
    apply_click()
    c = controls()
    table, qx, qy, beta, max_steps = c.table, c.qx, c.qy, c.beta, c.max_steps
    rows = table[["x", "y"]].astype(object).values.tolist() if set(table.columns) >= {"x", "y"} else []
    try:
        P = core.parse_points(rows)
    except ValueError as e:
        st.error(escaped(e), icon=":material/edit_note:")  # it may repeat a typed cell
        return
    points = tuple(map(tuple, P.tolist()))
    SETTINGS.assign("pts", points)
    us, vs, E, traj = cache.world(points, beta, (qx, qy), max_steps)
    names = [f"x{i + 1}" for i in range(len(P))]
    gate.offer("landscape", questions.DESTINATION.key, questions.destination_options(names, False, False),
               lambda: questions.destination(traj, P, names, binary=False))
    gate.offer("landscape", questions.FIXED_POINT.key, questions.fixed_point_options(),
               lambda: questions.fixed_point(traj, names))
    held = gate.hides("landscape")  # a question waits, or presenter mode: the query alone, not its path
    path = traj.states[:1] if held else traj.states
    click = core.grid_axis(us[0], us[-1], CLICK_GRID)
    # on a narrow screen the columns stack, the map above (ui/shell/responsive_css.py: _wide_row)
    title, compact = f"E(ξ) at β = {beta:g}", presenter()
    left, right = st.container(key="landscape_world_wide_row").columns([2, 1] if compact else [3, 2],
                                                               gap="large")
    key = ("landscape", "world", points, beta, qx, qy, max_steps, held)
    if compact:  # the map's title and key beside it: the map keeps the height of a 768 px projector
        right.markdown(f"**{title}**")
        right.caption(figs.KEY)
    with left:
        fig = shared_cache.shared(key + (compact,), lambda: figs.world(
            us, vs, E, P, path, click, title,
            height=PRESENTER_HEIGHT if compact else 560, compact=compact))
        charts.plot(st, fig, key="landscape_world_chart", on_select="rerun", selection_mode="points")
        st.caption("Click any faint square (or a star, or a step) to move the query there. "
                   "Orange: the query (step 0); the numbers count the update steps.")
    with right:
        if gate.closed("landscape"):  # the query's energy alone; the explanation below, full width
            st.metric("Energy of the query", f"{traj.energies[0]:.6g}")
        else:
            _outcome(traj, P, names, compact, key)
    explain.world_view()


def _outcome(traj, P, names, compact: bool, key: tuple) -> None:
    """Where the query ended: its energies, steps, end point, the verdict and the energy curve."""
    v = analysis.verdict(traj, P, binary=False)
    if compact:  # presenter mode: the verdict first, on the projector's first screen
        st.info(v.sentence(names))
    # in presenter mode's narrow column, one metric a row
    m1, m2 = (st.container(), st.container()) if compact else st.columns(2)
    m1.metric("Energy of the query", f"{traj.energies[0]:.6g}")
    m2.metric("Energy at the end", f"{traj.energies[-1]:.6g}")
    m3, m4 = (st.container(), st.container()) if compact else st.columns(2)
    m3.metric("Steps taken", traj.steps)
    m4.metric("Ends at", point_text(traj.final))
    if not compact:
        st.info(v.sentence(names))
    charts.plot(st, shared_cache.shared(key + ("energy",), lambda: figures.energy_curve(
                        traj.energies, traj.steps, title="Energy at each step", height=280)),
                    key="landscape_world_energy")
