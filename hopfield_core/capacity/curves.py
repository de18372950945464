"""Measured capacity: how often a network recalls a stored pattern, against the load.

# T trials, N patterns, d neurons
# X (T, N, d) random +-1 patterns, a fresh store per trial; s (T, d) one state per trial
# m = X s (T, N) the overlaps of each trial's state with its patterns

One point of a curve (`success_point`): T independent stores of N random patterns. Each
trial's query is its pattern 0 with round(flip d) bits flipped (flip = 0: the pattern
itself). The network runs to a fixed point (or the step limit), and the final overlap is
x_0 . s / d (the cosine of the angle for the continuous modern network). A trial succeeds
when the final overlap is at least SUCCESS_OVERLAP. All T trials run as one batch of
array operations; the asynchronous sweeps use one random order per trial, drawn together.

The updates (Hebbian couplings W = X^T X / d with a zero diagonal for the classical net):
  classical-sync   d h = X^T (X s) - N s, then s <- sgn(h) for every neuron at once
  classical-async  the same field, one neuron at a time in a random order (whole sweeps)
  dense            F(z) = z^n, every neuron at once:
                   s_i <- sgn( sum_mu F(r_mu,i + x_mu,i) - F(r_mu,i - x_mu,i) ),
                   r_mu,i = m_mu - x_mu,i s_i (the overlap without neuron i)
  exponential      the same with F(z) = exp(beta z), compared as log-sum-exp (no overflow)
  modern           xi <- X^T softmax(beta X xi), continuous states (Ramsauer et al. 2020)
In the binary rules a tie (h = 0) keeps the current value.

Also measured on the same stores:
  stable      (binary variants) the fraction of trials whose pattern 0 is a fixed point: no
              neuron changes in one update (then it is also a fixed point of async updates)
  guaranteed  (modern) the fraction of trials whose pattern 0 meets Ramsauer et al.'s
              separation condition
                  Delta = x_0 . x_0 - max_{mu != 0} x_0 . x_mu
                        >= 2 / (beta N) + (1 / beta) ln(2 (N - 1) N beta M^2),  M^2 = d,
              under which the update converges to a fixed point near x_0: a sufficient
              condition, so at flip 0 it is a lower bound on `success`
The random stores depend only on (seed, d, N, the number of flipped bits), not on the
variant or its parameters: variants compared at one seed see the same patterns, and a point
is the same whatever range of loads it was computed in (so a page can cache it alone), and
whether it ran alone (`success_point`) or batched with others (`success_points`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..dense import _logsumexp
from ..modern import softmax

VARIANTS = ("classical-sync", "classical-async", "dense", "exponential", "modern")
SUCCESS_OVERLAP = 0.97
MIN_D, MAX_D = 4, 2000
MAX_TRIALS = 1000
MIN_DEGREE, MAX_DEGREE = 2, 6
MAX_STEPS = {"classical-sync": 50, "classical-async": 30, "dense": 30, "exponential": 30,
             "modern": 30}  # sync steps, async sweeps, or continuous updates
_CHUNK = 4_000_000  # at most this many elements in a (trials, d, N) temporary
_TIE = 1e-12


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


# ------------------------------------------------------------------ stores and queries

def _store(seed: int, d: int, N: int, trials: int, n_flip: int):
    """X (T, N, d) random +-1 patterns and the queries (T, d): pattern 0, n_flip bits flipped."""
    gen = np.random.default_rng([seed, d, N, n_flip])
    X = np.where(gen.random((trials, N, d)) < 0.5, -1.0, 1.0)
    q = X[:, 0, :].copy()
    if n_flip:
        idx = np.argsort(gen.random((trials, d)), axis=1)[:, :n_flip]  # distinct bits per trial
        np.put_along_axis(q, idx, -np.take_along_axis(q, idx, axis=1), axis=1)
    return X, q, gen


def _overlaps(X: np.ndarray, s: np.ndarray) -> np.ndarray:
    return np.matmul(X, s[:, :, None])[:, :, 0]  # (T, N)


def _sgn(h: np.ndarray, current: np.ndarray, tol: float | np.ndarray = 0.5) -> np.ndarray:
    return np.where(h > tol, 1.0, np.where(h < -tol, -1.0, current))


# ------------------------------------------------------------------ one update per variant

def _classical_sync(X, s):
    """d h = X^T (X s) - N s: integers, so a tie is an exact 0 (tolerance 0.5)."""
    N = X.shape[1]
    h = np.matmul(_overlaps(X, s)[:, None, :], X)[:, 0, :] - N * s  # (T, d)
    return _sgn(h, s)


def _classical_async_sweep(XT, s, gen=None, n=None, order=None):
    """One sweep: each trial visits its neurons in its own random order (drawn from gen, or
    given as order (T, d)). XT (T, d, N) the patterns transposed; n (T,) each trial's number
    of patterns, where stores of different sizes are padded with zero rows (default N)."""
    T, d, N = XT.shape
    n = np.full(T, float(N)) if n is None else n
    s = s.copy()
    m = np.matmul(s[:, None, :], XT)[:, 0, :]  # (T, N) = X s, kept up to date after every flip
    if order is None:
        order = np.argsort(gen.random((T, d)), axis=1)  # (T, d) a random permutation per trial
    flat_s, flat_xt = s.reshape(-1), XT.reshape(T * d, N)  # views: row t, neuron i at t d + i
    base = np.arange(T) * d
    for k in range(d):
        at = base + order[:, k]                # (T,) the neuron each trial updates now
        col = flat_xt.take(at, axis=0)         # (T, N) x_mu,i
        cur = flat_s.take(at)                  # (T,)
        h = np.einsum("tn,tn->t", col, m) - n * cur
        changed = np.flatnonzero(((h > 0.5) & (cur < 0)) | ((h < -0.5) & (cur > 0)))
        if changed.size:  # a tie keeps the current value; a flip changes by -2 cur
            delta = -2.0 * cur[changed]
            m[changed] += delta[:, None] * col[changed]
            flat_s[at[changed]] = -cur[changed]
    return s


def _pairwise(X, XT, s, variant, params):
    """The dense and exponential rule for every neuron at once, in chunks of trials so the
    (trials, d, N) temporaries stay under _CHUNK elements."""
    T, N, d = X.shape
    out = np.empty_like(s)
    step = max(1, _CHUNK // (d * N))
    for a in range(0, T, step):
        b = slice(a, a + step)
        m = _overlaps(X[b], s[b])                          # (t, N)
        rest = m[:, None, :] - XT[b] * s[b][:, :, None]    # (t, d, N) overlap without neuron i
        up, down = rest + XT[b], rest - XT[b]
        if variant == "exponential":
            beta = params["beta"]
            la, lb = _logsumexp(beta * up), _logsumexp(beta * down)   # (t, d)
            diff, scale = la - lb, 1.0 + np.maximum(np.abs(la), np.abs(lb))
        else:
            n = params["degree"]
            fa, fb = (up / d) ** n, (down / d) ** n        # z^n scaled by d^-n: no overflow
            diff = np.sum(fa - fb, axis=-1)
            scale = np.sum(np.abs(fa) + np.abs(fb), axis=-1)
        out[b] = np.where(diff > _TIE * scale, 1.0, np.where(diff < -_TIE * scale, -1.0, s[b]))
    return out


def _modern_update(X, xi, beta):
    p = softmax(beta * _overlaps(X, xi))  # (T, N)
    return np.matmul(p[:, None, :], X)[:, 0, :]  # (T, d)


def _binary_step(variant, X, XT, s, params, gen):
    if variant == "classical-sync":
        return _classical_sync(X, s)
    if variant == "classical-async":
        return _classical_async_sweep(XT, s, gen)
    return _pairwise(X, XT, s, variant, params)


# ------------------------------------------------------------------ runs

def _run_binary(variant, X, s, params, gen, max_steps):
    XT = np.ascontiguousarray(X.transpose(0, 2, 1))  # (T, d, N)
    stable = np.all(_binary_step("classical-sync" if variant.startswith("classical") else variant,
                                 X, XT, X[:, 0, :], params, gen) == X[:, 0, :], axis=1)
    prev = None
    for _ in range(max_steps):
        new = _binary_step(variant, X, XT, s, params, gen)
        if np.array_equal(new, s) or (prev is not None and np.array_equal(new, prev)):
            s = new  # a fixed point, or (sync) a 2-cycle everywhere
            break
        prev, s = s, new
    overlap = np.einsum("td,td->t", s, X[:, 0, :]) / X.shape[2]
    return overlap, float(np.mean(stable))


def _run_modern(X, xi, beta, max_steps):
    for _ in range(max_steps):
        new = _modern_update(X, xi, beta)
        done = np.max(np.abs(new - xi)) < 1e-9
        xi = new
        if done:
            break
    x0 = X[:, 0, :]
    cos = np.einsum("td,td->t", xi, x0) / (np.linalg.norm(xi, axis=1) * np.linalg.norm(x0, axis=1))
    return cos


def separation_guaranteed(X: np.ndarray, beta: float) -> np.ndarray:
    """(T,) bool: does pattern 0 of each store meet Ramsauer et al.'s separation condition
    (module docstring)? A store of one pattern always does."""
    T, N, d = X.shape
    if N == 1:
        return np.ones(T, dtype=bool)
    dots = _overlaps(X, X[:, 0, :])  # (T, N): x_mu . x_0
    delta = dots[:, 0] - np.max(dots[:, 1:], axis=1)
    M2 = np.max(np.sum(X * X, axis=2), axis=1)  # (T,) largest squared norm (d for +-1)
    need = 2.0 / (beta * N) + np.log(2.0 * (N - 1) * N * beta * M2) / beta
    return delta >= need


def success_point(variant: str, d: int, n_patterns: int, trials: int, flip: float = 0.0,
                  seed: int = 0, max_steps: int | None = None, **params) -> Point:
    """One load of a success curve (module docstring): T trials as one batch."""
    params = check_variant(variant, params)
    d, trials = _check_d_trials(d, trials)
    flip = _check_flip(flip)
    N = int(_check_counts([n_patterns])[0])
    steps = MAX_STEPS[variant] if max_steps is None else int(max_steps)
    X, q, gen = _store(seed, d, N, trials, round(flip * d))
    if variant == "modern":
        overlap = _run_modern(X, q, params["beta"], steps)
        stable, guaranteed = math.nan, float(np.mean(separation_guaranteed(X, params["beta"])))
    else:
        overlap, stable = _run_binary(variant, X, q, params, gen, steps)
        guaranteed = math.nan
    return Point(N, float(np.mean(overlap)), float(np.mean(overlap >= SUCCESS_OVERLAP)),
                 stable, guaranteed)


_BATCH = 4_000_000  # padded elements (trials x largest N x d) in one batch of async points


def _async_batch(d, ns, trials, n_flip, seed, max_sweeps, done):
    """The classical-async points with N in ns as one padded batch: stores of fewer patterns
    get zero rows (they add nothing to a field; the self-coupling term uses each trial's own
    N). Each point draws its sweep orders from its own random stream and stops on its own,
    after a sweep that changes none of its trials (async dynamics has no cycles); its rows,
    at a fixed point, are swept in a fixed order until the arrays shrink, which changes
    nothing. So every point equals its run alone (success_point), bit for bit.
    done(k, final overlaps (T,), stable) is called as each point stops."""
    P, n_max = len(ns), max(ns)
    XT = np.zeros((P * trials, d, n_max))  # the patterns transposed, padded
    q = np.empty((P * trials, d))
    gens, stable = [], np.empty(P)
    for k, N in enumerate(ns):
        rows = slice(k * trials, (k + 1) * trials)
        X, q[rows], gen = _store(seed, d, N, trials, n_flip)
        XT[rows, :, :N] = X.transpose(0, 2, 1)
        stable[k] = np.mean(np.all(_classical_sync(X, X[:, 0, :]) == X[:, 0, :], axis=1))
        gens.append(gen)
    x0 = XT[:, :, 0]
    n = np.repeat(np.asarray(ns, dtype=float), trials)
    live = work = list(range(P))  # work: the points whose rows the working arrays hold
    XTw, nw, s = XT, n, q
    for sweep in range(max_sweeps):
        if len(live) <= len(work) // 2:  # shrink the working arrays to the live points
            keep = np.concatenate([np.arange(j * trials, (j + 1) * trials)
                                   for j, k in enumerate(work) if k in live])
            XTw, nw, s = XTw[keep], nw[keep], s[keep]
            work = live
        order = np.concatenate([np.argsort(gens[k].random((trials, d)), axis=1) if k in live
                                else np.tile(np.arange(d), (trials, 1)) for k in work])
        new = _classical_async_sweep(XTw, s, n=nw, order=order)
        still = []
        for j, k in enumerate(work):
            b = slice(j * trials, (j + 1) * trials)
            if k in live and (np.array_equal(new[b], s[b]) or sweep == max_sweeps - 1):
                done(k, _final_overlap(new[b], x0[k * trials:(k + 1) * trials]), stable[k])
            elif k in live:
                still.append(k)
        live, s = still, new
        if not live:
            break


def _final_overlap(s, x0):
    return np.einsum("td,td->t", s, x0) / s.shape[1]


def success_points(variant: str, d: int, n_patterns, trials: int, flip: float = 0.0,
                   seed: int = 0, max_steps: int | None = None, progress=None,
                   **params) -> list[Point]:
    """success_point for each number of patterns, in the order given. The classical-async
    points run together as padded batches of at most _BATCH elements (one Python loop over
    the neurons per sweep for a whole curve, not one per point), with the same results.
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
            finish(i, success_point(variant, d, N, trials, flip, seed, max_steps, **params))
        return out
    steps = MAX_STEPS[variant] if max_steps is None else int(max_steps)
    order = sorted(range(len(ns)), key=lambda i: ns[i])
    groups, group = [], []
    for i in order:  # ascending N, so a group's largest N is its last
        if group and (len(group) + 1) * trials * ns[i] * d > _BATCH:
            groups.append(group)
            group = []
        group.append(i)
    groups.append(group)
    for group in groups:
        def done(k, overlap, stable, group=group):
            i = group[k]
            finish(i, Point(ns[i], float(np.mean(overlap)),
                            float(np.mean(overlap >= SUCCESS_OVERLAP)), float(stable), math.nan))
        _async_batch(d, [ns[i] for i in group], trials, round(flip * d), seed, steps, done)
    return out


