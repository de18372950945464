"""How long a capacity experiment takes, estimated before it runs, so that no student's run
holds the class's server for long. No Streamlit here.

A point's time is (updates it needs) x (time per update). The update counts are what the
core's runs take (benchmarks/bench_capacity.py prints estimate beside measurement): below a
network's textbook capacity a stored pattern is stable, so a run is the stability check plus
one confirming update (a few more to clean up a corrupted query); beyond it the state wanders
for many updates. The modern network settles in two or three updates once beta d is large
(sharp attention) and creeps for up to its limit when it is small. Seconds per unit of work
were measured on this project's 2-core machine with the core's own functions and rounded up.
"""
from __future__ import annotations

import math

import numpy as np

from hopfield_core.capacity import (classical_capacity, log10_exponential_capacity,
                                    log10_polynomial_capacity)
from hopfield_core.capacity.curves import MAX_STEPS
from hopfield_core.capacity.phase import phase_cost

INSTANT_SECONDS = 1.5  # runs at once; above it a Run button starts it
MAX_SECONDS = 8.0      # above it the run is refused with a message saying what to lower
PER_ELEMENT = {"classical-sync": 1.5e-9, "classical-async": 1.2e-8, "dense": 5e-8,
               "exponential": 4e-8, "modern": 8e-9}  # seconds per trial x N x d of one update
BEYOND = {"classical-sync": 35, "classical-async": 15, "dense": 15, "exponential": 15}
STEP_OVERHEAD = 1e-4   # seconds of small-array work per update
ASYNC_VISIT = 25e-6    # seconds per neuron visit of a batched async sweep (shared by a curve)
PHASE_VISIT = 150e-6   # ... of the phase diagram's Glauber sweep
PHASE_PER_ELEMENT = 2.5e-9


def capacity(variant: str, d: int, flip: float, degree: int) -> float:
    """The textbook capacity in patterns: 0.138 d, Krotov and Hopfield's d^(n-1) /
    (2 (2n-3)!! ln d), Demircigil's exponential one (infinite past 1e300, and for the modern
    network, which has no such count: see steps)."""
    if variant.startswith("classical"):
        return classical_capacity(d)
    if variant == "dense":
        return 10 ** log10_polynomial_capacity(d, degree)
    if variant == "exponential":
        log10 = log10_exponential_capacity(d, min(flip, 0.49))
        return 10 ** log10 if log10 < 300 else math.inf
    return math.inf


def steps(variant: str, d: int, n: int, flip: float, degree: int = 3, beta: float = 1.0) -> int:
    """Typical updates (sync steps, async sweeps, continuous updates) of one point, the
    stability check included."""
    if variant == "modern":
        return 3 if beta * d >= 40 else MAX_STEPS["modern"]
    if n <= capacity(variant, d, flip, degree):
        return 2 if flip == 0 else 5
    return BEYOND[variant]


def curve_seconds(variant: str, d: int, ns, trials: int, flip: float = 0.0, degree: int = 3,
                  beta: float = 1.0) -> float:
    """One curve. Its async points share one sweep loop, padded to the largest N."""
    counts = [steps(variant, d, int(n), flip, degree, beta) for n in ns]
    if variant == "classical-async":
        width = trials * max(int(n) for n in ns) * d
        return (max(counts) * d * ASYNC_VISIT
                + sum(counts) * (STEP_OVERHEAD + PER_ELEMENT[variant] * width))
    return sum(k * (STEP_OVERHEAD + PER_ELEMENT[variant] * trials * int(n) * d)
               for k, n in zip(counts, ns))


def curves_seconds(variants, d: int, ns, trials: int, flips=(0.0,), degree: int = 3,
                   beta: float = 1.0) -> float:
    return sum(curve_seconds(v, d, ns, trials, f, degree, beta) for v in variants for f in flips)


def phase_seconds(d: int, grid: int, trials: int, sweeps: int, max_load: float) -> float:
    return (sweeps * d * PHASE_VISIT
            + PHASE_PER_ELEMENT * phase_cost(d, grid, grid, trials, sweeps, max_load))


def counts(lo: int, hi: int, points: int, log: bool) -> np.ndarray:
    """The numbers of patterns of a curve: `points` from lo to hi (evenly, or evenly on a log
    axis), rounded and without repeats."""
    grid = np.geomspace(lo, hi, points) if log and lo > 0 else np.linspace(lo, hi, points)
    return np.unique(np.round(grid).astype(np.int64))
