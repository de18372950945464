"""The Energy Transformer (Hoover et al., NeurIPS 2023): one recurrent block that descends a
global energy of the set of tokens.

# B batch of images, N tokens (patches), D features, H heads, Y head size, K memories,
# P = p * p * 3 values in a patch, T steps

g = gamma (x - mean x) / sqrt(var x + eps) + delta          energy layer norm, = grad L(x)
E_ATT(g) = -(1/beta) sum_h sum_C log sum_{B != C} exp(beta K_hB . Q_hC),   beta = 1/sqrt(Y)
           K_hB = W_K^h g_B, Q_hC = W_Q^h g_C; with cfg.energy_positions W_K^h (g_B + p_B) and
           W_Q^h (g_C + p_C), p a learned table per position that is not part of the moving state
E_HN(g)  = -1/2 sum_B sum_mu relu(xi_mu . g_B)^2
x <- x - alpha s: the paper's s = dE/dg, or (cfg.project, cfg.clamp_visible) dE/dg less the
parts the layer norm ignores, on the hidden tokens only (`step`, below)
(dE/dg in closed form below; a test checks it against autograd)
"""
from __future__ import annotations

import math

import torch
from torch import nn

from .config import ETConfig
from .fill import harmonic_fill


def sincos_2d(grid: int, dim: int) -> torch.Tensor:
    """2-D sinusoidal position code (N, D): half the features for rows, half for columns."""
    quarter = dim // 4
    freqs = 1.0 / (100.0 ** (torch.arange(quarter) / max(quarter - 1, 1)))  # (D/4,)
    ys, xs = torch.meshgrid(torch.arange(grid), torch.arange(grid), indexing="ij")
    parts = []
    for coord in (ys.flatten(), xs.flatten()):
        angles = coord[:, None].float() * freqs[None, :] * math.pi / 2  # (N, D/4)
        parts += [torch.sin(angles), torch.cos(angles)]
    code = torch.cat(parts, dim=1)  # (N, 4 * D/4)
    if code.shape[1] < dim:
        code = torch.cat([code, torch.zeros(code.shape[0], dim - code.shape[1])], dim=1)
    return code


