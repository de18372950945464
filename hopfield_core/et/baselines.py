"""Yardsticks for masked-image completion and the masked-patch error they are scored by.

# B images (S, S, 3), N patches of P values, mask (B, N) True = hidden
"""
from __future__ import annotations

import numpy as np
import torch

from .model import patchify, unpatchify


def masked_patch_mse(pred: torch.Tensor, target: torch.Tensor, mask: torch.Tensor, p: int) -> torch.Tensor:
    """Mean squared error over the hidden patches only, per image: (B,)."""
    err = ((patchify(pred, p) - patchify(target, p)) ** 2).mean(dim=-1)  # (B, N)
    return (err * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1)


def mean_fill(images: torch.Tensor, mask: torch.Tensor, p: int) -> torch.Tensor:
    """Hidden patches painted with the mean colour of the visible ones. (B, S, S, 3)"""
    P = patchify(images, p)  # (B, N, P)
    B, N, _ = P.shape
    px = P.reshape(B, N, p * p, 3)
    vis = (~mask).float()[..., None, None]  # (B, N, 1, 1)
    mean = (px * vis).sum(dim=(1, 2)) / (vis.sum(dim=(1, 2)) * p * p).clamp(min=1)  # (B, 3)
    filled = torch.where(mask[..., None, None], mean[:, None, None, :].expand_as(px), px)
    return unpatchify(filled.reshape(B, N, -1), p, images.shape[1] // p)


def pixel_mask(mask: torch.Tensor, p: int, grid: int) -> np.ndarray:
    """Patch mask (B, N) -> pixel mask (B, S, S) as numpy bool."""
    m = mask.reshape(-1, grid, grid).repeat_interleave(p, 1).repeat_interleave(p, 2)
    return m.numpy()


def biharmonic(images: torch.Tensor, mask: torch.Tensor, p: int) -> torch.Tensor:
    """Classical PDE inpainting (skimage.restoration.inpaint_biharmonic), image by image."""
    from skimage.restoration import inpaint_biharmonic

    grid = images.shape[1] // p
    pm = pixel_mask(mask, p, grid)
    out = [inpaint_biharmonic(img.numpy().astype(np.float64), m, channel_axis=-1)
           for img, m in zip(images, pm)]
    return torch.from_numpy(np.stack(out)).float().clamp(0, 1)
