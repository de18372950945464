"""hopfield_core.numerics, the one home of softmax and log-sum-exp: against the formulas written
out in plain Python (math.fsum), at scales where the unshifted formula overflows, in place
without a temporary the size of the input, and routed through by every core module.

# a (..., N) scores; the lse drops the axis, the softmax keeps it
"""
import ast
import math
from pathlib import Path

import numpy as np
import pytest

from hopfield_core.numerics import log_mean_exp, logsumexp, logsumexp_softmax, softmax
from tests.support.memory_probe import traced

CORE = Path(__file__).resolve().parents[2] / "hopfield_core"


def plain_lse(row) -> float:
    return math.log(math.fsum(math.exp(v) for v in row))


def plain_softmax(row) -> list[float]:
    total = math.fsum(math.exp(v) for v in row)
    return [math.exp(v) / total for v in row]


@pytest.mark.parametrize("shape, axis", [((7,), -1), ((3, 5), -1), ((3, 5), 0), ((2, 3, 4), 1)])
def test_against_the_formulas_written_out(shape, axis):
    rng = np.random.default_rng(len(shape) + axis)
    a = rng.normal(scale=4.0, size=shape)
    rows = np.moveaxis(a, axis, -1).reshape(-1, shape[axis])  # one row per softmax
    lse = np.reshape(logsumexp(a, axis), -1)  # the other axes in the same order as rows
    p = np.moveaxis(softmax(a, axis), axis, -1).reshape(-1, shape[axis])
    kept = tuple(n for k, n in enumerate(shape) if k != axis % len(shape))
    assert logsumexp(a, axis).shape == kept
    assert softmax(a, axis).shape == shape
    for r, row in enumerate(rows):
        assert lse[r] == pytest.approx(plain_lse(row), rel=1e-14, abs=1e-14)
        np.testing.assert_allclose(p[r], plain_softmax(row), rtol=1e-13)
    np.testing.assert_allclose(log_mean_exp(a, axis), logsumexp(a, axis) - math.log(shape[axis]),
                               rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("scale", [1e3, 1e6, 1e300])
def test_no_overflow_where_the_unshifted_formula_does(scale):
    """exp(1000) overflows: shifted by the max, lse(c + a) = c + lse(a), softmax(c + a) =
    softmax(a) at any c, and the largest term gets the most weight."""
    a = np.array([0.0, -1.0, -3.0, -0.5])
    c = scale
    with np.errstate(over="raise"):
        assert logsumexp(c + a) == pytest.approx(c + plain_lse(a), rel=1e-15)
        np.testing.assert_allclose(softmax(c + a), plain_softmax(a), rtol=1e-12 * max(1, c / 1e3))
        assert logsumexp(-c + a) == pytest.approx(-c + plain_lse(a), rel=1e-15)
    assert np.argmax(softmax(np.array([scale, -scale, 0.0]))) == 0


def test_whole_number_and_float32_scores():
    np.testing.assert_allclose(softmax(np.array([1, 2, 3])), plain_softmax([1, 2, 3]), rtol=1e-15)
    assert logsumexp(np.array([0, 0])) == pytest.approx(math.log(2))
    a = np.array([[1.0, 2.0, 4.0]], dtype=np.float32)
    assert softmax(a).dtype == np.float32 and logsumexp(a).dtype == np.float32


def test_in_place_is_the_same_numbers_without_a_copy():
    rng = np.random.default_rng(1)
    a = rng.normal(scale=30.0, size=(200, 500))  # 0.8 MB
    expect_p, expect_l = softmax(a), logsumexp(a)
    both = logsumexp_softmax(a)
    np.testing.assert_array_equal(both[0], expect_l)
    np.testing.assert_array_equal(both[1], expect_p)
    for fn, expect in ((softmax, expect_p), (logsumexp, expect_l),
                       (lambda x, out: logsumexp_softmax(x, out=out)[1], expect_p)):
        b = a.copy()
        peak, got = traced(lambda: fn(b, out=b))
        np.testing.assert_array_equal(got, expect)
        assert peak < b.nbytes / 10, peak  # a row's worth, not a copy of the scores
    b = a.copy()
    assert softmax(b, out=b) is b


def test_the_floor_leaves_the_sum_bit_for_bit_and_is_applied():
    """Exponents below -700 raised to -700: each term is under 1e-304, nothing next to 1."""
    rng = np.random.default_rng(2)
    a = np.concatenate([rng.normal(size=(50, 3)), -800.0 - 1e4 * rng.random((50, 6))], axis=1)
    np.testing.assert_array_equal(logsumexp(a, floor=-700.0), logsumexp(a))
    # a floor that matters changes the value as it says: -5 raised to -1
    assert logsumexp(np.array([0.0, -5.0]), floor=-1.0) == pytest.approx(math.log(1 + math.e ** -1))


def _shifted_exp_copies(path: Path) -> list[str]:
    """Functions of a module that take an exp of something minus a max themselves: np.exp
    next to np.max / .max( in one function body."""
    tree = ast.parse(path.read_text())
    found = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            src = ast.get_source_segment(path.read_text(), fn) or ""
            if "exp(" in src and ("np.max(" in src or ".max(" in src):
                found.append(f"{path.name}:{fn.name}")
    return found


def test_no_module_of_the_core_writes_its_own_softmax_or_lse():
    """Every softmax and log-sum-exp of the NumPy core goes through numerics (the Energy
    Transformer's torch code, hopfield_core/et, uses torch.logsumexp)."""
    copies = []
    for path in sorted(CORE.rglob("*.py")):
        if path.name == "numerics.py" or "et" in path.relative_to(CORE).parts[:-1]:
            continue
        copies += _shifted_exp_copies(path)
        text = path.read_text()
        assert "def softmax" not in text and "def _logsumexp" not in text, path
    assert copies == []
