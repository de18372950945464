"""Gaussian averages for the replica-symmetric equations of ags.py: E_z tanh(u + v z) and
E_z sech^2(u + v z), z ~ N(0, 1), elementwise over u and v >= 0.

# u = beta m, v = beta sqrt(alpha r) (ags.py's notation); Q quadrature nodes

Gauss-Hermite, 100 nodes, while v <= 1; for v > 1 (low T, where tanh is a step on the scale of
the Gaussian) tanh = sign - sign * 2 / (exp(2|t|) + 1): the sign part is an erf, the rest is
integrated with 40-node Gauss-Laguerre nodes in |t|. Both agree with a 400 001-point trapezoid
rule to ~1e-10 over 0 <= v <= 1e4. E sech^2 = 1 - E tanh^2 is returned apart so that a small
1 - q keeps its digits.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from numpy.polynomial.laguerre import laggauss

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


def moments(u, v):
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


def moments_scalar(u: float, v: float) -> tuple[float, float]:
    """moments for one (u, v): the same quadrature without the array bookkeeping."""
    if v <= _V_SPLIT:
        x = u + v * _GH_Z
        e = np.exp(-2.0 * np.abs(x))
        return float(np.tanh(x) @ _GH_W), float((4.0 * e / (1.0 + e) ** 2) @ _GH_W)
    a = np.exp(-0.5 * ((_LAG_S - u) / v) ** 2)
    b = np.exp(-0.5 * ((_LAG_S + u) / v) ** 2)
    scale = _INV_SQRT_2PI / v
    return (math.erf(u / (v * math.sqrt(2.0))) - scale * float((a - b) @ _LAG_A),
            scale * float((a + b) @ _LAG_B))
