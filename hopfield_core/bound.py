"""Ramsauer et al. (2020), Theorem 4: when one update of the modern Hopfield network retrieves
a stored pattern. The one home of the formulas; ModernHopfield.retrieval_bound, the metastable
sweep (metastable.py) and the capacity lab (capacity/rules.py) all call them.

# N patterns, d dimensions; ... any leading batch dims (the capacity lab's trials t)
# dots (..., N) the overlaps x_i . x_mu of a pattern i with every pattern mu

    Delta_i = x_i . x_i - max_{mu != i} x_i . x_mu          the separation of pattern i
    Delta_i >= 2 / (beta N) + (1 / beta) log(2 (N - 1) N beta M^2),   M = max_mu |x_mu|
then every query in the sphere S_i of radius 1 / (beta N M) around x_i converges to the one
fixed point in S_i (exponentially fast; one update lands near it).

Every function takes arrays that broadcast (beta, M, the batch of dots), so a batch of stores
is checked with arrays of its trials' size, never a copy of its patterns.
"""
from __future__ import annotations

import math

import numpy as np


def _value(a: np.ndarray):
    return a[()] if a.ndim == 0 else a  # a 0-d result as a NumPy scalar


def separation(dots, i) -> np.ndarray:
    """Delta_i = dots[..., i] - max_{mu != i} dots[..., mu]: (...,). i an int, or (...,) ints
    (one per row: the Gram matrix's row i with i = arange(N)). inf when N = 1 (nothing to be
    separated from). Holds one array of dots' size besides it (dots is (..., N): overlaps,
    not patterns)."""
    dots = np.asarray(dots, dtype=np.float64)
    N = dots.shape[-1]
    i = np.broadcast_to(np.asarray(i), dots.shape[:-1])
    if N == 1:
        return np.full(dots.shape[:-1], np.inf)
    own = np.take_along_axis(dots, i[..., None], axis=-1)[..., 0]  # (...,) x_i . x_i
    others = np.where(np.arange(N) == i[..., None], -np.inf, dots)  # (..., N) without x_i
    return own - np.max(others, axis=-1)


def bound_value(beta, N: int, M):
    """The right-hand side 2/(beta N) + log(2 (N-1) N beta M^2)/beta at `beta` and M (scalars
    or arrays that broadcast). -inf when N < 2 (nothing to be separated from) or M = 0."""
    b = np.asarray(beta, dtype=np.float64)
    M = np.asarray(M, dtype=np.float64)
    if N < 2:
        return _value(np.full(np.broadcast_shapes(b.shape, M.shape), -np.inf))
    with np.errstate(divide="ignore"):  # M = 0: log 0 = -inf, the bound holds for any Delta
        return _value(2.0 / (b * N) + np.log(2.0 * (N - 1) * N * b * M ** 2) / b)


def meets_bound(sep, beta, N: int, M) -> np.ndarray:
    """Delta >= bound_value(beta, N, M): the pattern is retrieved (arrays broadcast)."""
    return np.asarray(sep) >= bound_value(beta, N, M)


def retrieval_radius(beta, N: int, M):
    """Radius 1/(beta N M) of the sphere S_i around x_i: when x_i meets the bound, S_i holds a
    single fixed point and every query inside S_i converges to it. inf where beta, N or M is
    not positive (then the theorem draws no sphere). A float for scalars, else an array."""
    b = np.asarray(beta, dtype=np.float64)
    M = np.asarray(M, dtype=np.float64)
    ok = (b > 0) & (N > 0) & (M > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(ok, 1.0 / (b * N * M), np.inf)
    return float(r) if r.ndim == 0 else r


def bound_beta(sep, N: int, M: float) -> np.ndarray:
    """For each separation Delta_i: the smallest beta from which Delta_i >= bound(beta)
    holds for every larger beta. inf when Delta_i <= 0 (no beta separates a pattern from
    a copy), 0 when N == 1 (nothing to be separated from).

    With c = 2 (N-1) N M^2 the bound is (2/N + log(c beta)) / beta: it rises up to
    beta_0 = e^(1 - 2/N) / c, where it equals c e^(2/N - 1) >= 4 M^2 > 2 M^2 >= Delta,
    then falls to 0. (At tiny beta it turns negative and holds again, but there the
    sphere of radius 1/(beta N M) it promises holds every pattern: an empty promise.)
    So the answer is the one root of bound(beta) = Delta beyond e / c >= beta_0,
    found by bisection on log beta.
    """
    sep = np.atleast_1d(np.asarray(sep, dtype=np.float64))
    if N < 2:
        return np.zeros_like(sep)
    out = np.full(sep.shape, np.inf)
    if not M > 0:  # every pattern is zero: Delta = 0 everywhere
        return out
    lo0 = math.log(math.e / (2.0 * (N - 1) * N * M ** 2))  # e / c, c as in bound_value
    for i, delta in enumerate(sep):
        if not delta > 0:
            continue
        lo, hi = lo0, lo0 + 1.0
        while hi <= 700.0 and bound_value(math.exp(hi), N, M) > delta:
            lo, hi = hi, hi + 2.0 * (hi - lo0)
        if hi > 700.0:  # beta beyond ~1e304: no float beta satisfies it
            continue
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if bound_value(math.exp(mid), N, M) > delta:
                lo = mid
            else:
                hi = mid
            if hi - lo < 1e-13:
                break
        out[i] = math.exp(hi)
    return out
