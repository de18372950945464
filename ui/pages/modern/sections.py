"""The parts of the modern-network page: controls, the run's summary, the beta sweep, the
separation bound, the step sizes (its prose is in .explain). Layout helpers; the numbers come from
hopfield_core (via .cache)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import streamlit as st

from hopfield_core import fixed_point_kind, images, k90
from hopfield_core.bound import retrieval_radius
from hopfield_core.metastable import kind_ranges, nearest_pattern, representative_betas
from ui.charts import chart_numbers, charts, figures
from ui.player import runs
from ui.serving import budget, shared_cache
from ui.settings import gate

from . import cache as modern_cache
from . import explain
from . import figures as figures_modern
from .settings import BETAS, COMPARE_GAMMAS, COMPARE_STEPS, SETTINGS, TOL, fmt_beta


@dataclass(frozen=True)
class Controls:
    """The modern page's controls: the values in use (a link may hide some)."""

    beta: float
    gamma: float     # the step size
    max_steps: int


def controls() -> Controls:
    S = SETTINGS
    with st.container(key="controls_modern"):
        c1, c2, c3 = st.columns([3, 2, 1])
        beta = S.show("beta", c1)
        gamma = S.show("gamma", c2)
        max_steps = S.show("steps", c3)
        st.caption(f"beta = {fmt_beta(beta)}, gamma = {gamma:g}, at most {int(max_steps)} steps. "
                   "The sweep below runs with the same gamma and step limit.")
    return Controls(float(beta), float(gamma), int(max_steps))


def finding(traj, ps) -> str:
    """The page's point beside the run's verdict: the kind of fixed point the run reached (the
    player says it when the run reaches its end)."""
    p_end = traj.weights[-1]
    k = k90(p_end)
    text = (f"Fixed point: {fixed_point_kind(p_end)}, k90 = {k} of {ps.N} "
            f"pattern{'s' if ps.N != 1 else ''} (the fewest holding 90 % of the softmax weight).")
    if not traj.converged:
        text += f" The step limit ({traj.steps}) stopped it before it settled."
    return text


def run_summary(traj, ps, run_key: tuple) -> None:
    if gate.closed("modern"):  # a lesson's question waits: k90 and the kind would answer it
        return
    p_end = traj.weights[-1]
    k, kind = k90(p_end), fixed_point_kind(p_end)
    c1, c2, c3 = st.columns(3)
    c1.metric("k90", k, help="The fewest patterns whose softmax weights add up to 90 %, "
                             "at the last state of the run.")
    c2.metric("Fixed point", kind, help="single: k90 = 1; global: k90 covers (nearly) all "
                                        f"N = {ps.N} patterns; metastable: in between.")
    c3.metric("Steps taken", traj.steps, help="until no coordinate moved more than "
                                              f"{TOL:g}, or the step limit")
    if not traj.converged:
        st.warning(f"The run stopped at the step limit ({traj.steps} steps) before settling: "
                   "k90 and the kind describe where it stopped. Raise the step limit or gamma.")
    bars, heat = st.columns([2, 3])
    names = tuple(ps.names)
    title = f"Softmax weights, step {traj.steps}"
    figs = [_plot(bars, "modern_weights_final", run_key + names,
                  lambda: figures.weight_bars(p_end, ps.names, title=title)),
            _plot(heat, "modern_weights_steps", run_key + names,
                  lambda: figures_modern.weights_heatmap(traj.weights, ps.names))]
    chart_numbers.show(st, figs, "modern_weights_numbers")


def _plot(where, widget_key: str, key: tuple, build):
    """Draw a figure that is built once per (widget_key, key): see ui.serving.shared_cache.shared.
    Returns the figure (for its numbers: ui.charts.chart_numbers)."""
    fig = shared_cache.shared(("modern", widget_key, key), build)
    charts.plot(where, fig, key=widget_key)
    return fig


def _image_of(x, ps):
    lo, hi = float(ps.X.min()), float(ps.X.max())
    if not hi > lo:
        lo, hi = -1.0, 1.0
    return images.to_image(x, ps.shape, lo, hi)


