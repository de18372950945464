"""Hopfield (1982): the classical binary associative memory.

# N patterns, d neurons, B batch of states
# W (d, d) weights, b (d,) thresholds, xi (d,) or (B, d) a bipolar state in {-1, +1}

E(xi) = -1/2 xi^T W xi + b^T xi,   W = (1/d) sum_mu x_mu x_mu^T  (Hebbian, zero diagonal)
update: xi_i <- sgn(h_i), h = W xi - b;  sgn(0) keeps the current value.

Memory (d = 3072 neurons: one d x d matrix of float64 is 75 MB): the network keeps C = d W.
Hebbian C holds whole numbers of size <= N, and every field C xi is a whole number of size
<= N d: exact in float32 while N d <= 2^24, so C is kept in float32 there (38 MB at d = 3072)
and every field, step and run is bit for bit what float64 gives. Nothing else forms a second
d x d array: the Storkey product, the symmetrising, the symmetry check and the row sums go a
block of BLOCK_VALUES at a time. `network_bytes`, `build_bytes` and `run_bytes` estimate the
bytes a network keeps, the peak of building it and the peak of one run, from the sizes alone.
"""
from __future__ import annotations

import numpy as np

from .trajectory import Trajectory, run_discrete
from .validation import as_rng, check_mode, check_patterns, check_state

LEARNING_RULES = ("hebbian", "storkey", "pseudoinverse")
EXACT_FLOAT32 = 2 ** 24   # every whole number up to this is exact in float32
BLOCK_VALUES = 2 ** 20    # the most values of a d x d product formed at once (8 MB of float64)


def coupling_dtype(N: int, d: int, learning_rule: str = "hebbian"):
    """The dtype C is kept in: float32 where it is exact (Hebbian, N d <= 2^24), else float64."""
    return np.float32 if learning_rule == "hebbian" and N * d <= EXACT_FLOAT32 else np.float64


