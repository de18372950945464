"""Dense associative memory: Krotov & Hopfield (2016), Demircigil et al. (2017).

# N patterns, d neurons, B batch of states
# X (N, d) bipolar patterns, xi (d,) or (B, d) a bipolar state, m = X xi (N,) overlaps

E(xi) = -sum_mu F(x_mu . xi)
  polynomial:  F(z) = z**n           (rectified: max(z, 0)**n)
  exponential: F(z) = exp(beta (z - d))   a positive rescaling of exp(z): E in [-N, 0]
readable energy (what the pages plot): a strictly increasing function of E, so it falls
exactly when E falls, but informative at every d and degree:
  polynomial:  E / d**n = -sum_mu (x_mu . xi / d)**n        in [-N, N]
  exponential: -(1/beta) lse_mu(beta (x_mu . xi - d)) = -(1/beta) log(-E)   in [-log(N)/beta, 2d]
  (E itself underflows to -0.0 away from the patterns: -5e-45 at beta = 1, d = 256)
update of neuron i: xi_i <- sgn( sum_mu F(x_mu . xi^(i+)) - F(x_mu . xi^(i-)) ),
xi^(i+-) being xi with neuron i set to +-1; a tie keeps the current value. A tie is a
difference within the float64 rounding error of computing it (numerics.tie_tolerance), so
every energy change float64 can resolve is acted on.
"""
from __future__ import annotations

import numpy as np

from .numerics import logsumexp, tie_tolerance
from .trajectory import Trajectory, run_discrete
from .validation import as_rng, check_mode, check_patterns, check_state

INTERACTIONS = ("polynomial", "exponential")
MAX_DEGREE = 30


