"""What training minimises: the forward pass that follows the dynamics (the T steps, and the
fixed-point horizon beyond them) and the loss built from it.

# B images, N patches of P values, mask (B, N) True = hidden, T steps
"""
from __future__ import annotations

import torch

from .config import ETConfig
from .model import EnergyTransformer

FAR_GRAD_STEPS = 2


class FixedPointObjective(torch.nn.Module):
    """One forward pass for training: the T steps with their energies, the last step's relative
    move of g (the settle penalty), and (far > 0) the prediction for the first `far_batch`
    images `far` steps further on, reached without gradient and then FAR_GRAD_STEPS steps with
    it, so that the weights learn to keep the completion where the dynamics settle; the energies
    of those last steps come back too, so that their rises can be penalised. With path, the
    prediction after every step 1..T comes back as well (T, B, N, P), else None."""

    def __init__(self, model: EnergyTransformer):
        super().__init__()
        self.model = model

    def forward(self, patches: torch.Tensor, mask: torch.Tensor, far: int = 0, far_batch: int = 0,
                steps: int | None = None, path: bool = False):
        m = self.model
        x0, base = m.start(patches, mask)
        x, xs, e_att, e_hn = m.evolve(x0, steps=steps, record=True, mask=mask)
        g_last, g_before = m.layer_norm(x), m.layer_norm(xs[-2])
        settle = ((g_last - g_before) ** 2).sum(dim=(1, 2)) / (g_last ** 2).sum(dim=(1, 2))  # (B,)
        far_pred = None
        if far > 0:
            with torch.no_grad():
                y = m.evolve(x[:far_batch].detach(), steps=far, mask=mask[:far_batch])
            y, _, fa, fh = m.evolve(y, steps=FAR_GRAD_STEPS, record=True, mask=mask[:far_batch])
            n = far_batch
            far_pred, far_energy = m.read(y, x0[:n], None if base is None else base[:n]), fa + fh  # far_energy (FAR_GRAD_STEPS+1, far_batch)
        else:
            far_energy = None
        along = m.read(torch.stack(xs[1:]), x0, base) if path else None
        return m.read(x, x0, base), e_att, e_hn, far_pred, settle.mean(), far_energy, along


def batch_loss(args, cfg: ETConfig, net: torch.nn.Module, P, mask, far: int, steps: int | None):
    """(total, loss, rise, settle): the hidden patches' MSE at T (loss), plus the weighted
    penalties on energy rises and on the last step's move, and the path and fixed-point losses
    when they are on."""
    pred, e_att, e_hn, far_pred, settle, far_energy, along = net(
        P, mask, far=far, far_batch=args.far_batch, steps=steps, path=bool(args.path_weight))
    err = ((pred - P) ** 2).mean(dim=-1)  # (B, N)
    loss = (err * mask).sum() / mask.sum()
    E = e_att + e_hn  # (T+1, B)
    rise = torch.relu(E[1:] - E[:-1]).mean() / cfg.n_patches
    if far_energy is not None:  # the steps far on must fall too
        rise = rise + torch.relu(far_energy[1:] - far_energy[:-1]).mean() / cfg.n_patches
    total = loss + args.energy_penalty * rise + args.settle_weight * settle
    if along is not None:  # every step scored, so that the error falls along the descent
        path_err = ((along - P) ** 2).mean(dim=-1)  # (T, B, N)
        total = total + args.path_weight * (path_err * mask).sum() / (mask.sum() * len(along))
    if far_pred is not None:
        n = args.far_batch
        far_err = ((far_pred - P[:n]) ** 2).mean(dim=-1)
        total = total + args.far_weight * (far_err * mask[:n]).sum() / mask[:n].sum()
    return total, loss, rise, settle
