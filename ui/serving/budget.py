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

Memory is bounded the same way: each run may allocate at most RUN_BYTES at its peak. The
peak is estimated from the run's sizes before it runs (the core's estimators, beside the
maths they describe, combined here with what the app keeps of a run); the step limit is cut
to what fits, and a network too large to build at all is refused, each with a sentence that
names the limit and what to lower. tests/ui/serving/test_memory_budget.py checks every
estimate against the measured peak; benchmarks/bench_page_memory.py prints them side by side.
No streamlit here: ui.player.runs applies the caps.
"""
from __future__ import annotations

import math

from hopfield_core import classical, dense

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
    """Steps for each of `runs` modern-network runs that must share one budget: the CPU and
    the memory alike (sweep_bytes: one run's trajectory at a time, and each run's end)."""
    by_memory = requested
    while by_memory > 1 and sweep_bytes(d, N, runs, by_memory) > RUN_BYTES:
        by_memory //= 2
    return min(requested, max_steps("modern", "", d, N, share=1.0 / runs), by_memory)


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


# ---------------------------------------------------------------- memory

MB = 2 ** 20
MODELS_BYTES = 2 * RUN_BYTES  # the built networks ui.player.runs keeps for reuse, all together
MOST_STEPS = 2 ** 20          # a bound for the search of max_steps_bytes (pages ask for <= 2000)


def megabytes(n: float) -> str:
    return f"{n / MB:.0f} MB"


def network_bytes(kind: str, d: int, N: int, cfg: dict | None = None) -> tuple[int, int]:
    """(bytes a built network keeps, peak bytes of building it) for ui.player.runs.build_model."""
    if kind == "classical":
        rule = (cfg or {}).get("learning_rule", "hebbian")
        return classical.network_bytes(N, d, rule), classical.build_bytes(N, d, rule)
    if kind == "dense":  # the checked copy of X and its columns
        return dense.network_bytes(N, d), dense.network_bytes(N, d)
    return 8 * N * d, 2 * 8 * N * d  # modern: X, and a float64 copy for the norms


def modern_run_bytes(N: int, d: int, steps: int, itemsize: int = 8) -> int:
    """Peak bytes of ModernHopfield.run: each state in a list, stacked, and the energy's
    xi * xi (three arrays of the stacked size), the (T+1, N) scores, their log-sum-exp and the
    weights, plus a step's temporaries."""
    per_state = 3 * itemsize * d + 5 * 8 * N + classical.STATE_OBJECT
    return per_state * (steps + 1) + 8 * 8 * d + classical.SMALL_BYTES


def kept_bytes(d: int, N: int, steps: int, pixels: int | None = None) -> int:
    """What the app makes of a run of `steps` steps: its trajectory, kept once and shared
    (ui.player.runs.RUNS: the states, the energies and a modern run's (T+1, N) weights), and the
    player's analysis (ui.player.player_cache.PLAYER: the frames as H x W x 3 bytes, built in place
    one state at a time, and the (T+1, N) overlaps), plus one state's float picture.
    pixels: H x W of a picture (default d, the most a grey image of d neurons has)."""
    pixels = d if pixels is None else pixels
    per_state = 8 * d + 8 + 8 * N + 3 * pixels + 8 * N + classical.STATE_OBJECT
    return per_state * (steps + 1) + 4 * 8 * 3 * pixels + classical.SMALL_BYTES


def run_bytes(kind: str, mode: str, d: int, N: int, steps: int, cfg: dict | None = None,
              pixels: int | None = None) -> int:
    """Peak bytes of one run as ui.player.runs.run makes it: building the network, or the network
    kept beside the larger of the run itself and what the app keeps of it (kept_bytes)."""
    held, build = network_bytes(kind, d, N, cfg)
    if kind == "classical":
        core = classical.run_bytes(N, d, steps, mode)
    elif kind == "dense":
        core = dense.run_bytes(N, d, steps, mode)
    else:
        core = modern_run_bytes(N, d, steps)
    return max(build, held + max(core, kept_bytes(d, N, steps, pixels)))


