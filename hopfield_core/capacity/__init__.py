"""Capacity of associative memories: textbook estimates (`theory`), measured success curves
and basin maps (`curves`), the classical network's phase diagram (`phase`), and the
Amit-Gutfreund-Sompolinsky retrieval boundary it is compared with (`ags`, which solves its
equations with `ags_solutions` and the Gaussian averages of `gauss_averages`)."""
from .theory import (CLASSICAL_ALPHA, classical_capacity, exponential_alpha, format_log10,
                     interaction_shape, log10_exponential_capacity, log10_polynomial_capacity,
                     odd_double_factorial, stable_patterns)
from .curves import (SUCCESS_OVERLAP, VARIANTS, Curve, Point, basin_map, success_curve,
                     success_point)

__all__ = [
    "CLASSICAL_ALPHA", "classical_capacity", "exponential_alpha", "format_log10",
    "interaction_shape", "log10_exponential_capacity", "log10_polynomial_capacity",
    "odd_double_factorial", "stable_patterns",
    "SUCCESS_OVERLAP", "VARIANTS", "Curve", "Point", "basin_map", "success_curve",
    "success_point",
]
