"""hopfield_core.capacity against direct formulas and a brute-force stability check."""
import math

import numpy as np
import pytest

from hopfield_core import ClassicalHopfield, DenseAssociativeMemory
from hopfield_core.capacity import (
    classical_capacity,
    exponential_alpha,
    format_log10,
    interaction_shape,
    log10_exponential_capacity,
    log10_polynomial_capacity,
    odd_double_factorial,
    stable_patterns,
)


def random_patterns(N, d, seed):
    return np.random.default_rng(seed).choice([-1.0, 1.0], size=(N, d))


def test_classical_capacity_is_the_textbook_fraction():
    assert classical_capacity(1000) == pytest.approx(138.0)
    assert classical_capacity(64) == pytest.approx(8.832)
    with pytest.raises(ValueError):
        classical_capacity(1)


@pytest.mark.parametrize("k, expected", [(-1, 1), (1, 1), (3, 3), (5, 15), (7, 105), (9, 945)])
def test_odd_double_factorial(k, expected):
    assert odd_double_factorial(k) == expected


def test_odd_double_factorial_rejects_even():
    with pytest.raises(ValueError):
        odd_double_factorial(4)


@pytest.mark.parametrize("d, n", [(64, 2), (100, 3), (256, 4), (1000, 6), (6912, 10)])
def test_polynomial_capacity_matches_the_direct_formula(d, n):
    dfact = 1
    for k in range(1, 2 * n - 2, 2):  # 1 * 3 * ... * (2n - 3), written out independently
        dfact *= k
    direct = d ** (n - 1) / (2 * dfact * math.log(d))  # Python ints/floats, no logs of logs
    assert 10 ** log10_polynomial_capacity(d, n) == pytest.approx(direct, rel=1e-9)


def test_degree_two_is_mceliece_and_degree_raises_capacity():
    d = 256
    assert 10 ** log10_polynomial_capacity(d, 2) == pytest.approx(d / (2 * math.log(d)))
    values = [log10_polynomial_capacity(d, n) for n in range(2, 11)]
    assert all(b > a for a, b in zip(values, values[1:]))


def test_exponential_capacity_is_two_to_the_half_d_without_noise():
    assert exponential_alpha(0.0) == pytest.approx(math.log(2) / 2)
    for d in (16, 64, 256):
        assert 10 ** log10_exponential_capacity(d) == pytest.approx(2.0 ** (d / 2), rel=1e-9)


def test_exponential_alpha_against_the_entropy_formula_and_limits():
    for rho in (0.05, 0.1, 0.2, 0.3, 0.45):
        x = 1 - 2 * rho
        direct = 0.25 * ((1 + x) * math.log(1 + x) + (1 - x) * math.log(1 - x))
        assert exponential_alpha(rho) == pytest.approx(direct, rel=1e-12)
    alphas = [exponential_alpha(r) for r in np.linspace(0, 0.49, 20)]
    assert all(b < a for a, b in zip(alphas, alphas[1:]))  # more noise, fewer patterns
    assert exponential_alpha(0.4999) < 1e-6
    with pytest.raises(ValueError):
        exponential_alpha(0.5)
    # huge d: finite, no overflow
    assert math.isfinite(log10_exponential_capacity(48 * 48 * 3))


def test_format_log10():
    assert format_log10(math.log10(361.9)) == "362"
    assert format_log10(math.log10(123456.7)) == "123,457"
    assert format_log10(math.log10(3.4e38)) == "3.4 \u00d7 10\u00b3\u2078"
    assert format_log10(9.999) == "1.0 \u00d7 10\u00b9\u2070"
    assert format_log10(0.0) == "1"
    with pytest.raises(ValueError):
        format_log10(float("inf"))


def brute_force_stable(model, X):
    """A pattern is a fixed point when no single flip strictly lowers the energy."""
    out = []
    for x in X:
        E = model.energy(x)
        ok = True
        for i in range(len(x)):
            y = x.copy()
            y[i] = -y[i]
            if model.energy(y) < E - 1e-9 * max(1.0, abs(E)):
                ok = False
                break
        out.append(ok)
    return np.array(out)


MODELS = [
    lambda X: ClassicalHopfield(X),
    lambda X: DenseAssociativeMemory(X, degree=2),
    lambda X: DenseAssociativeMemory(X, degree=3),
    lambda X: DenseAssociativeMemory(X, degree=4, rectified=True),
    lambda X: DenseAssociativeMemory(X, interaction="exponential", beta=0.3),
    lambda X: DenseAssociativeMemory(X, interaction="exponential", beta=1.0),
]


@pytest.mark.parametrize("make", MODELS)
@pytest.mark.parametrize("N, seed", [(3, 0), (6, 1), (12, 2), (20, 3)])
def test_stable_patterns_agree_with_brute_force(make, N, seed):
    X = random_patterns(N, 16, seed)
    model = make(X)
    got = stable_patterns(model, X)
    assert got.shape == (N,) and got.dtype == bool
    np.testing.assert_array_equal(got, brute_force_stable(model, X))


def test_stable_counts_show_the_capacity_story():
    # 30 random patterns in 64 neurons: far over 0.138 d for the classical net,
    # comfortably inside d^2 / (6 ln d) ~ 164 for degree 3
    X = random_patterns(30, 64, 7)
    classical = stable_patterns(ClassicalHopfield(X), X).sum()
    dense2 = stable_patterns(DenseAssociativeMemory(X, degree=2), X).sum()
    dense3 = stable_patterns(DenseAssociativeMemory(X, degree=3), X).sum()
    assert classical == dense2  # degree 2 is the classical network
    assert classical < 30 and dense3 == 30


def test_interaction_shape():
    d = 10
    z = np.arange(-10, 11, 2, dtype=float)
    np.testing.assert_allclose(interaction_shape(z, d, degree=3), (z / d) ** 3)
    np.testing.assert_allclose(interaction_shape(z, d, degree=3, rectified=True),
                               np.where(z > 0, (z / d) ** 3, 0.0))
    np.testing.assert_allclose(interaction_shape(z, d, "exponential", beta=0.5),
                               [math.exp(0.5 * (v - d)) for v in z])
    assert interaction_shape(np.array([d]), d, "exponential", beta=1e4)[0] == 1.0
    assert np.all(np.isfinite(interaction_shape(z, d, "exponential", beta=1e4)))
    with pytest.raises(ValueError):
        interaction_shape(z, d, "cubic")
