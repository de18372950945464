"""Patch masks for the completion page, and the masked-patch error it reports. NumPy only.

# G = H // p patches a side, mask (G, G) bool, True = hidden
"""
from __future__ import annotations

import numpy as np

from ..drawing import cell


def random_mask(grid: int, ratio: float, seed: int) -> np.ndarray:
    """Exactly round(ratio * G^2) patches hidden, chosen at random by the seed."""
    if not 0 <= ratio <= 1:
        raise ValueError(f"ratio must be in [0, 1], got {ratio}")
    k = int(round(ratio * grid * grid))
    flat = np.zeros(grid * grid, dtype=bool)
    flat[np.random.default_rng(seed).permutation(grid * grid)[:k]] = True
    return flat.reshape(grid, grid)


def rectangle_mask(grid: int, top: int, left: int, height: int, width: int) -> np.ndarray:
    m = np.zeros((grid, grid), dtype=bool)
    m[max(top, 0):max(top + height, 0), max(left, 0):max(left + width, 0)] = True
    return m


def toggle(mask: np.ndarray, x: float, y: float, shown_width: float, shown_height: float) -> np.ndarray:
    """Flip the patch under a click at (x, y) on the image shown at the given size."""
    row, col = cell(x, y, shown_width, shown_height, mask.shape[0])
    out = mask.copy()
    out[row, col] = not out[row, col]
    return out


def pixel_mask(mask: np.ndarray, p: int) -> np.ndarray:
    """(G, G) -> (G p, G p)."""
    return np.repeat(np.repeat(np.asarray(mask, dtype=bool), p, 0), p, 1)


def show_masked(image: np.ndarray, mask: np.ndarray, p: int) -> np.ndarray:
    """The image as the model receives it: hidden patches drawn as a grey checker."""
    out = np.array(image, dtype=np.float64, copy=True)
    pm = pixel_mask(mask, p)
    yy, xx = np.indices(pm.shape)
    checker = np.where((yy // 2 + xx // 2) % 2 == 0, 0.55, 0.75)
    out[pm] = checker[pm][:, None]
    return out


def masked_patch_mse(pred: np.ndarray, target: np.ndarray, mask: np.ndarray, p: int) -> float:
    """Mean squared error over the hidden pixels only."""
    pm = pixel_mask(mask, p)
    if not pm.any():
        return 0.0
    return float(np.mean((np.asarray(pred, np.float64)[pm] - np.asarray(target, np.float64)[pm]) ** 2))


def mean_fill(image: np.ndarray, mask: np.ndarray, p: int) -> np.ndarray:
    """The yardstick: hidden patches painted with the mean colour of the visible pixels."""
    pm = pixel_mask(mask, p)
    out = np.array(image, dtype=np.float64, copy=True)
    if pm.all():
        out[:] = 0.5
    elif pm.any():
        out[pm] = out[~pm].mean(axis=0)
    return out
