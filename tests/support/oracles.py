"""Independent computations the core is checked against (no code of the core here)."""
from __future__ import annotations


def k90_by_counting(p):
    """Add the largest weights one by one until they reach 90 %."""
    total, k = 0.0, 0
    for v in sorted(p, reverse=True):
        total += v
        k += 1
        if total >= 0.9 - 1e-12:
            return k
    return k
