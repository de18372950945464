"""How long a capacity experiment takes, estimated before it runs, so that no student's run
holds the class's server for long. No Streamlit here.

Seconds per unit of work were measured on this project's 2-core machine with the core's own
functions (benchmarks/bench_capacity.py) and rounded up; the step counts are typical runs
(sync steps, async sweeps, continuous updates) at loads around capacity.
"""
from __future__ import annotations

import numpy as np

from hopfield_core.capacity.curves import point_cost
from hopfield_core.capacity.phase import phase_cost

INSTANT_SECONDS = 1.5  # runs at once; above it a Run button starts it
MAX_SECONDS = 8.0      # above it the run is refused with a message saying what to lower
PER_ELEMENT = {"classical-sync": 2e-9, "classical-async": 5e-9, "dense": 3e-9,
               "exponential": 1.6e-8, "modern": 8e-9}
TYPICAL_STEPS = {"classical-sync": 6, "classical-async": 8, "dense": 3, "exponential": 3,
                 "modern": 30}  # modern: its step limit (at small beta it never settles)
STEP_OVERHEAD = 2e-4         # seconds of small-array work per step
ASYNC_VISIT = 60e-6          # seconds per neuron visit of a batched async sweep
PHASE_VISIT = 150e-6         # ... of the phase diagram's Glauber sweep
PHASE_PER_ELEMENT = 2.5e-9


def point_seconds(variant: str, d: int, n: int, trials: int) -> float:
    steps = TYPICAL_STEPS[variant]
    per_step = STEP_OVERHEAD + PER_ELEMENT[variant] * point_cost(variant, d, n, trials)
    if variant == "classical-async":
        per_step += ASYNC_VISIT * d
    return steps * per_step


def curves_seconds(variants, d: int, ns, trials: int, flips=(0.0,)) -> float:
    return len(flips) * sum(point_seconds(v, d, int(n), trials) for v in variants for n in ns)


def phase_seconds(d: int, grid: int, trials: int, sweeps: int, max_load: float) -> float:
    return (sweeps * d * PHASE_VISIT
            + PHASE_PER_ELEMENT * phase_cost(d, grid, grid, trials, sweeps, max_load))


def counts(lo: int, hi: int, points: int, log: bool) -> np.ndarray:
    """The numbers of patterns of a curve: `points` from lo to hi (evenly, or evenly on a log
    axis), rounded and without repeats."""
    grid = np.geomspace(lo, hi, points) if log and lo > 0 else np.linspace(lo, hi, points)
    return np.unique(np.round(grid).astype(np.int64))
