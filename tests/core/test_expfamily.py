"""hopfield_core.expfamily: the log-normalizer's gradient and Hessian against finite differences,
torch autograd and a weighted covariance; expansion and contraction of a token cloud, and where
the expansion fails; the tied update's energy descent and an untied rise, at fixed seeds."""
import math

import numpy as np
import pytest
import torch

from hopfield_core import ModernHopfield
from hopfield_core import expfamily as ef
from hopfield_core.numerics import softmax

BETAS = [1e-3, 0.3, 1.0, 4.0, 1e3]


def _keys(seed=0, N=7, d=4):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(N, d)), rng.normal(size=d)


# ------------------------------------------------------------------ 1. the exponential family

@pytest.mark.parametrize("beta", BETAS)
def test_weights_and_log_normalizer_match_direct_sums(beta):
    K, q = _keys()
    s = [beta * math.fsum(k * q) for k in K]
    m = max(s)
    Z = math.fsum(math.exp(v - m) for v in s)
    p = ef.attention_weights(K, q, beta)
    np.testing.assert_allclose(p, [math.exp(v - m) / Z for v in s], rtol=1e-12, atol=1e-300)
    assert math.fsum(p) == pytest.approx(1.0, abs=1e-14) and np.all(p >= 0)
    assert ef.log_normalizer(K, q, beta) == pytest.approx((m + math.log(Z)) / beta, rel=1e-12)


@pytest.mark.parametrize("beta", [0.3, 1.0, 4.0])
def test_gradient_equals_finite_differences_and_torch_autograd(beta):
    K, q = _keys(1)
    g = ef.log_normalizer_grad(K, q, beta)
    h, A = 1e-5, lambda x: ef.log_normalizer(K, x, beta)
    fd = [(A(q + h * e) - A(q - h * e)) / (2 * h) for e in np.eye(len(q))]
    np.testing.assert_allclose(g, fd, atol=1e-8)
    np.testing.assert_allclose(ef.finite_difference_grad(K, q, beta), fd, atol=1e-12)
    qt = torch.tensor(q, requires_grad=True)
    (torch.logsumexp(beta * (torch.tensor(K) @ qt), 0) / beta).backward()
    np.testing.assert_allclose(g, qt.grad.numpy(), atol=1e-10, rtol=0)


@pytest.mark.parametrize("beta", [0.3, 1.0, 4.0])
def test_hessian_equals_finite_differences_torch_and_the_weighted_covariance(beta):
    K, q = _keys(2)
    H = ef.log_normalizer_hessian(K, q, beta)
    h, grad = 1e-5, lambda x: ef.log_normalizer_grad(K, x, beta)
    fd = np.array([grad(q + h * e) - grad(q - h * e) for e in np.eye(len(q))]) / (2 * h)
    np.testing.assert_allclose(H, fd, atol=1e-8)
    p = ef.attention_weights(K, q, beta)
    np.testing.assert_allclose(H, beta * np.cov(K.T, aweights=p, bias=True), atol=1e-12)
    Kt = torch.tensor(K)
    Ht = torch.autograd.functional.hessian(
        lambda x: torch.logsumexp(beta * (Kt @ x), 0) / beta, torch.tensor(q))
    np.testing.assert_allclose(H, Ht.numpy(), atol=1e-10)
    np.testing.assert_array_equal(H, H.T)
    assert np.linalg.eigvalsh(H).min() >= -1e-12
    # Shim (sec. 3.2) writes the Hessian as E_p[k k^T]: that is off by the mean term
    assert not np.allclose(H, beta * (K.T * p) @ K, atol=1e-3)


def test_the_spectrum_is_the_hessians_nonzero_part():
    rng = np.random.default_rng(0)
    K, q = rng.standard_normal((5, 12)), rng.standard_normal(12)
    full = np.sort(np.linalg.eigvalsh(ef.log_normalizer_hessian(K, q, 2.0)))[::-1]
    np.testing.assert_allclose(ef.hessian_spectrum(K, q, 2.0), full[:5], atol=1e-12)
    np.testing.assert_allclose(full[5:], 0, atol=1e-12)
    assert abs(ef.hessian_spectrum(K, q, 2.0)[-1]) < 1e-12  # rank at most N - 1