def sweep_section(ps, q, qkey, beta, gamma, max_steps, need_all) -> None:
    st.header("Sweeping beta: single, metastable, global")
    if gate.closed("modern"):
        return
    intro = st.empty()  # the caption describes the markers the sweep draws: written below
    sweep_steps = budget.sweep_steps(ps.d, ps.N, len(BETAS), max_steps)
    if sweep_steps < max_steps:
        st.caption(f"Each run of the sweep stops after at most {sweep_steps} steps (not "
                   f"{max_steps}): {len(BETAS)} runs at d = {ps.d} share one run's budget of the "
                   "class's server.")
    max_steps = sweep_steps
    sw = modern_cache.sweep(ps.fingerprint, qkey, tuple(BETAS), max_steps, TOL, gamma, ps.X, q)
    sweep_key = (ps.fingerprint, qkey, max_steps, TOL, gamma)
    intro.markdown(figures_modern.sweep_caption(sw.converged))
    chart = st.container()
    ranges = kind_ranges(sw.betas, sw.kinds)
    parts = [f"**{kind}** at beta = {fmt_beta(lo)}" if lo == hi else
             f"**{kind}** from beta = {fmt_beta(lo)} to {fmt_beta(hi)}"
             for kind, lo, hi in ranges]
    st.markdown("For this query: " + "; ".join(parts) + ".")
    if not sw.converged.all():
        st.warning(f"{int((~sw.converged).sum())} of {len(sw.betas)} runs of the sweep hit the "
                   "step limit before settling (hollow dots): raise the step limit or gamma.")
    st.markdown("**The fixed point at three betas** (pick them with the sliders):")
    defaults = representative_betas(sw.betas, sw.kinds)
    cols = st.columns(3)
    chosen = []
    for col, label, key, default in zip(cols, ("small", "medium", "large"),
                                        ("modern_b_small", "modern_b_medium", "modern_b_large"), defaults):
        b = col.select_slider(f"{label} beta", options=BETAS, value=default, key=key,
                              format_func=fmt_beta)
        i = sw.index(b)
        _plot(col, f"modern_fp_{label}", sweep_key + (b,), lambda: figures.image(
            _image_of(sw.fixed_points[i], ps), f"beta = {fmt_beta(b)}", height=260))
        col.markdown(f"k90 = {int(sw.k90[i])}, **{sw.kinds[i]}**"
                     + ("" if sw.converged[i] else " (step limit)"))
        chosen.append(b)
    _plot(chart, "modern_sweep", sweep_key + (beta, need_all) + tuple(chosen),
          lambda: figures_modern.sweep_chart(sw.betas, sw.k90, sw.kinds, sw.converged, ps.N,
                                             current=beta, marked=chosen, bound_beta=need_all))
    with st.expander("The sweep as a table"):
        st.dataframe({"beta": sw.betas, "k90": sw.k90, "kind": list(sw.kinds), "steps": sw.steps,
                      "converged": sw.converged, "energy": sw.energies},
                     hide_index=True, key="modern_sweep_table")


def beta_for_all(ps, beta) -> float:
    """The beta from which every stored pattern meets the separation bound."""
    if ps.N == 1:
        return 0.0
    return float(modern_cache.bound_table(ps.fingerprint, beta, ps.X)[3].max())


def bound_section(ps, q, beta) -> None:
    """The separation table, what it guarantees at this beta, and whether it covers the query."""
    st.header("When is retrieval guaranteed? The separation bound")
    if gate.closed("modern"):
        return
    sep, bound, ok, need, M = modern_cache.bound_table(ps.fingerprint, beta, ps.X)
    explain.bound()
    if ps.N == 1:
        st.info("With one stored pattern there is nothing to separate it from: every query "
                "ends on it.")
        return
    st.dataframe({"pattern": [f"{i + 1}. {n}" for i, n in enumerate(ps.names)],
                  "separation Delta_i": sep, "bound at this beta": [bound] * ps.N,
                  "satisfied": ok, "beta needed": need},
                 hide_index=True, key="modern_bound_table",
                 column_config={"beta needed": st.column_config.NumberColumn(format="%.4g"),
                                "separation Delta_i": st.column_config.NumberColumn(format="%.4f"),
                                "bound at this beta": st.column_config.NumberColumn(format="%.4f")})
    st.markdown(bound_sentence(ps, beta, ok, need, M))
    st.markdown(query_sentence(ps, q, beta, ok, M))


