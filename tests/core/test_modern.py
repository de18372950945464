"""ModernHopfield against direct float64 formulas, torch autograd, and its CCCP theorem."""
import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from hopfield_core import ModernHopfield, fixed_point_kind, k90


def energy_direct(X, xi, beta):
    """The paper's energy term by term, with math.fsum in float64."""
    N = len(X)
    scores = [beta * float(np.dot(x, xi)) for x in X]
    m = max(scores)
    lse = m + math.log(math.fsum(math.exp(s - m) for s in scores))
    M = max(math.sqrt(math.fsum(v * v for v in x)) for x in X)
    return -lse / beta + 0.5 * math.fsum(v * v for v in xi) + math.log(N) / beta + 0.5 * M * M


@pytest.mark.parametrize("beta", [0.01, 0.5, 1.0, 8.0, 200.0])
def test_energy_matches_the_formula(beta):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(7, 5))
    model = ModernHopfield(X, beta=beta)
    S = rng.normal(size=(6, 5))
    batch = model.energy(S)
    for s, e in zip(S, batch):
        expected = energy_direct(X, s, beta)
        assert model.energy(s) == pytest.approx(expected, rel=1e-10, abs=1e-10)
        assert e == pytest.approx(expected, rel=1e-10, abs=1e-10)


def test_update_is_X_transpose_softmax():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(9, 6))
    beta = 2.5
    model = ModernHopfield(X, beta=beta)
    xi = rng.normal(size=6)
    z = beta * X @ xi
    p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    np.testing.assert_allclose(model.step(xi), X.T @ p, rtol=1e-12)
    np.testing.assert_allclose(model.weights(xi), p, rtol=1e-12)


def test_small_gamma_is_gradient_descent_on_the_energy():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(5, 4))
    model = ModernHopfield(X, beta=1.7)
    xi = rng.normal(size=4)
    t = torch.tensor(xi, requires_grad=True)
    Xt = torch.tensor(X)
    E = (-torch.logsumexp(1.7 * Xt @ t, 0) / 1.7 + 0.5 * t @ t)
    (grad,) = torch.autograd.grad(E, t)
    np.testing.assert_allclose(model.step(xi, gamma=0.1), xi - 0.1 * grad.numpy(), rtol=1e-12)


@given(seed=st.integers(0, 2 ** 32 - 1), N=st.integers(1, 20), d=st.integers(1, 16),
       beta=st.floats(1e-2, 50.0), gamma=st.floats(0.01, 1.0), scale=st.floats(0.1, 5.0))
def test_energy_never_rises_for_gamma_up_to_one(seed, N, d, beta, gamma, scale):
    rng = np.random.default_rng(seed)
    X = scale * rng.normal(size=(N, d))
    model = ModernHopfield(X, beta=beta)
    traj = model.run(scale * rng.normal(size=d), max_steps=30, gamma=gamma)
    E = traj.energies
    assert np.all(np.diff(E) <= 1e-9 * (1.0 + np.abs(E[:-1])))
    assert np.all(E >= -1e-9)  # the constants make E >= 0 (Ramsauer et al., Lemma)


@given(beta=st.floats(1e-3, 1e4), norm=st.sampled_from([1e-3, 1.0, 1e2, 1e4]),
       N=st.integers(1, 6), dup=st.booleans(), zero=st.booleans(),
       dtype=st.sampled_from([np.float32, np.float64]))
def test_no_nan_or_inf_anywhere(beta, norm, N, dup, zero, dtype):
    rng = np.random.default_rng(0)
    X = norm * rng.normal(size=(N, 8))
    if dup:
        X = np.concatenate([X, X[:1]])
    model = ModernHopfield(X.astype(dtype), beta=beta)
    q = np.zeros(8) if zero else norm * rng.normal(size=8)
    traj = model.run(q.astype(dtype), max_steps=5)
    for arr in (traj.states, traj.energies, traj.weights):
        assert np.all(np.isfinite(arr))
    assert traj.states.dtype == dtype
    np.testing.assert_allclose(traj.weights.sum(axis=1), 1.0, rtol=1e-4)


def test_huge_beta_picks_the_nearest_pattern_exactly():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    model = ModernHopfield(X, beta=1e4)
    np.testing.assert_array_equal(model.step(np.array([0.9, 0.2])), [1.0, 0.0])


