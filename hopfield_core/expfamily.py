"""Attention as an exponential family (Shim 2021) and a Transformer step as energy descent.

# N keys, d features, n tokens, L layers
# K (N, d) keys, q (d,) a query, p (N,) attention weights
# Z (n, d) a token cloud, Zs (L+1, n, d) the cloud before the first layer and after each

1. The family. The keys are the support, the query is the natural parameter:
     p(q) = softmax(beta K q)                    the attention weights
     A(q) = (1/beta) lse(beta K q)               the log-normalizer (divided by beta)
     grad A(q) = K^T p = E_p[k]                  the attention average (Shim, eq. 4)
     hess A(q) = beta (K^T diag(p) K - m m^T) = beta Cov_p[k],   m = K^T p
   since d p_j / d q = beta p_j (k_j - m). A covariance is positive semidefinite: A is convex.

2. Expansion and contraction. Self-attention with tied maps (W_Q = W_K = W_V = identity):
     attn(Z)_i = sum_j softmax_j(beta z_i . z_j) z_j = grad A(z_i) with the keys K = Z;
     one layer: Z <- Z + attn(Z), then optionally Z <- LN(Z).
   This is a unit ascent step on sum_i A(z_i) only with the keys held fixed: as the keys are
   the tokens too, the full gradient is (P + P^T) Z, P (n, n) the attention weights.
   LN is torch.nn.functional.layer_norm without gain or bias, per token over its d features:
     LN(z) = (z - mean(z)) / sqrt(var(z) + eps),   var the biased variance, eps = 1e-5,
   so each token gets feature mean 0 and norm sqrt(d var / (var + eps)) <= sqrt(d), and the
   spread (mean distance to the centroid) is at most sqrt(d). The tokens lie on the sphere
   of radius ~sqrt(d) in the plane 1 . z = 0: in d = 2 only the two points +-(1, -1).
   Where the expansion fails. Near beta = 0, attn(Z)_i = zbar + beta C z_i + O(beta^2), C the
   covariance of the cloud: the centroid goes to ~2 zbar while the centred cloud is only
   stretched by I + beta C, not at all as beta -> 0. A cloud whose centroid is far from the
   origin (it drifts there when not centred: at small beta the centroid doubles per layer) attends,
   every token alike, to the same few tokens: Z + attn(Z) is then a translation, and the spread
   stops growing (the "offset blob"). With LN at small beta the residual adds the same vector
   to every token and LN pulls them together: the cloud collapses to a point.
   Limits: at most MAX_LAYERS = 20 layers, entries at most MAX_ABS = 1e3, beta in [1e-3, 1e3]
   (below, A ~ log(N) / beta). A layer at most doubles the largest token norm, so without LN
   the scores stay below beta (2^20 MAX_ABS sqrt(d))^2, about 1e21 d; softmax subtracts its max.

3. Energy descent (seed 000, section 4). Tokens Z attend to fixed memories K, values = keys:
     E(z) = 1/2 |z|^2 - (1/beta) lse(beta K z)   (ModernHopfield.energy without its constants)
     tied:   z <- K^T softmax(beta K z) = z - grad E(z),  the residual form z + (attn(z) - z).
   As A is convex, A(z') >= A(z) + grad A(z) . (z' - z) and grad A(z) = z', so
     E(z') <= E(z) - 1/2 |z' - z|^2     (concave-convex procedure; Ramsauer et al. 2020, Th. 1).
     untied: z <- softmax(beta (z W_Q) . (K W_K)) (K W_V)   (row vectors, like attention.py);
   it is no gradient step of E, and E measured along it can rise.
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np

from .numerics import logsumexp, softmax
from .validation import check_array

BETA_MIN, BETA_MAX = 1e-3, 1e3
MAX_ABS = 1e3        # the largest entry of K, q or Z
MAX_LAYERS = 20
MAX_SIZE = 2000      # the most tokens, keys or features
MAX_FEATURES = 4096  # ... but a key or query may have this many features (the app's largest
                     # image has d = 3 x 32 x 32 = 3072 values)
LN_EPS = 1e-5        # torch's default
CLOUDS = ("blob", "two clusters", "ring", "offset blob")


# ------------------------------------------------------------------ checks

# one input array within this module's limits (validation.check_array names it in each message)
_matrix = partial(check_array, max_rows=MAX_SIZE, max_cols=MAX_SIZE, max_abs=MAX_ABS)


def _beta(beta) -> float:
    b = float(beta) if isinstance(beta, (int, float, np.number)) else math.nan
    if not (math.isfinite(b) and BETA_MIN <= b <= BETA_MAX):
        raise ValueError(f"beta must be a number in [{BETA_MIN:g}, {BETA_MAX:g}], got {beta}")
    return b


def _whole(v, what: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
        raise ValueError(f"{what} must be a whole number from {lo} to {hi}, got {v!r}")
    return int(v)


def _keys_query(K, q, beta):
    K = _matrix(K, "the keys K", max_cols=MAX_FEATURES)
    q = _matrix(q, "the query q", ndim=1, max_cols=MAX_FEATURES)
    if q.shape != (K.shape[1],):
        raise ValueError(f"the query must have shape ({K.shape[1]},) to match the keys, "
                         f"got {q.shape}")
    return K, q, _beta(beta)


# ------------------------------------------------------------------ 1. the exponential family

def attention_weights(K, q, beta: float) -> np.ndarray:
    """p = softmax(beta K q): (N,), sums to 1."""
    K, q, beta = _keys_query(K, q, beta)
    return softmax(beta * (K @ q))


def log_normalizer(K, q, beta: float) -> float:
    """A(q) = lse(beta K q) / beta."""
    K, q, beta = _keys_query(K, q, beta)
    return float(logsumexp(beta * (K @ q)) / beta)


def log_normalizer_grad(K, q, beta: float) -> np.ndarray:
    """grad A(q) = K^T softmax(beta K q): the attention average, (d,)."""
    K, q, beta = _keys_query(K, q, beta)
    return K.T @ softmax(beta * (K @ q))


def log_normalizer_hessian(K, q, beta: float) -> np.ndarray:
    """hess A(q) = beta (K^T diag(p) K - m m^T) = beta Cov_p[k]: (d, d), symmetric PSD.

    Computed as beta B^T B, B = sqrt(p) (K - m) the weighted keys about their mean: PSD in
    floating point too, and made exactly symmetric."""
    K, q, beta = _keys_query(K, q, beta)
    B = _weighted_keys(K, q, beta)
    H = beta * (B.T @ B)  # (d, d)
    return 0.5 * (H + H.T)


def hessian_spectrum(K, q, beta: float) -> np.ndarray:
    """The Hessian's eigenvalues that can be nonzero, largest first, (N,): H = beta B^T B shares
    its nonzero eigenvalues with the N x N matrix beta B B^T (its rank is at most N - 1, since
    the rows of B weighted by sqrt(p) sum to zero), so no d x d matrix is formed."""
    K, q, beta = _keys_query(K, q, beta)
    B = _weighted_keys(K, q, beta)
    return np.sort(np.linalg.eigvalsh(beta * (B @ B.T)))[::-1]


def _weighted_keys(K: np.ndarray, q: np.ndarray, beta: float) -> np.ndarray:
    """B = sqrt(p) (K - m), the keys about their attention average m, weighted: (N, d)."""
    p = softmax(beta * (K @ q))  # (N,)
    return np.sqrt(p)[:, None] * (K - p @ K)


def finite_difference_grad(K, q, beta: float, h: float = 1e-5) -> np.ndarray:
    """grad A(q) by central differences (A(q + h e_i) - A(q - h e_i)) / 2h, (d,): a check on
    the closed form that needs no calculus (autograd is the other: hopfield_core.reference)."""
    K, q, beta = _keys_query(K, q, beta)
    A = [logsumexp(beta * (K @ (q + s * h * e))) / beta for e in np.eye(len(q)) for s in (1, -1)]
    return (np.array(A[0::2]) - np.array(A[1::2])) / (2 * h)


# ------------------------------------------------------------------ 2. expansion and contraction

def self_attention(Z, beta: float) -> np.ndarray:
    """attn(Z)_i = sum_j softmax_j(beta z_i . z_j) z_j: (n, d), tied maps."""
    Z = _matrix(Z, "the token cloud Z")
    return softmax(_beta(beta) * (Z @ Z.T)) @ Z  # (n, n) @ (n, d)


def layer_norm(Z) -> np.ndarray:
    """(z - mean z) / sqrt(var z + LN_EPS) for each token (row) over its features: (n, d)."""
    return _layer_norm(_matrix(Z, "the token cloud Z", max_abs=np.inf))


def _layer_norm(Z: np.ndarray) -> np.ndarray:
    C = Z - Z.mean(axis=-1, keepdims=True)  # (n, d)
    return C / np.sqrt(np.mean(C * C, axis=-1, keepdims=True) + LN_EPS)


def token_layers(Z, layers: int, beta: float, layer_norm: bool = False) -> np.ndarray:
    """The cloud before the first layer and after each: (L+1, n, d).

    One layer: Z <- Z + attn(Z), then LN(Z) when layer_norm (module docstring)."""
    Z, beta = _matrix(Z, "the token cloud Z"), _beta(beta)
    L = _whole(layers, "layers", 0, MAX_LAYERS)
    out = [Z]
    for _ in range(L):
        Z = Z + softmax(beta * (Z @ Z.T)) @ Z  # (n, d)
        if layer_norm:
            Z = _layer_norm(Z)
        out.append(Z)
    return np.stack(out)


def spread(Z) -> float:
    """Mean distance of the tokens to their centroid."""
    Z = _matrix(Z, "the token cloud Z", max_abs=np.inf)
    return float(np.mean(np.linalg.norm(Z - Z.mean(axis=0), axis=-1)))


def spreads(Zs) -> np.ndarray:
    """spread of each layer of token_layers' result (L+1, n, d): (L+1,)."""
    Zs = np.asarray(Zs)
    if Zs.ndim != 3:
        raise ValueError(f"spreads takes the layers (L+1, n, d), got shape {Zs.shape}")
    return np.array([spread(Z) for Z in Zs])


