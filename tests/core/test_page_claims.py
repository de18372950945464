"""The numbers and laws behind sentences the pages state (issues 12 and 34).

Each test names the page and the sentence it backs; the pages' own tests check that the
sentence is on screen.
"""
import itertools

import numpy as np
import pytest

from hopfield_core import ClassicalHopfield, ModernHopfield, ebm, ebm_data
from hopfield_core.attention import hopfield_attention
from hopfield_core.capacity import CLASSICAL_ALPHA, stable_patterns, success_curve
from hopfield_core.capacity.ags import critical_alpha
from hopfield_core.images import resize, to_bipolar
from hopfield_core.landscape import grid_axis, world_energy_grid
from hopfield_core.presets import preset_image
from tests.app.test_modern_page import OQX, patterns, query

TRIANGLE = np.array([(1.0, 0.0), (-0.5, 0.866), (-0.5, -0.866)])  # the landscape page's default


def letters(chars: str, size: int = 16) -> np.ndarray:
    return np.stack([to_bipolar(resize(preset_image("letters", c, 64), (size, size))) for c in chars])


# ---------------------------------------------------------------- classical page, "Try this"

def test_letters_a_to_h_fail_far_below_the_random_pattern_capacity():
    X = letters("ABCDEFGH")
    N, d = X.shape
    assert (N, d) == (8, 256) and round(CLASSICAL_ALPHA * d) == 35      # "0.138 d = 35"
    assert round(critical_alpha(0.0), 3) == CLASSICAL_ALPHA              # AGS's alpha_c = 0.138
    overlap = np.abs(X @ X.T / d)[np.triu_indices(N, 1)].mean()
    assert overlap == pytest.approx(0.27, abs=0.005)                    # "mean |overlap| 0.27"
    assert int(stable_patterns(ClassicalHopfield(X), X).sum()) == 1     # "only 1 ... fixed point"
    pinv = ClassicalHopfield(X, learning_rule="pseudoinverse")
    assert int(stable_patterns(pinv, X).sum()) == 8                     # "all 8 ... again"
    for seed in range(5):                                              # "8 random ones all stay"
        R = np.sign(np.random.default_rng(seed).standard_normal((8, d)))
        assert int(stable_patterns(ClassicalHopfield(R), R).sum()) == 8


# ---------------------------------------------------------------- classical page, temperature

def _states(d):
    return np.array(list(itertools.product([-1.0, 1.0], repeat=d)))


def _stationary(P):
    w, v = np.linalg.eig(P.T)
    p = np.real(v[:, np.argmin(np.abs(w - 1))])
    return p / p.sum()


def test_glauber_keeps_exp_minus_E_over_T_and_little_does_not():
    """Async at T > 0 (Glauber) leaves p ~ exp(-E/T) unchanged; sync at T > 0 (Little) has
    another stationary law. Exact transition matrices on all 2^5 states, with the update
    probability the core uses: P(xi_i = +1) = sigmoid(2 h_i / T)."""
    rng = np.random.default_rng(0)
    X = np.sign(rng.standard_normal((2, 5)))
    net = ClassicalHopfield(X)
    W, S, T = net.weights, _states(5), 0.7
    E = np.array([net.energy(s) for s in S])
    boltzmann = np.exp(-(E - E.min()) / T)
    boltzmann /= boltzmann.sum()
    index = {s.tobytes(): k for k, s in enumerate(S)}

    def up(h):
        return 1.0 / (1.0 + np.exp(-2.0 * h / T))

    glauber = np.zeros((len(S), len(S)))  # one neuron, chosen at random, updated
    little = np.zeros((len(S), len(S)))   # every neuron updated from the same old state
    for a, s in enumerate(S):
        h = W @ s
        for i in range(5):
            for v in (-1.0, 1.0):
                t = s.copy()
                t[i] = v
                glauber[a, index[t.tobytes()]] += (up(h[i]) if v > 0 else 1 - up(h[i])) / 5
        for b, t in enumerate(S):
            little[a, b] = np.prod(np.where(t > 0, up(h), 1 - up(h)))
    np.testing.assert_allclose(boltzmann @ glauber, boltzmann, atol=1e-12)
    assert np.abs(_stationary(little) - boltzmann).max() > 0.01

    # and the core's sync step at T > 0 draws from the Little kernel: empirical check
    s0 = S[3]
    draws = net.step(np.tile(s0, (20000, 1)), mode="sync", rng=1, temperature=T)
    freq = np.bincount([index[x.tobytes()] for x in draws.astype(np.float64)], minlength=len(S))
    np.testing.assert_allclose(freq / 20000, little[3], atol=0.012)


# ---------------------------------------------------------------- landscape page

