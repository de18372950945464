"""capacity.theory.textbook_capacity: which textbook count belongs to which variant of
success_curve (the capacity lab draws it as a dashed line and scales its time estimates by it),
against the formulas written out."""
import math

import pytest

from hopfield_core.capacity.curves import VARIANTS
from hopfield_core.capacity.theory import textbook_capacity


@pytest.mark.parametrize("variant", ["classical-sync", "classical-async"])
def test_the_classical_networks_hold_0138_d_whatever_the_query(variant):
    for d in (64, 1000):
        for flip in (0.0, 0.2):
            assert textbook_capacity(variant, d, flip, degree=5) == pytest.approx(0.138 * d)


@pytest.mark.parametrize("d, n, double_factorial", [(100, 2, 1), (100, 3, 3), (400, 4, 15)])
def test_the_dense_network_holds_krotov_and_hopfields_count(d, n, double_factorial):
    expected = d ** (n - 1) / (2 * double_factorial * math.log(d))
    assert textbook_capacity("dense", d, 0.1, degree=n) == pytest.approx(expected, rel=1e-9)


def test_the_exponential_count_is_demircigils_at_beta_one_only():
    assert textbook_capacity("exponential", 30) == pytest.approx(2 ** 15, rel=1e-9)
    # a noisier query: exp(alpha d), alpha = I(1 - 2 rho) / 2 in nats
    x = 1 - 2 * 0.1
    alpha = ((1 + x) * math.log(1 + x) + (1 - x) * math.log(1 - x)) / 4
    assert textbook_capacity("exponential", 40, 0.1) == pytest.approx(math.exp(alpha * 40),
                                                                      rel=1e-9)
    assert textbook_capacity("exponential", 30, beta=0.05) == math.inf  # no theorem there
    assert textbook_capacity("exponential", 2000) == math.inf  # 2^1000: past 1e300
    # a flip of a half or more is capped at 0.49, where the bound is tiny but finite
    assert textbook_capacity("exponential", 40, 0.6) == textbook_capacity("exponential", 40, 0.49)
    assert 1 <= textbook_capacity("exponential", 40, 0.49) < 2


def test_the_modern_network_has_no_count_and_every_variant_is_known():
    assert textbook_capacity("modern", 100, beta=8.0) == math.inf
    for variant in VARIANTS:
        assert textbook_capacity(variant, 100) > 0
    with pytest.raises(ValueError, match="unknown variant"):
        textbook_capacity("classical", 100)
