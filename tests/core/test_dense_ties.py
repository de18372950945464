"""When the dense network calls a neuron's two choices a tie
(hopfield_core.numerics.tie_tolerance): only when float64 cannot tell them apart. Oracle: the
exact comparison, in whole numbers for the polynomial and in 50-digit decimals for the
exponential (issue 34, item 21: a fixed relative 1e-12 kept bits whose energy fell by 4e-11).

# N patterns, d neurons; up / down (d, N): the overlaps with neuron i set to +1 / -1
"""
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest

from hopfield_core.capacity import rules
from hopfield_core.dense import DenseAssociativeMemory
from hopfield_core.numerics import logsumexp

EPS = np.finfo(np.float64).eps
getcontext().prec = 50


def choices(X: np.ndarray, s: np.ndarray):
    """Whole-number overlaps with each neuron i set to +1 and to -1: (d, N) each."""
    rest = (X @ s)[None, :] - X.T * s[:, None]
    return (rest + X.T).astype(np.int64), (rest - X.T).astype(np.int64)


def exact_exponential(up, down, beta: float):
    """Per neuron, (ln sum_mu e^(beta z+) - ln sum_mu e^(beta z-), the larger |ln sum|), to 50
    digits; the difference exactly 0 for a true tie (the same overlaps on both sides: e^beta is
    transcendental, so nothing else ties)."""
    b, cache = Decimal(repr(beta)), {}

    def log_total(zs):
        return sum(cache.setdefault(int(z), (b * int(z)).exp()) for z in zs).ln()

    out = []
    for u, v in zip(up.tolist(), down.tolist()):
        la, lb = log_total(u), log_total(v)
        out.append((Decimal(0) if sorted(u) == sorted(v) else la - lb, max(abs(la), abs(lb))))
    return [e for e, _ in out], np.array([float(L) for _, L in out])


def exact_polynomial(up, down, degree: int, rectified: bool):
    """d^n (sum F(z+ / d) - F(z- / d)) per neuron, in whole numbers: its sign is the choice."""
    def F(z):
        return max(z, 0) ** degree if rectified else z ** degree
    return [sum(F(a) - F(b) for a, b in zip(u, v)) for u, v in zip(up.tolist(), down.tolist())]


def sign(x) -> int:
    return (x > 0) - (x < 0)


def bound(N: int, L: np.ndarray) -> np.ndarray:
    """The exponential's rounding bound, 2 EPS (L + 2 N) (hopfield_core.numerics.tie_tolerance),
    from the exact L."""
    return 2 * EPS * (L + 2 * N)


def test_real_differences_of_4e_11_flip_that_a_relative_1e_12_kept():
    """N = 40, d = 100, beta = 2: three neurons of this random state should flip, two by a
    log-ratio of about 4e-11 and one by 7e-13 (float64 resolves them: its rounding there stays
    under 1e-14), but a relative 1e-12 (6e-11 here) called them ties. Now the step flips them,
    as the exact comparison does; three more differ by only 1e-14 to 4e-14, within the rounding
    bound (6e-14 here), and keep their value: the limit of a float64 comparison."""
    rng = np.random.default_rng(27)
    X = np.sign(rng.standard_normal((40, 100)))
    s = np.sign(rng.standard_normal(100))
    up, down = choices(X, s)
    exact, L = exact_exponential(up, down, 2.0)
    tol = bound(40, L)
    assert tol.max() < 1e-13
    computed = logsumexp(2.0 * up) - logsumexp(2.0 * down)  # what the step compares
    assert max(abs(c - float(e)) for c, e in zip(computed, exact)) < 1e-14  # its rounding
    old_tie = [abs(float(e)) <= 1e-12 * (1 + a) for e, a in zip(exact, L)]
    wrong = [i for i, e in enumerate(exact) if old_tie[i] and e != 0 and sign(e) != s[i]]
    real = [i for i in wrong if abs(float(exact[i])) > 2 * tol[i]]
    assert sorted(round(abs(float(exact[i])), 13) for i in real) == [7e-13, 3.71e-11, 3.78e-11]
    new = DenseAssociativeMemory(X, "exponential", beta=2.0).step(s, mode="sync")
    for i in real:
        assert new[i] == sign(exact[i]) != s[i]
    for i in set(wrong) - set(real):  # below float64's resolution: kept, as any float64 would
        assert abs(float(exact[i])) < tol[i] and new[i] == s[i]
    for i, e in enumerate(exact):  # every neuron: the exact choice wherever float64 resolves it
        if abs(float(e)) > 2 * tol[i]:
            assert new[i] == sign(e), i



