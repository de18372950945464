"""The modern Hopfield network as an energy-based model (DESIGN 3.6): its partition function is
exact, so its memories can be learned by maximum likelihood.

# N patterns, d dimensions, n data points
# X (N, d) the stored patterns (rows), data (n, d), r (n, N) the softmax weights of each point

E(xi) = 1/2 xi.xi - (1/beta) lse(beta X xi),    p(xi) = exp(-beta E(xi)) / Z

exp(-beta E(xi)) = sum_mu exp(-beta |xi - x_mu|^2 / 2) exp(beta |x_mu|^2 / 2): a sum of Gaussian
bumps, each integrating to (2 pi / beta)^(d/2) exp(beta |x_mu|^2 / 2). So p is a mixture of
Gaussians N(x_mu, I / beta) with weights pi = softmax(beta |x_mu|^2 / 2), and

log Z = (d/2) log(2 pi / beta) + lse_mu(beta |x_mu|^2 / 2)

The softmax weights r_mu(xi) = softmax(beta X xi)_mu are the posterior p(mu | xi) of the
mixture (the two differ by a factor exp(-beta |xi|^2 / 2) common to every mu). With
nll = mean_n [beta E(xi_n)] + log Z,

d nll / d x_mu = beta (pi_mu x_mu - mean_n r_mu(xi_n) xi_n)

The second term pulls each pattern towards the data that attend to it; the first, from
log Z, pulls it back towards the origin in proportion to its mixture weight pi_mu, which
grows with |x_mu|^2 (a pattern cannot claim probability just by growing). At a stationary
point pi_mu x_mu = mean_n r_mu(xi_n) xi_n.

Every sum over patterns is a log-sum-exp: finite for beta in [1e-3, 1e3] and d up to 4096.
Training is Adam (Kingma and Ba; beta1 = 0.9, beta2 = 0.999), whose steps do not scale with
beta, on the patterns only (beta fixed).
"""
from __future__ import annotations

import math

import numpy as np

from .landscape import grid_axis
from .numerics import logsumexp, logsumexp_softmax, softmax
from .validation import as_rng, check_array

BETA_MIN, BETA_MAX = 1e-3, 1e3
MAX_D = 4096
ADAM = (0.9, 0.999, 1e-8)


def check_beta(beta) -> float:
    try:
        b = float(beta)
    except (TypeError, ValueError):
        raise ValueError(f"beta must be a number, got {beta!r}") from None
    if not (math.isfinite(b) and BETA_MIN <= b <= BETA_MAX):
        raise ValueError(f"beta must be in [{BETA_MIN:g}, {BETA_MAX:g}], got {beta}")
    return b


def _points(a, what: str, d: int | None = None) -> np.ndarray:
    """A table of points (n, d) (one point a row), with d dimensions when d is given."""
    A = check_array(a, what, one_row=True, layout="one point per row", max_cols=MAX_D)
    if d is not None and A.shape[1] != d:
        raise ValueError(f"{what} have {A.shape[1]} dimensions but the patterns have {d}")
    return A


def _checked(X, data, beta):
    X = _points(X, "the patterns")
    return X, (None if data is None else _points(data, "the data", X.shape[1])), check_beta(beta)


# ------------------------------------------------------------------ the density

def mixture_weights(X, beta: float = 1.0) -> np.ndarray:
    """pi (N,): softmax(beta |x_mu|^2 / 2), the weight of each Gaussian."""
    X, _, beta = _checked(X, None, beta)
    return softmax(0.5 * beta * np.sum(X * X, axis=1))


def log_partition(X, beta: float = 1.0) -> float:
    """log Z = (d/2) log(2 pi / beta) + lse(beta |x_mu|^2 / 2)."""
    X, _, beta = _checked(X, None, beta)
    return float(_log_partition(X, beta))


def energy(X, points, beta: float = 1.0) -> np.ndarray:
    """E (n,) = 1/2 |xi|^2 - (1/beta) lse(beta X xi) for each row of points."""
    return _energy(*_checked(X, points, beta))


def log_density(X, points, beta: float = 1.0) -> np.ndarray:
    """log p (n,) = -beta E - log Z."""
    return _log_density(*_checked(X, points, beta))


def nll(X, data, beta: float = 1.0) -> float:
    """The mean over the rows of data of -log p(row)."""
    return float(-np.mean(log_density(X, data, beta)))


def responsibilities(X, data, beta: float = 1.0) -> np.ndarray:
    """r (n, N) = softmax(beta X xi) for each row: attention weights, and the posterior
    p(mu | xi) of the mixture."""
    X, D, beta = _checked(X, data, beta)
    return softmax(beta * D @ X.T, axis=1)


def nll_grad(X, data, beta: float = 1.0) -> np.ndarray:
    """d nll / d X (N, d) = beta (pi_mu x_mu - mean_n r_mu(xi_n) xi_n)."""
    return _nll_grad(*_checked(X, data, beta))


