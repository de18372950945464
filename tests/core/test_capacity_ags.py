"""hopfield_core.capacity.ags (and its Gaussian averages, gauss_averages) against the T = 0
equation in one variable, the Curie-Weiss magnet, and a second, independent solver of the
replica-symmetric equations (plain fixed-point iteration with a trapezoid rule in z)."""
import math
import time

import numpy as np
import pytest

from hopfield_core.capacity import ags
from hopfield_core.capacity.gauss_averages import moments

SQRT_PI = math.sqrt(math.pi)


# --- independent references -------------------------------------------------------------

def g(y):
    """T = 0: a retrieval solution at load alpha is a root of g(y) = sqrt(2 alpha)."""
    return math.erf(y) / y - 2.0 / SQRT_PI * math.exp(-y * y)


def alpha_c_zero_reference():
    lo, hi = 0.5, 3.0  # ternary search for the maximum of g
    for _ in range(200):
        a, b = lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0
        lo, hi = (a, hi) if g(a) < g(b) else (lo, b)
    return g(0.5 * (lo + hi)) ** 2 / 2.0, 0.5 * (lo + hi)


def m_zero_reference(alpha):
    """m = erf(y) at the largest root y of g(y) = sqrt(2 alpha) (g falls beyond its peak)."""
    _, y_peak = alpha_c_zero_reference()
    lo, hi = y_peak, 50.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if g(mid) > math.sqrt(2.0 * alpha) else (lo, mid)
    return math.erf(0.5 * (lo + hi))


def trapezoid_iteration(alpha, T, sweeps=20000, h=0.005):
    """m after iterating the finite-T equations from m = 1, q = 1 (trapezoid rule in z)."""
    z = np.arange(-9.0, 9.0 + h / 2, h)
    w = np.exp(-z * z / 2.0) * h / math.sqrt(2.0 * math.pi)
    m, q = 1.0, 1.0
    for _ in range(sweeps):
        denominator = 1.0 - (1.0 - q) / T
        if denominator <= 0.0:
            return 0.0
        t = np.tanh((m + math.sqrt(alpha * q) / denominator * z) / T)
        m_new, q_new = float(t @ w), float((t * t) @ w)
        if m_new < 0.01:
            return 0.0
        if abs(m_new - m) < 1e-14 and abs(q_new - q) < 1e-14:
            return m_new
        m, q = m_new, q_new
    return m


def m_residual(alpha, T, m, h=0.005):
    """|m - E tanh(beta (m + sqrt(alpha r) z))| once q solves its own equation at this m."""
    z = np.arange(-9.0, 9.0 + h / 2, h)
    w = np.exp(-z * z / 2.0) * h / math.sqrt(2.0 * math.pi)
    q = m * m
    for _ in range(2000):
        sigma = math.sqrt(alpha * q) / (1.0 - (1.0 - q) / T)
        t = np.tanh((m + sigma * z) / T)
        q_new = float((t * t) @ w)
        if abs(q_new - q) < 1e-15:
            break
        q = q_new
    return abs(m - float(t @ w))


# --- T = 0 ----------------------------------------------------------------------------

def test_critical_alpha_at_zero_temperature_is_the_textbook_0138():
    alpha_c = ags.critical_alpha(0.0)
    assert 0.137 <= alpha_c <= 0.139
    assert alpha_c == pytest.approx(alpha_c_zero_reference()[0], abs=1e-12)
    assert alpha_c == pytest.approx(0.137906, abs=1e-6)
    assert ags.critical_alpha() == alpha_c


def test_zero_temperature_overlap_just_below_and_above_alpha_c():
    m = ags.retrieval_overlap(0.137, 0.0)
    assert 0.95 <= m <= 0.98
    assert m == pytest.approx(m_zero_reference(0.137), abs=1e-10)
    assert ags.retrieval_overlap(0.14, 0.0) == 0.0
    assert ags.retrieval_overlap(0.1381, 0.0) == 0.0


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.1, 0.13, 0.1379])
def test_zero_temperature_overlap_matches_the_one_variable_equation(alpha):
    assert ags.retrieval_overlap(alpha, 0.0) == pytest.approx(m_zero_reference(alpha), abs=1e-10)


def test_zero_temperature_overlap_next_to_alpha_c():
    # the iteration crawls here; the answer then comes from the equation in y
    alpha = ags.critical_alpha(0.0) * (1.0 - 1e-9)
    assert ags.retrieval_overlap(alpha, 0.0) == pytest.approx(m_zero_reference(alpha), abs=1e-9)
    assert 0.967 < ags.retrieval_overlap(alpha, 0.0) < 0.968
    assert ags.retrieval_overlap(ags.critical_alpha(0.0) * (1.0 + 1e-9), 0.0) == 0.0


