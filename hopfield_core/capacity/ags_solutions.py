"""The m > 0 solutions of ags.py's replica-symmetric equations, in the three regimes it uses:
alpha = 0 (the Curie-Weiss magnet), T = 0 (one equation in y) and 0 < T < 1 (the branch).

# alpha the load N / d, T the temperature, m the overlap, v = beta sqrt(alpha r)
# arrays of shape (n,) hold one T each; (n, k) k points v of the branch per T

Curie-Weiss  m = tanh(m / T), the positive root by Newton's method from m = 1 (0 for T >= 1).
T = 0        sqrt(2 alpha) = g(y) = erf(y) / y - (2 / sqrt(pi)) exp(-y^2), y = m / sqrt(2 alpha r):
             alpha_c(0) = max_y g(y)^2 / 2 (golden section), m = erf(y) at the largest root.
0 < T < 1    for fixed T and each v, u is the positive root of E tanh(u + v z) = T u (concave
             in u, so Newton's method from the right converges monotonically), and then
                 alpha(v) = v^2 (T - 1 + q)^2 / q,   q = E tanh^2(u + v z)
             rises from 0 to a single maximum and falls back to 0 where the root u reaches 0.
             alpha_c(T) is that maximum (two parabolic steps in v); m = T u on the rising side
             where alpha(v) = alpha. Within 1e-7 of T = 1, where the branch's differences of
             nearly equal numbers lose digits, alpha_c = ((1 - T) / 1.9540838)^2.
"""
from __future__ import annotations

import math

import numpy as np

from .gauss_averages import moments

# alpha_c(T) ~= ((1 - T) / 1.9540838)^2 as T -> 1 (from the branch at 1 - T = 1e-5 ... 1e-8);
# used for 1 - T < 1e-7, where the branch's differences of nearly equal numbers lose digits
_SMALL_LOAD_SLOPE = 1.9540838
_NEAR_ONE = 1e-7


def curie_weiss(T: float) -> float:
    """The positive root of m = tanh(m / T) (0 for T >= 1), by Newton's method from m = 1."""
    if T == 0.0:
        return 1.0
    if T >= 1.0:
        return 0.0
    m = 1.0  # f(m) = tanh(m / T) - m is concave for m > 0: monotone convergence from the right
    for _ in range(200):
        t = math.tanh(m / T)
        step = (t - m) / ((1.0 - t * t) / T - 1.0)
        m -= step
        if abs(step) <= 1e-15:
            break
    return m


# --- T = 0: one equation in y = m / sqrt(2 alpha r) ---------------------------------------

def _g(y: float) -> float:
    return math.erf(y) / y - 2.0 / math.sqrt(math.pi) * math.exp(-y * y)


def zero_temperature_peak() -> tuple[float, float]:
    """(alpha_c(0), y at the peak): alpha_c(0) = max_y g(y)^2 / 2, golden-section search."""
    lo, hi = 1.0, 2.2  # g has one maximum, at y = 1.5112
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    g1, g2 = _g(x1), _g(x2)
    for _ in range(70):
        if g1 > g2:
            hi, x2, g2 = x2, x1, g1
            x1 = hi - ratio * (hi - lo)
            g1 = _g(x1)
        else:
            lo, x1, g1 = x1, x2, g2
            x2 = lo + ratio * (hi - lo)
            g2 = _g(x2)
    return (g1 ** 2 / 2.0, x1) if g1 > g2 else (g2 ** 2 / 2.0, x2)


def zero_temperature_overlap(alpha: float) -> float:
    """erf(y) at the largest root of g(y) = sqrt(2 alpha); 0.0 above alpha_c(0)."""
    alpha_c, y_peak = zero_temperature_peak()
    if alpha > alpha_c:
        return 0.0
    target = math.sqrt(2.0 * alpha)
    # g falls beyond its peak and g(y) < 1 / y: the root is below 2 / sqrt(2 alpha)
    lo, hi = math.log(y_peak), math.log(max(2.0 / target, 2.0 * y_peak))
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _g(math.exp(mid)) > target else (lo, mid)
    return math.erf(math.exp(lo))


# --- 0 < T < 1: the branch of m > 0 solutions --------------------------------------------

def _v_end(T: np.ndarray) -> np.ndarray:
    """The v where the branch ends, E_z sech^2(v z) = T for 0 < T < 1, to ~1e-5 (relative).

    sech^2(x) >= 1 - x^2 puts it above sqrt(1 - T); E sech^2(v z) <= 2 / (sqrt(2 pi) v) puts
    it below 1 / T: 24 bisections of the ratio (at most 2e4) in log scale.
    """
    lo, hi = np.log(np.sqrt(1.0 - T)), np.log(1.0 / T)
    for _ in range(24):
        mid = 0.5 * (lo + hi)
        _, spread = moments(0.0, np.exp(mid))
        inside = spread > T
        lo, hi = np.where(inside, mid, lo), np.where(inside, hi, mid)
    return np.exp(0.5 * (lo + hi))


