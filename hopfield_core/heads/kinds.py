"""One-step attention of a head, k90 and the three kinds of fixed points (Ramsauer et al. 2020).

# H heads, N tokens (the stored patterns are the N keys), d = d_head dimensions
# K (H, N, d) keys, Q (H, N, d) queries (K = h W_K^T + b_K etc.), P (H, N, N) attention weights

A head is a modern Hopfield network whose stored patterns are its keys K, queried by its
queries Q, at beta = 1/sqrt(d_head): one attention step is P = softmax(beta Q K^T), row by row.

k90 is the modern page's (hopfield_core.modern.k90): the fewest tokens whose attention weights
sum to >= 90 %. The kinds refine the modern page's `fixed_point_kind` for attention over
tokens, with cut-offs of this project's own, not the paper's: Ramsauer et al. (sec. 4) sort
heads by their median k-bar into four classes, at N/2, N/8 and N/32 (class IV, k-bar <= N/32,
near a single pattern, cannot occur with N < 32 tokens). The three kinds here:

    retrieval   k90 <= 2          (the modern page's "single" is k90 == 1: one token, or a token
                                   and its neighbour, is a look-up of a well-separated pattern)
    global      k90 >= N / 2      (the modern page asks k90 >= 0.9 N: attention over half the
                                   sentence or more already averages, for a head)
    metastable  in between        (an average over a subset of the tokens)

A (token, head) pair has the kind of its own k90; a head has the kind of its median k90 over
its queries (tokens). The thresholds below are the one definition; pages quote KIND_RULE.
"""
from __future__ import annotations

import math

import numpy as np

from ..modern import k90
from ..numerics import softmax

RETRIEVAL_MAX_K90 = 2    # k90 <= this: retrieval of (nearly) a single token
GLOBAL_SHARE = 0.5       # k90 >= this share of N: global averaging
KINDS = ("global", "metastable", "retrieval")  # codes 0, 1, 2
GLOBAL, METASTABLE, RETRIEVAL = 0, 1, 2
KIND_RULE = (f"k90 is the fewest tokens holding 90 % of a query's attention. Retrieval: "
             f"k90 <= {RETRIEVAL_MAX_K90}; global: k90 >= N/2 (N tokens); metastable: in between. "
             "A head's kind is that of its median k90 over its tokens.")

# Ramsauer et al. (sec. 4): heads sorted by the median k-bar over their queries, at N/2, N/8 and
# N/32 of the N patterns (tokens); class IV is near a single pattern
PAPER_CLASSES = ("I", "II", "III", "IV")
PAPER_SHARES = (1 / 2, 1 / 8, 1 / 32)  # the lower bounds (exclusive) of classes I, II, III
PAPER_RULE = ("The paper's four classes: a head's median k90 over its queries above N/2 is "
              "class I, above N/8 class II, above N/32 class III, and N/32 or fewer class IV "
              "(near a single token), N being the number of tokens.")

__all__ = ["RETRIEVAL_MAX_K90", "GLOBAL_SHARE", "KINDS", "KIND_RULE", "GLOBAL", "METASTABLE",
           "RETRIEVAL", "PAPER_CLASSES", "PAPER_RULE", "attention_weights", "k90", "kind_codes",
           "kind_name", "head_k90", "paper_class_codes"]


def attention_weights(Q: np.ndarray, K: np.ndarray, beta: float) -> np.ndarray:
    """softmax(beta Q K^T) along the keys: (..., Nq, N) for Q (..., Nq, d), K (..., N, d)."""
    Q, K = np.asarray(Q, dtype=np.float64), np.asarray(K, dtype=np.float64)
    if Q.shape[-1] != K.shape[-1] or Q.shape[:-2] != K.shape[:-2]:
        raise ValueError(f"queries {Q.shape} and keys {K.shape} do not fit together")
    scores = np.matmul(Q, np.swapaxes(K, -1, -2))  # (..., Nq, N)
    scores *= beta
    return softmax(scores, out=scores)


def global_min_k90(N: int) -> int:
    """The smallest k90 that counts as global among N tokens: ceil(N / 2), never below the
    retrieval bound + 1 (for N <= 4 no k90 is metastable)."""
    return max(RETRIEVAL_MAX_K90 + 1, math.ceil(GLOBAL_SHARE * N))


def kind_codes(k: np.ndarray, N: int) -> np.ndarray:
    """Kind codes (GLOBAL, METASTABLE, RETRIEVAL) of k90 values (ints, or a head's median,
    which may end in .5) among N tokens: same shape as k."""
    k = np.asarray(k, dtype=np.float64)
    codes = np.full(k.shape, METASTABLE, dtype=np.int8)
    codes[k <= RETRIEVAL_MAX_K90] = RETRIEVAL
    codes[k >= global_min_k90(N)] = GLOBAL
    return codes


def kind_name(k: float, N: int) -> str:
    """The kind of one k90 value among N tokens, as a word."""
    return KINDS[int(kind_codes(np.asarray(k), N))]


def head_k90(pair_k90: np.ndarray) -> np.ndarray:
    """A head's k90: the median over its tokens; (..., N) ints -> (...,) floats."""
    return np.median(np.asarray(pair_k90, dtype=np.float64), axis=-1)


def paper_class_codes(k: np.ndarray, N: int) -> np.ndarray:
    """The paper's class (0 to 3 for I to IV) of median k90 values among N tokens: same shape
    as k. Class IV needs a median of at most N/32: it cannot occur below 32 tokens."""
    k = np.asarray(k, dtype=np.float64)
    codes = np.full(k.shape, len(PAPER_CLASSES) - 1, dtype=np.int8)
    for code, share in reversed(list(enumerate(PAPER_SHARES))):
        codes[k > share * N] = code
    return codes