def success_curve(variant: str, d: int, n_patterns, trials: int, flip: float = 0.0, rng=None,
                  progress=None, **params) -> Curve:
    """Success and mean final overlap for each number of patterns (DESIGN 3.7).

    rng: a seed (int) or a Generator (one draw of it seeds the curve); the stores of each
    point depend only on (seed, d, N, flipped bits). progress(i, point), if given, is called
    after each point, so a page can draw the curve as it grows."""
    params = check_variant(variant, params)
    d, trials = _check_d_trials(d, trials)
    flip = _check_flip(flip)
    ns = _check_counts(n_patterns)
    seed = point_seed(rng)
    points = success_points(variant, d, ns, trials, flip, seed, progress=progress, **params)
    return curve_from_points(variant, d, trials, flip, params, points)


def curve_from_points(variant, d, trials, flip, params, points) -> Curve:
    """A Curve from its points (e.g. points cached one by one)."""
    col = lambda name: np.array([getattr(p, name) for p in points], dtype=float)  # noqa: E731
    return Curve(variant, int(d), int(trials), float(flip), dict(params),
                 np.array([p.n_patterns for p in points], dtype=np.int64),
                 col("mean_overlap"), col("success"), col("stable"), col("guaranteed"))


def basin_map(variant: str, d: int, n_patterns, flips, trials: int, rng=None,
              progress=None, **params) -> BasinMap:
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
            p = success_point(variant, d, int(N), trials, f, seed, **params)
            success[a, b], overlap[a, b] = p.success, p.mean_overlap
            if progress is not None:
                progress(a * ns.size + b + 1, fs.size * ns.size)
    return BasinMap(variant, d, trials, params, ns, fs, success, overlap)
