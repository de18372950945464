"""Input checks shared by the core: clear messages instead of NumPy tracebacks.

check_array is the one checker of an input array (its shape, real finite entries, size limits);
every message names its subject ("the patterns", "the data", "the keys K", ...). What an
array must match elsewhere (the state's d, the data's dimensions) is checked where that is known.

# N patterns, d neurons, B batch of states
"""
from __future__ import annotations

import math

import numpy as np


def as_rng(rng: np.random.Generator | int | None) -> np.random.Generator:
    """A Generator from a Generator, a seed, or None (fresh entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng)


def check_array(a, subject: str, *, ndim: int | tuple[int, ...] = 2, one_row: bool = False,
                layout: str = "", max_rows: int | None = None, max_cols: int | None = None,
                max_abs: float = math.inf, keep_float32: bool = False) -> np.ndarray:
    """`a` as a non-empty float64 array of ndim dimensions (a tuple: any of them) with every
    entry real and finite; each message starts with subject, e.g. "the data".

    one_row: a 1-D `a` is one row (1, d). layout: how the array is laid out, for the shape
    message (e.g. "one point per row"). max_rows bounds every axis but the last, max_cols the
    last; max_abs the size of an entry. keep_float32: float32 stays float32 (no copy).
    """
    A = np.asarray(a)
    shape = A.shape
    if one_row and A.ndim == 1:
        A = A[None, :]
    dims = (ndim,) if isinstance(ndim, int) else tuple(ndim)
    if A.ndim not in dims or A.size == 0:
        wanted = " or ".join(f"{k}-D" for k in dims) + " array" + (f" ({layout})" * bool(layout))
        raise ValueError(f"{subject} must be a non-empty {wanted}, got shape {shape}")
    if not np.issubdtype(A.dtype, np.number) or np.iscomplexobj(A):
        raise ValueError(f"{subject} must hold real numbers, got dtype {A.dtype}")
    if not (keep_float32 and A.dtype == np.float32):
        A = A.astype(np.float64, copy=False)
    if not np.all(np.isfinite(A)):
        bad = np.argwhere(~np.isfinite(A))[0]
        raise ValueError(f"{subject} must be finite everywhere (no NaN or infinite values), got "
                         f"{A[tuple(bad)]} at [{', '.join(str(i) for i in bad)}]")
    rows_over = max_rows is not None and max(A.shape[:-1], default=0) > max_rows
    if rows_over or (max_cols is not None and A.shape[-1] > max_cols):
        limits = [f"{n} {what}" for n, what in ((max_rows, "rows"), (max_cols, "columns"))
                  if n is not None]
        raise ValueError(f"{subject} must have at most {' and '.join(limits)}, got shape {shape}")
    if max_abs < math.inf:
        big = np.max(np.abs(A))
        if big > max_abs:
            raise ValueError(f"{subject} must have entries of size at most {max_abs:g}, got an "
                             f"entry of size {big:.3g}")
    return A


def check_patterns(patterns, bipolar: bool) -> np.ndarray:
    """Patterns as a (N, d) float array; bipolar ones must hold only -1 and +1."""
    given = np.asarray(patterns)
    X = check_array(given, "the patterns", one_row=True, layout="N patterns of d values",
                    keep_float32=not bipolar)
    if bipolar:
        if not np.all(np.abs(X) == 1):
            raise ValueError("binary networks store bipolar patterns: every entry must be -1 or +1")
        return X.copy() if np.may_share_memory(X, given) else X  # always the network's own copy
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
