"""How long a capacity experiment takes and how much memory it holds, estimated before it
runs, so that no student's run holds the class's server for long or takes much of its
memory. No Streamlit here.

Seconds: a point's time is making its stores plus (updates it needs) x (time per update).
The update counts are what the core's runs take (tests/ui/pages/test_capacity_cost.py counts
them): below a network's capacity a stored pattern is stable, so a run is the stability
check plus one confirming update (a few more to clean up a corrupted query); past it the
state wanders until the step limit (steps, _load). The modern network settles in one update
(a few from a corrupted query) once beta d is large, and creeps when it is small. The
asynchronous sweeps and the phase diagram's Glauber sweeps loop over the neurons in Python,
once per batch (or chunk) of stores that fits the memory budget: a cost per visit beside the
costs per row and per element. Seconds per unit were fitted to one thread's CPU time (the
app gives NumPy one thread: ui/serving/boot.py) on this project's 2-core machine;
benchmarks/bench_capacity.py and bench_capacity_memory.py print estimate / measured.

Bytes: the core works out a run's peak from the chunks it will cut its trials into
(curves.peak_bytes, phase.peak_bytes, each within 2x of the peak tracemalloc measures:
tests/core/test_capacity_memory.py). The chunks fit ui.serving.budget.RUN_BYTES; a run that does not
fit even one trial (or one cell of the phase diagram) at a time is refused.
"""
from __future__ import annotations

import math

import numpy as np

from hopfield_core.capacity import curves, phase
from hopfield_core.capacity.curves import MAX_STEPS
from hopfield_core.capacity.runs import async_plan, layout
from hopfield_core.capacity.theory import textbook_capacity
from ui.serving.budget import RUN_BYTES

INSTANT_SECONDS = 1.5  # runs at once; above it a Run button starts it
MAX_SECONDS = 8.0      # above it the run is refused with a message saying what to lower
# seconds per pattern entry made (trial x N x d; the modern network's separation check too)
GEN = {"classical-sync": 5e-9, "modern": 6e-9, "dense": 3.5e-9, "exponential": 5e-9,
       "classical-async": 3.5e-9}
# one update of a point: seconds per trial x N x d, and per trial x neuron
PER_ELEMENT = {"classical-sync": 0.9e-9, "dense": 6e-9, "exponential": 11e-9, "modern": 0.85e-9}
PER_ROW = {"classical-sync": 14e-9, "dense": 70e-9, "exponential": 165e-9, "modern": 22e-9}
STEP_OVERHEAD = {"classical-sync": 1e-5, "modern": 1e-5, "dense": 3e-5,
                 "exponential": 1e-4}  # seconds of small-array work per update of a chunk
POINT_OVERHEAD = 2e-4  # ... per point
BATCH_OVERHEAD = 2e-3  # ... per batch of async points, or chunk of the phase diagram
ASYNC_VISIT = 9e-6     # seconds per neuron visit of a batched async sweep
ASYNC_PER_ELEMENT = 1.1e-9  # ... per row x padded N of a visit
ASYNC_PER_ROW = 120e-9      # ... per row of a visit
PHASE_VISIT = 13e-6         # seconds per neuron visit of a chunk's Glauber sweep
PHASE_PER_ELEMENT = 1.1e-9  # ... per store x padded N of a visit
PHASE_PER_ROW = 65e-9       # ... per store of a visit
RAMP = {"classical-sync": (0.8, 0.6), "classical-async": (0.8, 0.6), "dense": (1.0, 2.0),
        "exponential": (0.9, 0.5)}  # (start, width at d = 100) of the loads (_load) where the
AVERAGE_RAMP = (0.9, 1.2)       # slowest trial, or a typical async one, starts to wander
SHARP = 40             # beta d from which the modern network settles in a few updates
MODERN_SLOW = 20       # its updates below
MB = 2 ** 20


