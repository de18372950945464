"""The classical page's parts: the controls, the run in the live view, the weight matrix.
app_pages/classical.py lays them out."""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from ui.charts import chart_numbers, charts, figures
from ui.player import dynamics_view, runs
from ui.store.shared_settings import SIDEBAR

from .settings import SETTINGS, W_SHOWN

PAGE = "classical"
RISE_REASON = {  # why the energy may rise, when the settings allow it
    "sync": "synchronous updates change every neuron at once, so the energy is not guaranteed "
            "to fall.",
    "hot": "at a temperature above zero, neurons may move against their field on purpose.",
}


@dataclass(frozen=True)
class Controls:
    """The classical page's controls in one row: the values in use (a link may hide some)."""

    mode: str            # "async" or "sync"
    temperature: float
    rule: str            # the learning rule
    max_steps: int


def controls() -> Controls:
    """The update mode, temperature, learning rule and step limit, in one row."""
    S = SETTINGS
    with st.container(key="controls_classical"):
        c = S.row(["mode", "T", "rule", "steps"])  # no room for a hidden control
        mode = S.show("mode", c["mode"], horizontal=True)
        temperature = S.show("T", c["T"])
        rule = S.show("rule", c["rule"])
        max_steps = S.show("steps", c["steps"])
    return Controls(mode, float(temperature), rule, int(max_steps))


def run_view(ps, q, mode: str, temperature: float, rule: str, max_steps: int) -> None:
    """The run of the query (cached for every session) in the live view: only asynchronous
    updates at zero temperature guarantee that the energy never rises."""
    traj = runs.run("classical", {"learning_rule": rule}, ps, q, mode=mode,
                     max_steps=max_steps, rng=int(SIDEBAR["q_seed"]),
                     temperature=temperature)
    dynamics_view.show(PAGE, traj, ps, monotone=(mode == "async" and temperature == 0),
                       rise_reason=RISE_REASON["sync" if mode == "sync" else "hot"], sync=mode == "sync")


def weights_section(ps, rule: str) -> None:
    """The weight matrix W of the stored patterns (its top-left W_SHOWN x W_SHOWN block)."""
    model = runs.model_for("classical", (("learning_rule", rule),), ps.fingerprint, ps.X)
    n = min(ps.d, W_SHOWN)
    title = f"W ({ps.d} x {ps.d}, {rule})" if n == ps.d else f"W, first {n} of {ps.d} neurons ({rule})"
    fig = figures.matrix_heatmap(model.weights_block(n), title)
    charts.plot(st, fig, key="classical_weights", toolbar={})  # Plotly's own: zoom into W
    chart_numbers.show(st, fig, "classical_weights_numbers")
    st.caption("Red: neurons that tend to agree; blue: neurons that tend to disagree. "
               "The diagonal is zero: no neuron votes for itself.")