def test_zero_temperature_overlap_at_alpha_01_is_about_099():
    assert 0.99 <= ags.retrieval_overlap(0.1, 0.0) <= 1.0


def test_low_temperature_joins_the_zero_temperature_equations():
    # T > 0 uses the finite-T equations (tanh a near-step: the erf + Gauss-Laguerre form)
    assert ags.critical_alpha(1e-6) == pytest.approx(ags.critical_alpha(0.0), abs=1e-7)
    assert ags.retrieval_overlap(0.1, 1e-4) == pytest.approx(ags.retrieval_overlap(0.1, 0.0),
                                                             abs=1e-6)


# --- alpha = 0: the Curie-Weiss magnet -------------------------------------------------

def test_no_load_is_the_curie_weiss_magnet():
    lo, hi = 0.5, 1.0  # the positive root of m = tanh(2 m)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if math.tanh(2.0 * mid) > mid else (lo, mid)
    assert ags.retrieval_overlap(0.0, 0.5) == pytest.approx(lo, abs=1e-6)
    assert ags.retrieval_overlap(0.0, 0.5) == pytest.approx(0.957504, abs=1e-6)
    assert ags.retrieval_overlap(0.0, 0.0) == 1.0
    assert ags.retrieval_overlap(0.0, 1.0) == 0.0
    assert ags.retrieval_overlap(0.0, 2.0) == 0.0


def test_no_retrieval_at_or_above_unit_temperature():
    assert ags.retrieval_overlap(0.01, 1.0) == 0.0
    assert ags.retrieval_overlap(1e-6, 1.5) == 0.0


# --- finite T against the independent solver ---------------------------------------------

@pytest.mark.parametrize("alpha, T", [(0.05, 0.5), (0.02, 0.7), (0.1, 0.2), (0.001, 0.9)])
def test_finite_temperature_overlap_matches_a_second_solver(alpha, T):
    assert ags.retrieval_overlap(alpha, T) == pytest.approx(trapezoid_iteration(alpha, T),
                                                            abs=1e-9)


def test_low_temperature_overlap_matches_a_second_solver():
    # v = beta sqrt(alpha r) ~ 8: the Gauss-Laguerre side of the quadrature
    m = ags.retrieval_overlap(0.1, 0.04)
    assert m == pytest.approx(trapezoid_iteration(0.1, 0.04, h=0.002), abs=1e-9)


def test_retrieval_temperature_at_005():
    T_M = ags.retrieval_temperature(0.05)
    assert T_M == pytest.approx(0.542255, abs=2e-6)  # computed here, checked just below
    # the second solver keeps the pattern just below T_M and loses it just above
    assert trapezoid_iteration(0.05, T_M - 0.002) > 0.8
    assert trapezoid_iteration(0.05, T_M + 0.002) == 0.0
    # and so does the iteration in the module
    assert ags.retrieval_overlap(0.05, T_M - 1e-4) > 0.8
    assert ags.retrieval_overlap(0.05, T_M + 1e-4) == 0.0


@pytest.mark.parametrize("T", [0.05, 0.3, 0.6, 0.9, 0.98])
def test_critical_alpha_agrees_with_the_iteration(T):
    alpha_c = ags.critical_alpha(T)
    assert ags.retrieval_overlap(0.995 * alpha_c, T) > 0.1
    assert ags.retrieval_overlap(1.005 * alpha_c, T) == 0.0
    assert ags.retrieval_temperature(alpha_c) == pytest.approx(T, abs=1e-7)


@pytest.mark.parametrize("T", [0.997, 0.9999])
def test_overlap_close_to_unit_temperature_solves_the_equations(T):
    # m ~ sqrt(1 - T) is small and the iteration crawls; the branch answers
    alpha = 0.5 * ags.critical_alpha(T)
    m = ags.retrieval_overlap(alpha, T)
    curie_weiss = ags.retrieval_overlap(0.0, T)
    assert 0.8 * curie_weiss < m < curie_weiss
    assert m_residual(alpha, T, m) < 1e-9 * m
    assert ags.retrieval_overlap(1.01 * ags.critical_alpha(T), T) == 0.0


def test_unit_temperature_scaling_limit():
    # alpha_c ~ ((1 - T) / 1.954)^2 and m / sqrt(1 - T) a function of alpha / alpha_c
    assert ags.critical_alpha(1.0 - 1e-4) == pytest.approx((1e-4 / 1.9540838) ** 2, rel=1e-4)
    assert ags.critical_alpha(1.0 - 1e-9) == pytest.approx((1e-9 / 1.9540838) ** 2, rel=1e-6)
    ratios = [ags.retrieval_overlap(0.5 * ags.critical_alpha(1.0 - e), 1.0 - e) / math.sqrt(e)
              for e in (1e-5, 1e-6, 1e-9)]
    assert ratios == pytest.approx([1.62855] * 3, rel=1e-4)