def _branch_alpha(v: np.ndarray, T: np.ndarray, u: np.ndarray):
    """(alpha, u) on the m > 0 branch at (v, T), u the root of E tanh(u + v z) = T u.

    u on entry starts Newton's method; from the right of the root (e.g. 1 / T) it converges
    monotonically. The root falls as v grows, so a root at a smaller v is such a start.
    """
    for _ in range(100):
        mean, spread = moments(u, v)
        slope = spread - T  # d/du (E tanh(u + v z) - T u) < 0 at and right of the root
        step = (mean - T * u) / np.minimum(slope, -1e-300)
        # a start left of the hump of the concave function: restart right of every root
        u = np.where(slope < 0.0, u - step, 1.0 / T)
        if np.all(np.abs(step) <= 1e-12 * u):
            break
    _, spread = moments(u, v)
    denominator = 1.0 - spread / T  # 1 - beta (1 - q) > 0 on the branch
    sigma = v * T  # sqrt(alpha r)
    q = np.maximum(1.0 - spread, 1e-300)
    alpha = np.where((u > 0.0) & (denominator > 0.0), (sigma * denominator) ** 2 / q, 0.0)
    return alpha, u


def _vertex(t: np.ndarray, a: np.ndarray):
    """Vertex (t, a) of the parabola through three points per row (t, a of shape (n, 3))."""
    d1, d2 = t[:, 1] - t[:, 0], t[:, 2] - t[:, 1]
    s1, s2 = (a[:, 1] - a[:, 0]) / d1, (a[:, 2] - a[:, 1]) / d2
    curvature = (s2 - s1) / (t[:, 2] - t[:, 0])  # < 0 at a maximum
    curvature = np.minimum(curvature, -1e-300)
    top = 0.5 * (t[:, 0] + t[:, 1]) - s1 / (2.0 * curvature)
    value = a[:, 1] + s1 * (top - t[:, 1]) + curvature * (top - t[:, 0]) * (top - t[:, 1])
    return top, value


def _branch_peak(T: np.ndarray):
    """(alpha_c, v at the peak) for an array of 0 < T < 1 (not within 1e-7 of 1).

    alpha(v) is evaluated at 7 points v / v_end = 0.45 ... 0.75 (the maximum lies at 0.57
    for T -> 0 ... 0.64 for T -> 1), a parabola through the best three locates it, and a
    second parabola through v* and v* (1 +- 0.002) gives the maximum (to ~1e-12 relative).
    """
    v_end = _v_end(T)[:, None]
    column = T[:, None]
    grid = np.linspace(0.45, 0.75, 7)[None, :] * v_end
    alpha, u = _branch_alpha(grid, column, 1.0 / column)
    best = np.clip(np.argmax(alpha, axis=1), 1, 5)
    rows = np.arange(T.size)[:, None]
    pick = best[:, None] + np.array([-1, 0, 1])[None, :]
    top, _ = _vertex(grid[rows, pick], alpha[rows, pick])
    top = np.clip(top, grid[rows, pick[:, 0:1]][:, 0], grid[rows, pick[:, 2:3]][:, 0])
    near = top[:, None] * np.array([0.998, 1.0, 1.002])[None, :]
    alpha, _ = _branch_alpha(near, column, u[rows, pick[:, 0:1]])  # roots fall as v grows
    top, value = _vertex(near, alpha)
    top = np.clip(top, near[:, 0], near[:, 2])
    return np.maximum(value, alpha.max(axis=1)), top


def critical_alpha_positive(T: np.ndarray) -> np.ndarray:
    """alpha_c(T) for an array of 0 < T < 1."""
    T = np.asarray(T, dtype=float)
    out = ((1.0 - T) / _SMALL_LOAD_SLOPE) ** 2
    inside = np.flatnonzero(1.0 - T >= _NEAR_ONE)
    if inside.size:
        out[inside] = _branch_peak(T[inside])[0]
    return out


def branch_overlap(alpha: float, T: float) -> float:
    """m = T u on the rising side of the branch where alpha(v) = alpha (0 < T < 1, alpha > 0);
    0.0 above alpha_c(T). Bisection in v: alpha(v) rises up to the peak."""
    scale = 1.0
    if 1.0 - T < _NEAR_ONE:
        # the scaling limit T -> 1: alpha / (1 - T)^2 and m / sqrt(1 - T) are fixed
        epsilon, T = 1.0 - T, 1.0 - _NEAR_ONE
        scale = (1.0 - T) / epsilon
        alpha *= scale * scale
    column = np.array([T])
    alpha_c, v_top = _branch_peak(column)
    if alpha > alpha_c[0]:
        return 0.0
    lo, hi, u_lo = 0.0, float(v_top[0]), 1.0 / T
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if not lo < mid < hi:
            break
        value, u = _branch_alpha(np.array([mid]), column, np.array([u_lo]))
        if value[0] < alpha:
            lo, u_lo = mid, float(u[0])
        else:
            hi = mid
    _, u = _branch_alpha(np.array([hi]), column, np.array([u_lo]))
    return T * float(u[0]) / math.sqrt(scale)

