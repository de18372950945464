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

How it is computed:
  Gaussian averages  E_z f(u + v z) of tanh and tanh^2 (u = beta m, v = beta sqrt(alpha r)):
      Gauss-Hermite, 100 nodes, while v <= 1; for v > 1 (low T, where tanh is a step on the
      scale of the Gaussian) tanh = sign - sign * 2 / (exp(2|t|) + 1): the sign part is an
      erf, the rest is integrated with 40-node Gauss-Laguerre nodes in |t|. Both agree with a
      400 001-point trapezoid rule to ~1e-10 over 0 <= v <= 1e4.
  retrieval_overlap  iterates the equations from m = 1, q = 1 (T = 0: m = 1, C = 0); where
      that crawls (next to alpha_c(T), or T -> 1 where m ~ sqrt(3 / (2 sweeps)) for long) it
      takes m from the branch below (T = 0: the largest root y of the equation in y).
  alpha_c(T), T_M    the m > 0 solutions form one branch: for fixed T and each v, u is the
      positive root of E tanh(u + v z) = T u (concave in u, so Newton's method from the
      right converges monotonically), and then
          alpha(v) = v^2 (T - 1 + q)^2 / q,   q = E tanh^2(u + v z)
      rises from 0 to a single maximum and falls back to 0 where the root u reaches 0.
      alpha_c(T) is that maximum (two parabolic steps in v), with no threshold on m: a
      solution exists at (alpha, T) exactly when alpha <= alpha_c(T). T_M(alpha) solves
      alpha_c(T) = alpha on [0.0229, 1] by a bracketed (bisection-safeguarded) secant
      method, vectorised over many alphas.
  Extremes  T < 1e-100 uses the T = 0 equations; within 1e-7 of T = 1, where the branch's
      differences of nearly equal numbers lose digits, alpha_c = ((1 - T) / 1.9540838)^2.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from numpy.polynomial.laguerre import laggauss

__all__ = ["critical_alpha", "retrieval_boundary", "retrieval_overlap",
           "retrieval_temperature"]

# Gauss-Hermite (probabilists'): E_z f(z) ~= sum_k w_k f(z_k)
_GH_Z, _GH_W = hermegauss(100)
_GH_W = _GH_W / _GH_W.sum()
# Gauss-Laguerre in s = x / 2 >= 0 for int_0^inf g(s) F(s) ds with g = e or e (2 - e),
# e(s) = 2 / (exp(2 s) + 1) = 1 - tanh(s): the weights absorb g(s) exp(2 s) / 2
_LAG_X, _LAG_W = laggauss(40)
_LAG_S = _LAG_X / 2.0
_LAG_E = 2.0 / (np.exp(2.0 * _LAG_S) + 1.0)
_LAG_A = _LAG_W * _LAG_E * np.exp(2.0 * _LAG_S) / 2.0  # for tanh = sign (1 - e)
_LAG_B = _LAG_W * _LAG_E * (2.0 - _LAG_E) * np.exp(2.0 * _LAG_S) / 2.0  # tanh^2 = 1 - e (2 - e)
_V_SPLIT = 1.0  # v above this: the erf + Gauss-Laguerre form
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_erf = np.frompyfunc(math.erf, 1, 1)

_T_PEAK = 0.022875  # where the replica-symmetric alpha_c(T) is largest (0.1381885)
# alpha_c(T) ~= ((1 - T) / 1.9540838)^2 as T -> 1 (from the branch at 1 - T = 1e-5 ... 1e-8);
# used for 1 - T < 1e-7, where the branch's differences of nearly equal numbers lose digits
_SMALL_LOAD_SLOPE = 1.9540838
_NEAR_ONE = 1e-7
_T_ZERO = 1e-100  # lower temperatures use the T = 0 equations (no difference in 16 digits)
_MAX_SWEEPS = 5000  # retrieval_overlap's iteration cap; then the branch answers
_STEP_TOL = 1e-14  # the iteration has converged when m and q move less than this


def _moments(u, v):
    """E_z tanh(u + v z) and E_z sech^2(u + v z) (= 1 - E_z tanh^2, kept apart so that a small
    1 - q keeps its digits), elementwise over arrays u and v >= 0."""
    u, v = np.broadcast_arrays(np.asarray(u, dtype=float), np.asarray(v, dtype=float))
    mean, spread = np.empty(u.shape), np.empty(u.shape)
    near = v <= _V_SPLIT
    if near.any():
        x = u[near][:, None] + v[near][:, None] * _GH_Z
        e = np.exp(-2.0 * np.abs(x))
        mean[near] = np.tanh(x) @ _GH_W
        spread[near] = (4.0 * e / (1.0 + e) ** 2) @ _GH_W
    far = ~near
    if far.any():
        uf, vf = u[far], v[far]
        # t = u + v z ~ N(u, v^2); the density at +s and -s, s >= 0
        a = np.exp(-0.5 * ((_LAG_S - uf[:, None]) / vf[:, None]) ** 2)
        b = np.exp(-0.5 * ((_LAG_S + uf[:, None]) / vf[:, None]) ** 2)
        scale = _INV_SQRT_2PI / vf
        sign_mean = _erf(uf / (vf * math.sqrt(2.0))).astype(float)
        mean[far] = sign_mean - scale * ((a - b) @ _LAG_A)
        spread[far] = scale * ((a + b) @ _LAG_B)
    return mean, spread


