"""A model's heads at once: one attention step against the Hopfield fixed point, layer by layer.

# L layers, H heads, N tokens (keys = stored patterns; every token's query is a state),
# d = d_head; per layer Q, K (H, N, d)

For each layer: every (token, head) pair's k90 after one step (the Transformer's own attention)
and at the fixed point of the head's update from that token's query (fixed_point.iterate); each
pair's kind and each head's kind (its median k90) by the one definition in kinds.py; the share
of pairs whose kind changes, and of those, the share that got sharper (k90 fell).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import fixed_point, kinds


@dataclass(frozen=True)
class LayerHeads:
    """One layer's heads on one input."""

    N: int
    beta: float
    one_step_k90: np.ndarray  # (H, N) ints: each query's k90 under the real attention
    fixed_k90: np.ndarray     # (H, N) ints: at the fixed point reached from that query
    iterations: np.ndarray    # (H, N) updates to converge
    converged: np.ndarray     # (H, N) bool
    # (H, N) bool: the key holding the most weight is the head's longest key (largest |k|),
    # after one step and at the fixed point. After the first update the state is a blend of
    # keys, so the weights compare keys with keys: long keys pull (issue 43)
    one_step_longest: np.ndarray
    fixed_longest: np.ndarray

    @property
    def one_step_pair_kind(self) -> np.ndarray:  # (H, N) kind codes
        return kinds.kind_codes(self.one_step_k90, self.N)

    @property
    def fixed_pair_kind(self) -> np.ndarray:     # (H, N)
        return kinds.kind_codes(self.fixed_k90, self.N)

    @property
    def one_step_head_k90(self) -> np.ndarray:   # (H,) medians
        return kinds.head_k90(self.one_step_k90)

    @property
    def fixed_head_k90(self) -> np.ndarray:      # (H,)
        return kinds.head_k90(self.fixed_k90)

    @property
    def one_step_head_kind(self) -> np.ndarray:  # (H,) kind codes
        return kinds.kind_codes(self.one_step_head_k90, self.N)

    @property
    def fixed_head_kind(self) -> np.ndarray:     # (H,)
        return kinds.kind_codes(self.fixed_head_k90, self.N)

    @property
    def one_step_retrieval(self) -> np.ndarray:  # (H, N) bool: a retrieval pair after one step
        return self.one_step_pair_kind == kinds.RETRIEVAL

    @property
    def fixed_retrieval(self) -> np.ndarray:     # (H, N) bool
        return self.fixed_pair_kind == kinds.RETRIEVAL

    @property
    def changed(self) -> np.ndarray:             # (H, N) bool: the pair's kind changed
        return self.one_step_pair_kind != self.fixed_pair_kind

    @property
    def sharper(self) -> np.ndarray:             # (H, N) bool: changed, with a smaller k90
        return self.changed & (self.fixed_k90 < self.one_step_k90)


def default_beta(d: int) -> float:
    """The Transformer's own scale: 1/sqrt(d_head)."""
    return 1.0 / math.sqrt(d)


def analyse_layer(Q, K, beta: float | None = None, tol: float = fixed_point.TOL,
                  max_iter: int = fixed_point.MAX_ITER) -> LayerHeads:
    """Q, K (H, N, d) of one layer on one input (or (N, d) for one head)."""
    Q, K = np.asarray(Q, dtype=np.float64), np.asarray(K, dtype=np.float64)
    if Q.ndim == 2:
        Q, K = Q[None], K[None]
    if Q.shape != K.shape:
        raise ValueError(f"a layer's queries and keys must have one shape (H, N, d), got "
                         f"{Q.shape} and {K.shape}")
    beta = default_beta(Q.shape[2]) if beta is None else float(beta)
    longest = longest_key(K)[:, None]                             # (H, 1)
    P = kinds.attention_weights(Q, K, beta)                       # (H, N, N)
    one, one_longest = kinds.k90(P), np.argmax(P, axis=-1) == longest  # (H, N) each
    del P  # freed before the iteration: the peak stays analyse_bytes'
    fp = fixed_point.iterate(Q, K, beta, tol=tol, max_iter=max_iter)
    return LayerHeads(N=K.shape[1], beta=beta, one_step_k90=np.asarray(one),
                      fixed_k90=np.asarray(kinds.k90(fp.weights)),
                      iterations=fp.iterations, converged=fp.converged,
                      one_step_longest=one_longest,
                      fixed_longest=np.argmax(fp.weights, axis=-1) == longest)


