"""What a trained ET has learned and what it does with an image: its Hopfield memories decoded as
patches, how much the image uses each, the attention of one patch over the others at each step,
and PSNR.

# T steps, N tokens (patches), D features, H heads, K memories, p patch size

Memory use. E_HN = -1/2 sum_B sum_mu relu(xi_mu . g_B)^2 is a sum over the memories, so memory
mu's part of it on the tokens of one step is
    u_mu = 1/2 sum_B relu(xi_mu . g_B)^2 >= 0,    sum_mu u_mu = -E_HN,
and u_mu / (-E_HN) is its share: how much of the Hopfield energy's pull that memory exerts.

Attention. E_ATT = -(1/beta) sum_h sum_C log sum_B exp(beta K_hB . Q_hC): for each head h and each
query token C the keys B are weighed by softmax_B(beta K_hB . Q_hC), the same weights that make
dE/dg (model.energy_and_grad). attention() returns them for one query C at each step.

A memory as a patch: a memory xi lives where the layer-normed tokens g live, so it is drawn as
if it were a token: decoded by the model's own decoder. A model whose picture is the decoded
change of its tokens (cfg.readout "change") never trained its decoder's offset, so for it a
memory is drawn as 0.5 + (decode(xi) - decode(-xi)) / 2, the part of the decoding that flips
with the memory's sign (the offset cancels): mid-grey plus the colours it pulls towards.
"""
from __future__ import annotations

import math

import numpy as np
import torch

from .model import EnergyTransformer


def _g(model: EnergyTransformer, tokens) -> torch.Tensor:
    """The layer-normed tokens g of each step, (T+1, N, D) as float32 on the model's device."""
    x = torch.as_tensor(np.asarray(tokens, dtype=np.float32), device=model.memories.device)
    return model.layer_norm(x)


@torch.no_grad()
def memory_use(model: EnergyTransformer, tokens, hidden=None) -> np.ndarray:
    """u[t, mu] = 1/2 sum_B relu(xi_mu . g_B)^2 on the tokens of each step, (T+1, K); its sum over
    mu is -E_HN of that step. hidden ((N,) bool): sum over those tokens only."""
    s = torch.relu(_g(model, tokens) @ model.memories.T)  # (T+1, N, K)
    u = 0.5 * s * s
    if hidden is not None:
        u = u[:, torch.as_tensor(np.asarray(hidden, dtype=bool).ravel(), device=u.device)]
    return u.sum(dim=1).double().cpu().numpy()


@torch.no_grad()
def attention(model: EnergyTransformer, tokens, query: int) -> np.ndarray:
    """a[t, h, B] = softmax_B(beta K_hB . Q_hC) for the query token C = `query` on the tokens of
    each step, (T+1, H, N); a[t, h, C] is 0 when the model leaves a token's own key out."""
    n = np.shape(tokens)[-2]
    if not 0 <= query < n:
        raise ValueError(f"query must be a patch index between 0 and {n - 1}, got {query}")
    _, _, A = model._scores(_g(model, tokens))  # (T+1, H, N_B, N_C)
    return torch.softmax(model.beta * A[..., query], dim=-1).double().cpu().numpy()


@torch.no_grad()
def drawn(model: EnergyTransformer, vectors) -> np.ndarray:
    """Vectors of the token space (k, D) drawn as patches by the model's decoder, as the memories
    are: (k, p, p, 3) in [0, 1]. The decoder layer-normalises first, so any vector comes out at
    the same scale: a memory, a random direction or a token of the image."""
    cfg = model.cfg
    xi = torch.as_tensor(np.asarray(vectors), dtype=model.memories.dtype,
                         device=model.memories.device)
    if cfg.readout == "change":
        flat = 0.5 + (model.decoder(xi) - model.decoder(-xi)) / 2  # (k, P)
    else:
        flat = model.decode(xi)
    p = cfg.patch_size
    return flat.clamp(0, 1).reshape(-1, p, p, cfg.channels).double().cpu().numpy()


def memory_patches(model: EnergyTransformer, which=None) -> np.ndarray:
    """The memories `which` (indices; all K by default) drawn as patches, (k, p, p, 3) in [0, 1]."""
    xi = model.memories if which is None else model.memories[torch.as_tensor(np.asarray(which, dtype=np.int64))]
    return drawn(model, xi.detach().cpu().numpy())


def random_directions(model: EnergyTransformer, k: int, seed: int = 0) -> np.ndarray:
    """k random directions of the token space (k, D), Gaussian: the yardstick a drawn memory is
    compared with (drawn the same way, a direction of no meaning looks like this)."""
    return np.random.default_rng(seed).standard_normal((k, model.cfg.dim))


def top_memories(use: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(indices, shares) of the k most used memories of one step, most used first; shares are
    fractions of the whole use (-E_HN), 0 when nothing is used. use: (K,)."""
    use = np.asarray(use, dtype=np.float64)
    order = np.argsort(-use, kind="stable")[:k]
    total = float(use.sum())
    return order, (use[order] / total if total > 0 else np.zeros(len(order)))


def psnr(mse: float, peak: float = 1.0) -> float:
    """Peak signal-to-noise ratio in dB, 10 log10(peak^2 / MSE): infinite for a perfect answer."""
    if mse < 0:
        raise ValueError(f"a mean squared error cannot be negative, got {mse}")
    return math.inf if mse == 0 else 10.0 * math.log10(peak * peak / mse)


def montage(patches: np.ndarray, columns: int, gap: int = 1, background: float = 1.0) -> np.ndarray:
    """Patches (k, p, p, C) laid out in rows of `columns`, `gap` pixels of `background` between
    them: (rows (p + gap) - gap, columns (p + gap) - gap, C)."""
    k, p, _, c = patches.shape
    rows = max(1, math.ceil(k / columns))
    out = np.full((rows * (p + gap) - gap, columns * (p + gap) - gap, c), background)
    for i in range(k):
        r, q = divmod(i, columns)
        out[r * (p + gap):r * (p + gap) + p, q * (p + gap):q * (p + gap) + p] = patches[i]
    return out


def inspect_bytes(cfg, steps: int) -> int:
    """Peak bytes of memory_use or attention on a run of `steps` steps: the layer-normed tokens
    (T+1, N, D) and their memory scores (T+1, N, K, three copies) or attention scores
    (T+1, H, N, N, two copies), float32, the larger of the two."""
    T1, N = steps + 1, cfg.n_patches
    use = 4 * T1 * N * (2 * cfg.dim + 3 * cfg.memories)
    att = 4 * T1 * (2 * N * cfg.dim + 2 * cfg.heads * N * N + 2 * cfg.heads * cfg.head_dim * N)
    return max(use, att) + 2 ** 16


def roughness(patches: np.ndarray) -> float:
    """The mean absolute difference between neighbouring pixels (across and down) inside each
    patch, over all channels: (k, p, p, C) -> a number in [0, 1] for values in [0, 1]."""
    x = np.asarray(patches, dtype=np.float64)
    across = np.abs(np.diff(x, axis=2))
    down = np.abs(np.diff(x, axis=1))
    return float((across.sum() + down.sum()) / (across.size + down.size))
