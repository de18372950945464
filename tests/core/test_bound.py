"""Ramsauer et al.'s retrieval bound has one home (hopfield_core/bound.py): the capacity lab's
guarantee is ModernHopfield.retrieval_bound's answer (plus the radius) on the same stores, trial
by trial; and each formula against its value written out by hand.

# t trials, N patterns, d neurons; X (t, N, d) +-1 stores as the lab draws them
"""
import math

import numpy as np
import pytest

from hopfield_core import bound
from hopfield_core.capacity import rules
from hopfield_core.capacity.stores import Stream
from hopfield_core.modern import ModernHopfield


def _theorem(X_t: np.ndarray, beta: float, q: np.ndarray | None) -> bool:
    """What ModernHopfield says of pattern 0 of one store: the bound, and the query inside
    the sphere of radius 1/(beta N M) around it (written out here)."""
    model = ModernHopfield(X_t, beta)
    ok = bool(model.retrieval_bound().satisfied[0])
    if q is not None:
        ok &= bool(np.linalg.norm(q - X_t[0]) <= 1.0 / (beta * model.N * model.M))
    return ok


@pytest.mark.parametrize("d", [6, 25, 120])
@pytest.mark.parametrize("N", [1, 2, 7, 40])
def test_the_capacity_guarantee_is_the_modern_networks_bound(d, N):
    """Over betas from where nothing is guaranteed to where nearly everything is, with no
    query, the lab's queries, and queries just inside and just outside the sphere."""
    T = 30
    stream = Stream(5, d, N, T, 1)
    X = stream.patterns(0, T)  # (T, N, d)
    rng = np.random.default_rng(d * N)
    seen = set()
    for beta in (0.05, 0.5, 2.0, 10.0, 100.0, 1e3):
        radius = 1.0 / (beta * N * math.sqrt(d))
        u = rng.normal(size=(T, d))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        near = X[:, 0, :] + radius * rng.choice([0.5, 0.999, 1.001, 2.0], size=(T, 1)) * u
        for queries in (None, stream.queries(X[:, 0, :], 0), near):
            got = rules.separation_guaranteed(X, beta, queries)
            for t in range(T):
                q = None if queries is None else queries[t]
                assert got[t] == _theorem(X[t], beta, q), (beta, t, queries is None)
            seen.update(got.tolist())
    assert seen == {True, False} or N == 1  # both answers occur: the comparison can fail


def test_the_bound_written_out():
    """Delta_i, 2/(beta N) + ln(2 (N-1) N beta M^2)/beta and 1/(beta N M) by hand."""
    X = np.array([[3.0, 0.0], [0.0, 2.0], [1.0, 1.0]])  # M = 3
    G = X @ X.T
    np.testing.assert_array_equal(bound.separation(G, np.arange(3)), [9 - 3, 4 - 2, 2 - 3])
    np.testing.assert_array_equal(bound.separation(G[1], 1), 4 - 2)
    assert bound.separation(np.array([[5.0]]), 0).tolist() == [math.inf]  # nothing to separate
    for beta, N, M in ((2.0, 3, 3.0), (0.1, 2, 1.0), (50.0, 40, 0.7)):
        by_hand = 2 / (beta * N) + math.log(2 * (N - 1) * N * beta * M * M) / beta
        assert bound.bound_value(beta, N, M) == pytest.approx(by_hand, rel=1e-14)
        assert bound.retrieval_radius(beta, N, M) == pytest.approx(1 / (beta * N * M), rel=1e-15)
    assert bound.bound_value(2.0, 1, 3.0) == -math.inf  # one pattern
    assert bound.bound_value(2.0, 3, 0.0) == -math.inf  # every pattern zero
    # vectorised: over beta, and over M (the lab's trials), as the scalar calls
    betas, Ms = np.array([0.5, 4.0, 30.0]), np.array([1.0, 2.0, 5.0])
    np.testing.assert_array_equal(bound.bound_value(betas, 4, 2.0),
                                  [bound.bound_value(b, 4, 2.0) for b in betas])
    np.testing.assert_array_equal(bound.bound_value(3.0, 4, Ms),
                                  [bound.bound_value(3.0, 4, m) for m in Ms])
    np.testing.assert_array_equal(bound.retrieval_radius(3.0, 4, Ms), 1 / (3.0 * 4 * Ms))


def test_meeting_the_bound_is_greater_or_equal():
    """A separation exactly at the bound meets it (Delta >= bound, Theorem 4)."""
    value = float(bound.bound_value(7.0, 5, 2.0))
    assert bound.meets_bound(value, 7.0, 5, 2.0)
    assert not bound.meets_bound(np.nextafter(value, -np.inf), 7.0, 5, 2.0)


def test_the_guarantee_by_hand_in_the_lab():
    """Delta = 4 - 2 = 2 for two patterns of d = 4 (M = 2): met at beta = 10 (bound 0.61) and
    not at beta = 1 (bound 3.77); the sphere at beta = 10 has radius 1/(10 2 2) = 0.025."""
    X = np.array([[[1.0, 1, 1, 1], [1, 1, 1, -1]]])
    assert bound.bound_value(10.0, 2, 2.0) == pytest.approx(0.6075, abs=1e-4)
    assert bound.bound_value(1.0, 2, 2.0) == pytest.approx(3.7726, abs=1e-4)
    assert rules.separation_guaranteed(X, 10.0)[0] and not rules.separation_guaranteed(X, 1.0)[0]
    for offset, covered in ((0.0249, True), (0.0251, False)):
        q = X[:, 0, :] + np.array([[offset, 0, 0, 0]])
        assert rules.separation_guaranteed(X, 10.0, q)[0] == covered
    flipped = X[:, 0, :] * np.array([[-1, 1, 1, 1]])  # a flipped bit lies 2 away
    assert not rules.separation_guaranteed(X, 10.0, flipped)[0]
