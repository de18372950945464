"""Comparing the variants, and the attention limit: the pieces the two pages need.

# N patterns, d neurons, n_q queries, h heads, d_k key size per head, d_v value size per head,
# T steps; X (N, d) stored patterns (rows), xi (d,) a state, Q (n_q, d) queries

attention(Q, X, X) = softmax(beta Q X^T) X  is one modern Hopfield step for every query row;
iterating it, xi_{t+1} = X^T softmax(beta X xi_t), is ModernHopfield.run with gamma = 1.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .analysis import Verdict
from .attention import hopfield_attention
from .images import corrupt
from .modern import ModernHopfield
from .trajectory import Trajectory

CONVERGED_TOL = 1e-6  # the same max-norm tolerance as ModernHopfield.run


# ---------------------------------------------------------------- queries

def corrupt_all(X: np.ndarray, shape: tuple, kind: str, amount: float, seed: int,
                binary: bool) -> np.ndarray:
    """Every stored pattern corrupted by the same settings, (N, d).

    Each row uses a fresh generator from `seed`, so row i is exactly the query the
    query builder makes from pattern i with these settings.
    """
    X = np.asarray(X)
    rows = [corrupt(x, shape, kind, amount, rng=seed, binary=binary) for x in X]
    return np.stack(rows).astype(X.dtype, copy=False) if rows else np.zeros_like(X)


# ---------------------------------------------------------------- projections

@dataclass(frozen=True)
class Projections:
    """Random projection matrices for h heads (heads side by side in the columns)."""

    W_Q: np.ndarray  # (d_in, h * d_k)
    W_K: np.ndarray  # (d_in, h * d_k), the same array as W_Q when tied
    W_V: np.ndarray  # (d_in, h * d_v)
    heads: int
    d_k: int
    d_v: int
    tied: bool


def random_projections(d_in: int, d_k: int, heads: int = 1, seed: int = 0,
                       d_v: int | None = None, tied: bool = False) -> Projections:
    """Gaussian W_Q, W_K, W_V from a seed, entries N(0, 1/d_k) (values: N(0, 1/d_v)).

    tied=True uses W_K = W_Q: then each head preserves inner products on average,
    E[(x W_Q)(y W_Q)^T] = x . y (Johnson-Lindenstrauss), so the scores are a noisy copy
    of x . y that sharpens as d_k grows. Independent W_Q, W_K give E[score] = 0: the
    attention of an untrained layer, unrelated to how alike the patterns are.
    """
    d_v = d_k if d_v is None else d_v
    for name, v in (("d_in", d_in), ("d_k", d_k), ("d_v", d_v), ("heads", heads)):
        if int(v) != v or v < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {v}")
    rng = np.random.default_rng(seed)
    W_Q = rng.standard_normal((d_in, heads * d_k)) / math.sqrt(d_k)
    W_K = rng.standard_normal((d_in, heads * d_k)) / math.sqrt(d_k)
    W_V = rng.standard_normal((d_in, heads * d_v)) / math.sqrt(d_v)
    return Projections(W_Q, W_Q if tied else W_K, W_V, int(heads), int(d_k), int(d_v), bool(tied))


# ---------------------------------------------------------------- attention = Hopfield step

def hopfield_step_gap(Q: np.ndarray, X: np.ndarray, beta: float,
                      hopfield_beta: float | None = None) -> float:
    """max |softmax(beta Q X^T) X - ModernHopfield(X, hopfield_beta).step(Q)| over all entries.

    hopfield_beta defaults to beta, where the two are the same map and the gap is
    rounding; any other hopfield_beta shows how large a real mismatch is.
    """
    hb = beta if hopfield_beta is None else hopfield_beta
    att = hopfield_attention(Q, X, X, beta=beta)  # (n_q, d)
    step = ModernHopfield(X, beta=hb).step(Q)  # (n_q, d)
    return float(np.max(np.abs(att - step)))


def iterate_attention(query: np.ndarray, X: np.ndarray, steps: int,
                      beta: float | None = None, tol: float = CONVERGED_TOL) -> Trajectory:
    """xi_{t+1} = attention(xi_t, X, X) for exactly `steps` steps, from query (d,).

    beta defaults to 1/sqrt(d). The energies are those of ModernHopfield(X, beta).
    extras: "changes" (T,) max_i |xi_t,i - xi_{t-1},i|; "weights" (T+1, N) the softmax
    weights of every state. converged: the last change is <= tol.
    """
    if int(steps) != steps or steps < 0:
        raise ValueError(f"steps must be a whole number >= 0, got {steps}")
    X = np.asarray(X)
    beta = 1.0 / math.sqrt(X.shape[1]) if beta is None else float(beta)
    model = ModernHopfield(X, beta=beta)  # checks X and beta; used for the energy only
    xi = np.asarray(query, dtype=model.dtype)
    if xi.shape != (model.d,):
        raise ValueError(f"the query must have shape ({model.d},), got {xi.shape}")
    states = [xi]
    for _ in range(int(steps)):
        states.append(hopfield_attention(states[-1][None, :], X, X, beta=beta)[0])  # (d,)
    S = np.stack(states)  # (T+1, d)
    changes = np.max(np.abs(np.diff(S, axis=0)), axis=1) if steps else np.zeros(0)  # (T,)
    return Trajectory(states=S, energies=np.asarray(model.energy(S), dtype=np.float64),
                      converged=bool(steps) and bool(changes[-1] <= tol), cycle=0,
                      extras={"changes": changes, "weights": model.weights(S)})


# ---------------------------------------------------------------- side by side

def normalised_energies(energies: np.ndarray) -> np.ndarray:
    """(E(t) - E(T)) / (E(0) - E(T)): 1 at the query, 0 at the end, whatever the units.

    A run whose energy did not change is all zeros.
    """
    E = np.asarray(energies, dtype=np.float64)
    span = E[0] - E[-1]
    if span == 0 or not np.isfinite(span):
        return np.zeros_like(E)
    return (E - E[-1]) / span


def retrieval_outcome(v: Verdict, target: int | None) -> str:
    """"yes" when the run retrieved the pattern the query came from (any pattern when
    target is None), "another pattern" when it retrieved a different one, else "no"."""
    if v.kind != "retrieved":
        return "no"
    if target is None or v.pattern == target:
        return "yes"
    return "another pattern"


# ---------------------------------------------------------------- memory, from the sizes alone

SMALL_BYTES = 2 ** 12  # the small arrays and Python objects of any call


def projection_bytes(d_in: int, d_k: int, heads: int = 1, d_v: int | None = None) -> int:
    """Peak bytes of random_projections: W_Q, W_K and W_V (all three drawn even when tied),
    and the last one's unscaled draw."""
    d_v = d_k if d_v is None else d_v
    return 8 * d_in * heads * (2 * d_k + d_v + max(d_k, d_v)) + SMALL_BYTES


