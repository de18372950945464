"""The parts of the side-by-side page: its controls, the four runs on one store and one
query, and what is shown of them (the query, where each network ends, the energies, the
summary table). Layout; the figures and verdicts come from .cache, the words from .explain."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from hopfield_core import Trajectory, compare, questions
from ui.charts import chart_numbers, charts, tables
from ui.player import dynamics_view, runs
from ui.settings import gate
from ui.settings.modes import presenter
from ui.store import patterns, query
from ui.store.shared_settings import SIDEBAR

from . import cache, explain
from .settings import SETTINGS

PAGE = "side_by_side"


@dataclass(frozen=True)
class Net:
    """One column of the comparison: a finished run and how to read it."""

    name: str
    settings: str
    ps: patterns.PatternSet  # the binary or the continuous patterns it stores
    traj: Trajectory


@dataclass(frozen=True)
class Controls:
    """The values of the page's widgets."""

    mode: str
    degree: int
    exp_beta: float
    beta: float
    steps: int
    view: str


@dataclass(frozen=True)
class Comparison:
    """The four runs on the same store and query, and what names them."""

    ps: patterns.PatternSet  # the binary patterns
    pc: patterns.PatternSet  # the same images as continuous patterns
    q: np.ndarray         # (d,) the binary query
    qkey: tuple
    qc: np.ndarray        # (d,) the continuous query
    qckey: tuple
    nets: list            # four Net
    key: tuple            # every value the runs depend on (see .cache)

    @property
    def titles(self) -> list:
        return [n.name for n in self.nets]


def controls() -> Controls:
    S = SETTINGS
    with st.container(key="controls_side_by_side"):
        c = st.columns(3) + st.columns(3)  # two rows: readable on a projector
        mode = S.show("mode", c[0], horizontal=True)
        degree = S.show("degree", c[1])
        exp_beta = S.show("exp_beta", c[2], format="%.2f")
        beta = S.show("beta", c[3], format="%.1f")
        steps = S.show("steps", c[4])
        view = S.show("view", c[5], horizontal=True)
    return Controls(str(mode), int(degree), float(exp_beta), float(beta), int(steps), str(view))


def run_all(c: Controls, ps, pc) -> Comparison:
    """The four networks on the store's binary patterns `ps` (the modern one on its continuous
    patterns `pc`), each from the sidebar's query: four runs that share one run's budget."""
    q, qkey = query.make(ps)
    qc, qckey = query.make(pc)
    seed = int(SIDEBAR["q_seed"])
    binary_run = dict(mode=c.mode, max_steps=c.steps, rng=seed, share=0.3)  # four runs, one budget
    nets = [
        Net("Classical (1982)", c.mode, ps, runs.run(
            "classical", {"learning_rule": "hebbian"}, ps, q, temperature=0.0, **binary_run)),
        Net("Dense polynomial", f"{c.mode}, n = {c.degree}", ps, runs.run(
            "dense", {"interaction": "polynomial", "degree": c.degree}, ps, q,
            readable=True, **binary_run)),
        Net("Dense exponential", f"{c.mode}, β = {c.exp_beta:g}", ps, runs.run(
            "dense", {"interaction": "exponential", "beta": c.exp_beta}, ps, q,
            readable=True, **binary_run)),
        Net("Modern continuous", f"β = {c.beta:g}", pc, runs.run(
            "modern", {"beta": c.beta}, pc, qc, max_steps=c.steps, share=0.1)),
    ]
    key = (ps.fingerprint, pc.fingerprint, qkey, qckey, tuple(ps.names), c.mode, c.degree,
           c.exp_beta, c.beta, c.steps, seed)
    cmp = Comparison(ps, pc, q, qkey, qc, qckey, nets, key)
    gate.offer(PAGE, questions.RETRIEVERS.key, questions.retrievers_options(len(nets)),
               lambda: questions.retrievers(cache.verdicts(cmp), cmp.titles, query.query_source(ps), list(ps.names)))
    return cmp


def query_section(cmp: Comparison) -> None:
    st.header("The query")
    charts.plot(st, cache.query_figure(cmp), key="side_by_side_query", width=420)


def finals_section(cmp: Comparison) -> list | None:
    """Where each network ends, with its verdict beneath; returns the verdicts (None: a lesson's
    question waits for them). In presenter mode each verdict in a few words (Verdict.short: one
    or two lines in a quarter of the projector), the whole sentence in the summary's table."""
    st.header("Where each network ends")
    if gate.closed(PAGE):
        return None
    verdicts = cache.verdicts(cmp)
    charts.plot(st, cache.finals_figure(cmp), key="side_by_side_finals")
    words = presenter()
    for col, v, n in zip(st.container(key="side_by_side_verdicts").columns(len(cmp.nets)), verdicts, cmp.nets):
        with col:
            dynamics_view.VERDICT_STYLE[v.kind](v.short(n.ps.names) if words else v.sentence(n.ps.names))
    return verdicts


def energies_section(cmp: Comparison, view: str) -> None:
    if gate.hides(PAGE):  # the curves show where each run ends
        return
    normalised = view != "own scales"
    fig = cache.energies_figure(cmp, normalised)
    charts.plot(st, fig, key="side_by_side_energies")
    st.caption(explain.NORMALISED if normalised else explain.OWN_SCALES)
    chart_numbers.show(st, fig, "side_by_side_energies_numbers")


def summary_section(cmp: Comparison, verdicts: list | None) -> None:
    if verdicts is None:
        return
    target = query.query_source(cmp.ps)
    nets = cmp.nets
    st.header("Summary")
    tables.show(st, {  # fitted to the column: the answer first, the long verdict last
        "Network": cmp.titles,
        "Retrieved?": [compare.retrieval_outcome(v, target) for v in verdicts],
        "Steps": [n.traj.steps for n in nets],
        "Converged": [bool(n.traj.converged) for n in nets],
        "Final energy (as plotted)": [float(n.traj.energies[-1]) for n in nets],
        "Settings": [n.settings for n in nets],
        "Verdict": [v.sentence(n.ps.names) for v, n in zip(verdicts, nets)],
    }, key="side_by_side_table", formats={"Final energy (as plotted)": "%.4g"},
        short_labels={"Converged": "Conv.", "Final energy (as plotted)": "Final E"})
    st.caption(explain.summary_caption(target is not None))