def top_keys(Q, K, beta: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One head's queries Q and keys K (N, d): the key each query puts its most weight on after
    one step and at the fixed point of the head's update, (N,) indices each."""
    Q, K = np.asarray(Q, dtype=np.float64), np.asarray(K, dtype=np.float64)
    beta = default_beta(Q.shape[-1]) if beta is None else float(beta)
    one = np.argmax(kinds.attention_weights(Q, K, beta), axis=-1)
    fixed = np.argmax(fixed_point.iterate(Q, K, beta).weights[0], axis=-1)
    return one, fixed


def key_rank(K: np.ndarray, j: int) -> int:
    """Where key j stands among the keys K (N, d) by length: 1 for the longest."""
    norms = np.einsum("nd,nd->n", np.asarray(K, dtype=np.float64), np.asarray(K, dtype=np.float64))
    return int(np.sum(norms > norms[j])) + 1


def longest_key(K: np.ndarray) -> np.ndarray:
    """Each head's longest key (the largest |k_j|): (H, N, d) -> (H,) indices."""
    return np.argmax(np.einsum("hnd,hnd->hn", K, K), axis=-1)


PAIR_FIELDS = ("one_step_k90", "fixed_k90", "iterations", "converged", "one_step_longest",
               "fixed_longest")  # LayerHeads' (H, N) arrays, one entry per (head, token) pair


@dataclass(frozen=True)
class LongestPull:
    """How often a retrieval pair (k90 <= 2) lands on its head's longest key, after one step
    and at the fixed point, beside chance (1/N)."""

    one_step: float   # share of the one-step retrieval pairs whose top key is the longest
    fixed: float      # the same at the fixed point
    one_step_pairs: int
    fixed_pairs: int
    chance: float


def longest_pull(layers: list[LayerHeads]) -> LongestPull:
    """The pull of the longest keys over a model's (or a pooled set's) retrieval pairs."""
    def share(retrieval, longest):
        n = sum(int(r.sum()) for r in retrieval)
        hit = sum(int((r & g).sum()) for r, g in zip(retrieval, longest))
        return (hit / n if n else 0.0), n

    one, n_one = share([a.one_step_retrieval for a in layers],
                       [a.one_step_longest for a in layers])
    fixed, n_fixed = share([a.fixed_retrieval for a in layers], [a.fixed_longest for a in layers])
    return LongestPull(one, fixed, n_one, n_fixed, 1.0 / layers[0].N)


def analyse_model(layers, beta: float | None = None, tol: float = fixed_point.TOL,
                  max_iter: int = fixed_point.MAX_ITER) -> list[LayerHeads]:
    """layers: a sequence of (Q, K), each (H, N, d): one LayerHeads per layer, analysed one
    layer at a time (stacking all layers into one batch measured slower here, its (L H, N, N)
    scores falling out of the cache, and it needs L times the memory)."""
    return [analyse_layer(Q, K, beta, tol, max_iter) for Q, K in layers]


def split_inputs(layer: LayerHeads, B: int) -> list[LayerHeads]:
    """A layer analysed for B inputs at once, their heads stacked (B H, N) (the heads are
    independent), as B LayerHeads of H heads each."""
    part = lambda a: np.asarray(a).reshape(B, -1, *np.shape(a)[1:])  # noqa: E731 - (B, H, N)
    arrays = {name: part(getattr(layer, name)) for name in PAIR_FIELDS}
    return [LayerHeads(N=layer.N, beta=layer.beta, **{n: a[b] for n, a in arrays.items()})
            for b in range(B)]


def pooled(inputs: list[list[LayerHeads]]) -> list[LayerHeads]:
    """Several inputs of one length N as one: each layer's pairs side by side (H, sum of N),
    so that a head's median k90 is taken over every token of every input."""
    if not inputs:
        raise ValueError("pooling needs at least one input")
    Ns = {layer.N for model in inputs for layer in model}
    if len(Ns) != 1:
        raise ValueError(f"pooled inputs must all have one length N, got {sorted(Ns)}")
    out = []
    for layers in zip(*inputs):
        cat = lambda name: np.concatenate([getattr(a, name) for a in layers], axis=1)  # noqa: E731
        out.append(LayerHeads(N=layers[0].N, beta=layers[0].beta,
                              **{name: cat(name) for name in PAIR_FIELDS}))
    return out


@dataclass(frozen=True)
class KindsTable:
    """Heads per kind per layer, one step against fixed point."""

    one_step: np.ndarray       # (L, 3) heads per kind (columns in kinds.KINDS order)
    fixed: np.ndarray          # (L, 3)
    changed_share: np.ndarray  # (L,) share of (token, head) pairs whose kind changed
    sharper_share: np.ndarray  # (L,) of the changed pairs, the share whose k90 fell
    median_iterations: np.ndarray  # (L,)
    converged_share: np.ndarray    # (L,)
    paper_one_step: np.ndarray     # (L, 4) heads per class of the paper (kinds.PAPER_CLASSES)
    paper_fixed: np.ndarray        # (L, 4)
    pull: "LongestPull"            # how often retrieval pairs land on their head's longest key

    @property
    def total_one_step(self) -> np.ndarray:  # (3,)
        return self.one_step.sum(axis=0)

    @property
    def total_fixed(self) -> np.ndarray:     # (3,)
        return self.fixed.sum(axis=0)


def _share(mask: np.ndarray, of: np.ndarray | None = None) -> float:
    n = mask.size if of is None else int(of.sum())
    return float(mask.sum() / n) if n else 0.0


def kinds_table(layers: list[LayerHeads]) -> KindsTable:
    count = lambda codes, n=3: np.bincount(codes.astype(np.int64), minlength=n)  # noqa: E731
    classes = len(kinds.PAPER_CLASSES)
    return KindsTable(
        one_step=np.stack([count(a.one_step_head_kind) for a in layers]),
        fixed=np.stack([count(a.fixed_head_kind) for a in layers]),
        changed_share=np.array([_share(a.changed) for a in layers]),
        sharper_share=np.array([_share(a.sharper, a.changed) for a in layers]),
        median_iterations=np.array([float(np.median(a.iterations)) for a in layers]),
        converged_share=np.array([_share(a.converged) for a in layers]),
        paper_one_step=np.stack([count(kinds.paper_class_codes(a.one_step_head_k90, a.N), classes)
                                 for a in layers]),
        paper_fixed=np.stack([count(kinds.paper_class_codes(a.fixed_head_k90, a.N), classes)
                              for a in layers]),
        pull=longest_pull(layers))


def changed_share(layers: list[LayerHeads]) -> float:
    """The share of all (token, head) pairs of the model whose kind changed."""
    return float(sum(a.changed.sum() for a in layers) / sum(a.changed.size for a in layers))


def analyse_bytes(H: int, N: int, d: int) -> int:
    """Peak bytes of analyse_layer on one layer (float64): the float64 Q and K with k90's
    weights, sorted copy, cumulative sums and comparison (H, N, N each, the last in bytes);
    or the fixed-point iteration (fixed_point.iterate_bytes, which counts Q and K); or its
    states and weights kept while k90 reads them; plus the (H, N) results and temporaries."""
    k90_peak = 8 * (3 * H * N * N) + H * N * N
    return (max(8 * 3 * H * N * d + k90_peak, fixed_point.iterate_bytes(H, N, N, d))
            + 8 * 16 * H * N + 4096)


def analyse_model_bytes(L: int, H: int, N: int, d: int) -> int:
    """Peak bytes of analyse_model on L layers of one shape: one layer's analysis at a time,
    with the (H, N) results of the layers before it."""
    return analyse_bytes(H, N, d) + 8 * 4 * (L - 1) * H * N
