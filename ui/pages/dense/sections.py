"""The parts of the dense page: controls, the comparison with the classical network, the
capacity counts (its prose is in .explain). Layout helpers; the numbers come from
hopfield_core."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from hopfield_core import analysis, capacity
from ui.charts import chart_numbers, charts, describe, pictures
from ui.player import dynamics_view, runs
from ui.serving import budget
from ui.settings import gate

from . import cache as dense_cache
from .explain import ALPHA
from .settings import MAX_DEGREE, SETTINGS

RISE_REASON = ("synchronous updates set every neuron from the same old state. Each flip would "
               "lower the energy on its own, but flipped together they can raise it, and the "
               "state can even blink between two images (a 2-cycle). Choose async for a "
               "guaranteed descent.")
# the pages plot DenseAssociativeMemory.readable_energy: an increasing function of E that stays
# readable at every d and degree (E itself reaches -1e24 at n = 10 and underflows to -0.0 for
# the exponential away from the patterns)
ENERGY_LABEL = {"polynomial": "Energy E / dⁿ", "exponential": "Log-domain energy"}
CLASSICAL_LABEL = f"Classical capacity {ALPHA} d"


@dataclass(frozen=True)
class Controls:
    """The dense page's controls: the values in use (a link may hide some)."""

    interaction: str     # "polynomial" or "exponential"
    degree: int
    rectified: bool
    beta: float
    mode: str            # "async" or "sync"
    steps: int

    @property
    def cfg(self) -> dict:
        """The network's settings, as runs.run takes them."""
        return {"interaction": self.interaction, "degree": self.degree, "beta": self.beta,
                "rectified": self.rectified}


def controls() -> Controls:
    """The model's controls; returns the values in use (a link may hide some controls)."""
    S = SETTINGS
    with st.container(key="controls_dense"):
        c1, c2, c3 = st.columns([2, 3, 3])
        poly = S.show("interaction", c1) == "polynomial"
        S.show("rect", c1, disabled=not poly)
        S.show("n", c2, disabled=not poly)
        S.show("beta", c3, disabled=poly)
        st.caption("n = 2 **is** the classical network; each step up from n multiplies the "
                   "capacity by about d / (2n - 1)." if poly else "The degree plays no part in the exponential.")
        # on a phone the update mode beside the step limit (ui/shell/responsive_css.py: _pair_first)
        c5, c6, c7 = st.container(key="dense_update_pair_first").columns([2, 2, 5])
        S.show("mode", c5, horizontal=True)
        S.show("steps", c6)
        c7.caption("Async: a sweep visits every neuron once in a random order (the query's "
                   "seed), each seeing the updated others. Sync: all neurons decide from the "
                   "same old state.")
    return Controls(S["interaction"], int(S["n"]), bool(S["rect"]), float(S["beta"]), S["mode"],
                    int(S["steps"]))


def model_label(interaction: str, degree: int, beta: float, rectified: bool) -> str:
    if interaction == "exponential":
        return f"exponential, beta = {beta:g}"
    return f"n = {degree}" + (", rectified" if rectified else "")


def classical_run(ps, q, mode, steps, seed) -> tuple:
    """The classical network (Hebbian, T = 0) on the same query, update mode, step limit and
    random order as the dense run: (its trajectory, its verdict)."""
    cl_kwargs = dict(mode=mode, max_steps=steps, rng=seed, temperature=0.0)
    cl_cfg = {"learning_rule": "hebbian"}
    cl_traj = runs.run("classical", cl_cfg, ps, q, share=0.5, **cl_kwargs)
    return cl_traj, dense_cache.final_verdict(runs.run_key("classical", cl_cfg, ps, q, cl_kwargs),
                                              cl_traj, ps.X)


def finding(ps, q, mode, steps, seed) -> str:
    """The page's point beside the dense run's verdict: what the classical network does with the
    same query (the player says it when the run reaches its end)."""
    _, verdict = classical_run(ps, q, mode, steps, seed)
    return f"The classical network (1982), same query: {verdict.sentence(ps.names)}"