def _minima_2d(beta, n=481):
    us = grid_axis(-1.2, 1.2, n)
    G = world_energy_grid(ModernHopfield(TRIANGLE, beta=beta), us, us)
    P = np.pad(G, 1, constant_values=np.inf)
    ok = np.ones_like(G, dtype=bool)
    for di, dj in itertools.product((-1, 0, 1), repeat=2):
        if di or dj:
            ok &= G < P[1 + di:P.shape[0] - 1 + di, 1 + dj:P.shape[1] - 1 + dj]
    return [(us[j], us[i]) for i, j in zip(*np.nonzero(ok))]


@pytest.mark.parametrize("beta, valleys, centre", [(1.0, 1, True), (1.8, 1, True),
                                                   (1.86, 4, True), (1.95, 4, True),
                                                   (2.05, 3, False), (3.0, 3, False)])
def test_the_triangle_gains_three_valleys_near_1_84_and_loses_its_centre_at_2(beta, valleys, centre):
    found = _minima_2d(beta)
    assert len(found) == valleys
    assert any(np.hypot(*m) < 1e-9 for m in found) == centre


def test_the_triangle_centre_turns_into_a_hill_at_beta_2():
    # the Hessian at the centre is I - beta Cov(x) with Cov = I / 2 for the triangle
    cov = np.cov(TRIANGLE.T, bias=True)
    np.testing.assert_allclose(np.linalg.eigvalsh(cov), [0.5, 0.5], atol=1e-3)


# ---------------------------------------------------------------- home page

def test_beyond_the_critical_load_a_stored_pattern_keeps_only_part_of_itself():
    """Home: "beyond that, fewer and fewer of the stored patterns are fixed points: started at
    one, the network slides away to a state that keeps only part of it, and less the more
    patterns are stored (at d = 200 the final overlap with the pattern ... averages 0.76 with
    0.2 d patterns and 0.57 with 0.25 d)". Not "resembles none of the memories": at finite d
    the state it reaches still overlaps the pattern by more than 0.4 on average up to 0.3 d."""
    d, loads = 200, np.array([0.14, 0.16, 0.2, 0.25, 0.3])
    ns = np.round(loads * d).astype(int)
    c = success_curve("classical-async", d, ns, 200, rng=0)  # Hopfield's 1982 update
    assert np.all(np.diff(c.stable) < 0) and c.stable[2] < 0.2       # fewer fixed points
    assert np.all(np.diff(c.mean_overlap) < 0)                        # less the more stored
    past = c.mean_overlap[1:]                                         # beyond 0.14 d
    assert np.all((past > 0.4) & (past < 0.97))                        # only part, not none
    assert f"{c.mean_overlap[2]:.2f}" == "0.76" and f"{c.mean_overlap[3]:.2f}" == "0.57"
    sync = success_curve("classical-sync", d, ns[2:4], 200, rng=0)    # the same either way
    np.testing.assert_allclose(sync.mean_overlap, [0.76, 0.57], atol=0.01)


# ---------------------------------------------------------------- learning page

def trained_to_rest(name: str, N: int, beta: float, seed: int = 0):
    """The page's training data (300 points, a quarter held out) and N patterns trained by
    Adam from the page's start until the gradient vanishes (the step size lowered in stages)."""
    train, _ = ebm_data.split(ebm_data.dataset(name, 300, seed), 0.25, seed)
    X = ebm_data.initial_patterns(N, 2, seed)
    for lr in (0.05, 0.01, 0.002, 0.0005):
        X = ebm.Trainer(X, train, beta, lr, keep_path=False).step(3000).X
    return X, train


def test_a_learned_pattern_is_the_weighted_mean_of_its_data_scaled_by_R_over_pi():
    """Learning page: "there pi_mu x_mu = (1/n) sum_{k=1}^{n} r_mu(xi_k) xi_k, so each pattern
    is m_mu, the mean of the data weighted by their r_mu, scaled by R_mu / pi_mu ... for the six
    patterns learned from the two moons at beta = 2 ..., R_mu / pi_mu runs from 0.93 to 1.13: a
    pattern sits up to 13 % farther from the origin than the weighted mean of its data, or up
    to 7 % nearer" (so not "pi_mu x_mu equals the attention-weighted mean"). d nll / d x_mu =
    beta (pi_mu x_mu - R_mu m_mu) = 0; r, pi, R and m from scratch here."""
    beta = 2.0
    X, data = trained_to_rest("moons", 6, beta)
    assert np.abs(ebm.nll_grad(X, data, beta)).max() < 1e-8           # at rest
    scores = beta * data @ X.T                                        # (n, N)
    r = np.exp(scores - scores.max(axis=1, keepdims=True))
    r /= r.sum(axis=1, keepdims=True)                                 # softmax(beta X xi_k)
    half = beta * np.sum(X * X, axis=1) / 2
    pi = np.exp(half - half.max())
    pi /= pi.sum()                                                    # prop. to e^(beta |x|^2 / 2)
    R = r.mean(axis=0)                                                # (N,)
    m = (r.T @ data) / r.sum(axis=0)[:, None]                         # (N, 2)
    np.testing.assert_allclose(pi[:, None] * X, (r.T @ data) / len(data), atol=1e-9)
    np.testing.assert_allclose(X, (R / pi)[:, None] * m, atol=1e-8)
    ratio = R / pi
    assert f"{ratio.min():.2f}" == "0.93" and f"{ratio.max():.2f}" == "1.13"
    assert round(100 * (ratio.max() - 1)) == 13 and round(100 * (1 - ratio.min())) == 7
    # pi_mu x_mu is R_mu times the weighted mean: the mean itself only where R_mu = 1 (never,
    # with N > 1 patterns sharing the data)
    assert np.all(R < 0.5) and np.abs(pi[:, None] * X - m).max() > 0.5