def test_extreme_betas_are_finite_and_reach_the_two_limits():
    K, q = _keys(3)
    for beta in (1e-3, 1e3):
        for A, B in ((K, q), (ef.MAX_ABS * np.sign(K), ef.MAX_ABS * np.sign(q))):
            for f in (ef.attention_weights, ef.log_normalizer, ef.log_normalizer_grad,
                      ef.log_normalizer_hessian):
                assert np.all(np.isfinite(f(A, B, beta)))
    Z = ef.MAX_ABS * np.sign(ef.token_cloud("blob", 16, 3))  # the largest cloud allowed
    for ln in (False, True):
        assert np.all(np.isfinite(ef.token_layers(Z, ef.MAX_LAYERS, 1e3, ln)))
    # beta -> 0: the plain mean of the keys; beta -> inf: the best-aligned key
    np.testing.assert_allclose(ef.log_normalizer_grad(K, q, 1e-3), K.mean(axis=0), atol=1e-2)
    np.testing.assert_allclose(ef.log_normalizer_grad(K, q, 1e3), K[np.argmax(K @ q)], atol=1e-12)


# ------------------------------------------------------------------ 2. expansion and contraction

def test_self_attention_is_each_tokens_gradient_only_with_the_keys_frozen():
    Z, beta = ef.token_cloud("blob", 6, 3, seed=4), 0.7
    A = ef.self_attention(Z, beta)
    for z, a in zip(Z, A):
        np.testing.assert_allclose(a, ef.log_normalizer_grad(Z, z, beta), atol=1e-14)
    # the full gradient of sum_i A(z_i), the keys being the tokens too, is (P + P^T) Z
    Zt = torch.tensor(Z, requires_grad=True)
    (torch.logsumexp(beta * Zt @ Zt.T, dim=1).sum() / beta).backward()
    P = softmax(beta * Z @ Z.T)
    np.testing.assert_allclose(Zt.grad.numpy(), (P + P.T) @ Z, atol=1e-12)
    assert np.abs(Zt.grad.numpy() - A).max() > 0.1


CENTRED = [(name, d) for name in ("blob", "two clusters", "ring") for d in (2, 3)]


@pytest.mark.parametrize("name,d", CENTRED)
@pytest.mark.parametrize("beta", [1e-3, 0.1, 1.0, 1e3])
def test_without_layer_norm_a_centred_cloud_expands_at_every_layer(name, d, beta):
    Zs = ef.token_layers(ef.token_cloud(name, 32, d), 20, beta, layer_norm=False)
    assert np.all(np.isfinite(Zs))
    s = ef.spreads(Zs)
    assert np.all(s[1:] > s[:-1] * (1 + 5e-4))
    sv = [ef.top_singular_value(Z) for Z in Zs]
    assert np.all(np.diff(sv) > 0)
    norms = np.linalg.norm(Zs, axis=-1).max(axis=1)  # (L+1,) the largest token norm
    assert np.all(norms[1:] <= 2 * norms[:-1] * (1 + 1e-12))  # the bound that rules out overflow


def test_default_blob_spreads_with_and_without_layer_norm():
    Z = ef.token_cloud("blob", 32, 3)
    free = ef.spreads(ef.token_layers(Z, 5, 1.0, layer_norm=False))
    normed = ef.spreads(ef.token_layers(Z, 5, 1.0, layer_norm=True))
    np.testing.assert_allclose(free, [1.5218, 2.8022, 6.7282, 15.567, 33.747, 70.460], rtol=1e-4)
    np.testing.assert_allclose(normed, [1.5218, 1.7140, 1.7099, 1.7063, 1.7037, 1.7015], rtol=1e-4)


def test_layer_norm_is_torchs_and_keeps_every_token_on_its_sphere():
    for name, d in CENTRED + [("offset blob", 2), ("offset blob", 3)]:
        for beta in (1e-3, 1.0, 1e3):
            Zs = ef.token_layers(ef.token_cloud(name, 32, d), 20, beta, layer_norm=True)
            raw = Zs[:-1] + np.stack([ef.self_attention(Z, beta) for Z in Zs[:-1]])
            ref = torch.nn.functional.layer_norm(torch.tensor(raw), (d,))  # eps = 1e-5
            np.testing.assert_allclose(Zs[1:], ref.numpy(), atol=1e-12)
            np.testing.assert_allclose(Zs[1:].mean(axis=-1), 0, atol=1e-12)
            var = raw.var(axis=-1)
            np.testing.assert_allclose(np.linalg.norm(Zs[1:], axis=-1),
                                       np.sqrt(d * var / (var + 1e-5)), rtol=1e-12)
            assert np.all(ef.spreads(Zs)[1:] <= math.sqrt(d))


