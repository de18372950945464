"""Why the ET's energy must fall: the layer-norm Lagrangian and the metric it defines.

The tokens x move by dx/dt = -s, s = EnergyTransformer.step(x, dE/dg, mask), but the energy is
a function of g = dL/dx, so
    dE/dt = (dE/dg)^T (dg/dx) (dx/dt) = -(dE/dg)^T M s,   M = d^2 L / dx^2,
and M is positive semidefinite (for gamma > 0). In the paper s = dE/dg, so
dE/dt = -(dE/dg)^T M (dE/dg) <= 0. Per token (D features), with sigma = sqrt(var x + eps) and
u = (x - mean x) / sigma,
    L(x) = D gamma sigma + delta . x,
    M    = (gamma / sigma) (I - 1 1^T / D - u u^T / D),
whose eigenvalues are 0 (along 1 1...1: layer norm ignores a shift of all features),
(gamma / sigma) eps / (var + eps) (along u: nearly ignores a change of scale) and
gamma / sigma (D - 2 times). M is block-diagonal over tokens: one D x D block each.

With cfg.project, s = P dE/dg, P removing the parts along 1 and along u. s is orthogonal to
both, so M s = (gamma / sigma) s exactly and
    dE/dt = -(dE/dg)^T M s = -sum_tokens (gamma / sigma) |s|^2     (exact, never positive).
That is not -(dE/dg)^T M (dE/dg): M scales the part of dE/dg along u by
(gamma / sigma) eps / (var + eps), small but not 0, and that quadratic form adds
(gamma / sigma) eps / (var + eps) (u_hat . dE/dg)^2 per token, u_hat = u / |u|. With the shipped
weights, as the tokens settle s shrinks while dE/dg comes to point almost wholly along
x - mean x (the energy would rescale the tokens, which the layer norm nearly ignores), so the
added part is not negligible: at step 8 on the page's default image (coffee, half its patches
hidden at random) it is about 4 % of -(dE/dg)^T M (dE/dg) over the hidden tokens for the
paper-start model and about 97 % for the harmonic-start one (tests/core/test_et_descent.py).
With cfg.clamp_visible, s is zero on the visible tokens.

# N tokens, D features
"""
from __future__ import annotations

import torch

from .model import EnergyTransformer

# The energies are float32 sums of about 1e4 terms: near a fixed point consecutive ones differ
# by a few ulp either way, so a rise below ROUNDING |E| is rounding, not the dynamics.
ROUNDING = 1e-6


def lagrangian(model: EnergyTransformer, x: torch.Tensor) -> torch.Tensor:
    """L(x) per token, (..., N): its gradient is the energy layer norm g."""
    D = x.shape[-1]
    xc = x - x.mean(dim=-1, keepdim=True)
    sigma = torch.sqrt((xc * xc).mean(dim=-1) + model.cfg.eps)
    return D * model.ln_gamma * sigma + x @ model.ln_delta


def metric(model: EnergyTransformer, x: torch.Tensor) -> torch.Tensor:
    """M for each token by autograd: the Jacobian of the layer norm g = dL/dx, which is the
    Hessian of L (a test checks both, and the docstring's closed form). (N, D) -> (N, D, D)

    One backward pass: the layer norm acts on each token alone, so D copies of x, copy i
    pulled back along feature i of g, give row i of every token's Jacobian. (torch.func's
    vmap over jacrev gives the same, but its first call imports torch._dynamo: 0.7 s and
    70 MB in every server process.)"""
    N, D = x.shape
    copies = x.detach()[None].expand(D, N, D).clone().requires_grad_(True)
    g = model.layer_norm(copies)  # (D, N, D)
    rows = torch.eye(D, dtype=x.dtype, device=x.device)[:, None, :].expand(D, N, D)
    (jac,) = torch.autograd.grad(g, copies, grad_outputs=rows)  # jac[i, n] = row i of M_n
    return jac.transpose(0, 1)  # (N, D, D): M_n[i, j] = d g_n[i] / d x_n[j]


def metric_from_lagrangian(model: EnergyTransformer, x: torch.Tensor) -> torch.Tensor:
    """M = d^2 L / dx^2 by autograd's Hessian of L itself (slower): (N, D) -> (N, D, D)."""
    def one(token):  # (D,) -> scalar
        return lagrangian(model, token[None])[0]

    return torch.func.vmap(torch.func.hessian(one))(x)


def energy_rate(model: EnergyTransformer, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    """dE/dt = -(dE/dg)^T M s, summed over the tokens, for x (B, N, D): (B,). The energy's
    rate of change under the continuous dynamics dx/dt = -s, s = model.step(x, dE/dg, mask)."""
    grad = model.energy_grad(model.layer_norm(x))
    return -(grad * model.metric_times(x, model.step(x, grad, mask))).sum(dim=(-1, -2))


def spectrum(model: EnergyTransformer, x: torch.Tensor) -> dict:
    """The eigenvalues of M (by autograd, `metric`) over all tokens of x (N, D): the smallest,
    the smallest once the zero mode of each token is set aside, and the largest. M is
    block-diagonal, one block a token, so TOKENS_AT_ONCE tokens are taken at a time: the same
    eigenvalues, a quarter of the memory of all 64 at once (spectrum_bytes)."""
    device = model.ln_gamma.device
    dtype = torch.float32 if device.type == "mps" else torch.float64  # MPS has no float64
    x = torch.as_tensor(x).detach().to(device, dtype)
    parts = []
    for start in range(0, x.shape[0], TOKENS_AT_ONCE):
        with torch.enable_grad():
            M = metric(model, x[start:start + TOKENS_AT_ONCE])
        parts.append(torch.linalg.eigvalsh(M.detach().cpu().double()))  # ascending per token
        del M
    eig = torch.cat(parts)  # (N, D)
    return {"smallest": float(eig[:, 0].min()), "second": float(eig[:, 1].min()),
            "largest": float(eig[:, -1].max()), "tokens": int(x.shape[0]), "dim": int(x.shape[1])}


TOKENS_AT_ONCE = 16  # tokens whose D x D blocks of M are formed together


def spectrum_bytes(N: int, D: int) -> int:
    """Peak bytes of `spectrum` for N tokens of D features: for TOKENS_AT_ONCE tokens, the D
    copies of them with the layer norm's saved intermediates and gradients (about eight arrays
    of D x n x D float64, as many as the process's memory grows by), and the eigenvalues."""
    n = min(N, TOKENS_AT_ONCE)
    return 8 * 8 * D * n * D + 2 * 8 * N * D + 2 ** 16