# ---------------------------------------------------------------- attention page

def test_repeated_attention_descends_the_energy_only_when_keys_and_values_are_the_patterns():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((6, 4))
    net = ModernHopfield(X, beta=2.0)
    xi = rng.standard_normal(4)
    for _ in range(10):
        new = hopfield_attention(xi[None], X, X, beta=2.0)[0]
        np.testing.assert_allclose(new, net.step(xi), atol=1e-12)
        assert net.energy(new) <= net.energy(xi) + 1e-12
        xi = new
    # with a value projection of its own (a quarter turn) the same layer repeated cycles
    # through four states forever: no function of the state falls along a cycle
    square = np.array([(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)])
    turn = np.array([[0.0, 1.0], [-1.0, 0.0]])  # x W_V maps each pattern to the next
    xi, seen = np.array([0.9, 0.1]), []
    for _ in range(12):
        xi = hopfield_attention(xi[None], square, square, beta=50.0, W_V=turn)[0]
        seen.append(np.round(xi, 6))
    assert len({tuple(s) for s in seen[4:]}) == 4
    np.testing.assert_allclose(seen[4], seen[8], atol=1e-9)


# ---------------------------------------------------------------- classical capacity, every page

@pytest.mark.parametrize("d, shown", [(64, "8.8"), (16, "2.2")])
def test_the_classical_capacity_the_dense_and_landscape_pages_print(d, shown):
    """dense: "N = 10 > 0.138 d ~ 8.8" (d = 64); landscape: "0.138 d = 2.2" (d = 16)."""
    assert f"{critical_alpha(0.0) * d:.1f}" == f"{CLASSICAL_ALPHA * d:.1f}" == shown


# ---------------------------------------------------------------- modern page, "Try this"

def _final_weights(X, q, beta):
    return ModernHopfield(X, beta).run(q, max_steps=100, tol=1e-6).weights[-1]


def test_o_q_x_at_beta_1_is_an_uneven_blend_and_only_a_tiny_beta_the_average():
    X = patterns(OQX)
    q = query(X)
    p = _final_weights(X, q, 1.0)
    assert [f"{w:.2f}" for w in p] == ["0.40", "0.41", "0.19"]  # "O 0.40, Q 0.41, X 0.19"
    assert np.sum(np.sort(p)[::-1][:2]) < 0.9                    # "so k90 = 3 (*global*)"
    p = _final_weights(X, q, 0.1)
    assert [f"{w:.2f}" for w in p] == ["0.34", "0.34", "0.32"]  # "(0.34, 0.34, 0.32)"
    p = _final_weights(X, q, 10.0)
    assert p[0] == pytest.approx(0.5, abs=1e-4) and p[1] == pytest.approx(0.5, abs=1e-4)  # 50/50
    assert _final_weights(X, q, 50.0)[0] > 0.9                   # "Raise beta to 50: O alone"
    # the explanation: "a blend of them all ..., the plain average only as beta -> 0"
    np.testing.assert_allclose(_final_weights(X, q, 1e-4), 1 / 3, atol=1e-4)


def _bound(beta, N, M):
    return 2 / (beta * N) + np.log(2 * (N - 1) * N * beta * M ** 2) / beta


def test_o_and_q_need_beta_70_5_and_x_3_6():
    """"overlap 0.895, so separation 1 - 0.895 = 0.105 ... needs beta >= 70.5 ... X ...
    guaranteed from beta = 3.6": the separations by brute force over pairs, the thresholds
    from the bound's formula: not met just below, met just above, and met at every beta after."""
    X = patterns(OQX)
    N = len(X)
    M = max(np.sqrt(x @ x) for x in X)
    assert M == pytest.approx(1.0)
    sep = [X[i] @ X[i] - max(X[i] @ X[j] for j in range(N) if j != i) for i in range(N)]
    assert f"{X[0] @ X[1]:.3f}" == "0.895" and f"{sep[0]:.3f}" == f"{sep[1]:.3f}" == "0.105"
    later = np.geomspace(80.0, 1e6, 400)
    for s, lo, hi in [(sep[0], 70.45, 70.55), (sep[2], 3.55, 3.65)]:
        assert _bound(lo, N, M) > s > _bound(hi, N, M)
        assert np.all(_bound(later * hi / 80.0, N, M) < s)