def plane_grid(X, beta: float, kind: str, limit: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(axis (n,), Z (n, n)): log p (kind "density") or E ("energy") of patterns in the plane,
    X (N, 2), on the n x n grid over [-limit, limit]^2. Z[i, j] is the value at the point
    (axis[j], axis[i]): rows go up the second coordinate, as a contour's z."""
    if kind not in ("density", "energy"):
        raise ValueError(f"kind must be 'density' or 'energy', got {kind!r}")
    X, _, beta = _checked(X, None, beta)
    if X.shape[1] != 2:
        raise ValueError(f"a grid in the plane needs patterns of 2 values, got {X.shape[1]}")
    axis = grid_axis(-limit, limit, n)  # (n,)
    U, V = np.meshgrid(axis, axis)  # (n, n): U[i, j] = axis[j], V[i, j] = axis[i]
    P = np.c_[U.ravel(), V.ravel()]  # (n^2, 2)
    Z = _log_density(X, P, beta) if kind == "density" else _energy(X, P, beta)  # (n^2,)
    return axis, Z.reshape(U.shape)


# the same without the checks, for the training loop (its arrays were checked once)

def _energy(X, P, beta):
    return 0.5 * np.sum(P * P, axis=1) - logsumexp(beta * P @ X.T) / beta


def _log_partition(X, beta):
    return (0.5 * X.shape[1] * math.log(2 * math.pi / beta)
            + logsumexp(0.5 * beta * np.sum(X * X, axis=1)))


def _log_density(X, P, beta):
    return -beta * _energy(X, P, beta) - _log_partition(X, beta)


def _nll(X, D, beta) -> float:
    return float(-np.mean(_log_density(X, D, beta)))


def _nll_grad(X, D, beta):
    return _nll_and_grad(X, D, beta)[1]


def _nll_and_grad(X, D, beta):
    """(nll, d nll / d X), sharing the scores beta D X^T and their log-sum-exp."""
    S = D @ (beta * X.T)                                                      # (n, N)
    lse, S = logsumexp_softmax(S, axis=1, out=S)      # (n,), r (n, N) in S's memory: one exp
    half = 0.5 * beta * np.sum(X * X, axis=1)                                 # (N,)
    log_z = 0.5 * X.shape[1] * math.log(2 * math.pi / beta) + logsumexp(half)
    value = float(np.mean(0.5 * beta * np.einsum("nd,nd->n", D, D) - lse) + log_z)
    pull = (D.T @ S).T / D.shape[0]                                           # (N, d)
    push = softmax(half)[:, None] * X                                         # (N, d)
    return value, beta * (push - pull)


def nll_and_grad(X, data, beta: float = 1.0) -> tuple[float, np.ndarray]:
    """(nll, nll_grad) in one pass: what a training step needs."""
    return _nll_and_grad(*_checked(X, data, beta))


def sample(X, beta: float, n: int, rng=None) -> tuple[np.ndarray, np.ndarray]:
    """n exact draws from p: a component mu ~ pi, then x_mu + (standard normal) / sqrt(beta).
    Returns (points (n, d), components (n,))."""
    X, _, beta = _checked(X, None, beta)
    if isinstance(n, bool) or int(n) != n or not 0 <= n <= 1_000_000:
        raise ValueError(f"the number of samples must be a whole number from 0 to 1,000,000, "
                         f"got {n}")
    gen = as_rng(rng)
    mu = gen.choice(X.shape[0], size=int(n), p=mixture_weights(X, beta))
    return X[mu] + gen.standard_normal((int(n), X.shape[1])) / math.sqrt(beta), mu


# ------------------------------------------------------------------ learning the patterns

class Trainer:
    """Adam on the patterns to lower the NLL of `data` (beta fixed). `held_out`, if given, is
    scored after every step too. history / held hold the NLL before the first step and after
    each one; path the patterns at each of those times (kept only if keep_path: images are
    large)."""

    def __init__(self, X0, data, beta: float = 1.0, lr: float = 0.05, held_out=None,
                 keep_path: bool = True):
        X, D, self.beta = _checked(X0, data, beta)
        if X.shape[0] > D.shape[0]:
            raise ValueError(f"More patterns ({X.shape[0]}) than training points "
                             f"({D.shape[0]}): use at most as many patterns as points.")
        self.data = D
        self.held_out = None if held_out is None else _points(held_out, "the held-out data",
                                                              X.shape[1])
        lr = float(lr)
        if not (math.isfinite(lr) and 0 < lr <= 10):
            raise ValueError(f"the learning rate must be in (0, 10], got {lr}")
        self.lr = lr
        self.X = X.copy()
        self._m, self._v, self.t = np.zeros_like(X), np.zeros_like(X), 0
        self.keep_path = keep_path
        self.path = [self.X.copy()] if keep_path else []
        loss, self._g = _nll_and_grad(self.X, D, self.beta)
        self.history = [loss]
        self.held = [] if self.held_out is None else [_nll(self.X, self.held_out, self.beta)]

    def step(self, k: int = 1) -> "Trainer":
        b1, b2, eps = ADAM
        for _ in range(int(k)):
            g = self._g  # at the current patterns, computed with their NLL
            self.t += 1
            self._m = b1 * self._m + (1 - b1) * g
            self._v = b2 * self._v + (1 - b2) * g * g
            m_hat, v_hat = self._m / (1 - b1 ** self.t), self._v / (1 - b2 ** self.t)
            self.X = self.X - self.lr * m_hat / (np.sqrt(v_hat) + eps)
            if self.keep_path:
                self.path.append(self.X.copy())
            loss, self._g = _nll_and_grad(self.X, self.data, self.beta)
            self.history.append(loss)
            if self.held_out is not None:
                self.held.append(_nll(self.X, self.held_out, self.beta))
        return self


# ------------------------------------------------------------------ memory, from the sizes alone

def train_bytes(n: int, N: int, d: int, steps: int, held: int = 0, keep_path: bool = True) -> int:
    """Peak bytes of Trainer(X0 (N, d), data (n, d), held_out (held, d)).step(steps): the
    patterns with Adam's moments and gradient and one step's temporaries (about a dozen arrays
    of N x d), the (n + held) x N scores, the NLL after every step, and the patterns at every
    step when keep_path (float64 data is used as given, not copied)."""
    path = (8 * N * d + 256) * (steps + 1) if keep_path else 0
    return 8 * 12 * N * d + 8 * 3 * (n + held) * N + path + 64 * (steps + 1) + 2 ** 13
