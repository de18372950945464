"""ClassicalHopfield against independent computations and its theorems."""
import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hopfield_core import ClassicalHopfield


def random_patterns(N, d, seed):
    return np.random.default_rng(seed).choice([-1.0, 1.0], size=(N, d))


def all_states(d):
    return np.array(list(itertools.product([-1.0, 1.0], repeat=d)))


def energy_by_loops(X, xi, b):
    """E = -1/2 sum_ij W_ij xi_i xi_j + sum_i b_i xi_i with W built entry by entry."""
    N, d = X.shape
    E = 0.0
    for i in range(d):
        for j in range(d):
            if i != j:
                w = sum(X[m, i] * X[m, j] for m in range(N)) / d
                E -= 0.5 * w * xi[i] * xi[j]
        E += b[i] * xi[i]
    return E


def test_weights_are_hebbian_with_zero_diagonal():
    X = random_patterns(3, 7, 0)
    W = ClassicalHopfield(X).weights
    expected = sum(np.outer(x, x) for x in X) / 7
    np.fill_diagonal(expected, 0)
    np.testing.assert_allclose(W, expected, atol=1e-15)
    assert np.allclose(W, W.T)


@pytest.mark.parametrize("seed", range(3))
def test_energy_matches_the_formula_in_float64(seed):
    rng = np.random.default_rng(seed)
    X = random_patterns(4, 9, seed)
    b = rng.normal(size=9)
    model = ClassicalHopfield(X, bias=b)
    states = all_states(9)[::17]
    batch = model.energy(states)
    for s, e in zip(states, batch):
        assert model.energy(s) == pytest.approx(energy_by_loops(X, s, b), abs=1e-12)
        assert e == pytest.approx(energy_by_loops(X, s, b), abs=1e-12)


def is_local_minimum(model, s):
    E = model.energy(s)
    for i in range(model.d):
        t = s.copy()
        t[i] = -t[i]
        if model.energy(t) < E - 1e-12:
            return False
    return True


@pytest.mark.parametrize("d,N,seed", [(6, 2, 0), (8, 3, 1), (10, 3, 2), (10, 5, 3)])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_fixed_points_are_exactly_the_local_minima(d, N, seed, mode):
    model = ClassicalHopfield(random_patterns(N, d, seed))
    for s in all_states(d):
        is_fixed = np.array_equal(model.step(s, mode=mode, rng=0), s)
        assert is_fixed == is_local_minimum(model, s), s
        if is_fixed:
            traj = model.run(s, mode=mode, rng=0)
            assert traj.converged and traj.steps == 1 and traj.cycle == 0


def test_every_run_ends_in_a_local_minimum_found_by_enumeration():
    d = 10
    model = ClassicalHopfield(random_patterns(3, d, 7))
    minima = {s.tobytes() for s in all_states(d) if is_local_minimum(model, s)}
    rng = np.random.default_rng(0)
    for s in all_states(d)[::5]:
        traj = model.run(s, mode="async", rng=rng)
        assert traj.converged
        assert traj.final.tobytes() in minima


def test_sgn_zero_keeps_the_current_value():
    # Two orthogonal patterns in d = 2: the field at every neuron is exactly zero
    X = np.array([[1.0, 1.0], [1.0, -1.0]])
    model = ClassicalHopfield(X)
    for s in all_states(2):
        np.testing.assert_array_equal(model.field(s), 0.0)
        np.testing.assert_array_equal(model.step(s, mode="sync"), s)
        np.testing.assert_array_equal(model.step(s, mode="async", rng=1), s)


def test_sync_two_cycle_is_detected():
    # W = [[0, 1], [1, 0]]: (+1, -1) -> (-1, +1) -> (+1, -1) under synchronous updates
    model = ClassicalHopfield(np.array([[1.0, 1.0]]))
    traj = model.run(np.array([1.0, -1.0]), mode="sync", max_steps=50)
    assert traj.cycle == 2 and not traj.converged
    assert traj.steps == 2
    np.testing.assert_array_equal(traj.states[0], traj.states[2])
    # asynchronous updates of the same network settle into a stored state
    traj = model.run(np.array([1.0, -1.0]), mode="async", rng=0)
    assert traj.converged and abs(traj.final.sum()) == 2


def test_stored_patterns_are_retrieved_below_capacity():
    X = random_patterns(5, 200, 3)
    model = ClassicalHopfield(X)
    rng = np.random.default_rng(0)
    for x in X:
        q = x.copy()
        q[rng.choice(200, 30, replace=False)] *= -1
        traj = model.run(q, mode="async", rng=rng)
        np.testing.assert_array_equal(traj.final, x)
        assert np.all(np.diff(traj.energies) <= 1e-12)


@given(seed=st.integers(0, 2 ** 32 - 1), N=st.integers(1, 12), d=st.integers(2, 40),
       biased=st.booleans())
def test_async_energy_never_rises(seed, N, d, biased):
    rng = np.random.default_rng(seed)
    X = rng.choice([-1.0, 1.0], size=(N, d))
    b = rng.normal(scale=0.5, size=d) if biased else None
    model = ClassicalHopfield(X, bias=b)
    traj = model.run(rng.choice([-1.0, 1.0], size=d), mode="async", rng=rng)
    assert traj.converged
    assert np.all(np.diff(traj.energies) <= 1e-9)


