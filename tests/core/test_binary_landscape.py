"""hopfield_core.binary_landscape against independent computations: loops over every state and
every single flip with the model's scalar energy, direct field sums, and orthogonal patterns
whose minima are known."""
import itertools

import numpy as np
import pytest

from hopfield_core import ClassicalHopfield, DenseAssociativeMemory
from hopfield_core import binary_landscape as BL


def test_all_states_lists_every_bipolar_state_once_in_index_order():
    S = BL.all_states(5)
    assert S.shape == (32, 5)
    assert len({tuple(s) for s in S}) == 32
    for i, s in enumerate(S):
        assert BL.state_index(s) == i
        assert s.tolist() == [1.0 if b == "1" else -1.0 for b in format(i, "05b")]


def brute_force_minima(model, d):
    """Every state, every single flip, with the model's scalar energy: no shared indexing.
    Single-flip energy changes are 0 or at least 2/d here, so any small tolerance will do."""
    out = set()
    for bits in itertools.product([-1.0, 1.0], repeat=d):
        s = np.array(bits)
        e = model.energy(s)
        lowered = False
        for j in range(d):
            t = s.copy()
            t[j] = -t[j]
            if model.energy(t) < e - 1e-6:
                lowered = True
                break
        if not lowered:
            out.add(tuple(bits))
    return out


@pytest.mark.parametrize("kind, d, N, seed", [
    ("classical", 8, 2, 0), ("classical", 9, 3, 1), ("classical", 10, 4, 2),
    ("dense", 8, 3, 0), ("dense", 9, 5, 3),
])
def test_exhaustive_minima_equal_a_brute_force_single_flip_check(kind, d, N, seed):
    X = BL.random_patterns(N, d, seed)
    model = ClassicalHopfield(X) if kind == "classical" else DenseAssociativeMemory(X, degree=3)
    land = BL.binary_landscape(model)
    found = {tuple(land.states[i]) for i in land.minima}
    assert found == brute_force_minima(model, d)
    # energies of every state agree with the scalar energy
    for i in range(0, 2 ** d, 37):
        assert land.energies[i] == pytest.approx(model.energy(land.states[i]))
    assert np.all(np.diff(land.energies[land.minima]) >= 0)  # lowest first


def field_stable(X, x):
    """x is a strict fixed point of the Hebbian net: h_i x_i > 0 for every neuron (direct sums)."""
    d = len(x)
    for i in range(d):
        h = sum(X[mu, i] * X[mu, j] * x[j] for mu in range(len(X)) for j in range(d) if j != i) / d
        if h * x[i] <= 0:
            return False
    return True


def hadamard(n):
    H = np.array([[1.0]])
    while len(H) < n:
        H = np.block([[H, H], [H, -H]])
    return H


@pytest.mark.parametrize("N", [1, 2, 3])
def test_orthogonal_patterns_below_capacity_are_stored_and_mirrored(N):
    X = hadamard(16)[1:1 + N]  # orthogonal rows: no crosstalk at all
    land = BL.binary_landscape(ClassicalHopfield(X))
    kinds = {tuple(land.states[i]): (k, m) for i, k, m in zip(land.minima, land.kinds, land.members)}
    for mu, x in enumerate(X):
        assert kinds[tuple(x)] == ("stored", (mu,))
        assert kinds[tuple(-x)] == ("mirror", (mu,))


@pytest.mark.parametrize("seed", range(6))
def test_every_stable_random_pattern_is_found_as_stored_with_its_mirror(seed):
    d, N = 14, 2  # far below 0.14 d: stable unless the two patterns nearly coincide
    X = BL.random_patterns(N, d, seed)
    land = BL.binary_landscape(ClassicalHopfield(X))
    kinds = {tuple(land.states[i]): (k, m) for i, k, m in zip(land.minima, land.kinds, land.members)}
    stable = [mu for mu in range(N) if field_stable(X, X[mu])]
    assert stable  # the precondition holds for these seeds, so the test checks something
    for mu in stable:
        assert kinds[tuple(X[mu])] == ("stored", (mu,))
        assert kinds[tuple(-X[mu])] == ("mirror", (mu,))
    counts = land.counts()
    assert sum(counts.values()) == len(land.minima)


def test_mixture_minimum_is_labelled_mixture():
    X = hadamard(16)[1:4]
    mix = np.sign(X[0] + X[1] + X[2])
    land = BL.binary_landscape(ClassicalHopfield(X))
    i = BL.state_index(mix)
    assert i in set(land.minima.tolist())
    k = list(land.minima).index(i)
    assert land.kinds[k] == "mixture" and land.members[k] == (0, 1, 2)


def test_cubic_dense_memory_has_no_mirror_minima():
    X = BL.random_patterns(5, 16, 0)
    land = BL.binary_landscape(DenseAssociativeMemory(X, degree=3))
    assert land.counts()["mirror"] == 0
    assert land.counts()["stored"] == 5


def test_reference_axis_and_unique_points():
    S = BL.all_states(6)
    x = S[13]
    m = BL.reference_axis(S, x, "overlap")
    h = BL.reference_axis(S, x, "hamming")
    for s, mi, hi in zip(S, m, h):
        assert hi == np.sum(s != x)
        assert mi == pytest.approx(np.dot(s, x) / 6)
    E = ClassicalHopfield(S[[13, 40]]).energy(S)
    ux, uy, counts = BL.unique_points(h, E)
    assert counts.sum() == 64
    pairs = {}
    for a, b in zip(h, np.round(E, 9)):
        pairs[(a, b)] = pairs.get((a, b), 0) + 1
    assert {(a, b): c for a, b, c in zip(ux, uy, counts)} == pairs
    with pytest.raises(ValueError):
        BL.reference_axis(S, x, "angle")


def test_enumeration_is_bounded():
    with pytest.raises(ValueError, match="d <= 16"):
        BL.all_states(17)
    assert BL.random_patterns(3, 10, 4).tolist() == BL.random_patterns(3, 10, 4).tolist()
