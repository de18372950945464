"""Retrieval phase of the Hebbian Hopfield network: the replica-symmetric theory of Amit,
Gutfreund & Sompolinsky (1985, 1987).

# N = alpha d random +-1 patterns x_mu, d neurons, J = (1/d) sum_mu x_mu x_mu^T (zero diagonal)
# Glauber dynamics at temperature T, beta = 1/T: P(s_i = +1) = 1 / (1 + exp(-2 beta h_i)),
# h_i = sum_j J_ij s_j;  m the overlap with the retrieved pattern, z ~ N(0, 1)

The retrieval (m > 0) solution of the replica-symmetric saddle-point equations:
    m = E_z tanh(beta (m + sqrt(alpha r) z))
    q = E_z tanh^2(beta (m + sqrt(alpha r) z))
    r = q / (1 - beta (1 - q))^2
At T = 0, with C = beta (1 - q) kept finite:
    m = erf(m / sqrt(2 alpha r)),  C = sqrt(2 / (pi alpha r)) exp(-m^2 / (2 alpha r)),
    r = 1 / (1 - C)^2
which reduces to one equation in y = m / sqrt(2 alpha r):
    sqrt(2 alpha) = erf(y) / y - (2 / sqrt(pi)) exp(-y^2)
The retrieval solution exists while alpha <= alpha_c(T); alpha_c(0) = 0.137906 (the "0.138"),
where m jumps from 0.967 to 0. T_M(alpha) (retrieval_temperature) is the largest T with a
retrieval solution: T_M(0) = 1 (alpha = 0 is the Curie-Weiss magnet, m = tanh(beta m)),
T_M ~= 1 - 1.954 sqrt(alpha) for small alpha.

Replica symmetry makes the line bend back slightly (re-entrance, Naef & Canning 1992):
alpha_c(T) rises from 0.137906 at T = 0 to 0.138189 at T = 0.0229 before it falls, so for
0.137906 < alpha <= 0.138189 retrieval exists only between two temperatures, and T_M(alpha)
is the upper one. Beyond alpha = 0.138189 there is no retrieval at any T (T_M = 0).

How it is computed (the Gaussian averages E_z tanh, E_z tanh^2 in gauss_averages.py; the
Curie-Weiss root, the T = 0 equation in y and the branch of m > 0 solutions in ags_solutions.py):
  retrieval_overlap  iterates the equations from m = 1, q = 1 (T = 0: m = 1, C = 0); where
      that crawls (next to alpha_c(T), or T -> 1 where m ~ sqrt(3 / (2 sweeps)) for long) it
      takes m from the branch (T = 0: the largest root y of the equation in y).
  alpha_c(T), T_M    the m > 0 solutions at fixed T form one branch in v = beta sqrt(alpha r)
      whose alpha(v) rises from 0 to a single maximum and falls back to 0; alpha_c(T) is that
      maximum, with no threshold on m: a solution exists at (alpha, T) exactly when
      alpha <= alpha_c(T). T_M(alpha) solves alpha_c(T) = alpha on [0.0229, 1] by a bracketed
      (bisection-safeguarded) secant method, vectorised over many alphas.
  Extremes  T < 1e-100 uses the T = 0 equations; within 1e-7 of T = 1, where the branch's
      differences of nearly equal numbers lose digits, alpha_c = ((1 - T) / 1.9540838)^2.
"""
from __future__ import annotations

import math

import numpy as np

from .ags_solutions import (branch_overlap, critical_alpha_positive, curie_weiss,
                            zero_temperature_overlap, zero_temperature_peak)
from .gauss_averages import moments_scalar

__all__ = ["critical_alpha", "retrieval_boundary", "retrieval_overlap",
           "retrieval_temperature"]

_T_PEAK = 0.022875  # where the replica-symmetric alpha_c(T) is largest (0.1381885)
_T_ZERO = 1e-100  # lower temperatures use the T = 0 equations (no difference in 16 digits)
_MAX_SWEEPS = 5000  # retrieval_overlap's iteration cap; then the branch answers
_STEP_TOL = 1e-14  # the iteration has converged when m and q move less than this


def _check(name: str, value) -> float:
    value = float(value)
    if not math.isfinite(value) or value < 0.0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value}")
    return value


# --- the public functions -------------------------------------------------------------------

def _fallen_below(alpha: float) -> float:
    """The m under which the iteration has lost the pattern: alpha^(1/4) / 2.

    A fixed threshold (say 1e-3) fails near T = 1, where m -> 0 as alpha -> 0. The smallest
    retrieval m at load alpha (the one at T_M) is ~1.86 alpha^(1/4) for small alpha and 0.967
    at alpha_c(0) (1.59 alpha^(1/4)); the iteration from m = 1 decreases monotonically on its
    way to a retrieval solution, so once m is below a third of that it can reach none.
    """
    return 0.5 * alpha ** 0.25