class DenseAssociativeMemory:
    """Binary memory with a polynomial or exponential interaction function F."""

    def __init__(self, patterns, interaction: str = "polynomial", degree: int = 3,
                 beta: float = 1.0, rectified: bool = False):
        X = check_patterns(patterns, bipolar=True)
        if interaction not in INTERACTIONS:
            raise ValueError(f"interaction must be one of {INTERACTIONS}, got {interaction!r}")
        if int(degree) != degree or not 1 <= degree <= MAX_DEGREE:
            raise ValueError(f"degree must be a whole number from 1 to {MAX_DEGREE}, got {degree}")
        if not (np.isfinite(beta) and beta > 0):
            raise ValueError(f"beta must be a positive finite number, got {beta}")
        self.patterns = X
        self.N, self.d = X.shape
        self._cols = np.ascontiguousarray(X.T)  # (d, N): row i = x_mu,i for every mu
        self.interaction = interaction
        self.degree = int(degree)
        self.beta = float(beta)
        self.rectified = rectified

    @property
    def nbytes(self) -> int:
        """Bytes this network keeps: the patterns, by rows and by columns (network_bytes)."""
        return self.patterns.nbytes + self._cols.nbytes

    def F(self, z: np.ndarray) -> np.ndarray:
        """The interaction function applied to overlaps z."""
        z = np.asarray(z, dtype=np.float64)
        if self.interaction == "exponential":
            return np.exp(self.beta * (z - self.d))
        if self.rectified:
            z = np.maximum(z, 0.0)
        return z ** self.degree

    def energy(self, state):
        """E = -sum_mu F(x_mu . xi): a float, or (B,) for a batch."""
        S = check_state(state, self.d, bipolar=True).astype(np.float64)
        E = -np.sum(self.F(S @ self.patterns.T), axis=-1)
        return float(E) if S.ndim == 1 else E

    def readable_energy(self, state):
        """A strictly increasing function of `energy` that never underflows or overflows
        (module docstring): a float, or (B,) for a batch."""
        S = check_state(state, self.d, bipolar=True).astype(np.float64)
        M = S @ self.patterns.T  # (..., N)
        if self.interaction == "exponential":
            E = -logsumexp(self.beta * (M - self.d)) / self.beta
        else:
            E = -np.sum(self.F(M / self.d), axis=-1)
        return float(E) if S.ndim == 1 else E

    def _prefer_up(self, up: np.ndarray, down: np.ndarray) -> np.ndarray:
        """+1, -1 or 0 (tie): which of the overlaps (..., N) with neuron i = +1 / -1
        gives the lower energy. Computed so that nothing overflows at any d."""
        if self.interaction == "exponential":
            # compare log sum exp(beta (z - d)); the shift by d cancels
            la = logsumexp(self.beta * up)
            lb = logsumexp(self.beta * down)
            diff = la - lb
            tol = tie_tolerance("exponential", self.N, self.degree,
                                np.maximum(np.abs(la), np.abs(lb)))
        else:
            # F is homogeneous: compare F(z / d) to stay far from overflow
            fa = self.F(up / self.d)
            fb = self.F(down / self.d)
            diff = np.sum(fa - fb, axis=-1)
            tol = tie_tolerance("polynomial", self.N, self.degree,
                             np.sum(np.abs(fa) + np.abs(fb), axis=-1))
        return np.where(diff > tol, 1.0, np.where(diff < -tol, -1.0, 0.0))

    def step(self, state, mode: str = "sync", rng=None) -> np.ndarray:
        """One synchronous update (all neurons from the same state) or one async sweep."""
        check_mode(mode)
        S = check_state(state, self.d, bipolar=True)
        batch = S.reshape(-1, self.d).astype(np.float64)  # (B, d)
        if mode == "sync":
            new = np.empty_like(batch)
            for b, xi in enumerate(batch):
                m = self.patterns @ xi  # (N,)
                rest = m[None, :] - self._cols * xi[:, None]  # (d, N) overlap without neuron i
                pref = self._prefer_up(rest + self._cols, rest - self._cols)  # (d,)
                new[b] = np.where(pref == 0, xi, pref)
        else:
            new = self._async_sweep(batch, as_rng(rng))
        return new.reshape(S.shape).astype(S.dtype, copy=False)

    def _async_sweep(self, S: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        S = S.copy()
        M = S @ self.patterns.T  # (B, N) overlaps, kept up to date
        for i in rng.permutation(self.d):
            col, cur = self._cols[i], S[:, i]  # (N,), (B,)
            rest = M - cur[:, None] * col[None, :]  # (B, N)
            pref = self._prefer_up(rest + col, rest - col)  # (B,)
            new = np.where(pref == 0, cur, pref)
            flipped = new != cur
            if flipped.any():
                M[flipped] += (new[flipped] - cur[flipped])[:, None] * col[None, :]
                S[flipped, i] = new[flipped]
        return S

    def run(self, query, mode: str = "sync", max_steps: int = 100, rng=None,
            readable: bool = False) -> Trajectory:
        """Iterate `step` from `query` (d,) to a fixed point, a cycle, or max_steps.
        readable: record `readable_energy` instead of `energy` (the states are the same)."""
        q = check_state(query, self.d, bipolar=True)
        if q.ndim != 1:
            raise ValueError("run takes one query of shape (d,); use step for batches")
        gen = as_rng(rng)
        return run_discrete(
            step=lambda s: self.step(s, mode=mode, rng=gen),
            energy=self.readable_energy if readable else self.energy,
            query=q.astype(np.float64), max_steps=max_steps,
            deterministic=(mode == "sync"),
        )


# ---------------------------------------------------------------- memory, from the sizes alone

SMALL_BYTES = 2 ** 13  # the small arrays and Python objects of any call


def network_bytes(N: int, d: int) -> int:
    """Bytes a built network keeps: the patterns, by rows and by columns."""
    return 2 * 8 * N * d


def run_bytes(N: int, d: int, steps: int, mode: str = "sync") -> int:
    """Peak bytes of DenseAssociativeMemory.run (the network built): each state kept in a list
    (and, synchronous, as a cycle key), stacked, its copy for the energy and the (T+1, N)
    overlaps with their temporaries; a synchronous step compares d x N overlaps with neuron i
    set each way (about eight d x N arrays), an asynchronous one B x N."""
    per_state = 8 * d * (3 + (mode == "sync")) + 4 * 8 * N + 256  # + the state's objects
    step = 8 * 8 * d * N if mode == "sync" else 8 * 8 * d
    return per_state * (steps + 1) + step + SMALL_BYTES
