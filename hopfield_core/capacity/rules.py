"""One update of each network of the capacity lab, batched over the trials of a chunk
(hopfield_core.capacity.curves says the rules in words). Every product of +-1 patterns with
+-1 states is a sum of whole numbers, so it is exact in any float dtype whose mantissa holds
it: exact_dtype picks float32 where that is so.

# t trials, N patterns (padded with zero rows to the largest N of a batch), d neurons
# X (t, N, d) float64 patterns; XT (t, d, N) the same transposed, int8 where they are kept
# s (t, d) one state per trial; m (t, N) the overlaps X s
"""
from __future__ import annotations

import numpy as np

from .. import bound
from ..numerics import logsumexp, softmax, tie_tolerance

BLOCK = 30_000    # (trial, neuron, pattern) elements turned to float at once: float64
                  # temporaries under glibc's mmap threshold (256 KiB in the app: ui/serving/housekeeping)
                  # come back from the heap, not mapped and faulted in afresh (3x slower)
BLOCK_BYTES = 40  # bytes per element of a block the pairwise rule holds at once, at most:
                  # three float64 arrays, int32 indices and the int64 ones that take makes
UNDERFLOW = -700.0  # exponents below it are raised to it: the same lse, bit for bit (_lse)


def block_bytes(t: int, d: int, N: int) -> int:
    """The temporaries of pairwise (and more than the conversions') on t trials."""
    return BLOCK_BYTES * min(t * d * N, max(N, BLOCK))


def exact_dtype(N: int, d: int):
    """float32 when every partial sum of N d products of +-1 (|sum| <= N d) is exact in it."""
    return np.float32 if N * d < 2 ** 24 else np.float64