def test_batch_step_equals_one_state_at_a_time():
    X = random_patterns(4, 30, 5)
    model = ClassicalHopfield(X)
    S = random_patterns(6, 30, 6)
    np.testing.assert_array_equal(model.step(S, mode="sync"),
                                  np.stack([model.step(s, mode="sync") for s in S]))
    a = model.step(S, mode="async", rng=np.random.default_rng(3))
    # one shared random order for the whole batch: same as each alone with that order
    b = np.stack([model.step(s, mode="async", rng=np.random.default_rng(3)) for s in S])
    np.testing.assert_array_equal(a, b)


def test_glauber_dynamics_follow_the_sigmoid():
    # One neuron with a fixed field h: P(+1) = sigmoid(2 h / T)
    X = np.array([[1.0, 1.0, 1.0, 1.0]])
    model = ClassicalHopfield(X)
    s = np.array([-1.0, 1.0, 1.0, 1.0])
    h = model.field(s)[0]  # 3/4
    T = 0.8
    rng = np.random.default_rng(0)
    draws = model.step(np.tile(s, (20000, 1)), mode="sync", rng=rng, temperature=T)[:, 0]
    p = 1 / (1 + np.exp(-2 * h / T))
    assert abs(np.mean(draws == 1) - p) < 0.015
    # a temperature near zero is the deterministic rule
    cold = model.step(np.tile(s, (100, 1)), mode="async", rng=rng, temperature=1e-9)
    np.testing.assert_array_equal(cold, np.ones((100, 4)))


def test_run_at_temperature_uses_every_step_and_is_seedable():
    model = ClassicalHopfield(random_patterns(3, 20, 1))
    q = random_patterns(1, 20, 2)[0]
    a = model.run(q, mode="async", rng=5, temperature=0.5, max_steps=15)
    b = model.run(q, mode="async", rng=5, temperature=0.5, max_steps=15)
    assert a.steps == 15 and not a.converged
    np.testing.assert_array_equal(a.states, b.states)


@pytest.mark.parametrize("rule", ["storkey", "pseudoinverse"])
def test_other_learning_rules_store_correlated_patterns(rule):
    # 12 patterns in d = 40 (0.3 d): Hebbian loses some, the projection rule keeps all
    X = random_patterns(12, 40, 11)
    model = ClassicalHopfield(X, learning_rule=rule)
    fixed = [np.array_equal(model.step(x, mode="sync"), x) for x in X]
    if rule == "pseudoinverse":
        assert all(fixed)
    else:
        hebb = ClassicalHopfield(X)
        assert sum(fixed) >= sum(np.array_equal(hebb.step(x, mode="sync"), x) for x in X)
    traj = model.run(X[0], mode="async", rng=0)
    assert np.all(np.diff(traj.energies) <= 1e-9)


@pytest.mark.parametrize("bad, message", [
    (np.zeros((2, 5)), "bipolar"),
    (np.array([[1.0, 2.0, -1.0]]), "bipolar"),
    (np.empty((0, 4)), "non-empty"),
    (np.array([[1.0, np.nan]]), "NaN"),
])
def test_bad_patterns_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        ClassicalHopfield(bad)


def test_bad_states_and_options_are_refused():
    model = ClassicalHopfield(random_patterns(2, 4, 0))
    with pytest.raises(ValueError, match="shape"):
        model.step(np.ones(5))
    with pytest.raises(ValueError, match="bipolar"):
        model.step(np.zeros(4))
    with pytest.raises(ValueError, match="mode"):
        model.step(np.ones(4), mode="parallel")
    with pytest.raises(ValueError, match="temperature"):
        model.step(np.ones(4), temperature=-1)
    with pytest.raises(ValueError, match="bias"):
        ClassicalHopfield(random_patterns(2, 4, 0), bias=np.ones(3))


def _storkey_literal(X: np.ndarray) -> np.ndarray:
    """Storkey's rule as written, with loops: h_ij = sum_{k != i, j} W_ik x_k,
    W_ij += (x_i x_j - x_i h_ji - h_ij x_j) / d, one pattern after the other."""
    N, d = X.shape
    W = np.zeros((d, d))
    for x in X:
        h = [[sum(W[i, k] * x[k] for k in range(d) if k not in (i, j)) for j in range(d)]
             for i in range(d)]
        W = W + np.array([[(x[i] * x[j] - x[i] * h[j][i] - h[i][j] * x[j]) / d
                           for j in range(d)] for i in range(d)])
    return W


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_storkey_rank_one_form_equals_the_literal_rule(seed):
    from hopfield_core.classical import storkey_weights
    X = np.random.default_rng(seed).choice([-1.0, 1.0], size=(5, 12))
    W = storkey_weights(X)
    np.testing.assert_allclose(W, _storkey_literal(X), rtol=0, atol=1e-12)
    assert np.array_equal(W, W.T)