def top_singular_value(Z) -> float:
    """The largest singular value of the centred cloud (n, d)."""
    Z = _matrix(Z, "the token cloud Z", max_abs=np.inf)
    return float(np.linalg.svd(Z - Z.mean(axis=0), compute_uv=False)[0])


def token_cloud(name: str, n: int, d: int, seed: int = 0) -> np.ndarray:
    """A preset cloud (n, d), the same for the same (name, n, d, seed).

    blob: N(0, I); two clusters: N(+-2 e_1, 0.3^2 I), alternating; ring: radius 2 in the
    first two features, noise 0.1 (d >= 2); each shifted so that its centroid is the origin.
    offset blob: the blob moved to centroid 4 e_1."""
    if name not in CLOUDS:
        raise ValueError(f"the cloud must be one of {', '.join(CLOUDS)}; got {name!r}")
    n, d = _whole(n, "n, the number of tokens", 1, MAX_SIZE), _whole(d, "d", 1, MAX_SIZE)
    if name == "ring" and d < 2:
        raise ValueError(f"a ring needs d >= 2 features, got d = {d}")
    rng = np.random.default_rng(_whole(seed, "seed", 0, 2**32 - 1))
    e1 = np.eye(d)[0]
    if name in ("blob", "offset blob"):
        Z = rng.normal(size=(n, d))
    elif name == "two clusters":
        signs = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)[:, None]  # (n, 1)
        Z = 2.0 * signs * e1 + 0.3 * rng.normal(size=(n, d))
    else:
        angle = 2 * np.pi * np.arange(n) / n  # (n,)
        Z = 0.1 * rng.normal(size=(n, d))
        Z[:, :2] += 2.0 * np.stack([np.cos(angle), np.sin(angle)], axis=1)
    Z -= Z.mean(axis=0)  # centroid at the origin, as Shim assumes
    return Z + 4.0 * e1 if name == "offset blob" else Z


