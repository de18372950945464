"""The completion contract the app uses: load_pretrained(device) and model.complete(image, mask).

# H, W image size, p patch size, T steps
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from . import checkpoint
from .model import EnergyTransformer, patchify, unpatchify


@dataclass(frozen=True)
class Completion:
    image: np.ndarray         # (H, W, 3) completed, visible patches exactly as given
    frames: np.ndarray        # (T+1, H, W, 3) decoded image after each step, frame 0 first
    energies: np.ndarray      # (T+1,) total energy after each step
    energies_att: np.ndarray  # (T+1,) attention part
    energies_hn: np.ndarray   # (T+1,) Hopfield part
    rates: np.ndarray         # (T+1,) dE/dt = -(dE/dg)^T M s at each state (descent.energy_rate)
    tokens: np.ndarray        # (T+1, N, D) float32, the state x after each step


def available_devices() -> list[str]:
    out = []
    if torch.cuda.is_available():
        out.append("cuda")
    if getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
        out.append("mps")
    return out + ["cpu"]


class ETCompleter:
    """A loaded ET, read-only: complete() never changes its weights."""

    def __init__(self, model: EnergyTransformer, device: torch.device):
        self.model = model.to(device).eval().requires_grad_(False)
        self.device = device
        cfg = model.cfg
        self.cfg = cfg
        self.image_size = (cfg.image_size, cfg.image_size)
        self.patch_size = cfg.patch_size

    @torch.no_grad()
    def complete(self, image: np.ndarray, mask: np.ndarray, steps: int | None = None) -> Completion:
        cfg = self.cfg
        img = np.asarray(image, dtype=np.float32)
        m = np.asarray(mask, dtype=bool)
        if img.shape != (*self.image_size, 3):
            raise ValueError(f"image must be {self.image_size[0]} x {self.image_size[1]} x 3, got {img.shape}")
        if m.shape != (cfg.grid, cfg.grid):
            raise ValueError(f"mask must be {cfg.grid} x {cfg.grid} patches, got {m.shape}")
        if steps is not None and not 0 <= steps <= 100:
            raise ValueError(f"steps must be between 0 and 100, got {steps}")
        x_img = torch.from_numpy(np.clip(img, 0, 1))[None].to(self.device)  # (1, H, W, 3)
        mk = torch.from_numpy(m.reshape(1, -1)).to(self.device)  # (1, N)
        P = patchify(x_img, cfg.patch_size)  # (1, N, P)
        x0, base = self.model.start(P, mk)
        _, xs, e_att, e_hn, rates = self.model.evolve(x0, steps=steps, record=True, with_rates=True, mask=mk)
        X = torch.cat(xs)  # (T+1, N, D)
        dec = self.model.read(X, x0, base).clamp(0, 1)  # (T+1, N, P)
        dec = torch.where(mk[..., None], dec, P)  # visible patches kept exactly
        frames = unpatchify(dec, cfg.patch_size, cfg.grid).cpu().numpy()  # (T+1, H, W, 3)
        ea = e_att[:, 0].double().cpu().numpy()
        eh = e_hn[:, 0].double().cpu().numpy()
        rates = rates[:, 0].double().cpu().numpy()  # (T+1,) dE/dt at each x_t
        return Completion(image=frames[-1].copy(), frames=frames, energies=ea + eh,
                          energies_att=ea, energies_hn=eh, rates=rates,
                          tokens=X.float().cpu().numpy())


def complete_bytes(cfg, steps: int | None = None) -> int:
    """Peak bytes of ETCompleter.complete for `steps` steps (cfg.steps by default), on the CPU:
    each step's tokens (N x D float32) kept in a list and concatenated, the decoded patches of
    every step (N x P, with the readout's and the clamp's copies: four of them) and the frames
    (H x W x 3, unpatchified and copied out), plus one step's attention scores (H x N x N),
    token-sized temporaries and Hopfield scores (N x K)."""
    T = cfg.steps if steps is None else steps
    N, D, P, H = cfg.n_patches, cfg.dim, cfg.patch_dim, cfg.heads
    per_step = 4 * (2 * N * D + 4 * N * P + 2 * cfg.image_size ** 2 * cfg.channels)
    one_step = 4 * (4 * H * N * N + 8 * N * D + 2 * N * cfg.memories)
    return per_step * (T + 1) + one_step + 2 ** 16


def pick_device(device: str | torch.device | None = None) -> torch.device:
    if device is not None:
        return torch.device(device)
    return torch.device(available_devices()[0])


def load_pretrained(device: str | torch.device | None = None,
                    directory: Path | None = None) -> ETCompleter:
    """The shipped ET (assets/et/, or `directory`) on CUDA, else Apple MPS, else CPU,
    or on the device named."""
    dev = pick_device(device)
    return ETCompleter(checkpoint.load(directory or checkpoint.ASSET_DIR, device="cpu"), dev)
