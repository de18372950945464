"""Measured capacity: how often a network recalls a stored pattern, against the load.

# T trials (t of a chunk), N patterns, d neurons
# X (t, N, d) random +-1 patterns, a fresh store per trial (int8 where they are kept, float64
# where they are multiplied); s (t, d) one state per trial; m = X s (t, N) the overlaps

One point of a curve (`success_point`): T independent stores of N random patterns. Each
trial's query is its pattern 0 with round(flip d) bits flipped (flip = 0: the pattern
itself). The network runs to a fixed point (or the step limit), and the final overlap is
x_0 . s / d (the cosine of the angle for the continuous modern network). A trial succeeds
when the final overlap is at least SUCCESS_OVERLAP. The trials run as batches of array
operations, in chunks whose size comes from a byte budget (runs.py), so that a run's peak
memory is set by the budget, not by the trial count (peak_bytes says it before a run); the
chunks change no result. The asynchronous sweeps use one random order per trial.

The updates (Hebbian couplings W = X^T X / d with a zero diagonal for the classical net):
  classical-sync   d h = X^T (X s) - N s, then s <- sgn(h) for every neuron at once
  classical-async  the same field, one neuron at a time in a random order (whole sweeps)
  dense            F(z) = z^n, every neuron at once:
                   s_i <- sgn( sum_mu F(r_mu,i + x_mu,i) - F(r_mu,i - x_mu,i) ),
                   r_mu,i = m_mu - x_mu,i s_i (the overlap without neuron i)
  exponential      the same with F(z) = exp(beta z), compared as log-sum-exp (no overflow)
  modern           xi <- X^T softmax(beta X xi), continuous states (Ramsauer et al. 2020)
In the binary rules a tie keeps the current value: h = 0 for the classical rule (whole
numbers), a difference within float64's rounding of computing it for the dense and exponential
rules (numerics.tie_tolerance, the network class's own).

Also measured on the same stores:
  stable      (binary variants) the fraction of trials whose pattern 0 is a fixed point: no
              neuron changes in one update (then it is also a fixed point of async updates)
  guaranteed  (modern) the fraction of trials that Ramsauer et al.'s theorem covers: pattern
              0 meets the separation condition
                  Delta = x_0 . x_0 - max_{mu != 0} x_0 . x_mu
                        >= 2 / (beta N) + (1 / beta) ln(2 (N - 1) N beta M^2),  M^2 = d,
              AND the query lies in the sphere S_0 of radius 1/(beta N M) around x_0, from
              which the update converges to a fixed point in S_0. The theorem says nothing
              of a query outside S_0: a +-1 query with k flipped bits lies 2 sqrt(k) from
              x_0, inside S_0 only when 1/(beta N sqrt(d)) >= 2 sqrt(k). With the lab's betas
              (>= 0.05) that happens only for a store of one pattern with beta sqrt(d) <= 1/2
              (d = 16, beta = 0.05: radius 5, up to 6 flipped bits); otherwise nothing is
              guaranteed past flip 0. A sufficient condition, so a lower bound on `success`
              at every flip
The random stores depend only on (seed, d, N, the number of flipped bits) (stores.py), not on
the variant or its parameters: variants compared at one seed see the same patterns, and a
point is the same whatever range of loads it was computed in (so a page can cache it alone),
whether it ran alone (`success_point`) or batched with others (`success_points`), and
whatever the byte budget cut it into.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import runs
from .stores import BUDGET, Stream

VARIANTS = ("classical-sync", "classical-async", "dense", "exponential", "modern")
SUCCESS_OVERLAP = 0.97
MIN_D, MAX_D = 4, 2000
MAX_TRIALS = 1000
MIN_DEGREE, MAX_DEGREE = 2, 6
MAX_STEPS = {"classical-sync": 50, "classical-async": 30, "dense": 30, "exponential": 30,
             "modern": 30}  # sync steps, async sweeps, or continuous updates


@dataclass(frozen=True)
class Point:
    """One load: the means over `trials` stores of N patterns."""
    n_patterns: int
    mean_overlap: float
    success: float
    stable: float      # nan for the modern network
    guaranteed: float  # nan for the binary variants


@dataclass(frozen=True)
class Curve:
    """success_curve's result: arrays over n_patterns."""
    variant: str
    d: int
    trials: int
    flip: float
    params: dict
    n_patterns: np.ndarray
    mean_overlap: np.ndarray
    success: np.ndarray
    stable: np.ndarray
    guaranteed: np.ndarray

    @property
    def load(self) -> np.ndarray:
        """N / d."""
        return self.n_patterns / self.d


