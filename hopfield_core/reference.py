"""PyTorch's answers to two of the core's computations, shown by the pages beside the core's
own: attention by torch.nn.functional.scaled_dot_product_attention, and the gradient and
Hessian of the log-normalizer A(q) = lse(beta K q) / beta by autograd. Each shares nothing
with the NumPy code it checks but the inputs.

torch is imported inside each function only: importing this module costs nothing, so the app
starts without torch (the first page that asks waits for it once), and the rest of the core
stays NumPy (tests/core/test_layers.py allows torch here inside functions only).

# n_q queries, N keys (stored patterns), d features, h heads, d_k / d_v sizes per head
# Q (n_q, d), K (N, d), V (N, d), q (d,) one query
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .compare import Projections


# ------------------------------------------------------------------ attention

def sdpa(Q: np.ndarray, K: np.ndarray, V: np.ndarray, beta: float, heads: int = 1,
         proj: Projections | None = None) -> np.ndarray:
    """softmax(beta Q K^T) V by torch's scaled_dot_product_attention, float64, (n_q, h d_v).

    The projections and the split into heads are done in torch too, the nanoGPT way, so
    that nothing but the inputs is shared with hopfield_attention."""
    import torch
    import torch.nn.functional as F

    q, k, v = (torch.tensor(np.asarray(a, dtype=np.float64)) for a in (Q, K, V))
    if proj is not None:
        q = q @ torch.tensor(proj.W_Q)  # (n_q, h d_k)
        k = k @ torch.tensor(proj.W_K)  # (N, h d_k)
        v = v @ torch.tensor(proj.W_V)  # (N, h d_v)
    n_q, N = q.shape[0], k.shape[0]
    q = q.view(n_q, heads, -1).transpose(0, 1)  # (h, n_q, d_k)
    k = k.view(N, heads, -1).transpose(0, 1)    # (h, N, d_k)
    v = v.view(N, heads, -1).transpose(0, 1)    # (h, N, d_v)
    out = F.scaled_dot_product_attention(q, k, v, scale=beta)  # (h, n_q, d_v)
    return out.transpose(0, 1).reshape(n_q, -1).numpy()  # (n_q, h d_v)


def sdpa_gap(ours: np.ndarray, Q: np.ndarray, K: np.ndarray, V: np.ndarray, beta: float,
             heads: int = 1, proj: Projections | None = None) -> float:
    """max |ours - sdpa(Q, K, V)|: `ours` is hopfield_attention's output (n_q, h d_v) for
    the same inputs."""
    return float(np.max(np.abs(ours - sdpa(Q, K, V, beta, heads, proj))))


# ------------------------------------------------------------------ the log-normalizer

def _log_normalizer(K, beta: float):
    import torch

    return lambda q: torch.logsumexp(beta * (K @ q), dim=0) / beta


def log_normalizer_grad(K: np.ndarray, q: np.ndarray, beta: float) -> np.ndarray:
    """d A / d q (d,) by autograd, float64."""
    import torch

    qt = torch.tensor(q, dtype=torch.float64, requires_grad=True)
    _log_normalizer(torch.tensor(K, dtype=torch.float64), beta)(qt).backward()
    return qt.grad.numpy()


def log_normalizer_hessian(K: np.ndarray, q: np.ndarray, beta: float) -> np.ndarray:
    """d^2 A / d q^2 (d, d) by autograd, float64 (d backward passes: keep d small)."""
    import torch

    f = _log_normalizer(torch.tensor(K, dtype=torch.float64), beta)
    return torch.autograd.functional.hessian(f, torch.tensor(q, dtype=torch.float64)).numpy()


def log_normalizer_bytes(N: int, d: int, hessian: bool) -> int:
    """Peak bytes of log_normalizer_grad (and log_normalizer_hessian when asked) for N keys of
    d features: the float64 copy of K, a few d-vectors of the backward pass, and the d x d
    Hessian, built row by row and stacked (three of its size)."""
    return 8 * (N * d + 8 * d + (3 * d * d if hessian else 0)) + 2 ** 12
