"""ebm.plane_grid, the learning page's background: log p and E on a grid of the plane, against
the mixture of Gaussians and the energy written out point by point."""
import math

import numpy as np
import pytest

from hopfield_core import ebm

X = np.array([[1.5, -0.5], [-2.0, 1.0], [0.3, 2.5]])  # (N, 2): no symmetry to hide a transpose


def mixture_log_density(X, p, beta):
    """log sum_mu pi_mu N(p; x_mu, I / beta), pi = softmax(beta |x_mu|^2 / 2), in plain Python."""
    w = [math.exp(beta * (x @ x) / 2) for x in X]
    pdf = sum(wi / sum(w) * beta / (2 * math.pi) * math.exp(-beta * ((p - x) @ (p - x)) / 2)
              for wi, x in zip(w, X))
    return math.log(pdf)


def energy(X, p, beta):
    return 0.5 * (p @ p) - math.log(sum(math.exp(beta * (x @ p)) for x in X)) / beta


@pytest.mark.parametrize("kind, oracle", [("density", mixture_log_density), ("energy", energy)])
@pytest.mark.parametrize("beta", [0.5, 2.0])
def test_each_point_of_the_grid_is_the_model_at_that_point(kind, oracle, beta):
    axis, Z = ebm.plane_grid(X, beta, kind, 3.0, 7)
    np.testing.assert_allclose(axis, np.linspace(-3, 3, 7))
    assert Z.shape == (7, 7)
    for i in range(7):
        for j in range(7):  # row i goes up the second coordinate
            p = np.array([axis[j], axis[i]])
            assert Z[i, j] == pytest.approx(oracle(X, p, beta), rel=1e-10, abs=1e-10)


def test_the_density_integrates_to_one_over_a_box_that_holds_it():
    axis, Z = ebm.plane_grid(X, 2.0, "density", 7.0, 281)
    cell = (axis[1] - axis[0]) ** 2
    assert np.exp(Z).sum() * cell == pytest.approx(1.0, abs=1e-4)


@pytest.mark.parametrize("args, message", [
    ((X, 1.0, "entropy", 3.0, 7), "kind must be"),
    ((np.ones((3, 5)), 1.0, "density", 3.0, 7), "2 values"),
    ((X, 0.0, "density", 3.0, 7), "beta must be"),
    ((X, 1.0, "energy", 3.0, 1), "at least 2 points"),
    ((X, 1.0, "energy", 0.0, 7), "lo < hi"),
])
def test_bad_arguments_are_explained(args, message):
    with pytest.raises(ValueError, match=message):
        ebm.plane_grid(*args)