def _load(variant: str, d: int, n: int, flip: float, degree: int) -> float:
    """How loaded a network is, about 1 where queries start to fail: N over the capacity,
    shrunk for a noisy query (the basins narrow with the load: by sqrt(1 - 2 flip) for the
    classical net, 1 - 2 flip for the dense one, as measured). The exponential network fails
    when the largest chance overlap of N - 1 others, sqrt(2 d ln N), reaches the query's own
    (1 - 2 flip) d: ln N over (1 - 2 flip)^2 d / 2."""
    if variant == "exponential":
        return math.log(max(n, 2)) / ((1 - 2 * flip) ** 2 * d / 2)
    noise = 0.5 if variant.startswith("classical") else 1.0
    return n / (textbook_capacity(variant, d, flip, degree) * (1 - 2 * flip) ** noise)


def _ramp(variant: str, d: int, load: float) -> float:
    """0 below RAMP's start, 1 past its end, a straight line between. The classical nets'
    ramp narrows as 1/sqrt(d) (at large d the loss of recall is sharp)."""
    lo, width = RAMP[variant]
    if variant.startswith("classical"):
        width *= math.sqrt(100 / d)
    return min(1.0, max(0.0, (load - lo) / width))


def steps(variant: str, d: int, n: int, flip: float, degree: int = 3, beta: float = 1.0) -> float:
    """Updates (sync steps, async sweeps, continuous updates) of one point until its last
    trial stops, the sync networks' stability check included: `settled` below the load where
    queries stop being recalled, `beyond` past it (where runs wander to their step limit, or
    to a 2-cycle that every trial of a chunk has reached), a ramp between."""
    settled = (1 if variant == "classical-async" else 2) + round(10 * flip)
    if variant == "modern":
        return (1 if flip == 0 else settled) if beta * d >= SHARP else MODERN_SLOW
    beyond = {"classical-sync": min(MAX_STEPS[variant] + 1, 10 + d / 10),
              "classical-async": min(MAX_STEPS[variant], 8 + d / 20),
              "dense": MAX_STEPS[variant] + 1, "exponential": MAX_STEPS[variant] + 1}[variant]
    return settled + (beyond - settled) * _ramp(variant, d, _load(variant, d, n, flip, degree))


def trial_sweeps(d: int, n: int, flip: float) -> float:
    """Async sweeps of a typical trial (each leaves its batch when it settles): fewer than
    steps(), which counts the last trial's, and growing at higher loads."""
    settled, beyond = 1 + round(10 * flip), 0.85 * steps("classical-async", d, 10 ** 9, flip)
    lo, width = AVERAGE_RAMP
    share = (_load("classical-async", d, n, flip, 2) - lo) / (width * math.sqrt(100 / d))
    return settled + (beyond - settled) * min(1.0, max(0.0, share))


def _point_seconds(variant, d, n, trials, flip, degree, beta) -> float:
    chunk = layout(variant, d, n, trials, RUN_BYTES)[0]
    k = steps(variant, d, n, flip, degree, beta)
    return (POINT_OVERHEAD + GEN[variant] * trials * n * d
            + k * (math.ceil(trials / chunk) * STEP_OVERHEAD[variant]
                   + trials * d * (PER_ELEMENT[variant] * n + PER_ROW[variant])))


def _async_seconds(d, ns, trials, flip) -> float:
    """The batches of an async curve (runs.async_plan): each point's rows sweep for the
    point's own count of sweeps, padded to their batch's largest N; a batch visits its
    neurons for its longest count."""
    total = 0.0
    for batch in async_plan(d, [int(n) for n in ns], trials, RUN_BYTES):
        swept = {k: steps("classical-async", d, int(ns[k]), flip) for k, _, _ in batch["segments"]}
        row_sweeps = sum(trial_sweeps(d, int(ns[k]), flip) * (b - a)
                         for k, a, b in batch["segments"])
        total += (BATCH_OVERHEAD + max(swept.values()) * d * ASYNC_VISIT
                  + row_sweeps * d * (ASYNC_PER_ELEMENT * batch["n_max"] + ASYNC_PER_ROW)
                  + GEN["classical-async"] * batch["rows"] * batch["n_max"] * d)
    return total


