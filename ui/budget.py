"""How much one computation may cost, so that no student can hold the class's server.

One Streamlit process serves every student; a run that takes 20 s of CPU (a classical
network of d = 3072 neurons at temperature 1, which never settles, for 200 asynchronous
sweeps) stalls everyone else for as long. So each computation a rerun starts gets a budget
of RUN_SECONDS of CPU, and the step limit of a run is cut to what fits, with a sentence
that says so. The cost model is deterministic (steps from d and N, never from a clock), so
the same link gives every student the same run on any machine.

Seconds per unit of work were measured on this project's 2-core machine with the core's
own step functions (benchmarks/bench_budget.py prints them again, and the worst capped run
of each kind beside the same run uncapped); they are rounded up.
No streamlit here: ui.state applies the caps.
"""
from __future__ import annotations

import math

RUN_BYTES = 150 * 2 ** 20  # peak memory one run may allocate: with at most one heavy run per
                           # core at a time, a class stays within a few hundred MB of idle
RUN_SECONDS = 0.6  # CPU one run may take: with the figures (~0.2 s at d = 3072) and the
                   # measured spread of +-30 % on a busy machine, a rerun stays near a second

# seconds for one neuron visit of an asynchronous sweep (a Python loop over the neurons)
ASYNC_VISIT = {"classical": 45e-6, "dense": 120e-6}
# seconds for one synchronous step: classical W @ xi is d^2, dense compares N overlaps per neuron
SYNC_PER_D2 = 1.2e-9            # classical: seconds per d^2
SYNC_PER_ND = 100e-9            # dense: seconds per N * d
MODERN_PER_ND = 2.0e-9          # modern: one step and its energy, seconds per N * d
MODERN_STEP_OVERHEAD = 150e-6   # ... plus this per step (the small-array overhead)


def step_seconds(kind: str, mode: str, d: int, N: int) -> float:
    """Estimated CPU seconds of one step (one sweep for async binary networks)."""
    if kind == "modern":
        return MODERN_STEP_OVERHEAD + MODERN_PER_ND * N * d
    if mode == "async":
        return ASYNC_VISIT[kind] * d
    if kind == "classical":
        return 1e-4 + SYNC_PER_D2 * d * d
    return 1e-4 + SYNC_PER_ND * max(N, 1) * d


def max_steps(kind: str, mode: str, d: int, N: int, share: float = 1.0) -> int:
    """The most steps one run may take within `share` of the budget (at least 1)."""
    return max(1, math.floor(share * RUN_SECONDS / step_seconds(kind, mode, d, N)))


def cap(kind: str, mode: str, d: int, N: int, requested: int, share: float = 1.0) -> tuple[int, str | None]:
    """(steps to run, a sentence when fewer than requested are allowed)."""
    most = max_steps(kind, mode, d, N, share)
    if requested <= most:
        return requested, None
    return most, (f"This run stopped at {most} step{'s' if most > 1 else ''}, not the {requested} "
                  f"you asked for: at d = {d} neurons and {N} patterns a longer run would hold "
                  "the class's shared server for more than a second. A smaller image size in "
                  "the sidebar allows longer runs.")


def sweep_steps(d: int, N: int, runs: int, requested: int) -> int:
    """Steps for each of `runs` modern-network runs that must share one budget."""
    return min(requested, max_steps("modern", "", d, N, share=1.0 / runs))


def fits(seconds: float) -> bool:
    return seconds <= RUN_SECONDS


# learning the memories (hopfield_core.ebm.Trainer): one Adam step scores the training and
# held-out data (n points in all) against N patterns of d values
LEARN_STEP = 3e-4           # seconds of small-array work per step
LEARN_PER_NN = 25e-9        # seconds per n * N (the softmaxes)
LEARN_PER_NND = 1.5e-9      # seconds per n * N * d (the products)


def learn_seconds(n: int, N: int, d: int) -> float:
    """Estimated CPU seconds of one Adam step of the energy-based model."""
    return LEARN_STEP + LEARN_PER_NN * n * N + LEARN_PER_NND * n * N * d


def learn_cap(n: int, N: int, d: int, requested: int) -> tuple[int, str | None]:
    """(Adam steps to run, a sentence when fewer than requested are allowed)."""
    most = max(1, math.floor(RUN_SECONDS / learn_seconds(n, N, d)))
    if requested <= most:
        return requested, None
    return most, (f"Training stopped at {most} Adam steps, not the {requested} you asked for: "
                  f"with {n} images of d = {d} values and {N} patterns, longer training would "
                  "hold the class's shared server for more than a second. Fewer patterns or a "
                  "smaller image size in the sidebar allow longer training.")
