"""What the capacity lab's text says, checked against the core's capacity computations."""
from __future__ import annotations

import math

from hopfield_core.capacity import (
    log10_polynomial_capacity,
    success_curve,
)


def test_the_numbers_the_capacity_page_states():
    from statistics import NormalDist

    from hopfield_core.capacity import ags
    from ui.pages.capacity_lab import explain

    assert round(100 * NormalDist().cdf(-math.sqrt(1 / 0.138)), 1) == 0.4  # "only 0.4 % of the bits"
    assert "0.4 % of the bits" in explain.CURVES
    wrong = (1 - ags.retrieval_overlap(ags.critical_alpha(0.0) - 1e-5, 0.0)) / 2
    assert round(100 * wrong, 1) == 1.6 and "about 1.6 % of bits wrong" in explain.CURVES
    c = success_curve("classical-sync", 500, [70, 80], 20, rng=0)  # N/d = 0.14, 0.16
    assert c.mean_overlap[0] >= 0.9 > c.mean_overlap[1]
    assert "between N/d = 0.14 and 0.16" in explain.CURVES
    small, large = (success_curve("classical-sync", d, [d // 4], 20, rng=0) for d in (100, 500))
    assert large.mean_overlap[0] < 0.4 and small.mean_overlap[0] > 0.6
    assert "below 0.4, while at d = 100 it is still above 0.6" in explain.CURVES
    assert 350 <= 10 ** log10_polynomial_capacity(100, 3) <= 370
    assert "about 360 patterns" in explain.prompts()


def test_the_page_says_the_dense_and_exponential_runs_are_synchronous():
    """Backed by tests/core/test_capacity_curves.py::
    test_the_dense_and_exponential_runs_are_synchronous_as_the_page_says."""
    from ui.pages.capacity_lab import explain

    assert "update every neuron at once from the same state" in explain.CURVES
