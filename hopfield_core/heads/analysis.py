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
    one = kinds.k90(kinds.attention_weights(Q, K, beta))          # (H, N)
    fp = fixed_point.iterate(Q, K, beta, tol=tol, max_iter=max_iter)
    return LayerHeads(N=K.shape[1], beta=beta, one_step_k90=np.asarray(one),
                      fixed_k90=np.asarray(kinds.k90(fp.weights)),
                      iterations=fp.iterations, converged=fp.converged)


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
    arrays = {name: part(getattr(layer, name))
              for name in ("one_step_k90", "fixed_k90", "iterations", "converged")}
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
        out.append(LayerHeads(N=layers[0].N, beta=layers[0].beta, one_step_k90=cat("one_step_k90"),
                              fixed_k90=cat("fixed_k90"), iterations=cat("iterations"),
                              converged=cat("converged")))
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
                              for a in layers]))


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
