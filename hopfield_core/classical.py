"""Hopfield (1982): the classical binary associative memory.

# N patterns, d neurons, B batch of states
# W (d, d) weights, b (d,) thresholds, xi (d,) or (B, d) a bipolar state in {-1, +1}

E(xi) = -1/2 xi^T W xi + b^T xi,   W = (1/d) sum_mu x_mu x_mu^T  (Hebbian, zero diagonal)
update: xi_i <- sgn(h_i), h = W xi - b;  sgn(0) keeps the current value.
"""
from __future__ import annotations

import numpy as np

from .trajectory import Trajectory, run_discrete
from .validation import as_rng, check_mode, check_patterns, check_state

LEARNING_RULES = ("hebbian", "storkey", "pseudoinverse")


def hebbian_coupling(X: np.ndarray) -> np.ndarray:
    """sum_mu x_mu x_mu^T: integer-valued, so ties in the field are exact zeros."""
    return X.T @ X  # (d, d)


def storkey_weights(X: np.ndarray) -> np.ndarray:
    """Storkey (1997) incremental rule: fewer spurious states than Hebbian.

    For each pattern x in turn, with h_ij = sum_{k != i, j} W_ik x_k = h_i - W_ii x_i - W_ij x_j:
        W_ij += (x_i x_j - x_i h_ji - h_ij x_j) / d.
    W stays symmetric and x_i^2 = 1, so one pattern's update is
        W <- a W + u x^T + x v^T - diag(2 w / d),   a = 1 + 2/d, h = W x, w = diag(W),
        u = (x + w x - h) / d,  v = (w x - h) / d
    (on the diagonal, where h_ii = h_i - W_ii x_i, the rank-one terms overcount 2 w / d).
    So W = L + diag(delta), L a sum of rank-one terms kept as factors: h = W x costs O(N d),
    and the d x d matrix is formed once at the end (at d = 3072 and 40 patterns: well under a
    second, against 13 s for the d x d temporaries of the textbook form).
    tests/core/test_classical.py checks it against the rule written with loops.
    """
    X = np.asarray(X, dtype=np.float64)
    N, d = X.shape
    a = 1.0 + 2.0 / d
    U, V = np.zeros((N, d)), np.zeros((N, d))  # L = sum_m a^(n-1-m) (u_m x_m^T + x_m v_m^T)
    diag_L, delta = np.zeros(d), np.zeros(d)
    for n, x in enumerate(X):  # (d,)
        c = a ** np.arange(n - 1, -1, -1)  # (n,) the factor each earlier term has grown by
        h = (c * (X[:n] @ x)) @ U[:n] + (c * (V[:n] @ x)) @ X[:n] + delta * x  # (d,) = W x
        w = diag_L + delta  # (d,) = diag(W)
        U[n], V[n] = (x + w * x - h) / d, (w * x - h) / d
        diag_L = a * diag_L + (U[n] + V[n]) * x  # diag(u x^T + x v^T)
        delta = a * delta - 2.0 * w / d
    c = a ** np.arange(N - 1, -1, -1)  # (N,)
    W = (c[:, None] * U).T @ X + X.T @ (c[:, None] * V)  # (d, d)
    W[np.arange(d), np.arange(d)] = diag_L + delta
    return (W + W.T) / 2  # exactly symmetric (the two products round differently)


def pseudoinverse_weights(X: np.ndarray) -> np.ndarray:
    """Projection rule W = X^T (X X^T)^+ X: every stored pattern is a fixed point."""
    return X.T @ np.linalg.pinv(X @ X.T) @ X  # (d, d)


