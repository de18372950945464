"""The batched fixed-point iteration of attention heads: against ModernHopfield per query,
the update holds at the fixed point, the energy never rises, the peak memory is known."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hopfield_core import ModernHopfield
from hopfield_core.heads import fixed_point
from hopfield_core.heads.analysis import (
    analyse_bytes,
    analyse_layer,
    analyse_model,
    analyse_model_bytes,
)
from tests.support.memory_probe import traced_peak


def heads(seed, H=3, N=10, d=8, scale=1.0):
    rng = np.random.default_rng(seed)
    K = rng.normal(size=(H, N, d)) * scale * rng.uniform(0.3, 3, size=(H, 1, 1))
    Q = rng.normal(size=(H, N, d)) * scale
    return Q, K


@pytest.mark.parametrize("seed", range(4))
def test_batched_iteration_matches_a_loop_per_query(seed):
    Q, K = heads(seed, scale=0.5 + seed)
    beta = 1 / math.sqrt(8)
    fp = fixed_point.iterate(Q, K, beta, tol=1e-8, max_iter=300)
    for h in range(3):
        net = ModernHopfield(K[h], beta)
        for i in range(10):
            run = net.run(Q[h, i], max_steps=300, tol=1e-8)
            assert fp.iterations[h, i] == len(run.states) - 1
            assert fp.converged[h, i] == run.converged
            np.testing.assert_allclose(fp.states[h, i], run.states[-1], rtol=0, atol=1e-10)
            np.testing.assert_allclose(fp.weights[h, i], net.weights(run.states[-1]), atol=1e-10)


@pytest.mark.parametrize("seed", range(4))
def test_converged_states_satisfy_the_update(seed):
    Q, K = heads(seed, H=4, N=12, d=6, scale=2.0)
    beta = 1 / math.sqrt(6)
    tol = 1e-7
    fp = fixed_point.iterate(Q, K, beta, tol=tol, max_iter=500)
    assert fp.converged.mean() > 0.9  # most converge well before the cap
    again, _ = fixed_point.update(fp.states, K, beta)
    moved = np.max(np.abs(again - fp.states), axis=2)
    assert np.all(moved[fp.converged] <= tol)
    assert np.all(fp.iterations[~fp.converged] == 500)


def test_the_cap_stops_the_iteration_and_says_so():
    Q, K = heads(0, scale=0.3)  # small keys: slow, linear convergence to an average
    fp = fixed_point.iterate(Q, K, 1.0, tol=1e-300, max_iter=3)
    assert np.all(fp.iterations == 3) and not fp.converged.any()


def test_energy_is_the_modern_page_energy():
    Q, K = heads(5, H=2, N=7, d=5)
    E = fixed_point.energy(Q, K, 0.7)
    for h in range(2):
        np.testing.assert_allclose(E[h], ModernHopfield(K[h], 0.7).energy(Q[h]), rtol=1e-12)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), scale=st.floats(0.05, 6.0), N=st.integers(1, 20),
       d=st.integers(1, 12))
def test_energy_never_rises_along_the_iteration(seed, scale, N, d):
    Q, K = heads(seed, H=2, N=N, d=d, scale=scale)
    beta = 1 / math.sqrt(d)
    fp = fixed_point.iterate(Q, K, beta, tol=1e-9, max_iter=60, record=True)
    E = fp.energies                          # (T+1, H, B)
    slack = 1e-12 * (1 + np.abs(E[:-1]))
    assert np.all(np.diff(E, axis=0) <= slack)
    np.testing.assert_allclose(E[-1], fixed_point.energy(fp.states, K, beta), rtol=1e-12)


def test_settle_keeps_every_state_for_the_player():
    Q, K = heads(2, H=1, N=9, d=4, scale=2.0)
    traj = fixed_point.settle(Q[0, 3], K[0], 0.5)
    fp = fixed_point.iterate(Q[0, 3:4], K[0], 0.5)
    assert len(traj.states) - 1 == fp.iterations[0, 0]
    np.testing.assert_allclose(traj.states[-1], fp.states[0, 0], atol=1e-12)
    assert np.all(np.diff(traj.energies) <= 1e-12)
    assert traj.extras["weights"].shape == (len(traj.states), 9)


def test_bad_input_is_refused():
    Q, K = heads(0)
    with pytest.raises(ValueError, match="beta"):
        fixed_point.iterate(Q, K, 0.0)
    with pytest.raises(ValueError, match="do not fit"):
        fixed_point.iterate(Q[:, :, :3], K, 1.0)
    Q[0, 0, 0] = np.nan
    with pytest.raises(ValueError, match="finite"):
        fixed_point.iterate(Q, K, 1.0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])  # a model's Q, K come as float32
@pytest.mark.parametrize("H,N,d", [(12, 128, 32), (4, 17, 8), (12, 40, 32)])
def test_peak_bytes_are_known_from_the_sizes(H, N, d, dtype):
    Q, K = (a.astype(dtype) for a in heads(1, H=H, N=N, d=d))
    beta = 1 / math.sqrt(d)
    peak = traced_peak(lambda: fixed_point.iterate(Q, K, beta, max_iter=20, record=True))
    est = fixed_point.iterate_bytes(H, N, N, d, steps=20)
    assert peak <= est <= 3 * peak, (peak, est)
    peak = traced_peak(lambda: analyse_layer(Q, K, max_iter=20))
    est = analyse_bytes(H, N, d)
    assert peak <= est <= 3 * peak, (peak, est)


def test_a_whole_model_is_analysed_layer_by_layer_in_known_memory():
    layers = [heads(s, H=3, N=12, d=6, scale=1.0 + s) for s in range(4)]
    stacked = analyse_model(layers)
    for (Q, K), got in zip(layers, stacked):
        want = analyse_layer(Q, K)
        for name in ("one_step_k90", "fixed_k90", "iterations", "converged"):
            assert np.array_equal(getattr(got, name), getattr(want, name)), name
    layers32 = [(Q.astype("float32"), K.astype("float32")) for Q, K in layers]
    peak = traced_peak(lambda: analyse_model(layers32))
    est = analyse_model_bytes(4, 3, 12, 6)
    assert peak <= est <= 3 * peak, (peak, est)
