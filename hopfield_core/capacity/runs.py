"""The runs behind one point of a success curve, a chunk of trials at a time, and the bytes
each holds at its peak (so that a page can know a run's memory before it starts).

# T trials of a point, t of a chunk; N patterns, d neurons; R rows of an async batch
# X (t, N, d) float64 or XT (t, d, N) int8 a chunk's patterns; s (t, d) states

A chunk's size comes from a byte budget, so a run's peak memory is set by its chunk, never
by its trial count. Chunking changes no result, bit for bit: every trial draws its own
numbers (stores.Stream), and where a whole batch decides together (a synchronous run stops
when every trial is at a fixed point, or in a 2-cycle, after the same number of steps; the
modern network when no trial moves by 1e-9), each chunk reports where it stopped and how,
and the run's common stop is worked out from those reports:
  binary (sync)  a chunk that stops is, from there on, fixed or in a 2-cycle, so its states
                 at the common stop are those at its own stop or one step before (by parity)
  modern         a chunk whose stop came early is run again, from its query, to the common
                 stop (rare: sharp attention settles every trial at the same step)
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np

from . import rules
from .stores import SMALL, Stream, chunk_trials, chunks, gen_bytes

INF = math.inf


# ------------------------------------------------------------------ bytes

def layout(variant: str, d: int, N: int, trials: int, budget: int) -> tuple[int, int]:
    """(trials per chunk, peak bytes) of one point of a synchronous or modern run."""
    gen = gen_bytes(trials, N, d)
    if variant == "classical-sync":   # X float64; matmul outputs, states and queries
        per, work = 8 * N * d + 16 * N + 80 * d, lambda t: gen
    elif variant == "modern":         # X float64; overlaps and softmax; states
        per, work = 8 * N * d + 40 * N + 64 * d, lambda t: gen
    else:                             # dense, exponential: XT int8, float blocks
        per, work = N * d + 16 * N + 96 * d, lambda t: max(gen, rules.block_bytes(t, d, N))
    t = chunk_trials(trials, per, work(trials) + SMALL, budget)
    return t, t * per + work(t) + SMALL


def _row_bytes(d: int, n_max: int) -> int:
    """One row of an async batch: XT int8, states and orders, overlaps and a visit's column."""
    return d * n_max + 48 * d + 24 * n_max


def async_plan(d: int, ns, trials: int, budget: int) -> list[dict]:
    """The batches of a classical-async curve: its points in ascending N, each point's trials
    cut into segments (k, a, b) so that every batch fits the budget (a batch of one row may
    not: then its peak says so). Each batch: segments, rows, n_max (its largest N, the width
    of all its rows) and peak (bytes)."""
    d, n_top = int(d), max(int(n) for n in ns)
    fixed = max(gen_bytes(trials, n_top, d), rules.block_bytes(trials, d, n_top)) + SMALL
    plan, batch = [], {"segments": [], "rows": 0, "n_max": 0}
    for k in sorted(range(len(ns)), key=lambda k: ns[k]):
        N, a = int(ns[k]), 0
        while a < trials:
            room = (budget - fixed) // _row_bytes(d, N) - batch["rows"]  # all padded to N
            if room < 1 and batch["rows"]:
                plan.append(batch)
                batch = {"segments": [], "rows": 0, "n_max": 0}
                continue
            b = a + int(min(trials - a, max(1, room)))
            batch["segments"].append((k, a, b))
            batch["rows"], batch["n_max"], a = batch["rows"] + b - a, N, b
    plan.append(batch)
    for b in plan:
        b["peak"] = fixed + b["rows"] * _row_bytes(d, b["n_max"])
    return plan


# ------------------------------------------------------------------ synchronous binary runs

def _steps(step, q: np.ndarray, max_steps: int):
    """Runs step from q until every trial is at a fixed point, or (sync) a 2-cycle, or
    max_steps: (the loop index i it stopped at, "fixed" | "cycle" | "none", the states
    after step i + 1, the states after step i)."""
    prev, s = None, q
    for i in range(max_steps):
        new = step(s)
        if np.array_equal(new, s):
            return i, "fixed", new, s
        if prev is not None and np.array_equal(new, prev):
            return i, "cycle", new, s
        prev, s = s, new
    return max_steps - 1, "none", s, prev if prev is not None else s