def _moments_scalar(u: float, v: float) -> tuple[float, float]:
    """_moments for one (u, v): the same quadrature without the array bookkeeping."""
    if v <= _V_SPLIT:
        x = u + v * _GH_Z
        e = np.exp(-2.0 * np.abs(x))
        return float(np.tanh(x) @ _GH_W), float((4.0 * e / (1.0 + e) ** 2) @ _GH_W)
    a = np.exp(-0.5 * ((_LAG_S - u) / v) ** 2)
    b = np.exp(-0.5 * ((_LAG_S + u) / v) ** 2)
    scale = _INV_SQRT_2PI / v
    return (math.erf(u / (v * math.sqrt(2.0))) - scale * float((a - b) @ _LAG_A),
            scale * float((a + b) @ _LAG_B))


def _check(name: str, value) -> float:
    value = float(value)
    if not math.isfinite(value) or value < 0.0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value}")
    return value


def _curie_weiss(T: float) -> float:
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


def _zero_temperature_peak() -> tuple[float, float]:
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


def _zero_temperature_overlap(alpha: float) -> float:
    """erf(y) at the largest root of g(y) = sqrt(2 alpha); 0.0 above alpha_c(0)."""
    alpha_c, y_peak = _zero_temperature_peak()
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
        _, spread = _moments(0.0, np.exp(mid))
        inside = spread > T
        lo, hi = np.where(inside, mid, lo), np.where(inside, hi, mid)
    return np.exp(0.5 * (lo + hi))


def _branch_alpha(v: np.ndarray, T: np.ndarray, u: np.ndarray):
    """(alpha, u) on the m > 0 branch at (v, T), u the root of E tanh(u + v z) = T u.

    u on entry starts Newton's method; from the right of the root (e.g. 1 / T) it converges
    monotonically. The root falls as v grows, so a root at a smaller v is such a start.
    """
    for _ in range(100):
        mean, spread = _moments(u, v)
        slope = spread - T  # d/du (E tanh(u + v z) - T u) < 0 at and right of the root
        step = (mean - T * u) / np.minimum(slope, -1e-300)
        # a start left of the hump of the concave function: restart right of every root
        u = np.where(slope < 0.0, u - step, 1.0 / T)
        if np.all(np.abs(step) <= 1e-12 * u):
            break
    _, spread = _moments(u, v)
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


def _critical_alpha_positive(T: np.ndarray) -> np.ndarray:
    """alpha_c(T) for an array of 0 < T < 1."""
    T = np.asarray(T, dtype=float)
    out = ((1.0 - T) / _SMALL_LOAD_SLOPE) ** 2
    inside = np.flatnonzero(1.0 - T >= _NEAR_ONE)
    if inside.size:
        out[inside] = _branch_peak(T[inside])[0]
    return out


def _branch_overlap(alpha: float, T: float) -> float:
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
        return _curie_weiss(T)
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
        return _zero_temperature_overlap(alpha)
    beta, spread = 1.0 / T, 0.0  # spread = 1 - q
    for _ in range(_MAX_SWEEPS):
        denominator = 1.0 - beta * spread
        if denominator <= 0.0:
            return 0.0
        sigma = math.sqrt(alpha * (1.0 - spread)) / denominator  # sqrt(alpha r)
        m_new, spread_new = _moments_scalar(beta * m, beta * sigma)
        if m_new < floor:
            return 0.0
        done = abs(m_new - m) < _STEP_TOL and abs(spread_new - spread) < _STEP_TOL
        m, spread = m_new, spread_new
        if done:
            return m
    return _branch_overlap(alpha, T)


def critical_alpha(T: float = 0.0) -> float:
    """alpha_c(T): the largest load with a retrieval solution at temperature 0 <= T < 1.

    alpha_c(0) = 0.137906; replica symmetry gives a slight rise to 0.138189 at T = 0.0229
    before alpha_c falls to 0 as T -> 1. ValueError for T >= 1 (only alpha = 0 retrieves).
    """
    T = _check("T", T)
    if T >= 1.0:
        raise ValueError(f"T must be below 1 (at T >= 1 no load alpha > 0 retrieves), got {T}")
    if T < _T_ZERO:
        return _zero_temperature_peak()[0]
    return float(_critical_alpha_positive(np.array([T]))[0])


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
    peak = float(_critical_alpha_positive(np.array([_T_PEAK]))[0])
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
            hc = np.sqrt(_critical_alpha_positive(c)) - root[live]
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