# ------------------------------------------------------------------ 3. energy descent

def _memories_tokens(K, Z, beta):
    K = _matrix(K, "the memories K")
    Z = _matrix(Z, "the token cloud Z", max_abs=MAX_ABS ** 2)  # room for untied outputs K W_V
    if Z.shape[1] != K.shape[1]:
        raise ValueError(f"the tokens have {Z.shape[1]} features but the memories {K.shape[1]}")
    return K, Z, _beta(beta)


def tied_energy(K, Z, beta: float) -> np.ndarray:
    """E(z_i) = 1/2 |z_i|^2 - (1/beta) lse(beta K z_i) for each token: (n,)."""
    K, Z, beta = _memories_tokens(K, Z, beta)
    return 0.5 * np.sum(Z * Z, axis=-1) - logsumexp(beta * (Z @ K.T)) / beta


def random_weights(d: int, seed: int = 0, scale: float = 1.0):
    """(W_Q, W_K, W_V), each I + scale G / sqrt(d) with G (d, d) standard normal, drawn in
    that order; scale = 0 gives the tied maps."""
    d, seed = _whole(d, "d", 1, MAX_SIZE), _whole(seed, "seed", 0, 2**32 - 1)
    if not (isinstance(scale, (int, float)) and 0 <= scale <= 10):
        raise ValueError(f"scale must be a number in [0, 10], got {scale!r}")
    rng = np.random.default_rng(seed)
    return tuple(np.eye(d) + scale * rng.normal(size=(d, d)) / math.sqrt(d) for _ in range(3))