def _common_stop(reports, max_steps: int) -> int:
    """The number of steps an all-trials-at-once run takes: it stops at the first loop index
    where every trial is fixed, or every trial repeats the state of two steps before."""
    fixed = max(i if how == "fixed" else INF for i, how in reports)
    cycle = max(i + 1 if how == "fixed" else i if how == "cycle" else INF for i, how in reports)
    stop = min(fixed, cycle)
    return int(stop) + 1 if stop < max_steps else max_steps


def _binary_chunk(variant, stream, a, b, params, max_steps):
    """One chunk of binary_point: (stable (t,), stop report, overlaps at the chunk's stop,
    overlaps one step before)."""
    if variant == "classical-sync":
        X = stream.patterns(a, b)
        x0, step = X[:, 0, :], partial(rules.classical_sync, X)
    else:
        XT = stream.patterns(a, b, np.int8, transposed=True)
        x0 = XT[:, :, 0].astype(np.float64)
        step = partial(rules.pairwise, XT, variant=variant, params=params)
    stable = np.all(step(x0) == x0, axis=1)
    i, how, s_stop, s_before = _steps(step, stream.queries(x0, a), max_steps)
    return stable, (i, how), final_overlap(s_stop, x0), final_overlap(s_before, x0)


def binary_point(variant: str, stream: Stream, params: dict, max_steps: int, budget: int):
    """(final overlaps (T,), stable (T,) bool) of a classical-sync, dense or exponential
    point, a chunk at a time."""
    T = stream.trials
    parts = chunks(T, layout(variant, stream.d, stream.N, T, budget)[0])
    stable = np.empty(T, dtype=bool)
    at_stop, before, reports = np.empty(T), np.empty(T), []
    for a, b in parts:
        stable[a:b], report, at_stop[a:b], before[a:b] = _binary_chunk(variant, stream, a, b,
                                                                       params, max_steps)
        reports.append(report)
    J = _common_stop(reports, max_steps)
    for (a, b), (i, _) in zip(parts, reports):
        if (J - i - 1) % 2:
            at_stop[a:b] = before[a:b]
    return at_stop, stable


def final_overlap(s: np.ndarray, x0: np.ndarray) -> np.ndarray:
    return np.einsum("td,td->t", s, np.asarray(x0, dtype=np.float64)) / s.shape[1]


# ------------------------------------------------------------------ the modern network

def _modern_chunk(stream, a, b, beta, upto, max_steps, first):
    """Runs the modern update on one chunk from its queries: `upto` updates, then on until
    one moves no state by 1e-9 (or max_steps). (updates done, whether the last moved none
    by 1e-9, cosines (t,), separation guaranteed (t,) or None after the first time)."""
    X = stream.patterns(a, b)
    x0 = X[:, 0, :]
    xi, k, still = stream.queries(x0, a), 0, False
    guaranteed = rules.separation_guaranteed(X, beta, xi) if first else None
    while k < max_steps and (k < upto or not still):
        new = rules.modern_update(X, xi, beta)
        still = bool(np.max(np.abs(new - xi)) < 1e-9)
        xi, k = new, k + 1
    cos = np.einsum("td,td->t", xi, x0) / (np.linalg.norm(xi, axis=1) * np.linalg.norm(x0, axis=1))
    return k, still, cos, guaranteed


def modern_point(stream: Stream, beta: float, max_steps: int, budget: int):
    """(final cosines with pattern 0 (T,), separation guaranteed (T,) bool), a chunk at a
    time. An all-trials run stops after the first update that moves no trial by 1e-9: that
    is the first update count at which every chunk stood still, found by running again the
    chunks that stopped before another chunk did."""
    T = stream.trials
    parts = chunks(T, layout("modern", stream.d, stream.N, T, budget)[0])
    cos, guaranteed = np.empty(T), np.empty(T, dtype=bool)
    done = [None] * len(parts)  # updates each chunk has run
    K = 0
    while True:
        for c, (a, b) in enumerate(parts):
            if done[c] is None or done[c] < K:
                first = done[c] is None
                done[c], _, cos[a:b], sep = _modern_chunk(stream, a, b, beta, K, max_steps, first)
                if first:
                    guaranteed[a:b] = sep
        K = max(done)
        if all(k == K for k in done):
            return cos, guaranteed