def comparison(ps, q, dense_traj, cfg, mode, steps, seed) -> None:
    st.header("The same query, classical vs dense")
    if gate.closed("dense"):  # a lesson's question waits: the verdicts would answer it
        return
    cl_traj, cl_verdict = classical_run(ps, q, mode, steps, seed)
    dn_kwargs = dict(mode=mode, max_steps=steps, rng=seed)
    dn_verdict = dense_cache.final_verdict(runs.run_key("dense", cfg, ps, q, dn_kwargs),
                                           dense_traj, ps.X)
    label = model_label(**cfg)

    c1, c2, c3 = st.columns(3)
    panels = [(c1, "The query", q, None, None),
              (c2, "Classical network (1982)", cl_traj.final, cl_verdict, cl_traj),
              (c3, f"Dense memory ({label})", dense_traj.final, dn_verdict, dense_traj)]
    for col, title, x, verdict, traj in panels:
        col.markdown(f"**{title}**")
        alt = describe.picture_alt("The query" if traj is None else f"Final state, {title}",
                                   analysis.overlaps(x, ps.X), ps.names, True, ps.shape)
        col.image(pictures.picture_png(x, ps.shape, width=220), width=220, output_format="PNG",
                  alt=alt)
        if verdict is None:
            col.caption(f"{ps.d} neurons; the same query goes into both networks, with the same "
                        f"update mode ({mode}), step limit and random order.")
        else:
            who = "Classical" if traj is cl_traj else "Dense"
            with col:
                dynamics_view.VERDICT_STYLE[verdict.kind](f"{who}: {verdict.sentence(ps.names)}")
            label = "Energy E" if traj is cl_traj else ENERGY_LABEL[cfg["interaction"]]
            what = label[0].lower() + label[1:]
            col.caption(f"after {traj.steps} step{'s' if traj.steps != 1 else ''}, "
                        f"final {what} {traj.energies[-1]:.6g}")
    differ = int(np.count_nonzero(cl_traj.final != dense_traj.final))
    st.markdown(f"The two final states differ in **{differ} of {ps.d}** neurons.")
    if cfg["interaction"] == "polynomial" and cfg["degree"] == 2 and not cfg["rectified"]:
        st.info("Degree 2 is the classical network: $E_{\\text{dense}} = 2d\\,E_{\\text{classical}}"
                " - N d$, a positive rescaling plus a constant, so every update and every final "
                "state is the same.")


def capacity_context(ps, cfg, label) -> None:
    d, N = ps.d, ps.N
    classical_cap = capacity.classical_capacity(d)
    if cfg["interaction"] == "exponential":
        cap_label = "Exponential capacity 2^(d/2)"
        dense_cap = capacity.format_log10(capacity.log10_exponential_capacity(d))
        dense_help = ("Demircigil et al.'s bound for random patterns with F(z) = e^z, which is "
                      "beta = 1 here. A gentler beta (below 1) holds fewer patterns: compare the "
                      "count of fixed points below.")
    else:
        cap_label = f"Capacity of degree {cfg['degree']} (no errors)"
        dense_cap = capacity.format_log10(capacity.log10_polynomial_capacity(d, cfg["degree"]))
        dense_help = ("d^(n-1) / (2 (2n-3)!! ln d): Krotov & Hopfield's estimate for random "
                      "patterns recalled without a single wrong bit (n = 2 gives McEliece's "
                      f"d / (2 ln d), stricter than {ALPHA} d, which allows a few wrong bits).")
    m1, m2, m3 = st.columns(3)
    m1.metric("Stored patterns N", N)
    m2.metric(CLASSICAL_LABEL, f"{classical_cap:.1f}",
              help=f"{ALPHA} d random patterns (Amit, Gutfreund & Sompolinsky), a few bits wrong.")
    m3.metric(cap_label, dense_cap, help=dense_help)
    if N > classical_cap:
        st.markdown(f"$N = {N} > {ALPHA}\\,d \\approx {classical_cap:.1f}$: more patterns than the "
                    "classical network can hold even if they were random.")
    else:
        st.markdown(f"$N = {N} \\le {ALPHA}\\,d \\approx {classical_cap:.1f}$, yet letters and "
                    "photos are far from random: they share most of their pixels, and "
                    "correlated patterns fill the classical network much sooner. The count "
                    "below is the honest test.")

    configs = [(("degree", n), ("interaction", "polynomial")) for n in range(2, MAX_DEGREE + 1)]
    labels = ["classical (n = 2)"] + [f"n = {n}" for n in range(3, MAX_DEGREE + 1)]
    configs.append((("beta", cfg["beta"]), ("interaction", "exponential")))
    labels.append(f"exp, beta = {cfg['beta']:g}")
    current = None
    if cfg["interaction"] == "exponential":
        current = labels[-1]
    elif not cfg["rectified"]:
        current = labels[cfg["degree"] - 2]
    references = (("classical (n = 2)", (("degree", 2),)), ("n = 3", (("degree", 3),)),
                  ("n = 10", (("degree", 10),)),
                  ("exponential, beta = 1", (("beta", 1.0), ("interaction", "exponential"))))
    g1, g2 = st.columns(2)
    cost = len(configs) * ps.N * budget.step_seconds("dense", "sync", d, ps.N)
    figs = []
    if budget.fits(cost):
        figs.append(dense_cache.stable_figure(ps.fingerprint, tuple(configs), tuple(labels),
                                              current, ps.X))
        charts.plot(g1, figs[-1], key="dense_stable")
    else:
        g1.info(f"The count of stable patterns at every degree is left out at d = {d} with "
                f"{ps.N} patterns: it would hold the class's shared server for about "
                f"{cost:.0f} s. A smaller image size in the sidebar brings it back.")
    figs.append(dense_cache.shape_figure(d, references, tuple(sorted(cfg.items())), label))
    charts.plot(g2, figs[-1], key="dense_shape")
    g1.caption("Each stored pattern used as the query, uncorrupted: is it left unchanged? A "
               "pattern that is not a fixed point is lost even without noise. Store all 26 "
               "letters at 16 px to see the classical network keep none of them.")
    g2.caption("A random unrelated pattern overlaps the state by about sqrt(d). The sharper F, "
               "the less such crosstalk counts against the one pattern that nearly matches.")
    chart_numbers.show(st, figs, "dense_capacity_numbers")