def _rows(d: int) -> int:
    """Rows of a d x d array per block of at most BLOCK_VALUES values."""
    return max(1, BLOCK_VALUES // max(d, 1))


def hebbian_coupling(X: np.ndarray, dtype=np.float64) -> np.ndarray:
    """sum_mu x_mu x_mu^T: integer-valued, so ties in the field are exact zeros. In float32
    only when N d <= 2^24 (coupling_dtype): then every entry and every field is exact."""
    Xt = np.asarray(X).astype(dtype, copy=False)
    return Xt.T @ Xt  # (d, d)


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
    A, B = c[:, None] * U, c[:, None] * V  # (N, d) each
    # W = A^T X + X^T B a block of rows at a time, so that no second d x d array is formed
    # (BLAS may round a block's last bit differently from the whole product: tests compare
    # with the rule written with loops to 1e-12)
    W = np.empty((d, d))
    r = _rows(d)
    for i in range(0, d, r):
        W[i:i + r] = A[:, i:i + r].T @ X
        W[i:i + r] += X[:, i:i + r].T @ B
    W[np.arange(d), np.arange(d)] = diag_L + delta
    return _symmetrize(W)  # exactly symmetric (the two products round differently)


def _symmetrize(W: np.ndarray) -> np.ndarray:
    """(W + W^T) / 2 in place, a pair of blocks at a time: the same numbers, no second d x d."""
    d, r = W.shape[0], max(1, int(np.sqrt(BLOCK_VALUES)))
    for i in range(0, d, r):
        for j in range(i, d, r):
            block = W[i:i + r, j:j + r] + W[j:j + r, i:i + r].T
            block /= 2
            W[i:i + r, j:j + r] = block
            W[j:j + r, i:i + r] = block.T
            del block  # one block at a time
    return W


def _is_symmetric(C: np.ndarray) -> bool:
    r = _rows(C.shape[0])
    return all(np.array_equal(C[i:i + r], C[:, i:i + r].T) for i in range(0, C.shape[0], r))


def _largest_row_sum(C: np.ndarray) -> float:
    """max_i sum_j |C_ij|, a block of rows at a time (summed in float64)."""
    r = _rows(C.shape[0])
    return max(float(np.abs(C[i:i + r]).sum(axis=1, dtype=np.float64).max())
               for i in range(0, C.shape[0], r))


def pseudoinverse_weights(X: np.ndarray) -> np.ndarray:
    """Projection rule W = X^T (X X^T)^+ X: every stored pattern is a fixed point. Made exactly
    symmetric, as the projection is (the products round differently either side of the
    diagonal), so that no transposed copy is needed and asynchronous updates never raise E."""
    return _symmetrize(X.T @ np.linalg.pinv(X @ X.T) @ X)  # (d, d)


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
            C = hebbian_coupling(X, coupling_dtype(self.N, self.d))
        else:
            C = storkey_weights(X) if learning_rule == "storkey" else pseudoinverse_weights(X)
            C *= self.d  # in place: the same numbers as d * W
        if zero_diagonal:
            np.fill_diagonal(C, 0.0)
        self._C = C
        # row i of _C_cols = column i of C: C itself, as every rule here gives a symmetric C
        # (else a strided view: a contiguous copy would be a second d x d array)
        self._C_cols = C if _is_symmetric(C) else C.T
        b = np.zeros(self.d) if bias is None else np.asarray(bias, dtype=np.float64)
        if b.shape != (self.d,) or not np.all(np.isfinite(b)):
            raise ValueError(f"bias must be {self.d} finite numbers, got shape {b.shape}")
        self.bias = b
        # fields smaller than this are ties (rounding noise for non-Hebbian rules)
        self._tol = 1e-12 * max(1.0, _largest_row_sum(C))

    @property
    def weights(self) -> np.ndarray:
        """W (d, d), float64."""
        return np.divide(self._C, self.d, dtype=np.float64)

    def weights_block(self, n: int) -> np.ndarray:
        """The top-left n x n block of W, float64, without forming the rest."""
        return np.divide(self._C[:n, :n], self.d, dtype=np.float64)

    @property
    def nbytes(self) -> int:
        """Bytes this network keeps: C, X and the bias."""
        return self._C.nbytes + self.patterns.nbytes + self.bias.nbytes

    def _scaled_fields(self, S: np.ndarray) -> np.ndarray:
        """S C^T (B, d) or (d,) in float64, computed in C's dtype (exact where it is float32)."""
        return (S.astype(self._C.dtype, copy=False) @ self._C.T).astype(np.float64, copy=False)

    def field(self, state) -> np.ndarray:
        """Local field h = W xi - b, (d,) or (B, d)."""
        S = check_state(state, self.d, bipolar=True)
        return self._scaled_fields(S) / self.d - self.bias

    def energy(self, state):
        """E = -1/2 xi^T W xi + b^T xi: a float, or (B,) for a batch."""
        S = check_state(state, self.d, bipolar=True).astype(np.float64)
        E = -0.5 * np.sum(self._scaled_fields(S) * S, axis=-1) / self.d + S @ self.bias
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
            H = self._scaled_fields(batch) - thr  # (B, d)
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
        H = self._scaled_fields(S) - thr  # (B, d) kept up to date after every flip
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


# ---------------------------------------------------------------- memory, from the sizes alone

SMALL_BYTES = 2 ** 13  # the small arrays and Python objects of any call
CAST_BUFFER = 8 * 8192  # numpy's buffer for a cast inside a reduction (float32 sums in float64)
STATE_OBJECT = 256      # a kept state's own Python objects (the array, its cycle key)


def network_bytes(N: int, d: int, learning_rule: str = "hebbian") -> int:
    """Bytes a built network keeps (ClassicalHopfield.nbytes): C, X and the bias."""
    return np.dtype(coupling_dtype(N, d, learning_rule)).itemsize * d * d + 8 * N * d + 8 * d


def build_bytes(N: int, d: int, learning_rule: str = "hebbian") -> int:
    """Peak bytes of ClassicalHopfield(X (N, d), learning_rule=...): the checked copy of X and
    C, plus the rule's own temporaries (at most two blocks of BLOCK_VALUES at a time)."""
    item = np.dtype(coupling_dtype(N, d, learning_rule)).itemsize
    rows = min(d, _rows(d)) * d                       # values in a block of rows
    pair = min(d, int(np.sqrt(BLOCK_VALUES))) ** 2    # values in a block of _symmetrize
    held = network_bytes(N, d, learning_rule)
    if learning_rule == "hebbian":                    # X in float32; |C| a block of rows
        extra = 4 * N * d + (item + 1) * rows
    elif learning_rule == "storkey":                  # U, V and their scaled copies
        extra = 4 * 8 * N * d + 8 * max(rows, 2 * pair)
    else:                                             # X^T P; the N x N pseudo-inverse
        extra = 8 * N * d + 8 * 6 * N * N + 8 * 2 * pair
    return held + extra + CAST_BUFFER + SMALL_BYTES


def run_bytes(N: int, d: int, steps: int, mode: str = "sync") -> int:
    """Peak bytes of ClassicalHopfield.run (the network built): each state kept in a list (and,
    synchronous, as a key to spot cycles), stacked, and the energies' three temporaries of
    the stacked size; plus a step's own temporaries (about eight d-vectors)."""
    per_state = 8 * d * (5 + (mode == "sync")) + STATE_OBJECT
    return per_state * (steps + 1) + 8 * 8 * d + SMALL_BYTES