def bound_sentence(ps, beta, ok, need, M) -> str:
    """How many patterns meet the bound at this beta, and from which beta the rest do."""
    n_ok = int(ok.sum())
    worst = int(need.argmax())
    radius = retrieval_radius(beta, ps.N, M)
    if n_ok == ps.N:
        sentence = f"At beta = {fmt_beta(beta)} all {ps.N} patterns meet the bound."
    else:
        sentence = (f"At beta = {fmt_beta(beta)}, {n_ok} of {ps.N} patterns meet the bound. "
                    f"The bound is sufficient, not necessary: a pattern that misses it may "
                    f"still be retrieved (check the sweep). ")
        least = [n for n, b in zip(ps.names, need) if b >= need[worst] * (1 - 1e-9)]
        who = ", ".join(least[:-1]) + " and " + least[-1] if len(least) > 1 else least[0]
        plural = len(least) > 1
        sentence += (f"The least separated ({who}) {'are' if plural else 'is'} guaranteed from "
                     f"beta = {need[worst]:.3g}." if math.isfinite(need[worst]) else
                     f"{who} {'have' if plural else 'has'} a twin (separation <= 0): no beta can "
                     "tell them apart.")
    if radius > 1.0:
        sentence += (f" Mind the radius 1/(beta N M) = {radius:.3g}: at this small beta it is "
                     "wider than the gaps between patterns, so the guarantee says little.")
    return sentence


def query_sentence(ps, q, beta, ok, M) -> str:
    """The theorem's radius at this beta, and whether the query lies inside it."""
    radius = retrieval_radius(beta, ps.N, M)
    i, dist = nearest_pattern(ps.X, q)
    name = ps.names[i]
    sentence = (f"The theorem covers a query within 1/(beta N M) = 1/({fmt_beta(beta)} · {ps.N} · "
                f"{M:.3g}) = {radius:.3g} of a pattern. Your query is {dist:.3g} from {name}, the "
                "nearest stored pattern, ")
    if dist > radius:
        return sentence + ("outside that radius, so the theorem says nothing about it (it may "
                           "still be retrieved: see the run above).")
    if ok[i]:
        return sentence + (f"inside that radius, and {name} meets the bound: the theorem "
                           f"guarantees that the run converges to the fixed point within "
                           f"{radius:.3g} of {name}.")
    return sentence + (f"inside that radius, but {name} misses the bound at this beta, so the "
                       "theorem says nothing about it.")


def step_size_section(ps, q, qkey, beta, gamma) -> None:
    st.header("Step size: one big step or gradient descent")
    if gate.closed("modern"):
        return
    gammas = sorted(set(COMPARE_GAMMAS) | {gamma}, reverse=True)
    by_gamma = {g: runs.run("modern", {"beta": beta}, ps, q, max_steps=COMPARE_STEPS, tol=TOL,
                            gamma=g, share=1 / len(gammas)) for g in gammas}
    fig = _plot(st, "modern_gamma_compare", (ps.fingerprint, qkey, beta, COMPARE_STEPS, TOL)
                + tuple(gammas), lambda: figures_modern.energy_by_gamma(
                    {f"gamma = {g:g}": t.energies for g, t in by_gamma.items()},
                    title=f"Energy per step at beta = {fmt_beta(beta)}"))
    chart_numbers.show(st, fig, "modern_gamma_numbers")
    rows = [{"gamma": g, "steps": t.steps, "converged": t.converged, "final energy": t.energies[-1],
             "k90": k90(t.weights[-1]), "kind": fixed_point_kind(t.weights[-1])}
            for g, t in by_gamma.items()]
    st.dataframe({k: [r[k] for r in rows] for k in rows[0]}, hide_index=True, key="modern_gamma_table",
                 column_config={"final energy": st.column_config.NumberColumn(format="%.6g")})
    one, slow = by_gamma[1.0], by_gamma[min(gammas)]
    st.markdown(
        f"gamma = 1 settles in **{one.steps}** steps; gamma = {min(gammas):g} takes "
        f"**{slow.steps}**{'' if slow.converged else ' (and has not settled yet)'}. "
        "Every curve falls at each step: the update with gamma in (0, 1] never raises the "
        f"energy. Each run here may take up to {COMPARE_STEPS} steps.")


