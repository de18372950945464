"""hopfield_core.reference, PyTorch's answers that the pages print beside the core's: its
attention against hopfield_attention (heads and projections included), its autograd of the
log-normalizer against the closed forms of hopfield_core.expfamily and finite differences."""
import numpy as np
import pytest

from hopfield_core import compare, expfamily, hopfield_attention, reference


def test_attention_with_heads_agrees_and_notices_a_wrong_scale():
    rng = np.random.default_rng(0)
    Q, K = rng.normal(size=(4, 12)), rng.normal(size=(6, 12))
    P = compare.random_projections(12, 5, heads=2, seed=1)
    ours = hopfield_attention(Q, K, K, beta=0.3, heads=2, W_Q=P.W_Q, W_K=P.W_K, W_V=P.W_V)
    np.testing.assert_allclose(reference.sdpa(Q, K, K, 0.3, heads=2, proj=P), ours, atol=1e-12)
    assert np.max(np.abs(reference.sdpa(Q, K, K, 0.6, heads=2, proj=P) - ours)) > 1e-3


@pytest.mark.parametrize("heads, tied", [(1, False), (3, True), (4, False)])
def test_the_gap_is_rounding_for_the_same_attention_and_large_for_another(heads, tied):
    """sdpa_gap is what the attention page prints: about 1e-16 for hopfield_attention's output,
    and the size of the difference for a wrong one (other heads' order, another beta)."""
    rng = np.random.default_rng(heads)
    Q, X = rng.normal(size=(5, 16)), rng.normal(size=(9, 16))
    P = compare.random_projections(16, 4, heads=heads, seed=2, tied=tied)
    kw = dict(W_Q=P.W_Q, W_K=P.W_K, W_V=P.W_V, heads=heads)
    ours = hopfield_attention(Q, X, X, beta=0.7, **kw)  # (5, heads x 4)
    assert ours.shape == (5, 4 * heads)
    assert reference.sdpa_gap(ours, Q, X, X, 0.7, heads, P) < 1e-12
    wrong = hopfield_attention(Q, X, X, beta=0.9, **kw)
    assert reference.sdpa_gap(wrong, Q, X, X, 0.7, heads, P) == pytest.approx(
        np.max(np.abs(wrong - ours)), rel=1e-9)
    if heads > 1:  # the heads split the projected width in order: a permuted one is noticed
        swapped = np.concatenate([ours[:, 4:], ours[:, :4]], axis=1)
        assert reference.sdpa_gap(swapped, Q, X, X, 0.7, heads, P) > 1e-3


def test_attention_without_projections_is_one_hopfield_step():
    rng = np.random.default_rng(3)
    X, Xi = rng.normal(size=(7, 10)), rng.normal(size=(3, 10))
    out = reference.sdpa(Xi, X, X, 2.0)
    np.testing.assert_allclose(out, hopfield_attention(Xi, X, X, beta=2.0), atol=1e-13)
    assert out.dtype == np.float64 and out.shape == (3, 10)


@pytest.mark.parametrize("beta", [0.1, 1.0, 8.0, 50.0])
def test_autograd_of_the_log_normalizer_is_the_closed_form(beta):
    """grad A = K^T p and hess A = beta Cov_p[k] (expfamily) against autograd, and the
    gradient against central differences too."""
    rng = np.random.default_rng(4)
    K, q = rng.normal(size=(6, 5)) / 2, rng.normal(size=5) / 2
    g = reference.log_normalizer_grad(K, q, beta)
    np.testing.assert_allclose(g, expfamily.log_normalizer_grad(K, q, beta), atol=1e-12)
    np.testing.assert_allclose(g, expfamily.finite_difference_grad(K, q, beta), atol=1e-6)
    H = reference.log_normalizer_hessian(K, q, beta)
    assert H.shape == (5, 5)
    np.testing.assert_allclose(H, expfamily.log_normalizer_hessian(K, q, beta),
                               atol=1e-10 * max(1.0, beta))


def test_autograd_notices_another_beta():
    """The page's gaps are about 1e-16; a closed form at the wrong beta is far off."""
    rng = np.random.default_rng(5)
    K, q = rng.normal(size=(5, 4)), rng.normal(size=4)
    assert np.max(np.abs(reference.log_normalizer_grad(K, q, 2.0)
                         - expfamily.log_normalizer_grad(K, q, 1.0))) > 1e-3
    assert np.max(np.abs(reference.log_normalizer_hessian(K, q, 2.0)
                         - expfamily.log_normalizer_hessian(K, q, 1.0))) > 1e-3

