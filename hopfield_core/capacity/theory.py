"""Storage capacity of binary associative memories: textbook estimates and a direct count.

# N patterns, d neurons, n the degree of a polynomial interaction, rho the corrupted fraction

Estimates for random (uncorrelated) +-1 patterns, all returned as log10 so that
2^(d/2) never overflows:
  classical, a few % of bits wrong (Amit, Gutfreund & Sompolinsky 1985):
      N_max ~= 0.138 d
  degree n, no errors (Krotov & Hopfield 2016; n = 2 is McEliece et al. 1987):
      N_max ~= d^(n-1) / (2 (2n-3)!! ln d)
  exponential F(z) = exp(z) (Demircigil et al. 2017):
      N_max = exp(alpha d) for any alpha < I(1 - 2 rho) / 2,
      I(x) = ((1 + x) ln(1 + x) + (1 - x) ln(1 - x)) / 2;  rho = 0 gives 2^(d/2).
Letters and photos are far from random: they share most of their pixels, so a
direct count (`stable_patterns`) is the honest capacity check for a given store.
"""
from __future__ import annotations

import math

import numpy as np

_SUPERSCRIPT = str.maketrans("0123456789-", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076"
                                             "\u2077\u2078\u2079\u207b")
CLASSICAL_ALPHA = 0.138  # Amit, Gutfreund & Sompolinsky: the "0.14 d" of the textbooks


def classical_capacity(d: int) -> float:
    """0.138 d: random patterns a Hebbian network of d neurons recalls with few errors."""
    _check_d(d)
    return CLASSICAL_ALPHA * d


def odd_double_factorial(k: int) -> int:
    """k!! = k (k-2) (k-4) ... 1 for odd k >= -1 ((-1)!! = 1)."""
    if k < -1 or k % 2 == 0:
        raise ValueError(f"odd_double_factorial takes an odd k >= -1, got {k}")
    return math.prod(range(k, 0, -2))


def log10_polynomial_capacity(d: int, degree: int) -> float:
    """log10 of d^(n-1) / (2 (2n-3)!! ln d): random patterns an F(z) = z^n memory of
    d neurons recalls without a single wrong bit (Krotov & Hopfield 2016)."""
    _check_d(d)
    if int(degree) != degree or degree < 2:
        raise ValueError(f"degree must be a whole number >= 2, got {degree}")
    n = int(degree)
    return ((n - 1) * math.log10(d) - math.log10(2 * odd_double_factorial(2 * n - 3))
            - math.log10(math.log(d)))


def exponential_alpha(rho: float = 0.0) -> float:
    """I(1 - 2 rho) / 2: the exponential memory stores exp(alpha d) random patterns for any
    alpha below this and still repairs a fraction rho of flipped bits (Demircigil et al.)."""
    if not (0.0 <= rho < 0.5):
        raise ValueError(f"rho, the fraction of corrupted bits, must be in [0, 0.5), got {rho}")
    x = 1.0 - 2.0 * rho  # in (0, 1]
    # (1 - x) ln(1 - x) -> 0 as x -> 1
    tail = (1.0 - x) * math.log(1.0 - x) if x < 1.0 else 0.0
    return 0.5 * (0.5 * ((1.0 + x) * math.log(1.0 + x) + tail))


def log10_exponential_capacity(d: int, rho: float = 0.0) -> float:
    """log10 of exp(alpha d) at the bound alpha = I(1 - 2 rho) / 2 (2^(d/2) for rho = 0)."""
    _check_d(d)
    return exponential_alpha(rho) * d / math.log(10.0)


def format_log10(log10_value: float) -> str:
    """A count given by its log10, for people: "361", "123,457", "3.4 \u00d7 10\u00b3\u2078"."""
    if not math.isfinite(log10_value):
        raise ValueError(f"log10_value must be finite, got {log10_value}")
    if log10_value < 6:
        return f"{10.0 ** log10_value:,.0f}"
    exponent = math.floor(log10_value)
    mantissa = 10.0 ** (log10_value - exponent)
    if mantissa >= 9.95:  # 9.96 x 10^k would print as 10.0 x 10^k
        mantissa, exponent = 1.0, exponent + 1
    return f"{mantissa:.1f} \u00d7 10{str(exponent).translate(_SUPERSCRIPT)}"


def textbook_capacity(variant: str, d: int, flip: float = 0.0, degree: int = 3,
                      beta: float = 1.0) -> float:
    """The textbook capacity in patterns of a variant of success_curve (curves.VARIANTS), for
    queries with a fraction `flip` of bits flipped; math.inf where there is no count to give.

    classical-sync, classical-async: 0.138 d. dense (degree n): d^(n-1) / (2 (2n-3)!! ln d).
    exponential: exp(alpha d) at rho = flip (at most 0.49; inf past 1e300), Demircigil et
    al.'s theorem for F(z) = e^z, which is this network at beta = 1 only (F(z) =
    e^(beta (z - d)) is e^z rescaled when beta = 1): none at other beta (at small beta the
    memory behaves nearly classically). modern: none (it stores no such count)."""
    if variant in ("classical-sync", "classical-async"):
        return classical_capacity(d)
    if variant == "dense":
        return 10 ** log10_polynomial_capacity(d, degree)
    if variant == "exponential":
        log10 = log10_exponential_capacity(d, min(flip, 0.49))
        return 10 ** log10 if beta == 1.0 and log10 < 300 else math.inf
    if variant == "modern":
        return math.inf
    raise ValueError(f"unknown variant {variant!r}")


def stable_patterns(model, X: np.ndarray) -> np.ndarray:
    """(N,) bool: which stored patterns (rows of X) are fixed points of `model`.

    `model` is any binary memory with `step(states, mode="sync")` (ClassicalHopfield,
    DenseAssociativeMemory). A pattern that is not a fixed point is lost even when
    the query is the clean pattern itself: the first sign that a store is over capacity.
    """
    S = np.asarray(X, dtype=np.float64)
    if S.ndim != 2:
        raise ValueError(f"X must be (N, d) patterns, got shape {S.shape}")
    return np.all(model.step(S, mode="sync") == S, axis=1)


def interaction_shape(z: np.ndarray, d: int, interaction: str = "polynomial", degree: int = 3,
                      beta: float = 1.0, rectified: bool = False) -> np.ndarray:
    """F(z) / F(d) for overlaps z in [-d, d]: how much a pattern at overlap z counts,
    relative to a perfect match. The sharper this curve, the less the other patterns'
    crosstalk disturbs the retrieval of the nearest one.

    polynomial: (z / d)^n (rectified: max(z, 0) first); exponential: exp(beta (z - d)).
    """
    _check_d(d)
    z = np.asarray(z, dtype=np.float64)
    if interaction == "exponential":
        return np.exp(beta * (z - d))
    if interaction != "polynomial":
        raise ValueError(f"interaction must be 'polynomial' or 'exponential', got {interaction!r}")
    r = z / d
    if rectified:
        r = np.maximum(r, 0.0)
    return r ** int(degree)


def _check_d(d) -> None:
    if int(d) != d or d < 2:
        raise ValueError(f"d, the number of neurons, must be a whole number >= 2, got {d}")
