"""Patterns and runs computed straight from the core, as the pages build them: what the page tests
and the claims tests compare the pages' numbers against (no Streamlit here)."""
from __future__ import annotations

import numpy as np

from hopfield_core import (
    ClassicalHopfield,
)
from hopfield_core.images import corrupt, resize, to_bipolar, to_continuous
from hopfield_core.presets import preset_image

TOL = 1e-6


def patterns(keys, size=16):
    """ui.store.patterns' continuous recipe: 64 px presets, resized, centred, unit norm."""
    return np.stack([to_continuous(resize(preset_image(*k.split("/"), 64), (size, size)),
                                   unit_norm=True) for k in keys])


def query(X, index=0, kind="flip", amount=0.2, seed=0, size=16):
    return corrupt(X[index], (size, size), kind, amount, rng=seed, binary=False)


HOX = ["letters/H", "letters/O", "letters/X"]


OQX = ["letters/O", "letters/Q", "letters/X"]


EIGHT = ",".join(f"letters/{c}" for c in "ABCDEFGH")


def side_patterns(keys, size, binary):
    """ui/store/patterns.py's recipe: a 64 x 64 preset, resized, then bipolar or centred unit-norm."""
    rows = []
    for key in keys:
        group, _, name = key.partition("/")
        small = resize(preset_image(group, name, 64), (size, size))
        rows.append(to_bipolar(small) if binary else to_continuous(small, unit_norm=True))
    return np.stack(rows)


def classical_run(letters, q_index, kind, amount, seed, mode, size=16):
    X = np.stack([to_bipolar(resize(preset_image("letters", c, 64), (size, size))) for c in letters])
    q = corrupt(X[q_index], (size, size), kind, amount, rng=seed)
    return ClassicalHopfield(X).run(q, mode=mode, rng=seed, max_steps=30)


def letters(names: str, size: int = 16) -> np.ndarray:
    return np.stack([to_bipolar(resize(preset_image("letters", c, 64), (size, size))) for c in names])
