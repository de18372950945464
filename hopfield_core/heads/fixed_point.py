"""A head's Hopfield update iterated to its fixed point, batched over heads and queries.

# H heads, B states (queries) per head, N keys (stored patterns), d = d_head dimensions
# K (H, N, d) keys, S (H, B, d) states, P (H, B, N) softmax weights, T iterations

The update xi <- K^T softmax(beta K xi) is the modern Hopfield update (Ramsauer et al. 2020)
with the head's keys as the stored patterns (X = K), started from each real query. It is a
CCCP step on the energy of that network,

    E(xi) = -(1/beta) log sum_mu exp(beta k_mu . xi) + 1/2 xi . xi + (1/beta) log N + 1/2 M^2,
    M = max_mu |k_mu|,

so E never rises along it (the constants are the modern page's: hopfield_core/modern.py,
whose ModernHopfield(K_h, beta) is the same network for one head: `settle` uses it).
A state stops when it moves no more than `tol` (max-norm) in one step, as ModernHopfield.run
does, and is then frozen while the others go on; a head whose states have all stopped drops out
of the batch, and once few states are left (A d <= H B) they go on alone, each with its own
head's keys, so the slow tail costs what its states need.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..modern import ModernHopfield
from ..numerics import log_mean_exp, softmax
from ..trajectory import Trajectory
from ..validation import check_array

TOL = 1e-6        # max-norm move below which a state counts as converged
MAX_ITER = 200    # the iteration cap

F64 = 8  # bytes


@dataclass(frozen=True)
class FixedPoints:
    """The states reached from each query, and how."""

    states: np.ndarray      # (H, B, d) the last state of each query
    weights: np.ndarray     # (H, B, N) softmax(beta K xi) at that state
    iterations: np.ndarray  # (H, B) updates applied (the converging one included)
    converged: np.ndarray   # (H, B) bool: moved < tol before the cap
    energies: np.ndarray | None  # (T+1, H, B) energy after each update (record=True), frozen
                                 # states repeating theirs


def _heads(Q, K) -> tuple[np.ndarray, np.ndarray]:
    Q = check_array(Q, "the queries", ndim=(2, 3), layout="B queries of d values, per head")
    K = check_array(K, "the keys", ndim=(2, 3), layout="N keys of d values, per head")
    if Q.ndim == 2:
        Q, K = Q[None], K[None]
    if Q.ndim != 3 or K.ndim != 3 or Q.shape[0] != K.shape[0] or Q.shape[2] != K.shape[2]:
        raise ValueError(f"queries (H, B, d) and keys (H, N, d) do not fit: {Q.shape}, {K.shape}")
    return Q, K


def largest_norm_sq(K: np.ndarray) -> np.ndarray:
    """M^2 per head: the largest squared norm of its keys K (H, N, d) -> (H,)."""
    return np.max(np.sum(K * K, axis=2), axis=1)


def energy(S: np.ndarray, K: np.ndarray, beta: float) -> np.ndarray:
    """E of states S (H, B, d) in the networks of keys K (H, N, d): (H, B)."""
    S, K = _heads(S, K)
    scores = np.matmul(S, np.swapaxes(K, 1, 2))  # (H, B, N)
    scores *= beta
    M2 = largest_norm_sq(K)  # (H,)
    return (-log_mean_exp(scores) / beta + 0.5 * np.sum(S * S, axis=2) + 0.5 * M2[:, None])


def update(S: np.ndarray, K: np.ndarray, beta: float) -> tuple[np.ndarray, np.ndarray]:
    """One Hopfield step for every state: (K^T softmax(beta K xi) (H, B, d), the weights P)."""
    scores = np.matmul(S, np.swapaxes(K, 1, 2))  # (H, B, N)
    scores *= beta
    P = softmax(scores, out=scores)
    return np.matmul(P, K), P


def _heads_step(S, K, beta, active, iterations, tol) -> None:
    """One update of every head that still has a state moving (in place)."""
    heads = np.flatnonzero(active.any(axis=1))
    whole = len(heads) == S.shape[0]
    Sh, Kh, act = (S, K, active) if whole else (S[heads], K[heads], active[heads])
    new = update(Sh, Kh, beta)[0]  # the weights freed before the energy's own
    moved = np.max(np.abs(new - Sh), axis=2)     # (heads, B)
    np.copyto(Sh, new, where=act[:, :, None])
    del new
    iterations[heads] += act
    if whole:
        active &= moved > tol
    else:
        S[heads] = Sh
        active[heads] = act & (moved > tol)


def _rows_step(S, K, beta, active, iterations, tol) -> None:
    """One update of the A states still moving, each against its own head's keys gathered
    (A, N, d): no larger than the (H, B, N) scores of a whole step when A d <= H B."""
    hi, bi = np.nonzero(active)
    Kg = K[hi]                                       # (A, N, d)
    Sg = S[hi, bi]                                   # (A, d)
    scores = np.matmul(Kg, Sg[:, :, None])[:, :, 0]  # (A, N)
    scores *= beta
    P = softmax(scores, out=scores)
    new = np.matmul(P[:, None, :], Kg)[:, 0]         # (A, d)
    moved = np.max(np.abs(new - Sg), axis=1)
    S[hi, bi] = new
    iterations[hi, bi] += 1
    active[hi, bi] = moved > tol


def iterate(Q, K, beta: float, tol: float = TOL, max_iter: int = MAX_ITER,
            record: bool = False) -> FixedPoints:
    """Iterate every head's update from every query until it moves < tol or max_iter updates.
    Q (H, B, d) or (B, d) for one head; K (H, N, d) or (N, d)."""
    if not (np.isfinite(beta) and beta > 0):
        raise ValueError(f"beta must be a positive finite number, got {beta}")
    if max_iter < 1 or not tol > 0:
        raise ValueError("max_iter must be >= 1 and tol > 0")
    S, K = _heads(Q, K)
    S = S.copy()
    active = np.ones(S.shape[:2], dtype=bool)        # (H, B)
    iterations = np.zeros(S.shape[:2], dtype=np.int64)
    history = [energy(S, K, beta)] if record else None
    H, B, d = S.shape
    for _ in range(max_iter):
        if active.sum() * d <= H * B:  # few states left: each with its own head's keys
            _rows_step(S, K, beta, active, iterations, tol)
        else:
            _heads_step(S, K, beta, active, iterations, tol)
        if record:
            history.append(energy(S, K, beta))
        if not active.any():
            break
    _, P = update(S, K, beta)
    return FixedPoints(states=S, weights=P, iterations=iterations, converged=~active,
                       energies=np.stack(history) if record else None)


def settle(q: np.ndarray, K: np.ndarray, beta: float, tol: float = TOL,
           max_iter: int = MAX_ITER) -> Trajectory:
    """One head's iteration from one query, every state kept (the page's player):
    ModernHopfield(K, beta).run, with extras["weights"] (T+1, N) and the energies (T+1,)."""
    return ModernHopfield(np.asarray(K, dtype=np.float64), beta).run(
        np.asarray(q, dtype=np.float64), max_steps=max_iter, tol=tol)


def iterate_bytes(H: int, B: int, N: int, d: int, steps: int = 0) -> int:
    """Peak bytes of `iterate` (float64): the float64 copies of Q, K and the states, the copies
    of the heads still moving (states and keys), the step's scores/weights (H, B, N) with their
    (H, B, 1) maxima and sums, the new states, their difference and its absolute value
    (H, B, d each), or the energy's K*K (H, N, d), scores and
    exponentials (H, B, N each), and the recorded energies ((steps + 1) H B)."""
    states = H * B * d
    step = H * B * N + 3 * states + 4 * H * B
    energy_tmp = H * N * d + 2 * H * B * N + 2 * states
    return F64 * (4 * states + 2 * H * N * d + max(step, energy_tmp) + (steps + 2) * H * B) + 4096