def test_zero_query_averages_all_patterns():
    X = np.random.default_rng(3).normal(size=(4, 3))
    model = ModernHopfield(X, beta=1.0)
    np.testing.assert_allclose(model.step(np.zeros(3)), X.mean(axis=0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dtype_follows_the_patterns_and_batches_equal_rows(dtype):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(10, 6)).astype(dtype)
    model = ModernHopfield(X, beta=3.0)
    S = rng.normal(size=(5, 6)).astype(dtype)
    out = model.step(S)
    assert out.dtype == dtype and model.energy(S).dtype == dtype
    rows = np.stack([model.step(s) for s in S])
    np.testing.assert_allclose(out, rows, rtol=1e-5 if dtype == np.float32 else 1e-12)
    np.testing.assert_allclose(model.energy(S), [model.energy(s) for s in S], rtol=1e-5)


def test_k90_and_fixed_point_kinds():
    assert k90(np.array([0.95, 0.05])) == 1
    assert k90(np.array([0.5, 0.3, 0.15, 0.05])) == 3
    assert k90(np.array([[0.9, 0.1], [0.5, 0.5]])).tolist() == [1, 2]
    assert fixed_point_kind(np.array([0.97, 0.01, 0.01, 0.01])) == "single"
    assert fixed_point_kind(np.full(10, 0.1)) == "global"
    assert fixed_point_kind(np.array([0.45, 0.45] + [0.1 / 8] * 8)) == "metastable"


def test_beta_moves_the_fixed_point_from_global_to_metastable_to_single():
    # three near-copies of one direction and five unrelated patterns, all unit norm
    rng = np.random.default_rng(5)
    a = rng.normal(size=64)
    a /= np.linalg.norm(a)
    X = np.concatenate([a + 0.15 * rng.normal(size=(3, 64)) / 8, rng.normal(size=(5, 64)) / 8])
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    kinds = {b: ModernHopfield(X, beta=b).run(X[0]).weights[-1] for b in (0.01, 20.0, 2000.0)}
    assert fixed_point_kind(kinds[0.01]) == "global"
    assert fixed_point_kind(kinds[20.0]) == "metastable" and k90(kinds[20.0]) == 3
    assert fixed_point_kind(kinds[2000.0]) == "single"


def test_separation_and_retrieval_bound():
    X = np.array([[3.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    model = ModernHopfield(X, beta=2.0)
    rb = model.retrieval_bound()
    G = X @ X.T
    np.testing.assert_allclose(rb.separation, [9 - 3, 4 - 2, 2 - 3])
    N, M, beta = 3, 3.0, 2.0
    assert rb.bound == pytest.approx(2 / (beta * N) + math.log(2 * (N - 1) * N * beta * M ** 2) / beta)
    np.testing.assert_array_equal(rb.satisfied, rb.separation >= rb.bound)
    assert G.shape == (3, 3)


def test_patterns_that_satisfy_the_bound_are_retrieved_in_one_step():
    rng = np.random.default_rng(6)
    X = rng.choice([-1.0, 1.0], size=(6, 100))
    model = ModernHopfield(X, beta=1.0)
    rb = model.retrieval_bound()
    assert rb.satisfied.all()
    for x in X:
        q = x.copy()
        q[:10] *= -1
        np.testing.assert_allclose(model.step(q), x, atol=1e-6)


def test_one_pattern_has_infinite_separation():
    rb = ModernHopfield(np.ones((1, 3))).retrieval_bound()
    assert rb.separation[0] == np.inf and rb.satisfied.all()


@pytest.mark.parametrize("kwargs, message", [
    (dict(beta=0.0), "beta"), (dict(beta=-1.0), "beta"), (dict(beta=float("nan")), "beta"),
])
def test_bad_options_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ModernHopfield(np.ones((2, 3)), **kwargs)


def test_bad_step_size_and_state_are_refused():
    model = ModernHopfield(np.ones((2, 3)))
    with pytest.raises(ValueError, match="gamma"):
        model.step(np.ones(3), gamma=1.5)
    with pytest.raises(ValueError, match="shape"):
        model.step(np.ones(4))
    with pytest.raises(ValueError, match="NaN"):
        model.step(np.array([1.0, np.nan, 0.0]))