def test_the_capacity_lab_makes_the_same_choices_at_those_near_ties():
    """The lab's batched rule (capacity/rules.pairwise) used its own relative 1e-12 and kept
    these three neurons; it now uses the network's tolerance: the same flips, and the same
    decision at every neuron of nearly cancelling states, for both interactions."""
    rng = np.random.default_rng(27)
    X = np.sign(rng.standard_normal((40, 100)))
    s = np.sign(rng.standard_normal(100))
    XT = X.T[None].astype(np.int8)  # (1, d, N) as the lab keeps a store
    net = DenseAssociativeMemory(X, "exponential", beta=2.0)
    lab = rules.pairwise(XT, s[None], "exponential", {"beta": 2.0})[0]
    np.testing.assert_array_equal(lab, net.step(s, mode="sync"))
    assert np.sum(lab != s) >= 3
    for state in mixtures(X, rng):
        for variant, params, cls in (("exponential", {"beta": 2.0}, net),
                                     ("dense", {"degree": 4},
                                      DenseAssociativeMemory(X, "polynomial", degree=4))):
            np.testing.assert_array_equal(rules.pairwise(XT, state[None], variant, params)[0],
                                          cls.step(state, mode="sync"))

def mixtures(X: np.ndarray, rng) -> list[np.ndarray]:
    """States where the two choices nearly cancel: mixtures of 2 and 3 patterns, a random state."""
    two = np.where(X[0] + X[1] >= 0, 1.0, -1.0)
    return [two, np.sign(X[0] + X[1] + X[2]), np.sign(rng.standard_normal(X.shape[1]))]


