"""Speed of the capacity lab's experiments, each beside a peer measured in the same run.

    python benchmarks/bench_capacity.py

Times are the process's CPU time with NumPy's BLAS on one thread and glibc's malloc tuned as
the app runs them (ui/serving/boot.py, ui/serving/housekeeping.py), so that other work on the machine does
not count; the estimates (3) are compared with the best of two runs.

1. A 25-point classical success curve at d = 100 (N = 2 .. 50), 50 trials a point, sync and
   async (hopfield_core.capacity.success_curve: each point's trials are one batch, and the
   async points of a curve share one padded batch). The peer is the same experiment as a
   Python loop over trials, each trial a ClassicalHopfield built and run on its own store.
   Goal: each batched curve under 1 s; the ratio says by how much batching beats the loop.
2. The classical phase diagram at d = 200 on a 12 x 12 grid (loads 0.02 .. 0.24,
   temperatures 0 .. 1.2), 4 trials a cell, 30 Glauber sweeps. Goal: under 20 s. The peer is
   one batched sweep-for-sweep equivalent of a single cell run 144 times in a loop, measured
   on 12 cells and scaled.
3. The capacity lab's cost estimates (ui/pages/capacity_lab/cost.py, which decide Run and refusal)
   beside the measured time of the same runs: the page's defaults, its "Try this" prompts,
   a run of every variant, basin maps and phase diagrams. Goal: every ratio within 0.5-2
   (benchmarks/bench_capacity_memory.py does the same for the heaviest runs the page
   accepts, with their peak memory).
"""
from __future__ import annotations

import numpy as np

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import best_cpu_time, cpu_time, print_table_head  # noqa: E402
from hopfield_core.capacity import success_curve  # noqa: E402
from hopfield_core.capacity.curves import SUCCESS_OVERLAP  # noqa: E402
from hopfield_core.capacity.phase import phase_diagram  # noqa: E402
from hopfield_core.capacity.stores import Stream  # noqa: E402
from hopfield_core.classical import ClassicalHopfield  # noqa: E402
from ui.pages.capacity_lab import cost  # noqa: E402
from ui.pages.capacity_lab.sections import FLIPS  # noqa: E402

D, TRIALS = 100, 50
NS = np.arange(2, 52, 2)  # 25 points


def loop_curve(mode: str) -> np.ndarray:
    """The peer: one trial at a time, the network classes of the app's pages."""
    success = []
    for N in NS:
        stream = Stream(0, D, int(N), TRIALS, 0)
        X = stream.patterns(0, TRIALS)
        q, gen = stream.queries(X[:, 0], 0), np.random.default_rng(0)
        ok = 0
        for t in range(TRIALS):
            traj = ClassicalHopfield(X[t]).run(q[t], mode=mode, max_steps=50, rng=gen)
            ok += (traj.states[-1] @ X[t, 0]) / D >= SUCCESS_OVERLAP
        success.append(ok / TRIALS)
    return np.array(success)