def attention_layers(K, Z, beta: float, layers: int, weights=None) -> np.ndarray:
    """Tokens Z attending to fixed memories K, layer after layer: (L+1, n, d).

    weights None (tied): z <- K^T softmax(beta K z), one CCCP step on tied_energy;
    weights (W_Q, W_K, W_V), each (d, d): z <- softmax(beta (z W_Q) . (K W_K)) (K W_V)."""
    K, Z, beta = _memories_tokens(K, Z, beta)
    L, d = _whole(layers, "layers", 0, MAX_LAYERS), K.shape[1]
    if weights is None:
        W_Q = W_K = W_V = np.eye(d)
    else:
        if len(weights) != 3:
            raise ValueError(f"weights must be (W_Q, W_K, W_V), got {len(weights)} matrices")
        W_Q, W_K, W_V = (_matrix(W, name) for W, name in zip(weights, ("W_Q", "W_K", "W_V")))
        for W, name in zip((W_Q, W_K, W_V), ("W_Q", "W_K", "W_V")):
            if W.shape != (d, d):
                raise ValueError(f"{name} must be ({d}, {d}) to match the memories, got {W.shape}")
    keys, values = K @ W_K, K @ W_V  # (N, d)
    out = [Z]
    for _ in range(L):
        Z = softmax(beta * ((Z @ W_Q) @ keys.T)) @ values  # (n, N) @ (N, d)
        out.append(Z)
    return np.stack(out)


# ------------------------------------------------------------------ memory, from the sizes alone

def family_bytes(N: int, d: int, hessian: bool = False) -> int:
    """Peak bytes of one call of section 1 on N keys of d features: the checked copy of K
    and the weighted keys B (with K - m), about four N x d arrays, and B B^T; with hessian,
    log_normalizer_hessian's d x d B^T B, its transpose sum and its half (three d x d)."""
    return 8 * (4 * N * d + 2 * N * N + (3 * d * d if hessian else 0) + 4 * d) + 2 ** 12


def layers_bytes(n: int, d: int, layers: int) -> int:
    """Peak bytes of token_layers (or attention_layers) for n tokens of d features: every
    layer's cloud in a list and stacked, and one layer's n x n scores with the softmax's
    temporaries (three of them) and Z + attn(Z)."""
    return 8 * (2 * n * d * (layers + 1) + 3 * n * n + 3 * n * d) + 128 * (layers + 1) + 2 ** 12