@dataclass(frozen=True)
class BasinMap:
    """Success over a grid: rows are flip fractions, columns numbers of patterns."""
    variant: str
    d: int
    trials: int
    params: dict
    n_patterns: np.ndarray  # (P,)
    flips: np.ndarray       # (F,)
    success: np.ndarray     # (F, P)
    mean_overlap: np.ndarray = field(repr=False)  # (F, P)


# ------------------------------------------------------------------ checks

def check_variant(variant: str, params: dict) -> dict:
    """The variant's parameters, validated and completed with their defaults."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}; got {variant!r}")
    unknown = set(params) - {"degree", "beta"}
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}: only degree and beta")
    if variant == "dense":
        n = params.get("degree", 3)
        if isinstance(n, bool) or int(n) != n or not MIN_DEGREE <= n <= MAX_DEGREE:
            raise ValueError(f"degree must be a whole number from {MIN_DEGREE} to {MAX_DEGREE}, "
                             f"got {n}")
        return {"degree": int(n)}
    if variant in ("exponential", "modern"):
        beta = float(params.get("beta", 1.0))
        if not (math.isfinite(beta) and 0 < beta <= 1e3):
            raise ValueError(f"beta must be a number in (0, 1000], got {params.get('beta')}")
        return {"beta": beta}
    return {}


def _check_d_trials(d, trials) -> tuple[int, int]:
    if isinstance(d, bool) or int(d) != d or not MIN_D <= d <= MAX_D:
        raise ValueError(f"d, the number of neurons, must be a whole number from {MIN_D} to "
                         f"{MAX_D}, got {d}")
    if isinstance(trials, bool) or int(trials) != trials or not 1 <= trials <= MAX_TRIALS:
        raise ValueError(f"trials must be a whole number from 1 to {MAX_TRIALS}, got {trials}")
    return int(d), int(trials)


def _check_flip(flip) -> float:
    flip = float(flip)
    if not (math.isfinite(flip) and 0.0 <= flip <= 0.5):
        raise ValueError(f"flip, the fraction of the query's bits flipped, must be in [0, 0.5], "
                         f"got {flip}")
    return flip


def _check_counts(n_patterns) -> np.ndarray:
    ns = np.asarray(n_patterns)
    if ns.ndim != 1 or ns.size == 0:
        raise ValueError("n_patterns must be a non-empty list of pattern counts")
    if not np.all(np.isfinite(ns.astype(float))) or np.any(ns != np.round(ns)) or np.any(ns < 1):
        raise ValueError("every number of patterns must be a whole number >= 1")
    return ns.astype(np.int64)


def point_seed(rng) -> int:
    """The base seed of a curve: an int as given, or one draw from a Generator."""
    if rng is None:
        return 0
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(2**62))
    if isinstance(rng, (bool, np.bool_)) or int(rng) != rng or rng < 0:
        raise ValueError(f"rng must be a Generator or a whole number >= 0, got {rng!r}")
    return int(rng)


# ------------------------------------------------------------------ points and curves

def success_point(variant: str, d: int, n_patterns: int, trials: int, flip: float = 0.0,
                  seed: int = 0, max_steps: int | None = None, budget: int = BUDGET,
                  **params) -> Point:
    """One load of a success curve (module docstring), its trials in chunks that keep the
    run's arrays within `budget` bytes (one trial at least)."""
    params = check_variant(variant, params)
    d, trials = _check_d_trials(d, trials)
    flip = _check_flip(flip)
    N = int(_check_counts([n_patterns])[0])
    if variant == "classical-async":
        return success_points(variant, d, [N], trials, flip, seed, max_steps, budget=budget)[0]
    steps = MAX_STEPS[variant] if max_steps is None else int(max_steps)
    stream = Stream(seed, d, N, trials, round(flip * d))
    if variant == "modern":
        overlap, guaranteed = runs.modern_point(stream, params["beta"], steps, budget)
        stable, guaranteed = math.nan, float(np.mean(guaranteed))
    else:
        overlap, stable = runs.binary_point(variant, stream, params, steps, budget)
        stable, guaranteed = float(np.mean(stable)), math.nan
    return Point(N, float(np.mean(overlap)), float(np.mean(overlap >= SUCCESS_OVERLAP)),
                 stable, guaranteed)


