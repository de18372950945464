"""Harmonic fill: each hidden pixel the mean of its neighbours, the visible pixels fixed.

The hidden pixels solve the discrete Laplace equation L x = 0 (L the 4-neighbour graph
Laplacian of the image grid, no wrap-around), with the visible pixels as the boundary values.
It is the smoothest completion in the sense that it minimises sum over neighbouring pixels
(x_i - x_j)^2, the classical membrane inpainting that biharmonic inpainting (thin plate)
refines. Solved by conjugate gradients on the hidden pixels, all images and channels at once.
It is an Energy Transformer's starting point when cfg.start == "harmonic".

# B images (S, S, C), N patches, mask (B, N) True = hidden
"""
from __future__ import annotations

import torch
import torch.nn.functional as F


def _neighbour_sum(z: torch.Tensor) -> torch.Tensor:
    """Sum of the 4 neighbours of each pixel inside the image, (B, C, S, S)."""
    zp = F.pad(z, (1, 1, 1, 1))
    return zp[..., :-2, 1:-1] + zp[..., 2:, 1:-1] + zp[..., 1:-1, :-2] + zp[..., 1:-1, 2:]


TOL = 1e-5  # stop once no hidden pixel is further than this from the mean of its neighbours


def harmonic_fill_pixels(images: torch.Tensor, hidden: torch.Tensor, iters: int | None = None) -> torch.Tensor:
    """images (B, S, S, C), hidden (B, S, S) bool -> (B, S, S, C) with the hidden pixels
    replaced by the harmonic fill. An image with no visible pixel is filled with 0.5.
    iters: at most this many conjugate-gradient steps (default 4 S); it stops sooner once
    every residual is below TOL (checked every 8 steps, each image and channel on its own)."""
    x_img = images.permute(0, 3, 1, 2)  # (B, C, S, S)
    h = hidden[:, None].to(x_img.dtype)  # (B, 1, S, S)
    vis = 1 - h
    deg = _neighbour_sum(torch.ones_like(h))  # 2 at corners, 3 on edges, 4 inside
    # start from the mean colour of the visible pixels (0.5 where there is none)
    n_vis = vis.sum(dim=(2, 3), keepdim=True)
    mean = torch.where(n_vis > 0, (x_img * vis).sum(dim=(2, 3), keepdim=True) / n_vis.clamp(min=1),
                       torch.full_like(n_vis, 0.5))
    x = x_img * vis + mean * h

    def apply(z):  # the Laplacian restricted to the hidden pixels (z is 0 on the visible ones)
        return (deg * z - _neighbour_sum(z)) * h

    r = (_neighbour_sum(x) - deg * x) * h  # minus L x on the hidden pixels
    p = r
    rr = (r * r).sum(dim=(2, 3), keepdim=True)
    live = torch.ones_like(rr)  # 0 for an image and channel once it has converged
    for k in range(iters if iters is not None else 4 * images.shape[1]):
        if k % 8 == 0:  # each image stops on its own, so a batch gives what each alone would
            live = live * (r.abs().amax(dim=(2, 3), keepdim=True) >= TOL)
            if not bool(live.any()):
                break
        Ap = apply(p)
        pAp = (p * Ap).sum(dim=(2, 3), keepdim=True)
        a = live * torch.where(pAp > 0, rr / pAp.clamp(min=1e-30), torch.zeros_like(rr))
        x = x + a * p
        r = r - a * Ap
        rr_new = (r * r).sum(dim=(2, 3), keepdim=True)
        p = r + torch.where(rr > 0, rr_new / rr.clamp(min=1e-30), torch.zeros_like(rr)) * p
        rr = rr_new
    return x.permute(0, 2, 3, 1)


def harmonic_fill(images: torch.Tensor, mask: torch.Tensor, p: int, iters: int | None = None) -> torch.Tensor:
    """images (B, S, S, C), patch mask (B, N) True = hidden -> (B, S, S, C) harmonic fill."""
    B, S = images.shape[0], images.shape[1]
    grid = S // p
    hidden = mask.reshape(B, grid, grid).repeat_interleave(p, 1).repeat_interleave(p, 2)
    return harmonic_fill_pixels(images, hidden, iters)