class ClassicalHopfield:
    """Hopfield's 1982 network on bipolar patterns, rows of `patterns` (N, d)."""

    def __init__(self, patterns, bias=None, zero_diagonal: bool = True,
                 learning_rule: str = "hebbian"):
        X = check_patterns(patterns, bipolar=True)
        self.patterns = X
        self.N, self.d = X.shape
        if learning_rule not in LEARNING_RULES:
            raise ValueError(f"learning_rule must be one of {LEARNING_RULES}, got {learning_rule!r}")
        self.learning_rule = learning_rule
        self.zero_diagonal = zero_diagonal
        # C is W scaled by d: for the Hebbian rule it holds integers, which keeps
        # ties in the field exact instead of leaving rounding noise around zero.
        if learning_rule == "hebbian":
            C = hebbian_coupling(X)
        elif learning_rule == "storkey":
            C = self.d * storkey_weights(X)
        else:
            C = self.d * pseudoinverse_weights(X)
        if zero_diagonal:
            np.fill_diagonal(C, 0.0)
        self._C = C
        # row i of _C_cols = column i of C; every rule here gives a symmetric C (no copy)
        self._C_cols = C if np.array_equal(C, C.T) else np.ascontiguousarray(C.T)
        b = np.zeros(self.d) if bias is None else np.asarray(bias, dtype=np.float64)
        if b.shape != (self.d,) or not np.all(np.isfinite(b)):
            raise ValueError(f"bias must be {self.d} finite numbers, got shape {b.shape}")
        self.bias = b
        # fields smaller than this are ties (rounding noise for non-Hebbian rules)
        self._tol = 1e-12 * max(1.0, float(np.abs(C).sum(axis=1).max()))

    @property
    def weights(self) -> np.ndarray:
        """W (d, d)."""
        return self._C / self.d

    def field(self, state) -> np.ndarray:
        """Local field h = W xi - b, (d,) or (B, d)."""
        S = check_state(state, self.d, bipolar=True)
        return (S @ self._C.T) / self.d - self.bias

    def energy(self, state):
        """E = -1/2 xi^T W xi + b^T xi: a float, or (B,) for a batch."""
        S = check_state(state, self.d, bipolar=True).astype(np.float64)
        E = -0.5 * np.sum((S @ self.weights) * S, axis=-1) + S @ self.bias
        return float(E) if S.ndim == 1 else E

    def _sgn(self, h_scaled: np.ndarray, current: np.ndarray) -> np.ndarray:
        return np.where(h_scaled > self._tol, 1.0, np.where(h_scaled < -self._tol, -1.0, current))

    def _glauber(self, h_scaled: np.ndarray, temperature: float, u: np.ndarray) -> np.ndarray:
        # P(+1) = sigmoid(2 h / T) = (1 + tanh(h / T)) / 2, with h = h_scaled / d
        p_up = 0.5 * (1.0 + np.tanh(h_scaled / (self.d * temperature)))
        return np.where(u < p_up, 1.0, -1.0)

    def step(self, state, mode: str = "sync", rng=None, temperature: float = 0.0) -> np.ndarray:
        """One synchronous update, or one asynchronous sweep in a random order."""
        check_mode(mode)
        if not (temperature >= 0 and np.isfinite(temperature)):
            raise ValueError(f"temperature must be a finite number >= 0, got {temperature}")
        S = check_state(state, self.d, bipolar=True)
        batch = S.reshape(-1, self.d).astype(np.float64)  # (B, d)
        thr = self.d * self.bias  # threshold in the units of C
        gen = as_rng(rng) if (mode == "async" or temperature > 0) else None
        if mode == "sync":
            H = batch @ self._C.T - thr  # (B, d)
            if temperature > 0:
                new = self._glauber(H, temperature, gen.random(H.shape))
            else:
                new = self._sgn(H, batch)
        else:
            new = self._async_sweep(batch, thr, gen, temperature)
        return new.reshape(S.shape).astype(S.dtype, copy=False)

    def _async_sweep(self, S: np.ndarray, thr: np.ndarray, rng: np.random.Generator,
                     temperature: float) -> np.ndarray:
        """Visit every neuron once in a random order; each sees the updated others."""
        S = S.copy()
        H = S @ self._C.T - thr  # (B, d) kept up to date after every flip
        order = rng.permutation(self.d)
        U = rng.random((self.d, S.shape[0])) if temperature > 0 else None
        for k, i in enumerate(order):
            h, cur = H[:, i], S[:, i]
            new = self._glauber(h, temperature, U[k]) if U is not None else self._sgn(h, cur)
            flipped = new != cur
            if flipped.any():
                delta = new[flipped] - cur[flipped]  # (b,) of +-2
                H[flipped] += delta[:, None] * self._C_cols[i][None, :]
                S[flipped, i] = new[flipped]
        return S

    def run(self, query, mode: str = "sync", max_steps: int = 100, rng=None,
            temperature: float = 0.0) -> Trajectory:
        """Iterate `step` from `query` (d,) to a fixed point, a 2-cycle, or max_steps."""
        q = check_state(query, self.d, bipolar=True)
        if q.ndim != 1:
            raise ValueError("run takes one query of shape (d,); use step for batches")
        gen = as_rng(rng)
        return run_discrete(
            step=lambda s: self.step(s, mode=mode, rng=gen, temperature=temperature),
            energy=self.energy, query=q.astype(np.float64), max_steps=max_steps,
            deterministic=(mode == "sync" and temperature == 0), stochastic=temperature > 0,
        )
