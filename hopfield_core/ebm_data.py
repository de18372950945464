"""Two-dimensional data sets for learning the memories of the energy-based model
(hopfield_core.ebm), each drawn from a seed, and the split into training and held-out points.

Every preset is centred near the origin, within about 3 of it, so the same range of beta
(widths 1/sqrt(beta)) suits them all.
"""
from __future__ import annotations

import math

import numpy as np

PRESETS = ("clusters", "moons", "ring", "spiral")
MAX_POINTS = 2000


def dataset(name: str, n: int, seed: int = 0, noise: float = 0.15) -> np.ndarray:
    """n points (n, 2) of the named preset."""
    if name not in PRESETS:
        raise ValueError(f"the data set must be one of {', '.join(PRESETS)}; got {name!r}")
    if isinstance(n, bool) or int(n) != n or not 2 <= n <= MAX_POINTS:
        raise ValueError(f"the number of points must be a whole number from 2 to {MAX_POINTS}, "
                         f"got {n}")
    n, gen = int(n), np.random.default_rng([seed, PRESETS.index(name)])
    if name == "clusters":  # four Gaussian blobs at the corners of a square
        centres = np.array([[-1.8, -1.8], [1.8, -1.8], [-1.8, 1.8], [1.8, 1.8]])
        P = centres[gen.integers(4, size=n)] + 0.45 * gen.standard_normal((n, 2))
    elif name == "moons":  # two interleaved half circles
        upper = gen.random(n) < 0.5
        t = math.pi * gen.random(n)
        P = np.where(upper[:, None], np.c_[np.cos(t), np.sin(t)],
                     np.c_[1 - np.cos(t), 0.5 - np.sin(t)])
        P = 2.0 * (P - [0.5, 0.25]) + 2 * noise * gen.standard_normal((n, 2))
    elif name == "ring":
        t = 2 * math.pi * gen.random(n)
        P = 2.2 * np.c_[np.cos(t), np.sin(t)] + 2 * noise * gen.standard_normal((n, 2))
    else:  # spiral: one arm, 1.5 turns
        t = gen.random(n)
        angle, radius = 3 * math.pi * t, 0.4 + 2.6 * t
        P = radius[:, None] * np.c_[np.cos(angle), np.sin(angle)]
        P += 1.5 * noise * gen.standard_normal((n, 2))
    return P


def split(data: np.ndarray, held_fraction: float = 0.25, seed: int = 0):
    """(train, held_out): a random held_fraction of the rows held out (at least one row each
    when there are two or more)."""
    D = np.asarray(data, dtype=float)
    n = len(D)
    if n < 2:
        raise ValueError("Learning needs at least 2 data points: one to train on and one to "
                         "hold out.")
    k = min(n - 1, max(1, round(held_fraction * n)))
    order = np.random.default_rng(seed).permutation(n)
    return D[order[k:]], D[order[:k]]


def initial_patterns(N: int, d: int, seed: int = 0, scale: float = 0.5) -> np.ndarray:
    """N starting patterns near the origin: scale x standard normal."""
    return scale * np.random.default_rng([seed, N, d]).standard_normal((N, d))
