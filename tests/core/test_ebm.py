"""The energy-based model (hopfield_core.ebm): log Z against numerical integration, the
density against an independent mixture of Gaussians, the gradient against finite differences
and torch autograd, exact sampling against the mixture's moments, training, extremes and bad
input."""
import math

import numpy as np
import pytest
import torch

from hopfield_core import ebm
from hopfield_core import ebm_data as dd


def patterns(N=4, d=2, seed=0, scale=1.0):
    return scale * np.random.default_rng(seed).standard_normal((N, d))


@pytest.mark.parametrize("beta", [0.3, 1.0, 4.0])
def test_log_partition_equals_numerical_integration_in_1d(beta):
    X = np.array([[-1.0], [0.5], [2.0]])
    xs = np.linspace(-12, 14, 200_001)
    E = ebm.energy(X, xs[:, None], beta)
    Z = np.trapezoid(np.exp(-beta * E), xs)
    assert ebm.log_partition(X, beta) == pytest.approx(math.log(Z), abs=1e-8)


@pytest.mark.parametrize("beta", [0.5, 2.0])
def test_log_partition_equals_numerical_integration_in_2d(beta):
    X = patterns(3, 2, seed=1)
    g = np.linspace(-9, 9, 1201)
    U, V = np.meshgrid(g, g)
    E = ebm.energy(X, np.c_[U.ravel(), V.ravel()], beta).reshape(U.shape)
    Z = np.trapezoid(np.trapezoid(np.exp(-beta * E), g, axis=1), g)
    assert ebm.log_partition(X, beta) == pytest.approx(math.log(Z), abs=1e-6)


def test_nll_equals_an_independent_mixture_of_gaussians():
    X, beta = patterns(5, 3, seed=2), 1.7
    data = patterns(40, 3, seed=3, scale=1.5)
    w = [math.exp(beta * float(x @ x) / 2) for x in X]
    w = [v / sum(w) for v in w]
    norm = (beta / (2 * math.pi)) ** 1.5

    def p(z):
        return sum(wi * norm * math.exp(-beta * float((z - x) @ (z - x)) / 2) for wi, x in zip(w, X))
    expected = -np.mean([math.log(p(z)) for z in data])
    assert ebm.nll(X, data, beta) == pytest.approx(expected, rel=1e-12)
    # the softmax weights are the mixture's posterior p(mu | xi)
    post = np.array([[wi * math.exp(-beta * float((z - x) @ (z - x)) / 2) for wi, x in zip(w, X)]
                     for z in data])
    np.testing.assert_allclose(ebm.responsibilities(X, data, beta),
                               post / post.sum(axis=1, keepdims=True), rtol=1e-10)


def test_nll_grad_equals_finite_differences_and_autograd():
    X, beta = patterns(4, 3, seed=4), 0.8
    data = patterns(30, 3, seed=5, scale=2.0)
    g = ebm.nll_grad(X, data, beta)
    h, fd = 1e-6, np.zeros_like(X)
    for idx in np.ndindex(X.shape):
        up, down = X.copy(), X.copy()
        up[idx] += h
        down[idx] -= h
        fd[idx] = (ebm.nll(up, data, beta) - ebm.nll(down, data, beta)) / (2 * h)
    np.testing.assert_allclose(g, fd, atol=1e-7)
    Xt = torch.tensor(X, requires_grad=True)
    Dt = torch.tensor(data)
    E = 0.5 * (Dt * Dt).sum(1) - torch.logsumexp(beta * Dt @ Xt.T, dim=1) / beta
    logZ = 1.5 * math.log(2 * math.pi / beta) + torch.logsumexp(0.5 * beta * (Xt * Xt).sum(1), 0)
    (beta * E.mean() + logZ).backward()
    np.testing.assert_allclose(g, Xt.grad.numpy(), atol=1e-12)


def test_samples_match_the_mixtures_mean_and_covariance():
    X, beta = patterns(3, 2, seed=6, scale=1.2), 2.5
    pts, mu = ebm.sample(X, beta, 200_000, rng=0)
    pi = ebm.mixture_weights(X, beta)
    mean = pi @ X
    cov = (X.T * pi) @ X - np.outer(mean, mean) + np.eye(2) / beta
    np.testing.assert_allclose(pts.mean(0), mean, atol=0.01)
    np.testing.assert_allclose(np.cov(pts.T), cov, atol=0.015)
    np.testing.assert_allclose(np.bincount(mu, minlength=3) / len(mu), pi, atol=0.005)


def test_training_lowers_the_held_out_nll_at_a_fixed_seed():
    train, held = dd.split(dd.dataset("clusters", 400, seed=0), 0.25, seed=0)
    t = ebm.Trainer(dd.initial_patterns(8, 2, seed=0), train, beta=2.0, lr=0.05, held_out=held)
    t.step(300)
    assert t.held[-1] < t.held[0] - 2.0 and t.history[-1] < t.history[0] - 2.0
    assert len(t.path) == 301 and len(t.history) == 301
    # at the end the gradient nearly vanishes: pi_mu x_mu = mean_n r_mu(xi_n) xi_n
    assert np.abs(ebm.nll_grad(t.X, train, 2.0)).max() < 0.05


@pytest.mark.parametrize("beta", [1e-3, 1e3])
def test_extremes_of_beta_and_d_3072_stay_finite(beta):
    X = patterns(16, 3072, seed=7)
    data = patterns(20, 3072, seed=8)
    values = [ebm.log_partition(X, beta), ebm.nll(X, data, beta)]
    assert all(math.isfinite(v) for v in values)
    assert np.all(np.isfinite(ebm.nll_grad(X, data, beta)))
    assert np.all(np.isfinite(ebm.sample(X, beta, 5, rng=0)[0]))
    assert np.allclose(ebm.responsibilities(X, data, beta).sum(1), 1)


@pytest.mark.parametrize("call, message", [
    (lambda: ebm.nll(patterns(), np.empty((0, 2))), "non-empty"),
    (lambda: ebm.nll(patterns(), [[np.nan, 1.0]]), "NaN"),
    (lambda: ebm.nll(patterns(), [[1.0, 2.0, 3.0]]), "3 dimensions but the patterns have 2"),
    (lambda: ebm.log_partition(patterns(), 0.0), "beta must be in"),
    (lambda: ebm.log_partition(patterns(), 2e3), "beta must be in"),
    (lambda: ebm.log_partition(patterns(), float("nan")), "beta must be in"),
    (lambda: ebm.log_partition(patterns(), "hot"), "beta must be a number"),
    (lambda: ebm.log_partition([[np.inf, 0.0]]), "NaN or infinite"),
    (lambda: ebm.Trainer(patterns(5), patterns(3, seed=1)), "More patterns (5) than training"),
    (lambda: ebm.Trainer(patterns(), patterns(9, seed=1), lr=-1), "learning rate"),
    (lambda: ebm.sample(patterns(), 1.0, -3), "number of samples"),
    (lambda: dd.split(np.zeros((1, 2))), "needs at least 2 data points"),
    (lambda: dd.dataset("galaxy", 10), "one of clusters"),
    (lambda: dd.dataset("ring", 1), "from 2 to"),
])
def test_bad_input_gets_a_message(call, message):
    with pytest.raises(ValueError, match=None) as e:
        call()
    assert message in str(e.value)
