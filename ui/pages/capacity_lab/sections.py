"""The capacity lab's parts: the controls and each experiment (cost check, progress and
partial charts, cached points, downloads). app_pages/capacity_lab.py lays them out."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from hopfield_core import questions
from hopfield_core.capacity import CLASSICAL_ALPHA, curves
from ui.charts import chart_numbers
from ui.serving import run_queue_view as queue_view
from ui.settings import gate
from ui.settings.modes import presenter

from . import cache, cost, export, figures, live
from .settings import SETTINGS, VARIANT_FLAGS, VARIANT_NAMES

PAGE = "capacity_lab"
# presenter mode: the curves' height (ui.charts.charts makes it 1.2 x taller), so that under the title
# and the section switcher they fit on a 1024 x 768 projector's first screen
PRESENTER_CURVES_PX = 270


def _columns(keys, where=None):
    cols = (where or st).columns(len(keys))
    return [SETTINGS.show(k, c) for k, c in zip(keys, cols)]


def _ready(run_key: tuple, seconds: float, what: str, refusal: str | None = None) -> bool:
    """Runs at once when cheap or already run in this session; a Run button in between;
    refused with cost's sentence (what to lower) above cost.MAX_SECONDS or ui.serving.budget.RUN_BYTES.
    A run the user cancelled waits for Run again, however cheap."""
    if refusal:
        st.warning(refusal)
        return False
    done = st.session_state.setdefault("capacity_lab_done", set())
    stopped = queue_view.cancelled(what, run_key)
    if stopped:
        done.discard(run_key)
    elif run_key in done or seconds <= cost.INSTANT_SECONDS:
        done.add(run_key)
        return True
    slot = st.empty()
    if slot.button(f"Run ({queue_view.about(seconds)})", type="primary",
                   key=f"capacity_lab_run_{what[:5]}"):
        done.add(run_key)
        queue_view.forget_cancel(what)
        slot.empty()
        return True
    st.info(f"Cancelled: nothing was drawn. Press Run to start this {what} again."
            if stopped else f"Press Run to start this {what}: {queue_view.about(seconds)} of "
            "computing on a quiet server; when others are running theirs, yours waits its turn.")
    return False


# ------------------------------------------------------------------ success curves

def chosen_variants() -> list[str]:
    return [v for key, v in VARIANT_FLAGS.items() if SETTINGS[key]]


@dataclass(frozen=True)
class CurveControls:
    """The curves' and the basin map's controls: the values in use (a link may hide some)."""

    d: int
    n_lo: int
    n_hi: int
    points: int
    trials: int
    flip: float
    degree: int
    beta: float
    seed: int
    variants: list[str]


def curve_controls(view: str) -> CurveControls:
    """The controls of the curves and the basin map (hidden in presenter mode, as on every
    page); the basin map sweeps the flip fraction itself, so it has no flip control."""
    with st.container(key="controls_capacity_lab"):
        with st.container(horizontal=True, wrap=True):
            for key in VARIANT_FLAGS:
                SETTINGS.show(key)
        d, n_lo, n_hi, trials = _columns(["d", "n_lo", "n_hi", "trials"])
        keys = ["points", "degree", "beta"] + (["flip"] if view == "curves" else [])
        shown = dict(zip(keys, _columns(keys)))
    return CurveControls(int(d), int(n_lo), int(n_hi), int(shown["points"]), int(trials),
                         float(SETTINGS["flip"]), int(shown["degree"]), float(shown["beta"]),
                         int(SETTINGS["seed"]), chosen_variants())


def _counts(c: CurveControls):
    if not c.variants:
        st.info("Choose at least one network above.")
        return None
    if c.n_lo > c.n_hi:
        st.warning(f"The range of N is empty: the fewest ({c.n_lo}) is more than the most "
                   f"({c.n_hi}). Swap them or widen the range.")
        return None
    log = any(not v.startswith("classical") for v in c.variants)
    return cost.counts(c.n_lo, c.n_hi, c.points, log), log


def curves_section(c: CurveControls) -> None:
    got = _counts(c)
    if got is None:
        return
    ns, log = got
    seconds = cost.curves_seconds(c.variants, c.d, ns, c.trials, (c.flip,),
                                  c.degree, c.beta)
    run_key = ("curves", tuple(c.variants), c.d, tuple(ns), c.trials, c.flip,
               c.degree, c.beta, c.seed)
    refusal = cost.curves_refusal(c.variants, c.d, ns, c.trials, (c.flip,),
                                  c.degree, c.beta)
    if not _ready(run_key, seconds, "curve", refusal):
        return
    charts_at = [col.empty() for col in st.columns(2)]
    curves_px = PRESENTER_CURVES_PX if presenter() else 360
    measured = {v: [None] * len(ns) for v in c.variants}

    def draw(final):
        if gate.pending(PAGE):  # a lesson's question waits: not a point of the curves before the lock
            return
        results = [curves.curve_from_points(v, c.d, c.trials, c.flip,
                                            dict(cache.params_of(v, c.degree, c.beta)),
                                            [p for p in pts if p is not None])
                   for v, pts in measured.items() if any(p is not None for p in pts)]
        figs = []
        for where, what in zip(charts_at, ("success", "mean_overlap")):
            figs.append(figures.curves_figure(results, VARIANT_NAMES, c.d, c.flip,
                                              c.degree, log, what, curves_px))
            live.plot(where, figs[-1], f"capacity_lab_{what}", final, f"capacity_{what}")
        if final is True:
            chart_numbers.show(st, figs, "capacity_lab_curves_numbers")
            st.download_button("Download the curves (CSV)", export.curves_csv(results),
                               "capacity_curves.csv", "text/csv", key="capacity_lab_csv")
            st.caption(export.PNG_NOTE)

    def compute(check):
        run = live.Live(seconds, len(c.variants) * len(ns), "Measuring…", draw, check)
        for v in c.variants:
            def arrived(i, p, v=v):
                measured[v][i] = p
                run.tick(f"{VARIANT_NAMES[v]}: N = {p.n_patterns}")
            cache.points(v, c.d, ns, c.trials, c.flip, c.seed,
                         cache.params_of(v, c.degree, c.beta), progress=arrived)
        run.close()
        return measured

    cached = all(cache.has_points(v, c.d, ns, c.trials, c.flip, c.seed,
                                  cache.params_of(v, c.degree, c.beta))
                 for v in c.variants)
    result = queue_view.run("curve", run_key, seconds, compute, cached,
                            nbytes=cost.curves_bytes(c.variants, c.d, ns, c.trials))
    if result is not None:
        measured.update(result)  # another session's, when it computed the same run
        offer_capacity(c, measured)
        if gate.closed(PAGE):
            return
        draw(True)


def offer_capacity(c: CurveControls, measured: dict) -> None:
    """A lesson's question on this run: up to what load the first classical network measured
    still retrieves (hopfield_core.questions.capacity)."""
    classical = [v for v in c.variants if v.startswith("classical")]
    if not classical:
        return
    points = sorted((p for p in measured[classical[0]] if p is not None), key=lambda p: p.n_patterns)
    n, success = [p.n_patterns for p in points], [p.success for p in points]
    gate.offer(PAGE, questions.CAPACITY.key, questions.capacity_options(),
               lambda: questions.capacity(n, success, c.d, VARIANT_NAMES[classical[0]]))


# ------------------------------------------------------------------ basins

FLIPS = np.round(np.arange(0.0, 0.45, 0.05), 2)


def basins_section(c: CurveControls) -> None:
    got = _counts(c)
    if got is None:
        return
    ns, _ = got
    v = c.variants[0]
    st.caption(f"The first network chosen above: {VARIANT_NAMES[v]}. Rows: the fraction of "
               "the query's bits flipped; columns: the number of stored patterns.")
    seconds = cost.curves_seconds([v], c.d, ns, c.trials, FLIPS, c.degree, c.beta)
    run_key = ("basins", v, c.d, tuple(ns), c.trials, c.degree, c.beta, c.seed)
    refusal = cost.curves_refusal([v], c.d, ns, c.trials, FLIPS, c.degree, c.beta,
                                  "basin map")
    if not _ready(run_key, seconds, "basin map", refusal):
        return
    params = cache.params_of(v, c.degree, c.beta)
    grid = np.full((len(FLIPS), len(ns)), np.nan)
    overlap = grid.copy()
    chart_at = st.empty()

    def draw(final):
        bm = curves.BasinMap(v, c.d, c.trials, dict(params), ns, FLIPS, grid, overlap)
        fig = figures.basin_figure(bm, VARIANT_NAMES[v])
        live.plot(chart_at, fig, "capacity_lab_basins", final, "capacity_basins")
        if final is True:
            chart_numbers.show(st, fig, "capacity_lab_basins_numbers")
            st.download_button("Download the basin map (CSV)", export.basins_csv(bm),
                               "capacity_basins.csv", "text/csv", key="capacity_lab_basins_csv")
            st.caption(export.PNG_NOTE)

    def compute(check):
        run = live.Live(seconds, grid.size, "Measuring…", draw, check)
        for a, f in enumerate(FLIPS):
            def arrived(b, p, a=a, f=f):
                grid[a, b], overlap[a, b] = p.success, p.mean_overlap
                run.tick(f"flipped {f:.0%}, N = {p.n_patterns}")
            cache.points(v, c.d, ns, c.trials, float(f), c.seed, params,
                         progress=arrived)
        run.close()
        return grid, overlap

    cached = all(cache.has_points(v, c.d, ns, c.trials, float(f), c.seed, params)
                 for f in FLIPS)
    result = queue_view.run("basin map", run_key, seconds, compute, cached,
                            nbytes=cost.curves_bytes([v], c.d, ns, c.trials))
    if result is not None:
        grid[:], overlap[:] = result  # another session's, when it computed the same run
        draw(True)


# ------------------------------------------------------------------ phase diagram

def phase_section() -> None:
    with st.container(key="controls_capacity_phase"):
        d, load, tmax = _columns(["ph_d", "ph_load", "ph_tmax"])
        grid, trials, sweeps = _columns(["ph_grid", "ph_trials", "ph_sweeps"])
    d, grid, trials, sweeps = int(d), int(grid), int(trials), int(sweeps)
    seconds = cost.phase_seconds(d, grid, trials, sweeps, float(load))
    loads = cost.phase_loads(grid, float(load))  # the loads the estimates above count
    temps = tuple(np.round(np.linspace(0.0, float(tmax), grid), 4))
    seed = int(SETTINGS["seed"])
    run_key = ("phase", d, loads, temps, trials, sweeps, seed)
    refusal = cost.phase_refusal(d, grid, trials, sweeps, float(load))
    if not _ready(run_key, seconds, "phase diagram", refusal):
        return

    def compute(check):
        run = live.Live(seconds, sweeps, "Glauber sweeps…", lambda final: None, check)
        pd = cache.phase_diagram(d, loads, temps, trials, sweeps, seed,
                                 progress=lambda k, n: run.tick("Glauber sweeps"))
        run.close()
        return pd

    pd = queue_view.run("phase diagram", run_key, seconds, compute,
                        cache.has_phase_diagram(d, loads, temps, trials, sweeps, seed),
                        nbytes=cost.phase_bytes(d, grid, trials, float(load)))
    if pd is None:
        return
    boundary = cache.theory_boundary(float(load))
    fig = figures.phase_figure(pd, boundary, CLASSICAL_ALPHA)
    live.plot(st, fig, "capacity_lab_phase", True, "capacity_phase")
    chart_numbers.show(st, fig, "capacity_lab_phase_numbers")
    st.download_button("Download the phase diagram (CSV)", export.phase_csv(pd),
                       "capacity_phase.csv", "text/csv", key="capacity_lab_phase_csv")
    st.caption(export.PNG_NOTE)
