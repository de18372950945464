"""The classical network's phase diagram at finite d: where memory melts.

# L loads, K temperatures, T trials per cell; a chunk holds the R = (its cells) x T stores
# XT (R, d, n) int8 +-1 patterns transposed, n the chunk's largest N; the rows beyond a
# cell's own N = round(load d) are zero

Each cell (load alpha = N / d, temperature T) stores N random patterns with the Hebbian
rule (zero diagonal), starts at pattern 0 and runs asynchronous Glauber dynamics, one neuron
at a time in a random order:
    P(s_i = +1) = 1 / (1 + exp(-2 h_i / T)),   h_i = (1/d) (sum_mu x_mu,i m_mu - N s_i)
(T = 0: s_i <- sgn(h_i), a tie keeps s_i). The cell's value is the overlap m_0 / d with the
starting pattern, averaged over the last `measure` sweeps and over the trials.

The cells run in chunks (in order of N, each padded to its own largest N) whose arrays fit
a byte budget, so that the peak memory does not grow with the grid or the trials (peak_bytes
says it before a run). Each cell draws from its own random stream, seeded by (seed, d, N,
temperature): its patterns, then each sweep's orders and coin flips. So a cell's result does
not depend on the chunks, nor on the other cells of the grid.

The theory it is compared with (ags.retrieval_boundary): in the limit d -> infinity the
retrieval states exist for T < T_M(alpha), T_M(0) = 1, down to alpha_c = 0.138 at T = 0.
At finite d the boundary is smeared and sits at larger loads: the crosstalk is a sum of
N d terms whose fluctuations the replica theory averages away, and a pattern that keeps
most of its bits (an overlap of 0.9 or so) still counts here, so the measured retrieval
region reaches past alpha_c and shrinks towards it as d grows.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .curves import point_seed
from .rules import overlaps_T
from .stores import BUDGET, SMALL, Stream, gen_bytes

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


def _row_bytes(d: int, n: int) -> int:
    """One store of a chunk: XT int8, its state, orders and coin flips, a visit's column."""
    return d * n + 40 * d + 16 * n


def plan(d: int, loads, n_temperatures: int, trials: int, budget: int = BUDGET) -> list[dict]:
    """The chunks of a phase diagram: cells (load index, temperature index) in ascending N,
    as many to a chunk as fit the budget (one cell at least). Each chunk: cells, rows
    (stores), n (its largest N) and peak (bytes)."""
    ns = n_patterns(d, loads)
    # a cell's patterns being made, its orders being sorted
    fixed = gen_bytes(trials, int(ns.max()), d) + 24 * trials * d + SMALL
    chunks, cells = [], []
    for l in np.argsort(ns, kind="stable"):
        for k in range(n_temperatures):
            if cells and fixed + (len(cells) + 1) * trials * _row_bytes(d, ns[l]) > budget:
                chunks.append(cells)
                cells = []
            cells.append((int(l), k))
    chunks.append(cells)
    return [{"cells": c, "rows": len(c) * trials, "n": int(ns[c[-1][0]]),
             "peak": fixed + len(c) * trials * _row_bytes(d, int(ns[c[-1][0]]))} for c in chunks]


def n_patterns(d: int, loads) -> np.ndarray:
    """(L,) N = max(1, round(alpha d)) for each load."""
    return np.maximum(1, np.round(np.asarray(loads, dtype=float) * d)).astype(np.int64)


def peak_bytes(d: int, loads, temperatures, trials: int, budget: int = BUDGET) -> int:
    """The most bytes a phase_diagram run with these parameters holds at once, worked out
    before it runs. Above `budget` only when one cell alone does not fit."""
    return max(c["peak"] for c in plan(d, loads, len(temperatures), trials, budget))


