"""Speed of the capacity lab's experiments, each beside a peer measured in the same run.

    python benchmarks/bench_capacity.py

1. A 25-point classical success curve at d = 100 (N = 2 .. 50), 50 trials a point, sync and
   async (hopfield_core.capacity.success_curve: each point's trials are one batch, and the
   async points of a curve share one padded batch). The peer is the same experiment as a
   Python loop over trials, each trial a ClassicalHopfield built and run on its own store.
   Goal: each batched curve under 1 s; the ratio says by how much batching beats the loop.
2. The classical phase diagram at d = 200 on a 12 x 12 grid (loads 0.02 .. 0.24,
   temperatures 0 .. 1.2), 4 trials a cell, 30 Glauber sweeps. Goal: under 20 s. The peer is
   one batched sweep-for-sweep equivalent of a single cell run 144 times in a loop, measured
   on 12 cells and scaled.
3. The capacity lab's cost estimates (ui/capacity/cost.py, which decide Run and refusal)
   beside the measured time of the same runs.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hopfield_core.capacity import success_curve  # noqa: E402
from hopfield_core.capacity.curves import SUCCESS_OVERLAP, _store  # noqa: E402
from hopfield_core.capacity.phase import phase_diagram  # noqa: E402
from hopfield_core.classical import ClassicalHopfield  # noqa: E402
from ui.capacity import cost  # noqa: E402

D, TRIALS = 100, 50
NS = np.arange(2, 52, 2)  # 25 points


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def loop_curve(mode: str) -> np.ndarray:
    """The peer: one trial at a time, the network classes of the app's pages."""
    success = []
    for N in NS:
        X, q, gen = _store(0, D, int(N), TRIALS, 0)
        ok = 0
        for t in range(TRIALS):
            traj = ClassicalHopfield(X[t]).run(q[t], mode=mode, max_steps=50, rng=gen)
            ok += (traj.states[-1] @ X[t, 0]) / D >= SUCCESS_OVERLAP
        success.append(ok / TRIALS)
    return np.array(success)


def main() -> None:
    print(f"1. classical success curve, d = {D}, {len(NS)} points, {TRIALS} trials a point")
    print("| mode | batched (s) | Python loop over trials (s) | loop / batched |")
    print("| --- | --- | --- | --- |")
    for variant, mode in (("classical-sync", "sync"), ("classical-async", "async")):
        success_curve(variant, D, NS[:3], TRIALS, rng=0)  # warm-up
        tb, curve = timed(lambda: success_curve(variant, D, NS, TRIALS, rng=0))
        tl, loop = timed(lambda: loop_curve(mode))
        print(f"| {mode} | {tb:.3f} | {tl:.2f} | {tl / tb:.0f}x |")
        if mode == "sync":  # same stores, same rule: the same answer
            assert np.array_equal(curve.success, loop), (curve.success, loop)

    loads, temps = np.linspace(0.02, 0.24, 12), np.linspace(0.0, 1.2, 12)
    tb, _ = timed(lambda: phase_diagram(200, loads, temps, trials=4, sweeps=30, rng=0))
    tl, _ = timed(lambda: [phase_diagram(200, [a], [temps[k]], trials=4, sweeps=30, rng=k)
                           for k, a in enumerate(loads)])
    per_cell_loop = tl / 12 * 144
    print("\n2. phase diagram, d = 200, 12 x 12 grid, 4 trials, 30 sweeps")
    print("| batched, all 144 cells (s) | one cell at a time, 144 cells (s, from 12) | ratio |")
    print("| --- | --- | --- |")
    print(f"| {tb:.2f} | {per_cell_loop:.1f} | {per_cell_loop / tb:.0f}x |")

    print("\n3. the lab's estimate beside the measured time (flip 0 unless said)")
    print("| run | estimate (s) | measured (s) | estimate / measured |")
    print("| --- | --- | --- | --- |")
    for variant, d, (lo, hi, pts, log), trials, flip, params in ESTIMATED:
        ns = cost.counts(lo, hi, pts, log)
        est = cost.curves_seconds([variant], d, ns, trials, (flip,), **params)
        tm, _ = timed(lambda: success_curve(variant, d, ns, trials, flip, rng=0, **params))
        name = f"{variant}, d = {d}, N {lo} .. {hi}, {len(ns)} points x {trials}" + (
            f", flip {flip}" if flip else "")
        print(f"| {name} | {est:.2f} | {tm:.2f} | {est / tm:.2f} |")


ESTIMATED = [
    ("classical-sync", 500, (10, 100, 15, False), 20, 0.0, {}),
    ("classical-async", 500, (10, 100, 15, False), 20, 0.0, {}),
    ("classical-async", 200, (2, 80, 15, False), 20, 0.2, {}),
    ("dense", 100, (50, 600, 8, True), 40, 0.0, {"degree": 3}),
    ("dense", 300, (100, 3000, 6, True), 10, 0.0, {"degree": 3}),
    ("dense", 100, (10, 600, 8, True), 20, 0.2, {"degree": 3}),
    ("exponential", 40, (10, 3000, 8, True), 20, 0.2, {"beta": 1.0}),
    ("modern", 400, (10, 2000, 6, True), 20, 0.0, {"beta": 1.0}),
    ("modern", 20, (10, 2000, 6, True), 20, 0.1, {"beta": 1.0}),
]


if __name__ == "__main__":
    main()
