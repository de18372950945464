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