def blocks(t: int, d: int, N: int):
    """(trial slice, neuron slice) blocks of at most max(N, BLOCK) elements of (t, d, N)."""
    per = d * N
    if per <= BLOCK:
        k = BLOCK // per
        return [(slice(a, a + k), slice(0, d)) for a in range(0, t, k)]
    rows = max(1, BLOCK // N)
    return [(slice(a, a + 1), slice(j, j + rows)) for a in range(t) for j in range(0, d, rows)]


def overlaps(X: np.ndarray, s: np.ndarray) -> np.ndarray:
    return np.matmul(X, s[:, :, None])[:, :, 0]  # (t, N)


def overlaps_T(XT: np.ndarray, s: np.ndarray, dtype=np.float64) -> np.ndarray:
    """m = X s (t, N) from XT of any dtype, converted a block at a time (exact sums)."""
    t, d, N = XT.shape
    m = np.zeros((t, N), dtype)
    for ts, js in blocks(t, d, N):
        m[ts] += np.matmul(s[ts, None, js].astype(dtype), XT[ts, js].astype(dtype))[:, 0, :]
    return m


def field_T(XT: np.ndarray, m: np.ndarray, dtype=np.float64) -> np.ndarray:
    """X^T m (t, d) from XT of any dtype, a block at a time."""
    t, d, N = XT.shape
    h = np.empty((t, d), dtype)
    for ts, js in blocks(t, d, N):
        h[ts, js] = np.matmul(XT[ts, js].astype(dtype), m[ts, :, None].astype(dtype))[:, :, 0]
    return h


def sgn(h: np.ndarray, current: np.ndarray, tol: float | np.ndarray = 0.5) -> np.ndarray:
    return np.where(h > tol, 1.0, np.where(h < -tol, -1.0, current))


def classical_sync(X: np.ndarray, s: np.ndarray) -> np.ndarray:
    """d h = X^T (X s) - N s: whole numbers, so a tie is an exact 0 (tolerance 0.5)."""
    N = X.shape[1]
    h = np.matmul(overlaps(X, s)[:, None, :], X)[:, 0, :] - N * s  # (t, d)
    return sgn(h, s)


def classical_stable(XT: np.ndarray, x0: np.ndarray, n: np.ndarray) -> np.ndarray:
    """(t,) bool: is each trial's x0 a fixed point of the sync rule (so of async sweeps)?
    XT (t, d, N) any dtype, zero-padded; n (t,) each trial's own number of patterns."""
    dt = exact_dtype(XT.shape[2], XT.shape[1])
    h = field_T(XT, overlaps_T(XT, x0, dt), dt) - n[:, None] * x0
    return np.all(sgn(h, x0) == x0, axis=1)


def classical_async_sweep(XT: np.ndarray, s: np.ndarray, order: np.ndarray,
                          n: np.ndarray | None = None) -> np.ndarray:
    """One sweep: each trial visits its neurons in its own order (t, d). XT (t, d, N) the
    patterns transposed (int8 or float); n (t,) each trial's number of patterns, where stores
    of different sizes are padded with zero rows (default N)."""
    t, d, N = XT.shape
    dt = exact_dtype(N, d)
    n = np.full(t, float(N)) if n is None else n
    s = s.copy()
    m = overlaps_T(XT, s, dt)  # (t, N) = X s, kept up to date after every flip
    flat_s, flat_xt = s.reshape(-1), XT.reshape(t * d, N)  # row t, neuron i at t d + i
    base = np.arange(t) * d
    for k in range(d):
        at = base + order[:, k]                      # (t,) the neuron each trial updates now
        col = flat_xt.take(at, axis=0).astype(dt, copy=False)  # (t, N) x_mu,i
        cur = flat_s.take(at)                        # (t,)
        h = np.einsum("tn,tn->t", col, m) - n * cur
        changed = np.flatnonzero(h * cur < -0.5)  # h against s_i; a tie (h = 0) keeps it
        if changed.size:  # a flip changes m by -2 cur x_i
            m[changed] += (-2.0 * cur[changed]).astype(dt)[:, None] * col[changed]
            flat_s[at[changed]] = -cur[changed]
    return s


def _lse(a: np.ndarray, beta: float) -> np.ndarray:
    """numerics.logsumexp of beta a over the last axis, computed in a's own memory (its values
    are lost): exponents below UNDERFLOW are raised to it, which leaves the sum bit for bit
    as it is and keeps exp off its slow underflow path (numerics.logsumexp's floor)."""
    np.multiply(a, beta, out=a)
    return logsumexp(a, out=a, floor=UNDERFLOW)


def _powers(d: int, n: int) -> np.ndarray:
    """F(z) = (z / d)^n for every whole z in [-(d + 2), d + 2], the only values the overlaps
    z of the dense rule take; computed as the rule writes it, so a lookup is bit for bit
    the power it replaces (and some 20 times faster than taking powers)."""
    return (np.arange(-(d + 2), d + 3, dtype=np.float64) / d) ** n


def pairwise(XT: np.ndarray, s: np.ndarray, variant: str, params: dict) -> np.ndarray:
    """The dense and exponential rule for every neuron at once, a block of (trial, neuron)
    pairs at a time, so that its (trials, neurons, N) temporaries stay under block_bytes.
    XT (t, d, N) int8."""
    t, d, N = XT.shape
    m = overlaps_T(XT, s)
    out = np.empty_like(s)
    if variant == "dense":
        table, m = _powers(d, params["degree"]), m.astype(np.int32) + (d + 2)  # table indices
    for ts, js in blocks(t, d, N):
        x, sv = XT[ts, js], s[ts, js]
        if variant == "dense":  # z / d = (the overlap without neuron i, +-1) / d, looked up
            rest = np.subtract(m[ts][:, None, :], x * sv.astype(np.int8)[:, :, None],
                               dtype=np.int32)
            up = table.take(np.add(rest, x, dtype=np.int32))
            down = table.take(np.subtract(rest, x, out=rest))
            rest = None
            diff = np.sum(np.subtract(up, down), axis=-1)
            np.abs(up, out=up)
            np.abs(down, out=down)
            up += down
            tol = tie_tolerance("polynomial", N, params["degree"], np.sum(up, axis=-1))
        else:
            up = np.multiply(x, sv[:, :, None], dtype=np.float64)  # x_mu,i s_i
            np.subtract(m[ts][:, None, :], up, out=up)  # the overlap without neuron i
            down = np.subtract(up, x)
            np.add(up, x, out=up)
            la, lb = _lse(up, params["beta"]), _lse(down, params["beta"])  # (kt, kd)
            diff = la - lb
            tol = tie_tolerance("exponential", N, 0, np.maximum(np.abs(la), np.abs(lb)))
        out[ts, js] = sgn(diff, sv, tol)  # a tie (within rounding) keeps s_i, as the class
    return out


def modern_update(X: np.ndarray, xi: np.ndarray, beta: float) -> np.ndarray:
    p = softmax(beta * overlaps(X, xi))  # (t, N)
    return np.matmul(p[:, None, :], X)[:, 0, :]  # (t, d)


def separation_guaranteed(X: np.ndarray, beta: float, queries: np.ndarray | None = None
                          ) -> np.ndarray:
    """(t,) bool: does Ramsauer et al.'s theorem cover each trial (curves' docstring)? Pattern
    0 meets the separation condition (a store of one pattern always does) and, when queries
    (t, d) are given, the query lies within 1/(beta N M) of pattern 0: the theorem promises
    nothing to a query outside that sphere. The formulas are hopfield_core/bound.py's, the
    same as ModernHopfield.retrieval_bound's; no copy of X is made (arrays of (t, N) only)."""
    t, N, d = X.shape
    M = np.sqrt(np.max(np.einsum("tnd,tnd->tn", X, X), axis=1))  # (t,) largest norm (sqrt d)
    sep = bound.separation(overlaps(X, X[:, 0, :]), 0)  # (t,) from x_mu . x_0 (t, N)
    ok = bound.meets_bound(sep, beta, N, M)
    if queries is not None:
        distance = np.linalg.norm(queries - X[:, 0, :], axis=1)  # (t,)
        ok &= distance <= bound.retrieval_radius(beta, N, M)
    return ok