class EnergyTransformer(nn.Module):
    def __init__(self, cfg: ETConfig):
        super().__init__()
        self.cfg = cfg
        D, H, Y, K, P, N = cfg.dim, cfg.heads, cfg.head_dim, cfg.memories, cfg.patch_dim, cfg.n_patches
        self.encoder = nn.Linear(P, D)
        self.pos = nn.Parameter(sincos_2d(cfg.grid, D) * 0.5)  # (N, D)
        self.mask_token = nn.Parameter(torch.randn(D) * 0.02)  # (D,)
        self.ln_gamma = nn.Parameter(torch.ones(()))  # scalar gamma of the energy layer norm
        self.ln_delta = nn.Parameter(torch.zeros(D))  # (D,)
        self.Wk = nn.Parameter(torch.randn(H, Y, D) / math.sqrt(D))
        self.Wq = nn.Parameter(torch.randn(H, Y, D) / math.sqrt(D))
        self.memories = nn.Parameter(torch.randn(K, D) / math.sqrt(D))  # xi (K, D)
        self.decoder = nn.Sequential(nn.LayerNorm(D), nn.Linear(D, P))
        self.beta = 1.0 / math.sqrt(Y)
        # where each token sits, seen by the attention energy whatever the token has become
        self.pos_energy = nn.Parameter(sincos_2d(cfg.grid, D)) if cfg.energy_positions else None
        self.register_buffer("_self_mask", torch.eye(N, dtype=torch.bool), persistent=False)

    # ------------------------------------------------------------ energy

    def layer_norm(self, x: torch.Tensor) -> torch.Tensor:
        """g = grad of L(x) = D gamma sqrt(var x + eps) + delta . x, per token. (B, N, D)"""
        xc = x - x.mean(dim=-1, keepdim=True)
        var = (xc * xc).mean(dim=-1, keepdim=True)
        return self.ln_gamma * xc / torch.sqrt(var + self.cfg.eps) + self.ln_delta

    def _scores(self, g: torch.Tensor):
        if self.pos_energy is not None:  # a constant offset: dK/dg and dQ/dg stay W_K, W_Q
            g = g + self.pos_energy
        Kt = torch.einsum("hyd,bnd->bhny", self.Wk, g)  # (B, H, N, Y) keys
        Qt = torch.einsum("hyd,bnd->bhny", self.Wq, g)  # (B, H, N, Y) queries
        A = Kt @ Qt.transpose(-1, -2)  # (B, H, N_B, N_C): A[b, h, B, C] = K_B . Q_C
        if not self.cfg.attend_to_self:
            A = A.masked_fill(self._self_mask, float("-inf"))
        return Kt, Qt, A

    def energy_parts(self, g: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(E_ATT, E_HN), each (B,)."""
        _, _, A = self._scores(g)
        e_att = -torch.logsumexp(self.beta * A, dim=-2).sum(dim=(-1, -2)) / self.beta  # (B,)
        s = torch.relu(g @ self.memories.T)  # (B, N, K)
        e_hn = -0.5 * (s * s).sum(dim=(-1, -2))  # (B,)
        return e_att, e_hn

    def metric_times(self, x: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        """M v per token, M = d^2 L / dx^2 = dg/dx (the layer norm's Jacobian), without forming
        M: (gamma / sigma) (v - mean v - u (u . v) / D), u = (x - mean x) / sigma. (..., N, D)"""
        D = x.shape[-1]
        xc = x - x.mean(dim=-1, keepdim=True)
        sigma = torch.sqrt((xc * xc).mean(dim=-1, keepdim=True) + self.cfg.eps)
        u = xc / sigma
        inner = v - v.mean(dim=-1, keepdim=True) - u * (u * v).sum(dim=-1, keepdim=True) / D
        return self.ln_gamma / sigma * inner

    def step(self, x: torch.Tensor, grad: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        """The direction x moves in, per token (..., N, D).
        cfg.project: dE/dg less its parts along (1, ..., 1) and along x - mean x, which the layer
        norm ignores (M maps the first to 0) and nearly ignores (M scales the second by
        (gamma / sigma) eps / (var + eps)). The step is orthogonal to both, so M step =
        (gamma / sigma) step and the energy falls at exactly dE/dt = -(dE/dg)^T M step =
        -(gamma / sigma) |step|^2 per token: not at -(dE/dg)^T M (dE/dg), which also counts the
        part along x - mean x, most of dE/dg once the shipped models settle (descent.py). And x
        no longer grows along itself, which in the paper's update makes sigma grow about
        linearly and slows g by 1 / sigma, so that g is still creeping long after T.
        cfg.clamp_visible and a mask (..., N), True = hidden: only hidden tokens move, so the
        energy is minimised over the hidden tokens given the visible ones."""
        v = grad
        if self.cfg.project:
            xc = x - x.mean(dim=-1, keepdim=True)
            u = xc / xc.norm(dim=-1, keepdim=True).clamp_min(1e-12)  # unit vector along x - mean x
            v = v - v.mean(dim=-1, keepdim=True)
            v = v - u * (u * v).sum(dim=-1, keepdim=True)
        if self.cfg.clamp_visible and mask is not None:
            v = v * mask[..., None].to(v.dtype)
        return v

    def energy(self, g: torch.Tensor) -> torch.Tensor:
        e_att, e_hn = self.energy_parts(g)
        return e_att + e_hn

    def energy_grad(self, g: torch.Tensor) -> torch.Tensor:
        """dE/dg in closed form, (B, N, D)."""
        return self.energy_and_grad(g)[2]

    def energy_and_grad(self, g: torch.Tensor):
        """(E_ATT (B,), E_HN (B,), dE/dg (B, N, D)) sharing one pass over the scores."""
        Kt, Qt, A = self._scores(g)
        lse = torch.logsumexp(self.beta * A, dim=-2, keepdim=True)  # (B, H, 1, N_C)
        Pm = torch.exp(self.beta * A - lse)  # (B, H, N_B, N_C), softmax over keys B
        e_att = -lse.sum(dim=(-1, -2, -3)) / self.beta  # (B,)
        dK = -(Pm @ Qt)  # (B, H, N, Y): dE/dK_B = -sum_C P[B, C] Q_C
        dQ = -(Pm.transpose(-1, -2) @ Kt)  # (B, H, N, Y): dE/dQ_C = -sum_B P[B, C] K_B
        d_att = torch.einsum("bhny,hyd->bnd", dK, self.Wk) + torch.einsum("bhny,hyd->bnd", dQ, self.Wq)
        s = torch.relu(g @ self.memories.T)  # (B, N, K)
        e_hn = -0.5 * (s * s).sum(dim=(-1, -2))  # (B,)
        d_hn = -s @ self.memories  # (B, N, D)
        return e_att, e_hn, d_att + d_hn

    # ------------------------------------------------------------ dynamics

    def tokens(self, patches: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Patches (B, N, P) in [0, 1] and mask (B, N) True = hidden -> tokens x (B, N, D)."""
        return self.start(patches, mask)[0]

    def start(self, patches: torch.Tensor, mask: torch.Tensor):
        """(x_0 (B, N, D), the starting picture's patches (B, N, P) or None). Hidden patches
        start as the mask token (the paper), or with cfg.start == "harmonic" as their harmonic
        fill from the visible pixels (`fill.py`), encoded, plus the mask token."""
        if self.cfg.start == "harmonic":
            p, grid = self.cfg.patch_size, self.cfg.grid
            images = unpatchify(patches, p, grid, self.cfg.channels)
            base = torch.where(mask[..., None], patchify(harmonic_fill(images, mask, p), p), patches)
            x = self.encoder(base - 0.5) + mask[..., None].to(patches.dtype) * self.mask_token
            return x + self.pos, base
        x = self.encoder(patches - 0.5)  # (B, N, D)
        x = torch.where(mask[..., None], self.mask_token.expand_as(x), x)
        return x + self.pos, None

    def read(self, x: torch.Tensor, x0: torch.Tensor, base: torch.Tensor | None) -> torch.Tensor:
        """The patches (..., N, P) the tokens x stand for: decode(x), or with cfg.readout ==
        "change" the starting picture plus the decoded change of the tokens since x_0, so that
        step 0 shows exactly the start and each step adds what the descent changed."""
        if self.cfg.readout == "change":
            return base + self.decoder(x) - self.decoder(x0)
        return self.decode(x)

    def evolve(self, x: torch.Tensor, steps: int | None = None, record: bool = False,
               with_rates: bool = False, mask: torch.Tensor | None = None):
        """T steps of x <- x - alpha s, s = step(x, dE/dg, mask). Returns x_T and, with record,
        every x_t and the energies (T+1, B) split into attention and Hopfield parts; with_rates
        adds dE/dt = -(dE/dg)^T M s at each x_t (T+1, B) from the gradients the steps use."""
        T = self.cfg.steps if steps is None else steps
        xs, e_att, e_hn, rates = [x], [], [], []
        for _ in range(T):
            ea, eh, grad = self.energy_and_grad(self.layer_norm(x))
            step = self.step(x, grad, mask)
            if with_rates:
                rates.append(-(grad * self.metric_times(x, step)).sum(dim=(-1, -2)))
            x = x - self.cfg.alpha * step
            xs.append(x)
            e_att.append(ea)
            e_hn.append(eh)
        if not record:
            return x
        if with_rates:
            ea, eh, grad = self.energy_and_grad(self.layer_norm(x))
            rates.append(-(grad * self.metric_times(x, self.step(x, grad, mask))).sum(dim=(-1, -2)))
            return x, xs, torch.stack(e_att + [ea]), torch.stack(e_hn + [eh]), torch.stack(rates)
        ea, eh = self.energy_parts(self.layer_norm(x))
        return x, xs, torch.stack(e_att + [ea]), torch.stack(e_hn + [eh])  # (T+1, B) each

    def decode(self, x: torch.Tensor) -> torch.Tensor:
        """Tokens (B, N, D) -> patches (B, N, P)."""
        return self.decoder(x) + 0.5

    def forward(self, patches: torch.Tensor, mask: torch.Tensor, record: bool = False):
        """Predicted patches (B, N, P); with record also E_ATT and E_HN per step (T+1, B)."""
        x0, base = self.start(patches, mask)
        if not record:
            return self.read(self.evolve(x0, mask=mask), x0, base)
        x, _, e_att, e_hn = self.evolve(x0, record=True, mask=mask)
        return self.read(x, x0, base), e_att, e_hn


# ---------------------------------------------------------------- patches

def patchify(images: torch.Tensor, p: int) -> torch.Tensor:
    """(B, H, W, C) -> (B, N, p*p*C), patches in row-major order."""
    B, H, W, C = images.shape
    x = images.reshape(B, H // p, p, W // p, p, C).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(B, (H // p) * (W // p), p * p * C)


def unpatchify(patches: torch.Tensor, p: int, grid: int, C: int = 3) -> torch.Tensor:
    """(B, N, p*p*C) -> (B, H, W, C)."""
    B = patches.shape[0]
    x = patches.reshape(B, grid, grid, p, p, C).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(B, grid * p, grid * p, C)