def max_steps_bytes(kind: str, mode: str, d: int, N: int, share: float = 1.0,
                    cfg: dict | None = None, pixels: int | None = None) -> int:
    """The most steps whose run fits in `share` of RUN_BYTES: 0 when not even one does."""
    limit = share * RUN_BYTES
    if run_bytes(kind, mode, d, N, 1, cfg, pixels) > limit:
        return 0
    lo, hi = 1, MOST_STEPS  # run_bytes grows with the steps: the largest that fits
    while lo < hi:
        mid = (lo + hi + 1) // 2
        fits_mid = run_bytes(kind, mode, d, N, mid, cfg, pixels) <= limit
        lo, hi = (mid, hi) if fits_mid else (lo, mid - 1)
    return lo


def memory_cap(kind: str, mode: str, d: int, N: int, requested: int, share: float = 1.0,
               cfg: dict | None = None, pixels: int | None = None) -> tuple[int, str | None]:
    """(steps to run, a sentence) by memory alone: (0, the sentence that refuses the network)
    when not even one step fits."""
    most = max_steps_bytes(kind, mode, d, N, share, cfg, pixels)
    if most == 0:
        return 0, over(run_bytes(kind, mode, d, N, 1, cfg, pixels),
                       f"The {kind} network at d = {d} neurons with {N} patterns",
                       "A smaller image size in the sidebar (or fewer stored patterns) brings "
                       "it back.", share)
    if requested <= most:
        return requested, None
    return most, (f"This run stopped at {most} steps, not the {requested} you asked for: at "
                  f"d = {d} neurons, keeping every state of a longer run, with its pictures, "
                  f"would take more than the {megabytes(share * RUN_BYTES)} of the class's "
                  "shared server's memory that this run may use. A smaller image size in the "
                  "sidebar allows longer runs.")


def run_cap(kind: str, mode: str, d: int, N: int, requested: int, share: float = 1.0,
            cfg: dict | None = None, pixels: int | None = None) -> tuple[int, str | None]:
    """(steps to run, a sentence when fewer than requested are allowed) within both the CPU
    and the memory budget; (0, refusal) when the network does not fit in memory at all."""
    by_memory = memory_cap(kind, mode, d, N, requested, share, cfg, pixels)
    by_cpu = cap(kind, mode, d, N, requested, share)
    if by_memory[0] == 0:
        return by_memory
    return min(by_cpu, by_memory, key=lambda c: c[0])


def over(need: int, what: str, lower: str, share: float = 1.0) -> str | None:
    """None when `need` bytes fit in `share` of RUN_BYTES, else the sentence that refuses:
    `what` (e.g. "The energy on this plane") needs more than the limit; `lower` says what to
    lower (e.g. "A smaller image size in the sidebar brings it back.")."""
    limit = share * RUN_BYTES
    if need <= limit:
        return None
    return (f"{what} would need about {megabytes(need)} of memory, more than the "
            f"{megabytes(limit)} of the class's shared server that one computation may use. "
            f"{lower}")


def sweep_bytes(d: int, N: int, runs: int, steps: int) -> int:
    """Peak bytes of the modern page's beta sweep (metastable.beta_sweep): the runs follow one
    another and each keeps only a copy of its end (the last state and its weights), so one
    run's peak and its network's float64 copy of X, beside every run's end, listed and then
    stacked."""
    ends = 2 * runs * (8 * (d + N) + classical.STATE_OBJECT)
    return ends + modern_run_bytes(N, d, steps) + 2 * 8 * N * d


def attention_check_bytes(n_q: int, n_k: int, d_in: int, d_k: int | None = None,
                          heads: int = 1) -> int:
    """Peak bytes of the attention page's PyTorch check (hopfield_core.reference.sdpa):
    float64 copies of Q, K and V, one projection matrix copied at a time, the projected
    queries, keys and values split into heads (and copied back), and the scores."""
    width = d_in if d_k is None else heads * d_k
    projection = 0 if d_k is None else 8 * d_in * width
    projected = 0 if d_k is None else 8 * 2 * (n_q + 2 * n_k) * width
    return (8 * (n_q + 2 * n_k) * d_in + projection + projected + 8 * 3 * heads * n_q * n_k
            + 8 * 2 * n_q * width + 2 ** 12)
