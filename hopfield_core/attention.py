"""The Transformer limit: attention is one step of the modern Hopfield network.

# n_q queries, n_k keys/values, d_k key size, d_v value size, h heads, ... any leading batch dims
# Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v)

attention(Q, K, V) = softmax(beta Q K^T) V,   beta = 1/sqrt(d_k) by default.
With Q = Xi (states), K = V = X (stored patterns) it is ModernHopfield.step(Xi).
With projections W_Q, W_K, W_V (d_in, h * d_k) the inputs become R W_Q, Y W_K, Y W_V
split into h heads: self-attention when R = Y, cross-attention otherwise.
"""
from __future__ import annotations

import math

import numpy as np

from .numerics import softmax


def _split_heads(A: np.ndarray, heads: int) -> np.ndarray:
    *lead, n, width = A.shape
    if width % heads:
        raise ValueError(f"a width of {width} cannot be split into {heads} equal heads")
    A = A.reshape(*lead, n, heads, width // heads)  # (..., n, h, w/h)
    return np.moveaxis(A, -2, -3)  # (..., h, n, w/h)


def _merge_heads(A: np.ndarray) -> np.ndarray:
    A = np.moveaxis(A, -3, -2)  # (..., n, h, w)
    return A.reshape(*A.shape[:-2], A.shape[-2] * A.shape[-1])


def hopfield_attention(Q, K, V, beta: float | None = None, *, W_Q=None, W_K=None, W_V=None,
                       heads: int = 1, return_weights: bool = False):
    """softmax(beta Q K^T) V, optionally after projections and split into heads.

    Returns the output (..., n_q, d_v) (heads concatenated), and with
    return_weights=True also the attention weights (..., h, n_q, n_k)
    (without heads: (..., n_q, n_k)).
    """
    Q, K, V = (np.asarray(a) for a in (Q, K, V))
    if heads < 1 or int(heads) != heads:
        raise ValueError(f"heads must be a whole number >= 1, got {heads}")
    if W_Q is not None:
        Q = Q @ np.asarray(W_Q)  # (..., n_q, h d_k)
    if W_K is not None:
        K = K @ np.asarray(W_K)  # (..., n_k, h d_k)
    if W_V is not None:
        V = V @ np.asarray(W_V)  # (..., n_k, h d_v)
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"queries and keys need the same size, got {Q.shape[-1]} and {K.shape[-1]}")
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(f"keys and values must be as many, got {K.shape[-2]} and {V.shape[-2]}")
    multi = heads > 1
    if multi:
        Q, K, V = (_split_heads(a, heads) for a in (Q, K, V))  # (..., h, n, w)
    if beta is None:
        beta = 1.0 / math.sqrt(Q.shape[-1])
    weights = softmax(beta * (Q @ np.swapaxes(K, -1, -2)))  # (..., [h,] n_q, n_k)
    out = weights @ V  # (..., [h,] n_q, d_v)
    if multi:
        out = _merge_heads(out)
    return (out, weights) if return_weights else out
