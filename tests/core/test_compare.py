"""hopfield_core.compare against direct float64 formulas and the models themselves."""
import math

import numpy as np
import pytest

from hopfield_core import ModernHopfield, compare
from hopfield_core.analysis import Verdict
from hopfield_core.images import corrupt


def unit_rows(rng, N, d):
    X = rng.normal(size=(N, d))
    X -= X.mean(axis=1, keepdims=True)
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def direct_step(xi, X, beta):
    """X^T softmax(beta X xi), written out with plain exp in float64."""
    s = beta * (X @ xi)
    p = np.exp(s - s.max())
    return (p / p.sum()) @ X


# ---------------------------------------------------------------- queries

def test_corrupt_all_row_i_is_the_query_built_from_pattern_i():
    rng = np.random.default_rng(0)
    X = np.where(rng.random((5, 36)) < 0.5, -1.0, 1.0)
    Q = compare.corrupt_all(X, (6, 6), "flip", 0.25, seed=7, binary=True)
    assert Q.shape == X.shape
    for i in range(5):
        np.testing.assert_array_equal(Q[i], corrupt(X[i], (6, 6), "flip", 0.25, rng=7))
        assert np.sum(Q[i] != X[i]) == 9  # round(0.25 * 36) flips, each row
    np.testing.assert_array_equal(compare.corrupt_all(X, (6, 6), "none", 0.3, 1, True), X)


def test_corrupt_all_keeps_the_dtype_of_continuous_patterns():
    X = unit_rows(np.random.default_rng(1), 3, 16).astype(np.float32)
    Q = compare.corrupt_all(X, (4, 4), "noise", 0.5, seed=2, binary=False)
    assert Q.dtype == np.float32 and Q.shape == (3, 16)
    assert not np.allclose(Q, X)


# ---------------------------------------------------------------- projections

def test_random_projections_shapes_and_seed():
    P = compare.random_projections(20, 4, heads=3, seed=5)
    assert P.W_Q.shape == P.W_K.shape == (20, 12) and P.W_V.shape == (20, 12)
    assert compare.random_projections(20, 4, heads=3, seed=5).W_K.tobytes() == P.W_K.tobytes()
    assert not np.array_equal(compare.random_projections(20, 4, heads=3, seed=6).W_Q, P.W_Q)
    assert compare.random_projections(20, 4, heads=2, seed=0, d_v=7).W_V.shape == (20, 14)
    with pytest.raises(ValueError):
        compare.random_projections(20, 0, heads=1)


def test_tied_projections_preserve_inner_products_on_average_independent_ones_do_not():
    rng = np.random.default_rng(3)
    x, noise = unit_rows(rng, 2, 30)
    y = (x + 0.8 * noise) / np.linalg.norm(x + 0.8 * noise)
    assert x @ y > 0.5  # a clearly non-zero target
    d_k = 8
    tied = [compare.random_projections(30, d_k, 1, seed=s, tied=True) for s in range(3000)]
    assert all(P.W_K is P.W_Q for P in tied[:3])
    # the sample mean of (x W_Q)(y W_K)^T over many seeds approaches x . y when tied, 0 when not
    vals = [float((x @ P.W_Q) @ (y @ P.W_K)) for P in tied]
    se = np.std(vals) / math.sqrt(len(vals))
    assert abs(np.mean(vals) - x @ y) < 4 * se
    free = [float((x @ P.W_Q) @ (y @ P.W_K)) for P in
            (compare.random_projections(30, d_k, 1, seed=s) for s in range(3000))]
    se = np.std(free) / math.sqrt(len(free))
    assert abs(np.mean(free)) < 4 * se


# ---------------------------------------------------------------- attention = Hopfield step