@pytest.mark.parametrize("N, d, beta", [(40, 100, 2.0), (3, 20, 0.1), (60, 31, 10.0),
                                        (200, 64, 1.0), (12, 400, 0.02)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_exponential_agrees_with_the_exact_comparison(N, d, beta, seed):
    """The rounding bound holds, every flip the synchronous step makes is the exact choice,
    every true tie keeps its value, and every difference above the bound is acted on."""
    rng = np.random.default_rng(seed)
    X = np.sign(rng.standard_normal((N, d)))
    net = DenseAssociativeMemory(X, "exponential", beta=beta)
    for s in mixtures(X, rng):
        up, down = choices(X, s)
        exact, L = exact_exponential(up, down, beta)
        tol = bound(N, L)
        computed = logsumexp(beta * up) - logsumexp(beta * down)
        assert all(abs(c - float(e)) <= t for c, e, t in zip(computed, exact, tol))  # the bound
        new = net.step(s, mode="sync")
        for i, e in enumerate(exact):
            if new[i] != s[i]:
                assert sign(e) == new[i], i       # never a wrong flip
            if e == 0:
                assert new[i] == s[i], i          # a true tie keeps its value
            elif abs(float(e)) > 2 * tol[i]:
                assert new[i] == sign(e), i       # a resolvable difference is acted on


@pytest.mark.parametrize("degree, rectified", [(2, False), (3, False), (4, True), (10, False),
                                               (30, True)])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_polynomial_agrees_with_the_exact_comparison(degree, rectified, seed):
    rng = np.random.default_rng(seed)
    X = np.sign(rng.standard_normal((25, 41)))
    net = DenseAssociativeMemory(X, "polynomial", degree=degree, rectified=rectified)
    for s in mixtures(X, rng):
        up, down = choices(X, s)
        exact = exact_polynomial(up, down, degree, rectified)
        scale = np.array([sum(abs(max(a, 0) ** degree if rectified else a ** degree)
                              + abs(max(b, 0) ** degree if rectified else b ** degree)
                              for a, b in zip(u, v)) for u, v in zip(up.tolist(), down.tolist())],
                         dtype=float)
        d_n = 41 ** degree                 # the exact values are d^n times the compared ones
        tol = EPS * (degree + 25 + 1) * scale / d_n
        computed = np.sum(net.F(up / 41) - net.F(down / 41), axis=-1)
        assert all(abs(c - float(Fraction(e, d_n))) <= t for c, e, t in zip(computed, exact, tol))
        new = net.step(s, mode="sync")
        for i, e in enumerate(exact):
            if new[i] != s[i]:
                assert sign(e) == new[i], i
            if e == 0:
                assert new[i] == s[i], i
            elif abs(float(Fraction(e, d_n))) > 2 * tol[i]:
                assert new[i] == sign(e), i


def paired(N: int, d: int, rng) -> np.ndarray:
    """N patterns in pairs that differ only at neuron 0: whatever the state, neuron 0's two
    choices give the same overlaps (each pair's two swap), an exact tie at every scale."""
    half = np.sign(rng.standard_normal((N // 2, d)))
    twin = half.copy()
    twin[:, 0] *= -1
    return np.concatenate([half, twin])



def test_a_polynomial_difference_of_9_rounding_bounds_is_acted_on():
    """Pairs of patterns that differ only at neuron 0 cancel exactly (at overlaps near d, so the
    scale is 2e13 in whole numbers), and one more pattern, orthogonal to the rest of the state,
    tips neuron 0 by exactly 2: a relative 9.6e-14, about 9 times the rounding bound but under
    a relative 1e-12 (the capacity lab's old tie, which kept it). The network and the lab flip
    it, as the exact comparison says."""
    rng = np.random.default_rng(0)
    d, P, n = 201, 20, 5
    s = np.sign(rng.standard_normal(d))
    s[0] = -1.0
    half = np.tile(s, (P, 1))  # (P, d): the state with 4 of the other neurons flipped
    for row in half:
        row[1 + rng.choice(d - 1, size=4, replace=False)] *= -1
    twin = half.copy()
    twin[:, 0] *= -1
    extra = s.copy()
    extra[0] = 1.0
    extra[1 + rng.choice(d - 1, size=(d - 1) // 2, replace=False)] *= -1  # rest overlap 0
    X = np.concatenate([half, twin, extra[None]])  # (2 P + 1, d)
    up, down = choices(X, s)
    exact = exact_polynomial(up[:1], down[:1], n, False)[0]
    scale = sum(abs(int(a)) ** n + abs(int(b)) ** n for a, b in zip(up[0], down[0]))
    assert exact == 2 and 2 * EPS * (n + 2 * P + 2) < exact / scale < 1e-12
    net = DenseAssociativeMemory(X, "polynomial", degree=n)
    assert net.step(s, mode="sync")[0] == 1.0
    assert rules.pairwise(X.T[None].astype(np.int8), s[None], "dense", {"degree": n})[0, 0] == 1.0

@pytest.mark.parametrize("interaction, kw", [
    ("exponential", {"beta": 1e-3}), ("exponential", {"beta": 2.0}),
    ("exponential", {"beta": 30.0}), ("exponential", {"beta": 1e3}),
    ("polynomial", {"degree": 2}), ("polynomial", {"degree": 7}),
    ("polynomial", {"degree": 30, "rectified": True})])
@pytest.mark.parametrize("N, d", [(2, 9), (40, 100), (64, 1000), (10, 4096)])
def test_true_ties_keep_the_current_value(interaction, kw, N, d):
    rng = np.random.default_rng(N + d)
    X = paired(N, d, rng)
    net = DenseAssociativeMemory(X, interaction, **kw)
    for start in (1.0, -1.0):
        s = np.sign(rng.standard_normal(d))
        s[0] = start
        assert net.step(s, mode="sync")[0] == start
        assert net.step(s, mode="async", rng=0)[0] == start
        far = X[0].copy()  # at a stored pattern too, where the overlaps are largest
        far[0] = start
        assert net.step(far, mode="sync")[0] == start


def test_an_even_degree_ties_at_zero_rest_overlap():
    """F(z) = z^2: with the rest of the state orthogonal to the pattern, +1 and -1 give
    F(1) = F(-1): a tie, whichever value neuron 0 has."""
    x = np.array([1.0, 1, -1, 1, -1, -1, 1])  # d = 7; rest of the state overlaps it by 0
    rest = np.ones(6)
    assert rest @ x[1:] == 0
    net = DenseAssociativeMemory(x[None], "polynomial", degree=2)
    for start in (1.0, -1.0):
        s = np.concatenate([[start], rest])
        assert net.step(s, mode="sync")[0] == start
