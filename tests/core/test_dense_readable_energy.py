"""DenseAssociativeMemory.readable_energy: the energy the pages plot, and the numbers the
dense page states about it (the raw E underflows or explodes; the readable one does not)."""
import math
import warnings

import numpy as np
import pytest

from hopfield_core import DenseAssociativeMemory
from hopfield_core.capacity import log10_polynomial_capacity
from hopfield_core.images import corrupt, resize, to_bipolar
from hopfield_core.presets import preset_image


def default_store(size=16):
    """The app's default store (H, O, X at 16 px, threshold) and query (20 % flipped, seed 0)."""
    X = np.stack([to_bipolar(resize(preset_image("letters", c, 64), (size, size))) for c in "HOX"])
    return X, corrupt(X[0], (size, size), "flip", 0.2, rng=0)


@pytest.mark.parametrize("cfg", [dict(interaction="exponential", beta=0.3),
                                 dict(interaction="exponential", beta=2.0),
                                 dict(degree=3), dict(degree=4, rectified=True), dict(degree=7)])
def test_readable_energy_is_the_stated_increasing_function_of_E(cfg):
    rng = np.random.default_rng(1)
    X = np.sign(rng.standard_normal((6, 24)))
    S = np.sign(rng.standard_normal((200, 24)))
    S[:6] = X
    m = DenseAssociativeMemory(X, **cfg)
    E, R = m.energy(S), m.readable_energy(S)
    if m.interaction == "exponential":
        np.testing.assert_allclose(R, -np.log(-E) / m.beta, rtol=1e-12)
    else:
        np.testing.assert_allclose(R, E / 24 ** m.degree, rtol=1e-12, atol=1e-15)
    order = np.argsort(E, kind="stable")
    assert np.all(np.diff(R[order]) >= -1e-12)  # ordered as E is
    assert m.readable_energy(S[7]) == pytest.approx(R[7])  # one state gives a float


@pytest.mark.parametrize("cfg", [dict(interaction="exponential", beta=10.0), dict(degree=10)])
def test_a_readable_run_has_the_same_states_and_never_rises_async(cfg):
    X, q = default_store()
    m = DenseAssociativeMemory(X, **cfg)
    raw = m.run(q, mode="async", rng=3, max_steps=20)
    shown = m.run(q, mode="async", rng=3, max_steps=20, readable=True)
    np.testing.assert_array_equal(raw.states, shown.states)
    np.testing.assert_allclose(shown.energies, m.readable_energy(shown.states), rtol=1e-12)
    assert np.all(np.diff(shown.energies) <= 1e-12)


def test_the_numbers_the_dense_page_states():
    X, q = default_store()
    d = X.shape[1]
    assert d == 256 and int(np.sum(q != X[0])) == 51  # "a query 51 flips from H"
    E1 = DenseAssociativeMemory(X, "exponential", beta=1.0).energy(q)
    assert -5.5e-45 < E1 < -4.5e-45                     # "E = -5 10^-45 at beta = 1"
    E10 = DenseAssociativeMemory(X, "exponential", beta=10.0).energy(q)
    assert E10 == 0.0 and math.copysign(1, E10) == -1  # "exactly -0.0 at beta = 10"
    shown = DenseAssociativeMemory(X, "exponential", beta=10.0).readable_energy(q)
    assert shown == pytest.approx(102.0, abs=1e-6)      # 2 x 51 flips, readable
    E_H = DenseAssociativeMemory(X, degree=10).energy(X[0])
    assert -1.3e24 < E_H < -1.2e24                      # "at n = 10 it reaches -10^24"
    N = X.shape[0]
    for n in (2, 3, 10):                                # "in [-N, N]"
        R = DenseAssociativeMemory(X, degree=n).readable_energy(np.vstack([X, q]))
        assert np.all(np.abs(R) <= N)


def test_readable_energy_is_finite_at_the_extremes():
    rng = np.random.default_rng(2)
    X = np.sign(rng.standard_normal((40, 3072)))
    S = np.sign(rng.standard_normal((5, 3072)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for cfg in (dict(interaction="exponential", beta=1e3), dict(interaction="exponential", beta=1e-3),
                    dict(degree=30)):
            R = DenseAssociativeMemory(X, **cfg).readable_energy(np.vstack([X[:2], S]))
            assert np.all(np.isfinite(R))


@pytest.mark.parametrize("d", [64, 256, 1024])
@pytest.mark.parametrize("n", [2, 3, 5, 9])
def test_each_degree_step_multiplies_the_capacity_by_d_over_2n_minus_1(d, n):
    # the dense page: "each step up from n multiplies the capacity by about d / (2n - 1)"
    ratio = 10 ** (log10_polynomial_capacity(d, n + 1) - log10_polynomial_capacity(d, n))
    assert ratio == pytest.approx(d / (2 * n - 1), rel=1e-9)