def test_layer_norm_in_two_dimensions_leaves_two_points():
    Zs = ef.token_layers(ef.token_cloud("ring", 32, 2), 3, 1.0, layer_norm=True)
    np.testing.assert_allclose(np.abs(Zs[1:]), 1.0, atol=1e-3)  # every token is +-(1, -1)
    np.testing.assert_allclose(Zs[1:, :, 0], -Zs[1:, :, 1], atol=1e-14)


def test_layer_norm_can_collapse_the_cloud_instead_of_balancing_it():
    Z = ef.token_cloud("blob", 32, 3)
    assert ef.spreads(ef.token_layers(Z, 20, 1e-3, layer_norm=True))[-1] < 1e-3
    assert ef.spreads(ef.token_layers(Z, 20, 1.0, layer_norm=True))[-1] > 1.7


@pytest.mark.parametrize("name", ["blob", "offset blob"])
@pytest.mark.parametrize("beta", [1e-3, 1e-2])
def test_near_beta_zero_the_centroid_doubles_and_the_centred_cloud_grows_by_I_plus_beta_C(
        name, beta):
    Z = ef.token_cloud(name, 32, 3)
    zbar = Z.mean(axis=0)
    C = np.cov(Z.T, bias=True)  # (d, d) the cloud's covariance
    Z1 = ef.token_layers(Z, 1, beta, layer_norm=False)[1]
    # attn(Z)_i = zbar + beta C z_i + O(beta^2): Z + attn(Z) moves the centroid to ~2 zbar ...
    assert np.abs(Z1.mean(axis=0) - (2 * zbar + beta * C @ zbar)).max() < beta ** 2
    # ... and stretches the centred cloud by I + beta C only: no expansion as beta -> 0
    assert np.abs(Z1 - Z1.mean(axis=0) - (Z - zbar) @ (np.eye(3) + beta * C)).max() < 5 * beta ** 2
    lam = np.linalg.eigvalsh(C)
    growth = ef.spread(Z1) / ef.spread(Z) - 1
    assert beta * lam[0] < growth < beta * lam[-1]


def test_an_off_centre_cloud_stops_expanding():
    off = ef.spreads(ef.token_layers(ef.token_cloud("offset blob", 32, 2), 20, 0.1, False))
    ratio = off[1:] / off[:-1]
    assert np.all(np.abs(ratio[8:] - 1) < 1e-9) and off[-1] < 1.5 * off[0]
    centred = ef.spreads(ef.token_layers(ef.token_cloud("blob", 32, 2), 20, 0.1, False))
    assert centred[-1] > 1e5 * centred[0]


def test_token_clouds_are_deterministic_and_centred():
    for name in ef.CLOUDS:
        A = ef.token_cloud(name, 16, 3, seed=5)
        np.testing.assert_array_equal(A, ef.token_cloud(name, 16, 3, seed=5))
        assert not np.array_equal(A, ef.token_cloud(name, 16, 3, seed=6))
        centre = 4.0 * np.eye(3)[0] if name == "offset blob" else 0.0
        np.testing.assert_allclose(A.mean(axis=0), centre, atol=1e-14)


# ------------------------------------------------------------------ 3. energy descent

def _memories():
    return ef.token_cloud("two clusters", 8, 3, seed=0), ef.token_cloud("blob", 16, 3, seed=1)


def test_tied_layers_are_the_modern_hopfield_update_and_energy():
    K, Z = _memories()
    net = ModernHopfield(K, beta=2.0)
    const = math.log(len(K)) / 2.0 + 0.5 * net.M ** 2
    np.testing.assert_allclose(ef.tied_energy(K, Z, 2.0), net.energy(Z) - const, atol=1e-12)
    Zs = ef.attention_layers(K, Z, 2.0, 3)
    np.testing.assert_allclose(Zs[1], net.step(Z), atol=1e-14)
    eye = (np.eye(3),) * 3
    np.testing.assert_array_equal(ef.attention_layers(K, Z, 2.0, 3, eye), Zs)
    np.testing.assert_array_equal(ef.random_weights(3, seed=9, scale=0.0), eye)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("beta", BETAS)
