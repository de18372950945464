"""The classical network's phase diagram at finite d: where memory melts.

# L loads, K temperatures, T trials per cell; B = L K T stores run as one batch
# X (B, Nmax, d) +-1 patterns, the rows beyond a cell's N = round(load d) are zero

Each cell (load alpha = N / d, temperature T) stores N random patterns with the Hebbian
rule (zero diagonal), starts at pattern 0 and runs asynchronous Glauber dynamics, one neuron
at a time in a random order:
    P(s_i = +1) = 1 / (1 + exp(-2 h_i / T)),   h_i = (1/d) (sum_mu x_mu,i m_mu - N s_i)
(T = 0: s_i <- sgn(h_i), a tie keeps s_i). The cell's value is the overlap m_0 / d with the
starting pattern, averaged over the last `measure` sweeps and over the trials.

The theory it is compared with (ags.retrieval_boundary): in the limit d -> infinity the
retrieval states exist for T < T_M(alpha), T_M(0) = 1, down to alpha_c = 0.138 at T = 0.
At finite d the boundary is smeared and sits at larger loads: the crosstalk is a sum of
N d terms whose fluctuations the replica theory averages away, and a pattern that keeps
most of its bits (an overlap of 0.9 or so) still counts here, so the measured retrieval
region reaches past alpha_c and shrinks towards it as d grows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MIN_D, MAX_D = 16, 1000
MAX_GRID = 40          # points per axis
MAX_TRIALS = 32
MAX_SWEEPS = 200


@dataclass(frozen=True)
class PhaseDiagram:
    d: int
    loads: np.ndarray         # (L,) alpha = N / d asked for
    n_patterns: np.ndarray    # (L,) N = max(1, round(alpha d)) used
    temperatures: np.ndarray  # (K,)
    overlap: np.ndarray       # (L, K) mean final overlap with the starting pattern
    trials: int
    sweeps: int


def _axis(values, name: str, low: float, high: float) -> np.ndarray:
    a = np.asarray(values, dtype=float).ravel()
    if a.size == 0:
        raise ValueError(f"{name}: give at least one value")
    if a.size > MAX_GRID:
        raise ValueError(f"{name}: at most {MAX_GRID} values per axis, got {a.size}")
    if not np.all(np.isfinite(a)) or a.min() < low or a.max() > high:
        raise ValueError(f"{name} must lie in [{low}, {high}]")
    return a


def phase_diagram(d: int, loads, temperatures, trials: int = 4, sweeps: int = 30,
                  measure: int = 10, rng=None, progress=None) -> PhaseDiagram:
    """Final overlap over the grid loads x temperatures (module docstring), every cell and
    trial in one batch. progress(sweep, sweeps) is called after each sweep."""
    if isinstance(d, bool) or int(d) != d or not MIN_D <= d <= MAX_D:
        raise ValueError(f"d must be a whole number from {MIN_D} to {MAX_D}, got {d}")
    d = int(d)
    alphas = _axis(loads, "loads", 0.0, 1.0)
    temps = _axis(temperatures, "temperatures", 0.0, 5.0)
    for name, v, hi in (("trials", trials, MAX_TRIALS), ("sweeps", sweeps, MAX_SWEEPS),
                        ("measure", measure, sweeps)):
        if isinstance(v, bool) or int(v) != v or not 1 <= v <= hi:
            raise ValueError(f"{name} must be a whole number from 1 to {hi}, got {v}")
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    L, K, T = alphas.size, temps.size, int(trials)
    ns = np.maximum(1, np.round(alphas * d)).astype(np.int64)  # (L,)
    n_max = int(ns.max())
    B = L * K * T
    n_of = np.repeat(ns, K * T).astype(np.float32)             # (B,) N of each store
    temp_of = np.tile(np.repeat(temps, T), L).astype(np.float32)  # (B,)

    X = np.where(gen.random((B, n_max, d), dtype=np.float32) < 0.5, -1.0, 1.0).astype(np.float32)
    X[np.arange(n_max)[None, :] >= n_of[:, None]] = 0.0        # unused rows count for nothing
    XT = np.ascontiguousarray(X.transpose(0, 2, 1))            # (B, d, Nmax)
    s = X[:, 0, :].copy()                                      # (B, d) start at pattern 0
    m = np.matmul(X, s[:, :, None])[:, :, 0]                   # (B, Nmax) overlaps
    hot = temp_of > 0
    inv_t = np.where(hot, 1.0 / np.where(hot, temp_of, 1.0), 0.0).astype(np.float32)
    rows = np.arange(B)
    total = np.zeros(B)
    for sweep in range(int(sweeps)):
        order = np.argsort(gen.random((B, d)), axis=1)
        u = gen.random((d, B), dtype=np.float32)
        for k in range(d):
            i = order[:, k]
            col = XT[rows, i]                                   # (B, Nmax)
            cur = s[rows, i]
            h = (np.einsum("bn,bn->b", col, m) - n_of * cur) / d
            p_up = 0.5 * (1.0 + np.tanh(h * inv_t))
            new = np.where(hot, np.where(u[k] < p_up, 1.0, -1.0),
                           np.where(h > 0, 1.0, np.where(h < 0, -1.0, cur))).astype(np.float32)
            delta = new - cur
            if np.any(delta):
                m += delta[:, None] * col
                s[rows, i] = new
        if sweep >= sweeps - measure:
            total += m[:, 0] / d
        if progress is not None:
            progress(sweep + 1, int(sweeps))
    overlap = (total / measure).reshape(L, K, T).mean(axis=2)
    return PhaseDiagram(d, alphas, ns, temps, overlap, T, int(sweeps))


def phase_cost(d: int, n_loads: int, n_temperatures: int, trials: int, sweeps: int,
               max_load: float) -> float:
    """Elements the sweeps touch: cells x trials x sweeps x d x Nmax."""
    n_max = max(1, math.ceil(max_load * d))
    return float(n_loads) * n_temperatures * trials * sweeps * d * n_max