def attention_bytes(n_q: int, n_k: int, d_in: int, d_k: int | None = None, heads: int = 1,
                    d_v: int | None = None) -> int:
    """Peak bytes of hopfield_attention of n_q queries on n_k keys of d_in values, projected to
    heads x d_k (d_k None: no projections, d_k = d_v = d_in): the projected queries, keys and
    values (none without projections: K = V = X), the scores and weights (h x n_q x n_k, three
    arrays), the output and its merge."""
    projected = 0 if d_k is None else heads * (n_q * d_k + n_k * (d_k + (d_v or d_k)))
    d_v = d_in if d_k is None else (d_v or d_k)
    return 8 * (projected + 3 * heads * n_q * n_k + 2 * n_q * heads * d_v) + SMALL_BYTES


def step_gap_bytes(n_q: int, N: int, d: int) -> int:
    """Peak bytes of hopfield_step_gap: the attention and the Hopfield step of n_q queries
    (n_q x d each, with the difference and its absolute value) and the network's float64 copy
    of X with its squares (for the norms)."""
    return 8 * (4 * n_q * d + 2 * N * d + 4 * n_q * N) + SMALL_BYTES


def iterate_bytes(N: int, d: int, steps: int) -> int:
    """Peak bytes of iterate_attention for `steps` steps: every state in a list, stacked, and
    the energy's temporaries (four arrays of (T+1) x d), the network's copy of X (with its
    norms), the (T+1) x N scores and weights, and each state's own Python objects."""
    per_state = 8 * (4 * d + 5 * N) + 256
    return per_state * (steps + 1) + 8 * 2 * N * d + SMALL_BYTES
