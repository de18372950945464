"""The random stores of the capacity experiments, made a chunk of trials at a time, and the
chunk sizes that keep a run within a byte budget.

# T trials of a point, N patterns, d neurons; a chunk is the trials [a, b) of a point, t = b - a
# X (t, N, d) a chunk's patterns, or XT (t, d, N) transposed; q (t, d) its queries

The random numbers of a point (seed, d, N, n_flip bits flipped) come from one stream,
default_rng([seed, d, N, n_flip]), in this order:
    T N d  the patterns, trial by trial, pattern by pattern: x = -1 where the draw, as a
           uniform number in [0, 1), is below 1/2 (the top bit of the 64-bit draw is 0)
    T d    the flipped bits of the queries (only when n_flip > 0): the n_flip smallest draws
    T d    each asynchronous sweep's order: the neurons sorted by their draws
A chunk jumps to its own place in the stream (PCG64.advance), so its trials get exactly the
numbers that an all-trials-at-once run gives them, whatever the chunk size. Patterns are
made GEN_BLOCK draws at a time, straight into the caller's dtype (int8 where they are kept,
float64 where they are multiplied), so making them costs a few MB beside the result.
"""
from __future__ import annotations

import numpy as np

BUDGET = 150 * 2 ** 20  # default peak bytes of one run (the app passes ui.serving.budget.RUN_BYTES)
GEN_BLOCK = 30_000      # draws made at once (temporaries under the mmap threshold: see rules.BLOCK)
SMALL = 2 ** 20         # a run's small arrays and Python objects (and what NumPy keeps after a
                        # function's first use), rounded up


def gen_bytes(t: int, N: int, d: int) -> int:
    """The temporaries of Stream.patterns for t trials: 8 bytes a raw draw, 1 a sign."""
    per = N * d
    if per <= GEN_BLOCK:
        draws = min(t, GEN_BLOCK // per) * per
    else:
        draws = min(N, max(1, GEN_BLOCK // d)) * d
    return 10 * draws


def chunk_trials(trials: int, per_trial: int, fixed: int, budget: int) -> int:
    """The most trials (at least 1, at most `trials`) whose arrays fit the budget: per_trial
    bytes each beside `fixed` bytes that do not depend on the chunk."""
    return int(min(trials, max(1, (budget - fixed) // max(1, per_trial))))


def chunks(trials: int, size: int):
    """(a, b) for the chunks of `size` trials that cover range(trials)."""
    return [(a, min(trials, a + size)) for a in range(0, trials, size)]


def _signs(bits: np.random.BitGenerator, n: int) -> np.ndarray:
    """(n,) int8 +-1 from the next n draws: +1 where the draw's top bit is set, which is
    where a uniform double made from it (Generator.random) is >= 1/2."""
    x = np.less(bits.random_raw(n).view(np.int64), 0).view(np.int8)  # 1 where +1, else 0
    x *= 2
    x -= 1
    return x


class Stream:
    """The random numbers of one point of a curve (module docstring)."""

    def __init__(self, seed: int, d: int, N: int, trials: int, n_flip: int, key=()):
        """key: more numbers for the seed, for an experiment of another kind (phase.py)."""
        self.d, self.N, self.trials, self.n_flip = int(d), int(N), int(trials), int(n_flip)
        self._bits = np.random.PCG64(np.random.SeedSequence([seed, d, N, n_flip, *key]))
        self._start = self._bits.state

    def _at(self, offset: int) -> np.random.PCG64:
        self._bits.state = self._start
        if offset:
            self._bits.advance(offset)
        return self._bits

    def patterns(self, a: int, b: int, dtype=np.float64, transposed: bool = False,
                 out: np.ndarray | None = None) -> np.ndarray:
        """The +-1 patterns of trials [a, b): (t, N, d), or (t, d, N) when transposed,
        written into `out` when given (e.g. a padded array's [:, :, :N])."""
        t, N, d = b - a, self.N, self.d
        if out is None:
            out = np.empty((t, d, N) if transposed else (t, N, d), dtype)
        bits, per = self._at(a * N * d), N * d
        if per <= GEN_BLOCK:  # whole trials at a time
            k = GEN_BLOCK // per
            for i in range(0, t, k):
                j = min(t, i + k)
                x = _signs(bits, (j - i) * per).reshape(j - i, N, d)
                out[i:j] = x.transpose(0, 2, 1) if transposed else x
            return out
        rows = max(1, GEN_BLOCK // d)  # a few patterns of one trial at a time
        for i in range(t):
            for r in range(0, N, rows):
                e = min(N, r + rows)
                x = _signs(bits, (e - r) * d).reshape(e - r, d)
                if transposed:
                    out[i, :, r:e] = x.T
                else:
                    out[i, r:e] = x
        return out

    def generator(self, offset: int) -> np.random.Generator:
        """A Generator at draw `offset` of the stream (it moves the stream's own state)."""
        return np.random.Generator(self._at(offset))

    def queries(self, x0: np.ndarray, a: int) -> np.ndarray:
        """(t, d) float64: each trial's pattern 0, x0 (t, d), with n_flip distinct bits
        flipped."""
        q = np.array(x0, dtype=np.float64)
        if self.n_flip:
            gen = self.generator(self.trials * self.N * self.d + a * self.d)
            idx = np.argsort(gen.random(q.shape), axis=1)[:, :self.n_flip]
            np.put_along_axis(q, idx, -np.take_along_axis(q, idx, axis=1), axis=1)
        return q

    def orders(self, sweep: int, a: int, b: int) -> np.ndarray:
        """(t, d) int64: the order in which each trial of [a, b) visits its neurons in
        asynchronous sweep `sweep` (0, 1, ...)."""
        T, d = self.trials, self.d
        start = T * self.N * d + (T * d if self.n_flip else 0) + sweep * T * d + a * d
        gen = self.generator(start)
        return np.argsort(gen.random((b - a, d)), axis=1)