def success_points(variant: str, d: int, n_patterns, trials: int, flip: float = 0.0,
                   seed: int = 0, max_steps: int | None = None, progress=None,
                   budget: int = BUDGET, **params) -> list[Point]:
    """success_point for each number of patterns, in the order given. The classical-async
    points run together as padded batches that fit the budget (one Python loop over the
    neurons per sweep for many points, not one per point), with the same results.
    progress(i, point) is called as each point finishes (async points in the order they
    settle)."""
    params = check_variant(variant, params)
    d, trials = _check_d_trials(d, trials)
    flip = _check_flip(flip)
    ns = [int(N) for N in _check_counts(n_patterns)]
    out: list = [None] * len(ns)

    def finish(i, point):
        out[i] = point
        if progress is not None:
            progress(i, point)

    if variant != "classical-async":  # one point at a time is as fast (no per-neuron loop)
        for i, N in enumerate(ns):
            finish(i, success_point(variant, d, N, trials, flip, seed, max_steps, budget,
                                    **params))
        return out

    def done(i, overlap, stable):
        finish(i, Point(ns[i], float(np.mean(overlap)),
                        float(np.mean(overlap >= SUCCESS_OVERLAP)), stable, math.nan))

    steps = MAX_STEPS[variant] if max_steps is None else int(max_steps)
    runs.async_points(d, ns, trials, round(flip * d), seed, steps, budget, done)
    return out


def peak_bytes(variant: str, d: int, n_patterns, trials: int, budget: int = BUDGET) -> int:
    """The most bytes a success_points run with these parameters holds at once (its
    chunks' arrays and temporaries, rounded up), worked out before it runs. Above `budget`
    only when one trial alone does not fit."""
    ns = [int(N) for N in n_patterns]
    if variant == "classical-async":
        return max(b["peak"] for b in runs.async_plan(d, ns, trials, budget))
    return max(runs.layout(variant, d, N, trials, budget)[1] for N in ns)


def success_curve(variant: str, d: int, n_patterns, trials: int, flip: float = 0.0, rng=None,
                  progress=None, budget: int = BUDGET, **params) -> Curve:
    """Success and mean final overlap for each number of patterns (DESIGN 3.7).

    rng: a seed (int) or a Generator (one draw of it seeds the curve); the stores of each
    point depend only on (seed, d, N, flipped bits). progress(i, point), if given, is called
    after each point, so a page can draw the curve as it grows."""
    params = check_variant(variant, params)
    d, trials = _check_d_trials(d, trials)
    flip = _check_flip(flip)
    ns = _check_counts(n_patterns)
    seed = point_seed(rng)
    points = success_points(variant, d, ns, trials, flip, seed, progress=progress,
                            budget=budget, **params)
    return curve_from_points(variant, d, trials, flip, params, points)


def curve_from_points(variant, d, trials, flip, params, points) -> Curve:
    """A Curve from its points (e.g. points cached one by one)."""
    col = lambda name: np.array([getattr(p, name) for p in points], dtype=float)  # noqa: E731
    return Curve(variant, int(d), int(trials), float(flip), dict(params),
                 np.array([p.n_patterns for p in points], dtype=np.int64),
                 col("mean_overlap"), col("success"), col("stable"), col("guaranteed"))


def basin_map(variant: str, d: int, n_patterns, flips, trials: int, rng=None,
              progress=None, budget: int = BUDGET, **params) -> BasinMap:
    """Success over a grid of (flip fraction, number of patterns): how wide each memory's
    basin of attraction stays as the load grows. progress(k, total) after each point."""
    params = check_variant(variant, params)
    d, trials = _check_d_trials(d, trials)
    ns = _check_counts(n_patterns)
    fs = np.asarray([_check_flip(f) for f in np.atleast_1d(flips)], dtype=float)
    if fs.size == 0:
        raise ValueError("flips must be a non-empty list of flip fractions")
    seed = point_seed(rng)
    success = np.empty((fs.size, ns.size))
    overlap = np.empty((fs.size, ns.size))
    for a, f in enumerate(fs):
        for b, N in enumerate(ns):
            p = success_point(variant, d, int(N), trials, f, seed, budget=budget, **params)
            success[a, b], overlap[a, b] = p.success, p.mean_overlap
            if progress is not None:
                progress(a * ns.size + b + 1, fs.size * ns.size)
    return BasinMap(variant, d, trials, params, ns, fs, success, overlap)
