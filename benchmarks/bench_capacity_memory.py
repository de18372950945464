"""The capacity lab's estimates (ui/pages/capacity_lab/cost.py) against the machine: for each view's
heaviest run the page accepts (the most trials whose estimate is within cost.MAX_SECONDS
and ui.serving.budget.RUN_BYTES, at the largest sizes), and for the issue's links, the estimated
seconds beside the measured CPU time, and the estimated peak bytes beside tracemalloc's.

    python benchmarks/bench_capacity_memory.py

Measured as the app runs it: NumPy's BLAS on one thread (ui/serving/boot.py), glibc's malloc tuned
as app.py's start-up does (ui/serving/housekeeping.tune_malloc), one warm-up run first; the time is
the process's CPU time (other work on the machine does not count), the best of two runs.
Goal: every seconds ratio within 0.5-2, every bytes ratio within 1-2, every peak within
RUN_BYTES (tests/core/test_capacity_memory.py asserts the bytes).
"""
from __future__ import annotations

import numpy as np

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import best_cpu_time, print_table_head  # noqa: E402
from hopfield_core.capacity import curves, phase  # noqa: E402
from tests.support.memory_probe import traced_peak  # noqa: E402
from ui.pages.capacity_lab import cost  # noqa: E402
from ui.pages.capacity_lab.sections import FLIPS  # noqa: E402
from ui.serving.budget import RUN_BYTES  # noqa: E402

MB = 2 ** 20
MAX_TRIALS, MAX_PHASE_TRIALS = 200, 16  # the page's limits (ui/pages/capacity_lab/settings.py)
# view -> (variants, d, (fewest N, most N, points, log axis), flips, params): largest sizes
CURVES = {
    "curves, classical sync": (["classical-sync"], 1000, (10, 300, 15, False), (0.0,), {}),
    "curves, classical async": (["classical-async"], 1000, (10, 300, 15, False), (0.0,), {}),
    "curves, dense n = 3": (["dense"], 1000, (100, 30000, 15, True), (0.0,), {"degree": 3}),
    "curves, exponential": (["exponential"], 200, (10, 100000, 15, True), (0.1,), {"beta": 1.0}),
    "curves, modern": (["modern"], 1000, (1, 19000, 15, True), (0.0,), {"beta": 1.0}),
    "basin map, classical sync": (["classical-sync"], 1000, (2, 200, 15, False), tuple(FLIPS), {}),
    "basin map, dense n = 3": (["dense"], 300, (10, 3000, 15, True), tuple(FLIPS), {"degree": 3}),
}
# the links: /capacity_lab?view=curves&v_modern=1&d=1000&n_lo=1&n_hi=3000&points=2
LINKS = {"link, trials = 20": 20, "link, trials = 100 (after Run)": 100}


def accepted(seconds: float, peak: int) -> bool:
    return seconds <= cost.MAX_SECONDS and peak <= RUN_BYTES


def heaviest_curve(variants, d, ns, flips, params) -> int | None:
    """The most trials the page accepts for these curves (None: not even one)."""
    best = None
    for trials in range(1, MAX_TRIALS + 1):
        seconds = cost.curves_seconds(variants, d, ns, trials, flips, **params)
        if not accepted(seconds, cost.curves_bytes(variants, d, ns, trials)):
            break
        best = trials
    return best


def row(name: str, what: str, seconds: float, peak: int, fn) -> None:
    measured = best_cpu_time(fn)
    got = traced_peak(fn)
    print(f"| {name} | {what} | {seconds:.2f} | {measured:.2f} | {seconds / measured:.2f} "
          f"| {peak / MB:.0f} | {got / MB:.0f} | {peak / got:.2f} |")


def curve_row(name, variants, d, ns, trials, flips, params) -> None:
    seconds = cost.curves_seconds(variants, d, ns, trials, flips, **params)
    peak = cost.curves_bytes(variants, d, ns, trials)

    def run():
        for v in variants:
            for f in flips:
                curves.success_points(v, d, ns, trials, f, 0, budget=RUN_BYTES, **params)
    row(name, f"d = {d}, N {ns[0]} .. {ns[-1]} ({len(ns)}), {trials} trials"
        + (f", {len(flips)} flips" if len(flips) > 1 else ""), seconds, peak, run)


def phase_row(name, d, grid, trials, sweeps, load) -> None:
    loads, temps = cost.phase_loads(grid, load), np.round(np.linspace(0.0, 1.2, grid), 4)
    row(name, f"d = {d}, {grid} x {grid}, load <= {load}, {trials} trials, {sweeps} sweeps",
        cost.phase_seconds(d, grid, trials, sweeps, load), cost.phase_bytes(d, grid, trials, load),
        lambda: phase.phase_diagram(d, loads, temps, trials, sweeps, max(1, sweeps // 3), rng=0,
                                    budget=RUN_BYTES))


def main() -> None:
    from threadpoolctl import threadpool_limits

    from ui.serving.housekeeping import tune_malloc

    threadpool_limits(1)
    tune_malloc()
    curves.success_points("modern", 1000, [3000], 10, beta=1.0)  # warm-up: the first big maps
    print(f"MAX_SECONDS = {cost.MAX_SECONDS:.0f} s, RUN_BYTES = {RUN_BYTES / MB:.0f} MB\n")
    print_table_head("view", "run", "estimate (s)", "CPU (s)", "estimate / CPU", "estimated peak (MB)",
                     "measured peak (MB)", "estimate / measured")
    for name, (variants, d, (lo, hi, pts, log), flips, params) in CURVES.items():
        ns = cost.counts(lo, hi, pts, log)
        trials = heaviest_curve(variants, d, ns, flips, params)
        if trials is None:
            print(f"| {name} | refused at one trial | | | | | | |")
            continue
        curve_row(name, variants, d, ns, trials, flips, params)
    d, grid, load = 400, 20, 0.5  # the page's largest phase diagram: the most sweeps accepted
    sweeps = max((s for s in range(10, 101, 10)
                  if accepted(cost.phase_seconds(d, grid, MAX_PHASE_TRIALS, s, load),
                              cost.phase_bytes(d, grid, MAX_PHASE_TRIALS, load))), default=None)
    if sweeps is None:
        trials = max(t for t in range(1, MAX_PHASE_TRIALS + 1)
                     if accepted(cost.phase_seconds(d, grid, t, 10, load), 0))
        phase_row("phase diagram", d, grid, trials, 10, load)
    else:
        phase_row("phase diagram", d, grid, MAX_PHASE_TRIALS, sweeps, load)
    for name, trials in LINKS.items():
        curve_row(name, ["modern"], 1000, cost.counts(1, 3000, 2, True), trials, (0.0,),
                  {"beta": 1.0})
    phase_row("link ph_d=400&ph_grid=15&ph_trials=16 (30 sweeps)", 400, 15, 16, 30, 0.24)


if __name__ == "__main__":
    main()
