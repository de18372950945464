"""hopfield_attention against torch's scaled_dot_product_attention and the Hopfield step."""
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from hopfield_core import ModernHopfield, hopfield_attention


def sdpa(Q, K, V, scale=None):
    t = [torch.tensor(a) for a in (Q, K, V)]
    return F.scaled_dot_product_attention(*t, scale=scale).numpy()


@pytest.mark.parametrize("shape", [(5, 7, 4, 3), (1, 1, 1, 1), (16, 40, 32, 8)])
def test_matches_scaled_dot_product_attention(shape):
    n_q, n_k, d_k, d_v = shape
    rng = np.random.default_rng(0)
    Q, K, V = rng.normal(size=(n_q, d_k)), rng.normal(size=(n_k, d_k)), rng.normal(size=(n_k, d_v))
    np.testing.assert_allclose(hopfield_attention(Q, K, V), sdpa(Q, K, V), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hopfield_attention(Q, K, V, beta=3.0), sdpa(Q, K, V, scale=3.0),
                               rtol=1e-10, atol=1e-12)


def test_batched_inputs_match_too():
    rng = np.random.default_rng(1)
    Q, K, V = rng.normal(size=(2, 3, 5, 8)), rng.normal(size=(2, 3, 9, 8)), rng.normal(size=(2, 3, 9, 4))
    np.testing.assert_allclose(hopfield_attention(Q, K, V), sdpa(Q, K, V), rtol=1e-10)


def test_with_states_and_patterns_it_is_one_hopfield_step():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(12, 16))
    Xi = rng.normal(size=(4, 16))
    beta = 1 / math.sqrt(16)
    np.testing.assert_allclose(hopfield_attention(Xi, X, X), ModernHopfield(X, beta=beta).step(Xi),
                               rtol=1e-12)


def test_projections_and_heads_match_torch_per_head():
    rng = np.random.default_rng(3)
    heads, d_in, d_k, d_v = 4, 10, 3, 5
    R, Y = rng.normal(size=(6, d_in)), rng.normal(size=(8, d_in))
    W_Q, W_K = rng.normal(size=(d_in, heads * d_k)), rng.normal(size=(d_in, heads * d_k))
    W_V = rng.normal(size=(d_in, heads * d_v))
    out, weights = hopfield_attention(R, Y, Y, W_Q=W_Q, W_K=W_K, W_V=W_V, heads=heads,
                                      return_weights=True)
    # torch reference: (h, n, w) per head, then concatenate heads along features
    q = torch.tensor(R @ W_Q).view(6, heads, d_k).transpose(0, 1)
    k = torch.tensor(Y @ W_K).view(8, heads, d_k).transpose(0, 1)
    v = torch.tensor(Y @ W_V).view(8, heads, d_v).transpose(0, 1)
    ref = F.scaled_dot_product_attention(q, k, v).transpose(0, 1).reshape(6, heads * d_v)
    np.testing.assert_allclose(out, ref.numpy(), rtol=1e-10, atol=1e-12)
    assert weights.shape == (heads, 6, 8)
    np.testing.assert_allclose(weights.sum(-1), 1.0)


def test_self_attention_with_identity_projections_is_plain_attention():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(5, 6))
    I = np.eye(6)
    np.testing.assert_allclose(hopfield_attention(X, X, X, W_Q=I, W_K=I, W_V=I),
                               hopfield_attention(X, X, X))


def test_float32_matches_torch_float32():
    rng = np.random.default_rng(5)
    Q, K, V = (rng.normal(size=s).astype(np.float32) for s in ((64, 32), (256, 32), (256, 32)))
    out = hopfield_attention(Q, K, V)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, sdpa(Q, K, V), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kwargs, message", [
    (dict(Q=np.ones((2, 3)), K=np.ones((4, 5)), V=np.ones((4, 2))), "same size"),
    (dict(Q=np.ones((2, 3)), K=np.ones((4, 3)), V=np.ones((5, 2))), "as many"),
    (dict(Q=np.ones((2, 6)), K=np.ones((4, 6)), V=np.ones((4, 6)), heads=4), "heads"),
])
def test_mismatched_shapes_are_explained(kwargs, message):
    with pytest.raises(ValueError, match=message):
        hopfield_attention(**kwargs)
