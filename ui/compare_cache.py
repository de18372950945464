"""Caching for the side-by-side and attention pages: shared results, projection matrices,
and the PyTorch cross-check.

torch is imported inside `torch_attention` only, so the app starts without paying for it
(the first attention page of a process waits a few seconds for it, once).
# n_q queries, N keys (stored patterns), d neurons, h heads, d_k / d_v sizes per head
"""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core import compare

@st.cache_resource(max_entries=3, show_spinner=False)
def projections(d_in: int, d_k: int, heads: int, seed: int, tied: bool) -> compare.Projections:
    """Shared read-only (never mutated): up to 3 x d x 4 d_k floats, too big to copy per rerun
    (and to keep many of)."""
    return compare.random_projections(d_in, d_k, heads=heads, seed=seed, tied=tied)


def torch_attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, beta: float, heads: int = 1,
                    proj: compare.Projections | None = None) -> np.ndarray:
    """The same attention computed by torch.nn.functional.scaled_dot_product_attention.

    Projections and the split into heads are done in torch too, the nanoGPT way, so that
    nothing but the inputs is shared with hopfield_attention. Returns (n_q, h d_v).
    """
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


def torch_gap(beta: float, heads: int, ours: np.ndarray, Q: np.ndarray, K: np.ndarray,
              V: np.ndarray, proj: compare.Projections | None = None) -> float:
    """max |ours - torch SDPA(Q, K, V)|, `ours` being the page's hopfield_attention output
    (n_q, h d_v) for these inputs. Not cached itself: call it inside a `shared` builder,
    whose key names the inputs."""
    return float(np.max(np.abs(ours - torch_attention(Q, K, V, beta, heads, proj))))