# ------------------------------------------------------------------ classical-async curves

def _compact(XT: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """XT's rows `keep` (ascending) moved to its front, a block at a time (no full copy)."""
    step = max(1, rules.BLOCK // (XT.shape[1] * XT.shape[2]))
    for i in range(0, keep.size, step):
        j = min(keep.size, i + step)
        XT[i:j] = XT[keep[i:j]]
    return XT[:keep.size]


def async_points(d: int, ns, trials: int, n_flip: int, seed: int, max_sweeps: int,
                 budget: int, done) -> None:
    """The classical-async points with N in ns, batched as async_plan says: the stores of
    fewer patterns get zero rows (they add nothing to a field; the self-coupling uses each
    row's own N). Each trial sweeps in its own orders (stores.Stream) until a sweep changes
    none of its neurons (async dynamics has no cycles) or max_sweeps, then leaves the batch:
    so every point equals its run alone, bit for bit. done(k, final overlaps (T,), stable
    fraction) is called as the last trial of point k finishes."""
    streams = [Stream(seed, d, int(N), trials, n_flip) for N in ns]
    overlap = [np.empty(trials) for _ in ns]
    stable = [np.empty(trials, dtype=bool) for _ in ns]
    left = [trials] * len(ns)
    for batch in async_plan(d, ns, trials, budget):
        for k, rows in _async_batch(batch, d, ns, streams, max_sweeps, overlap, stable):
            left[k] -= rows
            if left[k] == 0:
                done(k, overlap[k], float(np.mean(stable[k])))


def _async_batch(batch, d, ns, streams, max_sweeps, overlap, stable):
    """Runs one batch; yields (point k, rows finished) after each sweep (and the setup)."""
    R, segs = batch["rows"], batch["segments"]
    XT = np.zeros((R, d, batch["n_max"]), dtype=np.int8)  # the patterns transposed, padded
    s, n = np.empty((R, d)), np.empty(R)
    first = np.cumsum([0] + [b - a for _, a, b in segs])  # each segment's first row
    for (k, a, b), r in zip(segs, first):
        rows = slice(r, r + b - a)
        streams[k].patterns(a, b, np.int8, transposed=True, out=XT[rows, :, :ns[k]])
        x0 = XT[rows, :, 0].astype(np.float64)
        n[rows] = ns[k]
        stable[k][a:b] = rules.classical_stable(XT[rows], x0, n[rows])
        s[rows] = streams[k].queries(x0, a)
    point = np.repeat([k for k, _, _ in segs], [b - a for _, a, b in segs])   # (R,)
    trial = np.concatenate([np.arange(a, b) for _, a, b in segs])            # (R,)
    work = np.arange(R)  # the batch rows the working arrays hold, in order
    live = np.ones(R, dtype=bool)
    for sweep in range(max_sweeps):
        order = np.tile(np.arange(d), (work.size, 1))  # a settled row: any order keeps it
        for (k, a, b), r in zip(segs, first):
            at = np.flatnonzero((work >= r) & (work < r + b - a) & live[work])
            if at.size:
                order[at] = streams[k].orders(sweep, a, b)[work[at] - r]
        new = rules.classical_async_sweep(XT, s, order, n)
        ends = live[work] & (np.all(new == s, axis=1) | (sweep == max_sweeps - 1))
        ended = np.flatnonzero(ends)
        for k in np.unique(point[work[ended]]):
            mine = ended[point[work[ended]] == k]
            overlap[k][trial[work[mine]]] = final_overlap(new[mine], XT[mine, :, 0])
            yield int(k), mine.size
        live[work[ended]] = False
        s = new
        if not live.any():
            return
        keep = np.flatnonzero(live[work])
        if keep.size <= work.size // 2:  # shrink the working arrays to the running rows
            XT, s, n, work = _compact(XT, keep), s[keep], n[keep], work[keep]