def retrieval_overlap(alpha: float, T: float) -> float:
    """Overlap m of the retrieval solution at load alpha and temperature T; 0.0 if none.

    Iterates the saddle-point equations from m = 1, q = 1 (T = 0: the T = 0 equations from
    m = 1, C = 0) until m and q move less than 1e-14. The pattern is lost (0.0) when m falls
    below alpha^(1/4) / 2 or 1 - beta (1 - q) (T = 0: 1 - C) reaches 0. Where the iteration
    crawls (close to alpha_c(T), or T within a few 1e-3 of 1) and has not settled in 5000
    sweeps, the answer comes from the branch of solutions (or the T = 0 equation in y),
    whose verdict is alpha <= alpha_c(T). alpha = 0 is the Curie-Weiss magnet
    m = tanh(m / T); for T >= 1 there is no m > 0 solution.
    """
    alpha, T = _check("alpha", alpha), _check("T", T)
    if alpha == 0.0:
        return curie_weiss(T)
    if T >= 1.0:
        return 0.0  # E tanh(u + v z) < u E sech^2(v z) <= u <= T u: no u > 0 solves it
    floor = _fallen_below(alpha)
    m = 1.0
    if T < _T_ZERO:
        r = 1.0
        for _ in range(_MAX_SWEEPS):
            y = m / math.sqrt(2.0 * alpha * r)
            m_new = math.erf(y)
            c = 2.0 / math.sqrt(math.pi) * y / m * math.exp(-y * y)  # m >= floor > 0
            if c >= 1.0 or m_new < floor:
                return 0.0
            r_new = 1.0 / (1.0 - c) ** 2
            done = abs(m_new - m) < _STEP_TOL and abs(r_new - r) < _STEP_TOL * r_new
            m, r = m_new, r_new
            if done:
                return m
        return zero_temperature_overlap(alpha)
    beta, spread = 1.0 / T, 0.0  # spread = 1 - q
    for _ in range(_MAX_SWEEPS):
        denominator = 1.0 - beta * spread
        if denominator <= 0.0:
            return 0.0
        sigma = math.sqrt(alpha * (1.0 - spread)) / denominator  # sqrt(alpha r)
        m_new, spread_new = moments_scalar(beta * m, beta * sigma)
        if m_new < floor:
            return 0.0
        done = abs(m_new - m) < _STEP_TOL and abs(spread_new - spread) < _STEP_TOL
        m, spread = m_new, spread_new
        if done:
            return m
    return branch_overlap(alpha, T)


def critical_alpha(T: float = 0.0) -> float:
    """alpha_c(T): the largest load with a retrieval solution at temperature 0 <= T < 1.

    alpha_c(0) = 0.137906; replica symmetry gives a slight rise to 0.138189 at T = 0.0229
    before alpha_c falls to 0 as T -> 1. ValueError for T >= 1 (only alpha = 0 retrieves).
    """
    T = _check("T", T)
    if T >= 1.0:
        raise ValueError(f"T must be below 1 (at T >= 1 no load alpha > 0 retrieves), got {T}")
    if T < _T_ZERO:
        return zero_temperature_peak()[0]
    return float(critical_alpha_positive(np.array([T]))[0])


def retrieval_boundary(alphas) -> np.ndarray:
    """T_M(alpha) for every alpha in an array (the retrieval line of the phase diagram).

    1.0 at alpha = 0, 0.0 beyond the largest alpha_c (0.138189), otherwise the largest T
    with alpha_c(T) >= alpha, to ~1e-9 in T.
    """
    alphas = np.asarray(alphas, dtype=float)
    if not np.all(np.isfinite(alphas)) or np.any(alphas < 0.0):
        raise ValueError(f"alphas must be finite numbers >= 0, got {alphas}")
    flat = alphas.ravel()
    out = np.zeros(flat.shape)
    out[flat == 0.0] = 1.0
    peak = float(critical_alpha_positive(np.array([_T_PEAK]))[0])
    todo = np.flatnonzero((flat > 0.0) & (flat <= peak))
    if todo.size:
        # h(T) = sqrt(alpha_c(T)) - sqrt(alpha) falls from >= 0 at _T_PEAK to < 0 at T = 1,
        # nearly linearly (alpha_c ~ ((1 - T) / 1.95)^2 near T = 1)
        root = np.sqrt(flat[todo])
        a, b = np.full(todo.size, _T_PEAK), np.ones(todo.size)
        ha, hb = math.sqrt(peak) - root, -root.copy()
        side = np.zeros(todo.size)  # Illinois: halve the value at an end kept twice
        live = np.arange(todo.size)
        for _ in range(200):
            live = live[(b[live] - a[live] > 1e-10) & (ha[live] != 0.0)]
            if live.size == 0:
                break
            al, bl, hal, hbl = a[live], b[live], ha[live], hb[live]
            c = bl - hbl * (bl - al) / (hbl - hal)
            c = np.where((c > al) & (c < bl), c, 0.5 * (al + bl))  # bisect if the step is unsafe
            hc = np.sqrt(critical_alpha_positive(c)) - root[live]
            up = hc >= 0.0  # alpha_c(c) >= alpha: the root lies in [c, b]
            kept_twice = side[live] == np.where(up, 1.0, -1.0)
            a[live] = np.where(up, c, al)
            ha[live] = np.where(up, hc, np.where(kept_twice, 0.5 * hal, hal))
            b[live] = np.where(up, bl, c)
            hb[live] = np.where(up, np.where(kept_twice, 0.5 * hbl, hbl), hc)
            side[live] = np.where(up, 1.0, -1.0)
        out[todo] = a
    return out.reshape(alphas.shape)


def retrieval_temperature(alpha: float) -> float:
    """T_M(alpha): the largest temperature with a retrieval solution at load alpha.

    T_M(0) = 1; 0.0 for alpha beyond 0.138189. Between alpha_c(0) = 0.137906 and 0.138189
    (the replica-symmetric re-entrance) retrieval exists only in a window of T; this is its top.
    """
    alpha = _check("alpha", alpha)
    return float(retrieval_boundary(np.array([alpha]))[0])