def curve_seconds(variant: str, d: int, ns, trials: int, flip: float = 0.0, degree: int = 3,
                  beta: float = 1.0) -> float:
    """One curve (estimated CPU seconds of one thread)."""
    if variant == "classical-async":
        return _async_seconds(d, ns, trials, flip)
    return sum(_point_seconds(variant, d, int(n), trials, flip, degree, beta) for n in ns)


def curves_seconds(variants, d: int, ns, trials: int, flips=(0.0,), degree: int = 3,
                   beta: float = 1.0) -> float:
    return sum(curve_seconds(v, d, ns, trials, f, degree, beta) for v in variants for f in flips)


def phase_loads(grid: int, max_load: float) -> tuple:
    """The loads of the lab's phase diagram: `grid` of them, evenly up to max_load."""
    return tuple(np.round(np.linspace(max_load / grid, max_load, grid), 4))


def phase_seconds(d: int, grid: int, trials: int, sweeps: int, max_load: float) -> float:
    """Each chunk of cells (phase.plan) sweeps its neurons `sweeps` times, its rows padded
    to its largest N."""
    chunks = phase.plan(d, phase_loads(grid, max_load), grid, trials, RUN_BYTES)
    visit = [PHASE_VISIT + c["rows"] * (PHASE_PER_ELEMENT * c["n"] + PHASE_PER_ROW) for c in chunks]
    return sum(BATCH_OVERHEAD + GEN["classical-async"] * c["rows"] * c["n"] * d + sweeps * d * v
               for c, v in zip(chunks, visit))


def curves_bytes(variants, d: int, ns, trials: int) -> int:
    """The peak bytes of the heaviest of these curves (each runs after the other)."""
    return max(curves.peak_bytes(v, d, ns, trials, RUN_BYTES) for v in variants)


def phase_bytes(d: int, grid: int, trials: int, max_load: float) -> int:
    return phase.peak_bytes(d, phase_loads(grid, max_load), range(grid), trials, RUN_BYTES)


def refusal(what: str, seconds: float, peak: int, unit: str, lower_memory: str,
            lower_time: str) -> str | None:
    """The sentence(s) that refuse a run over either limit, or None when it may run."""
    said = []
    if peak > RUN_BYTES:
        said.append(f"This {what} would need about {peak / MB:.0f} MB of the server's memory, "
                    f"even {unit} at a time; one run may use at most {RUN_BYTES / MB:.0f} MB, "
                    f"so that the class's server has room for everyone. Lower {lower_memory}.")
    if seconds > MAX_SECONDS:
        said.append(f"This {what} would take about {seconds:.0f} s of the server's time; one "
                    f"run may take at most {MAX_SECONDS:.0f} s, so that the class is not kept "
                    f"waiting. Lower {lower_time}.")
    return " ".join(said) or None


def curves_refusal(variants, d: int, ns, trials: int, flips=(0.0,), degree: int = 3,
                   beta: float = 1.0, what: str = "curve") -> str | None:
    """Why these curves (or a basin map: one variant, every flip) may not run, or None."""
    return refusal(what, curves_seconds(variants, d, ns, trials, flips, degree, beta),
                   curves_bytes(variants, d, ns, trials), "one trial", "d or the largest N",
                   "d, the trials, the points or the largest N")


def phase_refusal(d: int, grid: int, trials: int, sweeps: int, max_load: float) -> str | None:
    """Why this phase diagram may not run, or None when it may."""
    return refusal("phase diagram", phase_seconds(d, grid, trials, sweeps, max_load),
                   phase_bytes(d, grid, trials, max_load), "one cell of the grid",
                   "d, the largest load or the trials per cell",
                   "d, the grid points, the trials per cell or the sweeps")


def counts(lo: int, hi: int, points: int, log: bool) -> np.ndarray:
    """The numbers of patterns of a curve: `points` from lo to hi (evenly, or evenly on a log
    axis), rounded and without repeats."""
    grid = np.geomspace(lo, hi, points) if log and lo > 0 else np.linspace(lo, hi, points)
    return np.unique(np.round(grid).astype(np.int64))
