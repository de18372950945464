"""The query: a stored pattern (or the uploaded query image) corrupted as the sidebar says,
with the pixels flipped by hand on top."""
from __future__ import annotations

import numpy as np

from hopfield_core import images

from . import store
from .patterns import PatternSet, to_pattern
from .shared_settings import SIDEBAR


def query_source(ps: PatternSet) -> int | None:
    """The stored pattern the query is made from, or None for an uploaded query image."""
    if store.query_upload() is not None:
        return None
    return min(int(SIDEBAR["q_index"]), ps.N - 1)


def make(ps: PatternSet) -> tuple[np.ndarray, tuple]:
    """The corrupted query (d,) for the current settings, and the tuple of what it is made of
    (its source, the corruption, the patterns' fingerprint, the pixels flipped by hand)."""
    i = query_source(ps)
    if i is None:
        source, upload = store.query_upload()
        clean = to_pattern(upload, ps.binary)
    else:
        clean = ps.X[i]
        source = f"pattern/{i}"
    kind, amount, seed = str(SIDEBAR["q_corruption"]), float(SIDEBAR["q_amount"]), int(SIDEBAR["q_seed"])
    q = images.corrupt(clean, ps.shape, kind, amount, rng=seed, binary=ps.binary)
    if not ps.binary:
        q = q.astype(ps.X.dtype)
    flips = flipped_pixels(ps)
    if flips:  # pixels flipped by hand (binary patterns): every channel of each
        q = q.copy()
        channels = ps.shape[2] if len(ps.shape) == 3 else 1
        q[[p * channels + c for p in flips for c in range(channels)]] *= -1
    return q, (source, kind, amount, seed, ps.fingerprint, flips)


def flipped_pixels(ps: PatternSet) -> tuple[int, ...]:
    """The query's pixels flipped by hand that apply to these patterns (binary ones, pixels
    inside the image)."""
    if not ps.binary:
        return ()
    pixels = ps.shape[0] * ps.shape[1]
    return tuple(p for p in SIDEBAR["q_flip"] if p < pixels)
