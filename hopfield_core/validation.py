"""Input checks shared by the models: clear messages instead of NumPy tracebacks.

# N patterns, d neurons, B batch of states
"""
from __future__ import annotations

import numpy as np


def as_rng(rng: np.random.Generator | int | None) -> np.random.Generator:
    """A Generator from a Generator, a seed, or None (fresh entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng)


def check_patterns(patterns, bipolar: bool) -> np.ndarray:
    """Patterns as a (N, d) float array; bipolar ones must hold only -1 and +1."""
    X = np.asarray(patterns)
    if X.ndim == 1:
        X = X[None, :]
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"patterns must be a non-empty (N, d) array, got shape {X.shape}")
    if not np.issubdtype(X.dtype, np.number) or np.iscomplexobj(X):
        raise ValueError("patterns must be real numbers")
    if not np.all(np.isfinite(X)):
        raise ValueError("patterns contain NaN or infinite values")
    if bipolar:
        if not np.all(np.abs(X) == 1):
            raise ValueError("binary networks store bipolar patterns: every entry must be -1 or +1")
        return X.astype(np.float64)
    if X.dtype not in (np.float32, np.float64):
        X = X.astype(np.float64)
    return X


def check_state(state, d: int, bipolar: bool) -> np.ndarray:
    """A state (d,) or batch (B, d) matching a model of d neurons."""
    S = np.asarray(state)
    if S.ndim not in (1, 2) or S.shape[-1] != d:
        raise ValueError(f"a state must have shape ({d},) or (B, {d}), got {S.shape}")
    if bipolar and not np.all(np.abs(S) == 1):
        raise ValueError("binary networks need bipolar states: every entry must be -1 or +1")
    if not bipolar and not np.all(np.isfinite(S)):
        raise ValueError("the state contains NaN or infinite values")
    return S


def check_mode(mode: str) -> str:
    if mode not in ("sync", "async"):
        raise ValueError(f'mode must be "sync" or "async", got {mode!r}')
    return mode
