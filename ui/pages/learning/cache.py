"""The learning page's computations, cached by their parameters for every session: a
training run is computed once and the player scrubs through it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from hopfield_core import ebm, ebm_data, images
from ui.serving import budget, memory_gate

from .settings import FRAMES


@dataclass(frozen=True)
class Run:
    train: np.ndarray     # (n, d) the training data
    held: np.ndarray      # (m, d) the held-out data
    path: np.ndarray      # (frames + 1, N, d) the patterns after each frame
    nll: np.ndarray       # (frames + 1,) training NLL
    held_nll: np.ndarray  # (frames + 1,) held-out NLL
    per_frame: int        # Adam steps a frame


def data_of(name: str, n: int, seed: int, points: tuple) -> np.ndarray:
    """The 2-D data: a preset drawn from the seed, or the user's points."""
    if name == "mine":
        return np.array(points, dtype=float).reshape(-1, 2)
    return ebm_data.dataset(name, n, seed)


@st.cache_data(max_entries=64, show_spinner=False)
def plane_run(name: str, n: int, seed: int, points: tuple, N: int, beta: float, lr: float,
              per_frame: int) -> Run:
    """FRAMES x per_frame Adam steps from patterns near the origin (ValueError: bad data)."""
    data = data_of(name, n, seed, points)
    train, held = ebm_data.split(data, 0.25, seed)
    with memory_gate.reserve(plane_bytes(len(data), N, per_frame)):  # ui/serving/memory_gate.py
        t = ebm.Trainer(ebm_data.initial_patterns(N, 2, seed), train, beta, lr, held_out=held)
        frames = [t.X]
        for _ in range(FRAMES):
            frames.append(t.step(per_frame).X)
        every = slice(None, None, per_frame)
        return Run(train, held, np.stack(frames), np.array(t.history)[every],
                   np.array(t.held)[every], per_frame)


def image_data(items, size: int, colour: bool) -> np.ndarray:
    """The stored images as continuous, centred patterns: 2 x pixel - 1 minus its mean."""
    return np.stack([images.to_continuous(images.resize(s.image, (size, size)), colour=colour)
                     for s in items])


def image_bytes(n: int, N: int, d: int, steps: int) -> int:
    """Peak bytes of training N patterns on n images of d values for `steps` Adam steps."""
    return ebm.train_bytes(n, N, d, steps, keep_path=False)


def image_note(n: int, N: int, d: int, steps: int) -> str | None:
    """A sentence when training N patterns on n images of d values would not fit in one run's
    memory (budget.RUN_BYTES), else None."""
    return budget.over(image_bytes(n, N, d, steps),
                       f"Learning {N} patterns from {n} images of d = {d} values",
                       "Fewer patterns or a smaller image size in the sidebar bring it back.")


def plane_bytes(n: int, N: int, per_frame: int) -> int:
    """Peak bytes of learning from n points in the plane (a quarter held out), every frame kept."""
    return ebm.train_bytes(n, N, 2, FRAMES * per_frame)


def plane_note(n: int, N: int, per_frame: int) -> str | None:
    """The same for the points in the plane: n points (a quarter held out), every frame kept."""
    return budget.over(plane_bytes(n, N, per_frame),
                       f"Learning {N} patterns from {n} points", "Fewer points bring it back.")


@st.cache_data(max_entries=32, show_spinner=False)
def image_run(key: tuple, N: int, beta: float, lr: float, steps: int, seed: int, _data):
    """(learned patterns, NLL per step, Adam steps run, note or None). key names the data
    (the stored items and the representation)."""
    n, d = _data.shape
    steps, note = budget.learn_cap(n, N, d, steps)
    with memory_gate.reserve(image_bytes(n, N, d, steps)):  # ui/serving/memory_gate.py
        X0 = ebm_data.initial_patterns(N, d, seed, scale=0.1)
        t = ebm.Trainer(X0, _data, beta, lr, keep_path=False).step(steps)
    return t.X, np.array(t.history), steps, note