def test_step_gap_is_rounding_with_the_same_beta_and_large_with_a_wrong_one():
    rng = np.random.default_rng(4)
    X, Q = unit_rows(rng, 6, 64), unit_rows(rng, 3, 64)
    beta = 1 / math.sqrt(64)
    assert compare.hopfield_step_gap(Q, X, beta) < 1e-12
    assert compare.hopfield_step_gap(Q, X, 20.0) < 1e-12
    # the gap is exactly the distance between the two maps: compare with the direct formula
    wrong = max(np.max(np.abs(direct_step(q, X, 20.0) - direct_step(q, X, 10.0))) for q in Q)
    assert compare.hopfield_step_gap(Q, X, 20.0, hopfield_beta=10.0) == pytest.approx(wrong, rel=1e-9)
    assert wrong > 1e-2
    assert compare.hopfield_step_gap(Q, X, beta, hopfield_beta=2 * beta) > 1e-4


def test_iterate_attention_is_the_direct_formula_step_after_step():
    rng = np.random.default_rng(5)
    X, q = unit_rows(rng, 5, 25), unit_rows(rng, 1, 25)[0]
    traj = compare.iterate_attention(q, X, steps=6, beta=3.0)
    assert traj.states.shape == (7, 25) and traj.changes.shape == (6,)
    xi = q
    for t in range(1, 7):
        xi = direct_step(xi, X, 3.0)
        np.testing.assert_allclose(traj.states[t], xi, rtol=0, atol=1e-14)
    np.testing.assert_allclose(traj.changes, np.abs(np.diff(traj.states, axis=0)).max(axis=1))
    np.testing.assert_allclose(traj.energies, ModernHopfield(X, beta=3.0).energy(traj.states))
    assert np.all(np.diff(traj.energies) <= 1e-12)  # CCCP: the energy never rises


def test_iterate_attention_defaults_to_one_over_sqrt_d():
    rng = np.random.default_rng(6)
    X, q = unit_rows(rng, 4, 49), unit_rows(rng, 1, 49)[0]
    a = compare.iterate_attention(q, X, steps=3)
    b = compare.iterate_attention(q, X, steps=3, beta=1 / 7)
    np.testing.assert_array_equal(a.states, b.states)


@pytest.mark.parametrize("beta", [1 / 16, 1.0, 20.0])
def test_iteration_reaches_the_fixed_point_of_modern_hopfield_run(beta):
    rng = np.random.default_rng(7)
    X = unit_rows(rng, 6, 256)
    q = X[2] + 0.05 * rng.normal(size=256)
    ref = ModernHopfield(X, beta=beta).run(q, max_steps=500, tol=1e-13)
    traj = compare.iterate_attention(q, X, steps=ref.steps + 5, beta=beta)
    assert traj.converged and ref.converged
    np.testing.assert_allclose(traj.final, ref.final, atol=1e-10)
    assert compare.iterate_attention(q, X, steps=0, beta=beta).steps == 0


def test_iterate_attention_rejects_bad_input():
    X = unit_rows(np.random.default_rng(8), 3, 9)
    with pytest.raises(ValueError):
        compare.iterate_attention(np.zeros(8), X, 3)
    with pytest.raises(ValueError):
        compare.iterate_attention(np.zeros(9), X, -1)
    with pytest.raises(ValueError):
        compare.iterate_attention(np.zeros(9), X, 3, beta=0.0)


# ---------------------------------------------------------------- side by side

def test_normalised_energies():
    E = np.array([-2.0, -5.0, -8.0, -8.0])
    np.testing.assert_allclose(compare.normalised_energies(E), [1.0, 0.5, 0.0, 0.0])
    np.testing.assert_array_equal(compare.normalised_energies(np.full(3, -4.0)), np.zeros(3))
    rise = compare.normalised_energies(np.array([0.0, 1.0, -1.0]))
    assert rise[1] > 1  # a rise stays visible


def test_retrieval_outcome():
    assert compare.retrieval_outcome(Verdict("retrieved", 2), 2) == "yes"
    assert compare.retrieval_outcome(Verdict("retrieved", 1), 2) == "another pattern"
    assert compare.retrieval_outcome(Verdict("retrieved", 1), None) == "yes"
    for kind in ("mirror", "spurious", "metastable", "global", "cycle", "not converged"):
        assert compare.retrieval_outcome(Verdict(kind, 2), 2) == "no"
