"""DenseAssociativeMemory against direct formulas, enumeration, and the classical net."""
import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hopfield_core import ClassicalHopfield, DenseAssociativeMemory


def random_patterns(N, d, seed):
    return np.random.default_rng(seed).choice([-1.0, 1.0], size=(N, d))


def all_states(d):
    return np.array(list(itertools.product([-1.0, 1.0], repeat=d)))


def energy_direct(X, xi, interaction, degree=3, beta=1.0, rectified=False):
    import math
    d = X.shape[1]
    total = 0.0
    for x in X:
        z = float(sum(a * b for a, b in zip(x, xi)))
        if interaction == "exponential":
            total -= math.exp(beta * (z - d))
        else:
            total -= (max(z, 0.0) if rectified else z) ** degree
    return total


CONFIGS = [
    dict(interaction="polynomial", degree=2),
    dict(interaction="polynomial", degree=3),
    dict(interaction="polynomial", degree=4, rectified=True),
    dict(interaction="polynomial", degree=5),
    dict(interaction="exponential", beta=1.0),
    dict(interaction="exponential", beta=0.3),
]


@pytest.mark.parametrize("cfg", CONFIGS)
def test_energy_matches_the_formula(cfg):
    X = random_patterns(4, 8, 0)
    model = DenseAssociativeMemory(X, **cfg)
    states = all_states(8)[::13]
    batch = model.energy(states)
    for s, e in zip(states, batch):
        assert model.energy(s) == pytest.approx(energy_direct(X, s, **cfg), rel=1e-12, abs=1e-300)
        assert e == pytest.approx(model.energy(s), rel=1e-12, abs=1e-300)


def is_local_minimum(model, s):
    E = model.energy(s)
    for i in range(model.d):
        t = s.copy()
        t[i] = -t[i]
        if model.energy(t) < E - 1e-9 * max(1.0, abs(E)):
            return False
    return True


@pytest.mark.parametrize("cfg", CONFIGS)
@pytest.mark.parametrize("d,N,seed", [(7, 3, 0), (10, 4, 1)])
def test_fixed_points_are_exactly_the_local_minima(cfg, d, N, seed):
    model = DenseAssociativeMemory(random_patterns(N, d, seed), **cfg)
    for s in all_states(d):
        is_fixed = np.array_equal(model.step(s, mode="async", rng=0), s)
        assert is_fixed == is_local_minimum(model, s), s
        # a neuron-wise rule: sync and async agree on what is fixed
        assert is_fixed == np.array_equal(model.step(s, mode="sync"), s)


@pytest.mark.parametrize("seed", range(4))
def test_degree_two_equals_the_classical_network(seed):
    X = random_patterns(5, 24, seed)
    dense = DenseAssociativeMemory(X, interaction="polynomial", degree=2)
    classical = ClassicalHopfield(X)
    rng = np.random.default_rng(seed)
    queries = rng.choice([-1.0, 1.0], size=(20, 24))
    for q in queries:
        a = dense.run(q, mode="sync")
        b = classical.run(q, mode="sync")
        np.testing.assert_array_equal(a.states, b.states)
        assert (a.converged, a.cycle) == (b.converged, b.cycle)
        a = dense.run(q, mode="async", rng=np.random.default_rng(1))
        b = classical.run(q, mode="async", rng=np.random.default_rng(1))
        np.testing.assert_array_equal(a.states, b.states)
    # the energies are affine in each other: -sum_mu (x_mu.xi)^2 = 2 d E_classical - N d,
    # the N d being the diagonal that the classical W leaves out
    Ed = dense.energy(queries)
    Ec = classical.energy(queries)
    np.testing.assert_allclose(Ed, 2 * 24 * Ec - 5 * 24, atol=1e-9)


def test_exponential_retrieves_at_d_3000_without_overflow():
    d, N = 3000, 300
    X = random_patterns(N, d, 4)
    model = DenseAssociativeMemory(X, interaction="exponential", beta=1.0)
    q = X[17].copy()
    q[np.random.default_rng(0).choice(d, int(0.4 * d), replace=False)] *= -1
    traj = model.run(q, mode="sync", max_steps=10)
    np.testing.assert_array_equal(traj.final, X[17])
    assert np.all(np.isfinite(traj.energies))
    assert traj.energies[-1] == pytest.approx(-1.0, abs=1e-9)  # F(d) = 1, all others ~0


def test_dense_memory_beats_the_classical_capacity():
    # N = 0.5 d patterns: far past 0.14 d, the classical net fails, degree 4 retrieves
    d, N = 60, 30
    X = random_patterns(N, d, 9)
    rng = np.random.default_rng(2)
    q = X[0].copy()
    q[rng.choice(d, 6, replace=False)] *= -1
    classical = ClassicalHopfield(X).run(q, mode="async", rng=0)
    dense = DenseAssociativeMemory(X, degree=4).run(q, mode="async", rng=0)
    assert not np.array_equal(classical.final, X[0])
    np.testing.assert_array_equal(dense.final, X[0])


@given(seed=st.integers(0, 2 ** 32 - 1), N=st.integers(1, 10), d=st.integers(2, 40),
       cfg=st.sampled_from(CONFIGS))
def test_async_energy_never_rises(seed, N, d, cfg):
    rng = np.random.default_rng(seed)
    model = DenseAssociativeMemory(rng.choice([-1.0, 1.0], size=(N, d)), **cfg)
    traj = model.run(rng.choice([-1.0, 1.0], size=d), mode="async", rng=rng)
    assert traj.converged
    E = traj.energies
    assert np.all(np.isfinite(E))
    assert np.all(np.diff(E) <= 1e-9 * np.maximum(1.0, np.abs(E[:-1])))


@given(beta=st.floats(1e-3, 1e4), d=st.integers(2, 200), seed=st.integers(0, 1000))
def test_exponential_is_finite_at_every_beta(beta, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.choice([-1.0, 1.0], size=(3, d))
    model = DenseAssociativeMemory(X, interaction="exponential", beta=beta)
    s = rng.choice([-1.0, 1.0], size=d)
    for mode in ("sync", "async"):
        out = model.step(s, mode=mode, rng=0)
        assert set(np.unique(out)) <= {-1.0, 1.0}
    E = model.energy(s)
    assert np.isfinite(E) and -3 <= E <= 0


def test_large_degree_does_not_overflow_the_update():
    X = random_patterns(20, 2000, 1)
    model = DenseAssociativeMemory(X, degree=30)
    q = X[3].copy()
    q[:500] *= -1
    np.testing.assert_array_equal(model.step(q, mode="sync"), X[3])


@pytest.mark.parametrize("kwargs, message", [
    (dict(interaction="gaussian"), "interaction"),
    (dict(degree=0), "degree"),
    (dict(degree=2.5), "degree"),
    (dict(degree=31), "degree"),
    (dict(beta=0.0), "beta"),
    (dict(beta=float("inf")), "beta"),
])
def test_bad_options_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        DenseAssociativeMemory(random_patterns(2, 4, 0), **kwargs)