def main() -> None:
    from threadpoolctl import threadpool_limits

    from ui.serving.housekeeping import tune_malloc

    threadpool_limits(1)
    tune_malloc()
    print(f"1. classical success curve, d = {D}, {len(NS)} points, {TRIALS} trials a point")
    print_table_head("mode", "batched (s)", "Python loop over trials (s)", "loop / batched")
    for variant, mode in (("classical-sync", "sync"), ("classical-async", "async")):
        success_curve(variant, D, NS[:3], TRIALS, rng=0)  # warm-up
        tb, curve = cpu_time(lambda: success_curve(variant, D, NS, TRIALS, rng=0))
        tl, loop = cpu_time(lambda: loop_curve(mode))
        print(f"| {mode} | {tb:.3f} | {tl:.2f} | {tl / tb:.0f}x |")
        if mode == "sync":  # same stores, same rule: the same answer
            assert np.array_equal(curve.success, loop), (curve.success, loop)

    loads, temps = np.linspace(0.02, 0.24, 12), np.linspace(0.0, 1.2, 12)
    tb, _ = cpu_time(lambda: phase_diagram(200, loads, temps, trials=4, sweeps=30, rng=0))
    tl, _ = cpu_time(lambda: [phase_diagram(200, [a], [temps[k]], trials=4, sweeps=30, rng=k)
                              for k, a in enumerate(loads)])
    per_cell_loop = tl / 12 * 144
    print("\n2. phase diagram, d = 200, 12 x 12 grid, 4 trials, 30 sweeps")
    print_table_head("batched, all 144 cells (s)", "one cell at a time, 144 cells (s, from 12)", "ratio")
    print(f"| {tb:.2f} | {per_cell_loop:.1f} | {per_cell_loop / tb:.0f}x |")

    print("\n3. the lab's estimate beside the measured CPU time (best of two)")
    print_table_head("run", "estimate (s)", "measured (s)", "estimate / measured")
    for name, (variants, d, (lo, hi, pts, log), trials, flips, params) in ESTIMATED.items():
        ns = cost.counts(lo, hi, pts, log)
        est = cost.curves_seconds(variants, d, ns, trials, flips, **params)

        def run():
            for v in variants:
                for f in flips:
                    success_curve(v, d, ns, trials, f, rng=0, **params)
        tm = best_cpu_time(run)
        print(f"| {name}: d = {d}, N {lo} .. {hi}, {len(ns)} points x {trials} | {est:.2f} "
              f"| {tm:.2f} | {est / tm:.2f} |")
    for d, grid, trials, sweeps, load in PHASES:
        est = cost.phase_seconds(d, grid, trials, sweeps, load)
        loads, temps = cost.phase_loads(grid, load), np.linspace(0.0, 1.2, grid)
        tm = best_cpu_time(lambda: phase_diagram(d, loads, temps, trials, sweeps, sweeps // 3, rng=0))
        print(f"| phase diagram: d = {d}, {grid} x {grid}, load <= {load}, {trials} trials, "
              f"{sweeps} sweeps | {est:.2f} | {tm:.2f} | {est / tm:.2f} |")


# name -> (variants, d, (fewest N, most N, points, log axis), trials, flips, params)
ESTIMATED = {
    "defaults, sync and async": (["classical-sync", "classical-async"], 100, (2, 30, 15, False),
                                 20, (0.0,), {}),
    "prompt: find 0.138": (["classical-sync", "classical-async"], 500, (10, 100, 15, False), 20,
                           (0.0,), {}),
    "prompt: beat it (dense)": (["dense"], 100, (10, 1000, 15, True), 20, (0.0,), {"degree": 3}),
    "classical sync": (["classical-sync"], 1000, (10, 300, 15, False), 20, (0.0,), {}),
    "classical sync, flip 0.2": (["classical-sync"], 500, (10, 150, 20, False), 60, (0.2,), {}),
    "classical async, flip 0.2": (["classical-async"], 200, (2, 80, 15, False), 20, (0.2,), {}),
    "classical async": (["classical-async"], 500, (10, 100, 15, False), 40, (0.0,), {}),
    "dense": (["dense"], 300, (100, 3000, 6, True), 10, (0.0,), {"degree": 3}),
    "dense, flip 0.2": (["dense"], 100, (10, 600, 8, True), 20, (0.2,), {"degree": 3}),
    "exponential, flip 0.2": (["exponential"], 40, (10, 3000, 8, True), 20, (0.2,), {"beta": 1.0}),
    "exponential, flip 0.1": (["exponential"], 100, (10, 5000, 8, True), 20, (0.1,),
                              {"beta": 1.0}),
    "modern, the issue's link": (["modern"], 1000, (1, 3000, 2, True), 100, (0.0,),
                                 {"beta": 1.0}),
    "modern": (["modern"], 400, (10, 2000, 6, True), 20, (0.0,), {"beta": 1.0}),
    "modern, beta d = 20": (["modern"], 20, (10, 2000, 6, True), 20, (0.1,), {"beta": 1.0}),
    "modern, flip 0.3": (["modern"], 100, (10, 5000, 10, True), 40, (0.3,), {"beta": 1.0}),
    "basin map, default": (["classical-sync"], 100, (2, 30, 15, False), 20, tuple(FLIPS), {}),
    "basin map, async": (["classical-async"], 200, (2, 60, 10, False), 20, tuple(FLIPS), {}),
    "basin map, dense": (["dense"], 60, (10, 600, 8, True), 10, tuple(FLIPS), {"degree": 3}),
}
PHASES = [(100, 12, 4, 30, 0.24), (200, 12, 4, 30, 0.24), (400, 15, 16, 10, 0.24),
          (300, 10, 8, 30, 0.3)]  # (d, grid, trials, sweeps, largest load); the first: default


if __name__ == "__main__":
    main()