def phase_diagram(d: int, loads, temperatures, trials: int = 4, sweeps: int = 30,
                  measure: int = 10, rng=None, progress=None,
                  budget: int = BUDGET) -> PhaseDiagram:
    """Final overlap over the grid loads x temperatures (module docstring), the cells in
    chunks that fit `budget` bytes. rng: a seed (None: 0) or a Generator (one draw of it
    seeds the cells). progress(k, sweeps) is called `sweeps` times, the k-th when k / sweeps
    of the work is done (after sweep k when the grid is one chunk)."""
    if isinstance(d, bool) or int(d) != d or not MIN_D <= d <= MAX_D:
        raise ValueError(f"d must be a whole number from {MIN_D} to {MAX_D}, got {d}")
    d = int(d)
    alphas = _axis(loads, "loads", 0.0, 1.0)
    temps = _axis(temperatures, "temperatures", 0.0, 5.0)
    for name, v, hi in (("trials", trials, MAX_TRIALS), ("sweeps", sweeps, MAX_SWEEPS),
                        ("measure", measure, sweeps)):
        if isinstance(v, bool) or int(v) != v or not 1 <= v <= hi:
            raise ValueError(f"{name} must be a whole number from 1 to {hi}, got {v}")
    seed, T, sweeps = point_seed(rng), int(trials), int(sweeps)
    ns = n_patterns(d, alphas)
    overlap = np.empty((alphas.size, temps.size))
    chunks = plan(d, alphas, temps.size, T, budget)
    for c, chunk in enumerate(chunks):
        def tick(sweep, c=c):  # one in len(chunks) sweeps of a chunk is a sweep's worth
            done = c * sweeps + sweep
            if progress is not None and done % len(chunks) == 0:
                progress(done // len(chunks), sweeps)
        got = _glauber(d, [(int(ns[l]), float(temps[k])) for l, k in chunk["cells"]],
                       chunk["n"], T, sweeps, int(measure), seed, tick)
        for (l, k), value in zip(chunk["cells"], got):
            overlap[l, k] = value
    return PhaseDiagram(d, alphas, ns, temps, overlap, T, sweeps)


def _glauber(d, cells, n_max, T, sweeps, measure, seed, tick) -> np.ndarray:
    """The mean overlap of each cell (N, temperature) of one chunk, T stores each."""
    B = len(cells) * T
    XT = np.zeros((B, d, n_max), dtype=np.int8)   # (B, d, n) the patterns transposed
    gens = []
    for c, (N, temp) in enumerate(cells):
        key = (1, int(np.float64(temp).view(np.uint64)))  # 1: a phase diagram's cell
        stream = Stream(seed, d, N, T, 0, key)
        stream.patterns(0, T, np.int8, transposed=True, out=XT[c * T:(c + 1) * T, :, :N])
        gens.append(stream.generator(T * N * d))  # then its sweeps' numbers
    n_of = np.repeat([N for N, _ in cells], T).astype(np.float32)       # (B,)
    temp_of = np.repeat([t for _, t in cells], T).astype(np.float32)    # (B,)
    s = XT[:, :, 0].astype(np.float32)                      # (B, d) start at pattern 0
    m = overlaps_T(XT, s, np.float32)                       # (B, n) overlaps, exact
    flat_s, flat_xt, base = s.reshape(-1), XT.reshape(B * d, n_max), np.arange(B) * d
    total = np.zeros(B)
    for sweep in range(sweeps):
        order = (np.concatenate([np.argsort(g.random((T, d)), axis=1) for g in gens])
                 + base[:, None]).T.copy()                  # (d, B) the visits, in order
        u = np.concatenate([g.random((d, T), dtype=np.float32) for g in gens], axis=1)  # (d, B)
        # s_i = +1 with probability (1 + tanh(h_i / T)) / 2: where d h_i > d T atanh(2u - 1);
        # at T = 0 where d h_i > 0 (and a tie, d h_i = 0, keeps s_i)
        with np.errstate(divide="ignore", invalid="ignore"):  # u = 0: -inf, always +1
            bar = np.where(temp_of > 0, d * temp_of * np.arctanh(2 * u - 1), 0).astype(np.float32)
        for k in range(d):
            at = order[k]
            col = flat_xt.take(at, axis=0).astype(np.float32)      # (B, n)
            cur = flat_s.take(at)
            dh = np.einsum("bn,bn->b", col, m) - n_of * cur  # d h_i
            flip = np.flatnonzero((dh - bar[k]) * cur < 0)  # the other side of the bar
            if flip.size:
                m[flip] -= (2 * cur[flip])[:, None] * col[flip]
                flat_s[at[flip]] = -cur[flip]
        if sweep >= sweeps - measure:
            total += m[:, 0] / d
        tick(sweep + 1)
    return (total / measure).reshape(len(cells), T).mean(axis=1)
