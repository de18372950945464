"""Modern continuous Hopfield network: Ramsauer et al. (2020), "Hopfield Networks is All You Need".

# N patterns, d dimensions, B batch of states
# X (N, d) stored patterns (rows), xi (d,) or (B, d) a state, p (N,) or (B, N) softmax weights

E(xi) = -(1/beta) log sum_mu exp(beta x_mu . xi) + 1/2 xi . xi + (1/beta) log N + 1/2 M^2,
        M = max_mu |x_mu|
update: xi' = (1 - gamma) xi + gamma X^T softmax(beta X xi)
gamma = 1 is the one-step retrieval (CCCP); gamma in (0, 1) is gradient descent on E
with step size gamma, since grad E = xi - X^T softmax(beta X xi).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import bound
from .numerics import log_mean_exp, softmax
from .trajectory import Trajectory
from .validation import check_patterns, check_state

K90_MASS = 0.9       # the weight mass k90 counts patterns up to
GLOBAL_FRACTION = 0.9  # k90 >= this share of N: the fixed point averages (nearly) all


def k90(weights: np.ndarray, mass: float = K90_MASS) -> np.ndarray:
    """The fewest patterns whose softmax weights sum to >= mass: int, or (B,) ints."""
    p = np.sort(np.asarray(weights, dtype=np.float64), axis=-1)[..., ::-1]
    cum = np.cumsum(p, axis=-1)
    # a tiny slack so that weights summing to 0.9 up to rounding count
    k = np.sum(cum < mass * cum[..., -1:] - 1e-12, axis=-1) + 1
    return int(k) if np.ndim(k) == 0 else k


def fixed_point_kind(weights: np.ndarray) -> str:
    """"single" (k90 == 1), "global" (k90 covers nearly all N patterns, at least 90 % of
    them) or "metastable": the kinds of a fixed point of this network (DESIGN 3.3). Attention
    heads are sorted by another rule, hopfield_core.heads.kinds (retrieval k90 <= 2, global
    k90 >= N/2, as Ramsauer et al. read BERT's heads): every page that names a head's kind
    uses that one, and says so."""
    p = np.asarray(weights)
    if p.ndim != 1:
        raise ValueError("fixed_point_kind takes the weights (N,) of one state")
    N = p.shape[0]
    k = k90(p)
    if k == 1:
        return "single"
    if k >= max(2, math.ceil(GLOBAL_FRACTION * N)):
        return "global"
    return "metastable"


@dataclass(frozen=True)
class RetrievalBound:
    """Separation of each pattern and the bound of Ramsauer et al. (Theorem 4)."""

    separation: np.ndarray  # (N,) Delta_i = x_i.x_i - max_{j != i} x_i.x_j
    bound: float            # 2/(beta N) + (1/beta) log(2 (N-1) N beta M^2)
    satisfied: np.ndarray   # (N,) Delta_i >= bound: pattern i is retrieved in one step


class ModernHopfield:
    """Continuous Hopfield network with exponential interactions; dtype follows the patterns."""

    def __init__(self, patterns, beta: float = 1.0):
        X = check_patterns(patterns, bipolar=False)
        if not (np.isfinite(beta) and beta > 0):
            raise ValueError(f"beta must be a positive finite number, got {beta}")
        self.patterns = X
        self.N, self.d = X.shape
        self.dtype = X.dtype
        self.beta = float(beta)
        self.M = float(np.max(np.linalg.norm(X.astype(np.float64), axis=1)))

    def _state(self, xi) -> np.ndarray:
        return check_state(xi, self.d, bipolar=False).astype(self.dtype, copy=False)

    def weights(self, xi) -> np.ndarray:
        """softmax(beta X xi): (N,) or (B, N)."""
        S = self._state(xi)
        return softmax(self.beta * (S @ self.patterns.T))

    def energy(self, xi):
        """Energy with every constant of the paper: a float, or (B,) for a batch."""
        S = self._state(xi)
        scores = self.beta * (S @ self.patterns.T)  # (B, N)
        # -(1/beta) lse + (1/beta) log N = -(1/beta) log mean exp
        E = (-log_mean_exp(scores) / self.beta
             + 0.5 * np.sum(S * S, axis=-1) + 0.5 * self.M ** 2)
        return float(E) if S.ndim == 1 else E.astype(self.dtype, copy=False)

    def step(self, xi, gamma: float = 1.0) -> np.ndarray:
        """xi' = (1 - gamma) xi + gamma X^T softmax(beta X xi)."""
        if not (0 < gamma <= 1):
            raise ValueError(f"gamma must be in (0, 1], got {gamma}")
        S = self._state(xi)
        scores = S @ self.patterns.T  # (B, N)
        scores *= self.beta
        target = softmax(scores, out=scores) @ self.patterns  # (B, d), the softmax in place
        if gamma == 1:
            return target
        return (1 - gamma) * S + gamma * target

    def run(self, query, max_steps: int = 100, tol: float = 1e-6, gamma: float = 1.0) -> Trajectory:
        """Iterate `step` until the state moves less than tol (max-norm) or max_steps.

        Trajectory.extras["weights"] holds the softmax weights (T+1, N) of each state.
        """
        q = self._state(query)
        if q.ndim != 1:
            raise ValueError("run takes one query of shape (d,); use step for batches")
        states = [np.array(q, copy=True)]
        converged = False
        for _ in range(max_steps):
            new = self.step(states[-1], gamma=gamma)
            moved = float(np.max(np.abs(new - states[-1])))
            states.append(new)
            if moved <= tol:
                converged = True
                break
        S = np.stack(states)
        return Trajectory(states=S, energies=np.asarray(self.energy(S), dtype=np.float64),
                          converged=converged, cycle=0, extras={"weights": self.weights(S)})

    def fixed_point_kind(self, xi) -> str:
        return fixed_point_kind(self.weights(xi))

    def k90(self, xi):
        return k90(self.weights(xi))

    def retrieval_bound(self) -> RetrievalBound:
        """Separation Delta_i and the paper's sufficient condition for one-step retrieval
        (the formulas: hopfield_core/bound.py)."""
        X = self.patterns.astype(np.float64)
        sep = bound.separation(X @ X.T, np.arange(self.N))  # row i of the (N, N) Gram matrix
        b, N, M = self.beta, self.N, self.M
        return RetrievalBound(separation=sep, bound=float(bound.bound_value(b, N, M)),
                              satisfied=bound.meets_bound(sep, b, N, M))