# --- the retrieval line T_M(alpha) ----------------------------------------------------------

def test_retrieval_temperature_goes_to_one_as_the_load_vanishes():
    assert ags.retrieval_temperature(0.0) == 1.0
    assert 0.98 <= ags.retrieval_temperature(1e-4) <= 1.0
    # T_M ~= 1 - 1.95 sqrt(alpha) for small alpha (Amit, Gutfreund & Sompolinsky 1987)
    assert (1.0 - ags.retrieval_temperature(1e-8)) / 1e-4 == pytest.approx(1.95, abs=0.01)


def test_retrieval_temperature_decreases_with_the_load():
    alphas = np.linspace(0.001, 0.1379, 14)
    T_M = [ags.retrieval_temperature(a) for a in alphas]
    assert np.all(np.diff(T_M) < 0.0)
    assert T_M[0] > 0.9 and 0.0 < T_M[-1] < 0.06


def test_retrieval_temperature_beyond_every_alpha_c_is_zero():
    assert ags.retrieval_temperature(0.1383) == 0.0
    assert ags.retrieval_temperature(0.5) == 0.0


def test_replica_symmetric_reentrance():
    # alpha_c(T) peaks at 0.138189 near T = 0.023, above alpha_c(0) = 0.137906
    assert ags.critical_alpha(0.0229) == pytest.approx(0.138189, abs=1e-6)
    assert ags.critical_alpha(0.01) > ags.critical_alpha(0.0)
    # between the two, retrieval exists at some T > 0 but not at T = 0
    T_M = ags.retrieval_temperature(0.1381)
    assert 0.0229 < T_M < 0.05
    assert ags.retrieval_overlap(0.1381, 0.0) == 0.0
    assert ags.retrieval_overlap(0.1381, T_M - 1e-3) > 0.9


def test_retrieval_boundary_60_points():
    alphas = np.linspace(0.0, 0.14, 60)
    line = ags.retrieval_boundary(alphas)
    assert line.shape == (60,)
    assert np.all(np.isfinite(line)) and np.all((line >= 0.0) & (line <= 1.0))
    assert line[0] == 1.0 and line[-1] == 0.0
    assert np.all(np.diff(line) <= 0.0)
    for k in (5, 30, 55):
        assert line[k] == pytest.approx(ags.retrieval_temperature(alphas[k]), abs=1e-9)


def test_retrieval_boundary_is_fast():
    alphas = np.linspace(0.0, 0.14, 60)
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        ags.retrieval_boundary(alphas)
        best = min(best, time.perf_counter() - start)
    assert best < 1.0  # ~0.17 s on a 2-core machine


def test_retrieval_boundary_keeps_the_shape():
    alphas = np.array([[0.0, 0.05], [0.1, 0.2]])
    line = ags.retrieval_boundary(alphas)
    assert line.shape == (2, 2)
    assert line[0, 1] == pytest.approx(ags.retrieval_temperature(0.05), abs=1e-9)
    assert line[1, 1] == 0.0


# --- the quadrature --------------------------------------------------------------------------

@pytest.mark.parametrize("u, v", [(0.3, 0.2), (1.0, 1.0), (0.5, 1.0001), (2.0, 3.0),
                                  (10.0, 30.0), (-40.0, 300.0), (0.0, 5.0)])
def test_gaussian_averages_against_a_fine_trapezoid_rule(u, v):
    h = min(0.01, 0.05 / v)
    z = np.arange(-12.0, 12.0 + h / 2, h)
    w = np.exp(-z * z / 2.0) * h / math.sqrt(2.0 * math.pi)
    t = np.tanh(u + v * z)
    mean, spread = moments(np.array([u]), np.array([v]))  # spread = 1 - E tanh^2
    assert mean[0] == pytest.approx(t @ w, abs=1e-9)
    assert spread[0] == pytest.approx(1.0 - (t * t) @ w, abs=1e-9)


# --- inputs ------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [math.nan, -1.0, math.inf, -math.inf])
def test_bad_inputs_raise(bad):
    with pytest.raises(ValueError):
        ags.retrieval_overlap(bad, 0.5)
    with pytest.raises(ValueError):
        ags.retrieval_overlap(0.05, bad)
    with pytest.raises(ValueError):
        ags.critical_alpha(bad)
    with pytest.raises(ValueError):
        ags.retrieval_temperature(bad)
    with pytest.raises(ValueError):
        ags.retrieval_boundary([0.05, bad])


@pytest.mark.parametrize("T", [1.0, 1.5])
def test_critical_alpha_needs_a_temperature_below_one(T):
    with pytest.raises(ValueError, match="below 1"):
        ags.critical_alpha(T)
