"""Softmax and log-sum-exp: the one home of the shifted exponential every network uses, and of
the rounding bound below which two log-sum-exps (or two sums of powers) count as equal.

# a (..., N) scores along `axis` (the last one by default); the result drops that axis for
# an lse, keeps a's shape for a softmax

    lse(a)     = m + log sum_mu exp(a_mu - m),      m = max_mu a_mu
    softmax(a) = exp(a - m) / sum_mu exp(a_mu - m)
Shifting by the max keeps every exponent <= 0: no overflow at any scale, and the largest term
is exactly 1, so the sum is >= 1 and its log finite. `out` computes in place: pass a itself
(or another array of its shape) and no temporary the size of a is made (the capacity lab's
chunks and the model step count on it: hopfield_core/capacity/rules.py, modern.py).
"""
from __future__ import annotations

import numpy as np

EPS = float(np.finfo(np.float64).eps)  # 2 u, u = 2^-53 the unit roundoff


def _shifted_exp(a: np.ndarray, axis: int, out: np.ndarray | None,
                 floor: float | None) -> tuple[np.ndarray, np.ndarray]:
    """(exp(a - m) written into `out` (a new array when None), m = max along axis (keepdims)).
    floor: exponents below it are raised to it before exp (see logsumexp)."""
    a = np.asarray(a)
    if out is None and not np.issubdtype(a.dtype, np.inexact):
        a = a.astype(np.float64)  # whole-number scores: exp needs a float array to write in
    top = np.max(a, axis=axis, keepdims=True)
    e = np.subtract(a, top, out=out)
    if floor is not None:
        np.maximum(e, floor, out=e)
    np.exp(e, out=e)
    return e, top


def softmax(a: np.ndarray, axis: int = -1, out: np.ndarray | None = None) -> np.ndarray:
    """softmax along `axis` (a's shape), shifted by the max: no overflow at any scale.
    out: where to compute (a itself: in place)."""
    e, _ = _shifted_exp(a, axis, out, None)
    e /= np.sum(e, axis=axis, keepdims=True)
    return e


def logsumexp(a: np.ndarray, axis: int = -1, out: np.ndarray | None = None,
              floor: float | None = None) -> np.ndarray:
    """log sum exp(a) along `axis` (a's shape without it), shifted by the max.

    out: where exp(a - max) is computed (a itself: in place; its values are lost).
    floor: exponents a - max below it are raised to it first. At floor = -700 each such term is
    under 1e-304 either way, and a sum that holds e^0 = 1 cannot feel it (bit for bit), while
    exp's underflow path costs up to 20 times more (the capacity lab's rules use it)."""
    e, top = _shifted_exp(a, axis, out, floor)
    return np.squeeze(top, axis) + np.log(np.sum(e, axis=axis))


def log_mean_exp(a: np.ndarray, axis: int = -1) -> np.ndarray:
    """log( (1/N) sum exp a ) = lse(a) - log N, in one piece (the mean taken before the log)."""
    e, top = _shifted_exp(a, axis, None, None)
    return np.squeeze(top, axis) + np.log(np.mean(e, axis=axis))


def logsumexp_softmax(a: np.ndarray, axis: int = -1, out: np.ndarray | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """(lse(a), softmax(a)) from one exp: what a gradient of an lse needs (ebm.py).
    out: where the softmax is computed (a itself: in place)."""
    e, top = _shifted_exp(a, axis, out, None)
    total = np.sum(e, axis=axis, keepdims=True)
    lse = np.squeeze(top, axis) + np.log(np.squeeze(total, axis))
    e /= total
    return lse, e


def tie_tolerance(interaction: str, N: int, degree: int, scale: np.ndarray) -> np.ndarray:
    """How far a computed difference of a binary neuron's two choices can be from the exact
    one: below it the two count as equal (the dense rule, hopfield_core/dense.py, and its
    batched copy, hopfield_core/capacity/rules.py). A first-order bound on the rounding
    error, u per operation, of the two comparisons (overlaps are whole numbers, exact in
    float64), generous in the count of terms:

    exponential, la - lb with la = logsumexp(a) = m + log S, a_mu = beta z_mu, m = max a,
      L = scale = max(|la|, |lb|); lse moves by sum_mu w_mu da_mu (w = softmax(a)), and
      w_mu |t| <= 1/e for t = a_mu - la <= 0:
      beta z_mu (u sum w |a| <= u (L + N / e)), a_mu - m (u |a_mu - m| each, weighted: <= u N/e),
      exp (u), the sum of N terms ((N - 1) u), log (u log N <= u N), m + log S (u L): at most
      u (2 L + 4 N) per side, so la - lb is within 2 u (2 L + 4 N) = 2 EPS (L + 2 N).
    polynomial, sum_mu F(z_mu^+ / d) - F(z_mu^- / d), F(z) = z^n, S = scale = sum |F+| + |F-|:
      z / d (u) raised to n ((n + 1) u relative), each difference (u), the sum of N
      ((N - 1) u of the sum of |differences| <= S): u (n + N + 1) S; twice that, EPS (n + N + 1) S.

    At N = 40, d = 100, beta = 2 that is at most 1.3e-13, about 5 ulps of the scale
    (ulp(200) = 2.8e-14; the rounding measured there stays under 1e-14). The fixed relative
    1e-12 used before (up to 2e-10 there) took real differences of 4e-11 in log(-E), each
    choice's, for ties (tests/core/test_dense_ties.py)."""
    if interaction == "exponential":
        return 2 * EPS * (scale + 2 * N)
    return EPS * (degree + N + 1) * scale