def test_tied_energy_falls_by_at_least_half_the_squared_step(seed, beta):
    rng = np.random.default_rng(seed)
    K, Z = rng.normal(size=(10, 3)) * 2, rng.normal(size=(12, 3)) * 2
    Zs = ef.attention_layers(K, Z, beta, 12)
    E = np.stack([ef.tied_energy(K, z, beta) for z in Zs])  # (L+1, n)
    step = 0.5 * np.sum(np.diff(Zs, axis=0) ** 2, axis=-1)  # (L, n)
    assert np.all(E[1:] <= E[:-1] - step + 1e-12 * (1 + np.abs(E[:-1])))


def test_untied_energy_rises_at_seed_0_layer_2():
    K, Z = _memories()
    W = ef.random_weights(3, seed=0, scale=1.0)
    E = [ef.tied_energy(K, z, 1.0).sum() for z in ef.attention_layers(K, Z, 1.0, 4, W)]
    assert E[1] < E[0] and E[2] > E[1] + 5  # -44.04 then -37.99
    tied = [ef.tied_energy(K, z, 1.0).sum() for z in ef.attention_layers(K, Z, 1.0, 4)]
    assert np.all(np.diff(tied) <= 1e-12)


# ------------------------------------------------------------------ bad input

K0, q0 = _keys()
BAD = [
    (lambda: ef.log_normalizer(np.where(np.eye(7, 4) > 0, np.nan, K0), q0, 1),
     r"the keys K must be finite everywhere .*, got nan at \[0, 0\]"),
    (lambda: ef.log_normalizer_grad(K0, np.r_[q0[:3], np.inf], 1),
     r"query q must be finite .*, got inf at \[3\]"),
    (lambda: ef.attention_weights(np.zeros((0, 4)), q0, 1), r"non-empty 2-D array, got shape \(0,"),
    (lambda: ef.attention_weights(K0, [], 1), r"query q must be a non-empty 1-D array"),
    (lambda: ef.log_normalizer(K0, q0[:3], 1), r"shape \(4,\) to match the keys, got \(3,\)"),
    (lambda: ef.log_normalizer(K0 * 2e3, q0, 1),
     r"K must have entries of size at most 1000, got an entry of size \d"),
    (lambda: ef.log_normalizer_hessian(K0, q0, 0), r"must be a number in \[0.001, 1000\], got 0$"),
    (lambda: ef.hessian_spectrum(K0, q0[:2], 1), r"shape \(4,\) to match the keys, got \(2,\)"),
    (lambda: ef.log_normalizer(K0, q0, 1e-4), r"got 0.0001"),
    (lambda: ef.finite_difference_grad(K0, q0, -1), r"got -1"),
    (lambda: ef.attention_weights(K0, q0, 1001), r"got 1001"),
    (lambda: ef.attention_weights(K0, q0, float("nan")), r"got nan"),
    (lambda: ef.attention_weights(K0, q0, "hot"), r"got hot"),
    (lambda: ef.token_layers(K0, 21, 1.0), r"layers must be a whole number from 0 to 20, got 21$"),
    (lambda: ef.token_layers(K0, 2.5, 1.0), r"got 2.5"),
    (lambda: ef.token_layers(K0, True, 1.0), r"got True"),
    (lambda: ef.token_cloud("spiral", 8, 2), r"one of blob, two clusters, ring, .*; got 'spiral'"),
    (lambda: ef.token_cloud("ring", 8, 1), r"a ring needs d >= 2 features, got d = 1"),
    (lambda: ef.token_cloud("blob", 0, 2), r"n, the number of tokens must be .* got 0"),
    (lambda: ef.tied_energy(K0, np.ones((3, 5)), 1.0), r"5 features but the memories 4"),
    (lambda: ef.attention_layers(K0, K0, 1.0, 2, (np.eye(4),) * 2), r"got 2 matrices"),
    (lambda: ef.attention_layers(K0, K0, 1.0, 2, (np.eye(4), np.eye(3), np.eye(4))),
     r"W_K must be \(4, 4\) to match the memories, got \(3, 3\)"),
    (lambda: ef.random_weights(3, scale=-1), r"scale must be a number in \[0, 10\], got -1"),
    (lambda: ef.spreads(np.zeros((3, 4))), r"got shape \(3, 4\)"),
    (lambda: ef.spread(np.zeros(4)), r"got shape \(4,\)"),
]


@pytest.mark.parametrize("call,message", BAD)
def test_bad_input_is_refused_with_a_message_naming_the_value(call, message):
    with pytest.raises(ValueError, match=message):
        call()
