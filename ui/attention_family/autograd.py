"""torch autograd of the log-normalizer, for the page to print beside the closed forms (the
core keeps torch out: hopfield_core.expfamily is NumPy)."""
from __future__ import annotations

import numpy as np
import torch


def _log_normalizer(K: torch.Tensor, beta: float):
    return lambda q: torch.logsumexp(beta * (K @ q), dim=0) / beta


def grad(K: np.ndarray, q: np.ndarray, beta: float) -> np.ndarray:
    """d A / d q by autograd, float64."""
    qt = torch.tensor(q, dtype=torch.float64, requires_grad=True)
    _log_normalizer(torch.tensor(K, dtype=torch.float64), beta)(qt).backward()
    return qt.grad.numpy()


def hessian(K: np.ndarray, q: np.ndarray, beta: float) -> np.ndarray:
    """d^2 A / d q^2 by autograd, float64 (d backward passes: keep d small)."""
    f = _log_normalizer(torch.tensor(K, dtype=torch.float64), beta)
    return torch.autograd.functional.hessian(f, torch.tensor(q, dtype=torch.float64)).numpy()


def peak_bytes(N: int, d: int, hessian: bool) -> int:
    """Peak bytes of `grad` (and `hessian` when asked) for N keys of d features: the float64
    copy of K, a few d-vectors of the backward pass, and the d x d Hessian, built row by row
    and stacked (three of its size)."""
    return 8 * (N * d + 8 * d + (3 * d * d if hessian else 0)) + 2 ** 12
