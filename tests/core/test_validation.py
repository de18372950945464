"""validation.check_array, the core's one input checker: every refusal names its subject, and
what it lets through is a float64 (or kept float32) array of the asked shape."""
import numpy as np
import pytest

from hopfield_core import ebm, expfamily
from hopfield_core.heads import fixed_point
from hopfield_core.modern import ModernHopfield
from hopfield_core.validation import check_array, check_patterns


@pytest.mark.parametrize("a, options, message", [
    (np.empty((0, 3)), {}, r"^the data must be a non-empty 2-D array, got shape \(0, 3\)$"),
    ([1.0, 2.0], {"ndim": (2, 3), "layout": "one point per row"},
     r"^the data must be a non-empty 2-D or 3-D array \(one point per row\), got shape \(2,\)"),
    ([["a", "b"]], {}, r"^the data must hold real numbers, got dtype <U1$"),
    ([[1j, 0]], {}, r"^the data must hold real numbers, got dtype complex128$"),
    ([[0.0, 1.0], [2.0, np.inf]], {}, r"^the data must be finite everywhere \(no NaN or infinite "
                                      r"values\), got inf at \[1, 1\]$"),
    (np.ones((3, 2)), {"max_rows": 2, "max_cols": 5},
     r"^the data must have at most 2 rows and 5 columns, got shape \(3, 2\)$"),
    (np.ones((1, 6)), {"max_cols": 5},
     r"^the data must have at most 5 columns, got shape \(1, 6\)$"),
    (np.full((2, 2), -7.0), {"max_abs": 5},
     r"^the data must have entries of size at most 5, got an entry of size 7$"),
])
def test_each_refusal_names_the_subject_and_the_limit(a, options, message):
    with pytest.raises(ValueError, match=message):
        check_array(a, "the data", **options)


def test_what_passes_is_float64_unless_float32_is_kept():
    row = check_array([1, 2, 3], "the tokens", one_row=True)
    assert row.shape == (1, 3) and row.dtype == np.float64
    x32 = np.ones((2, 2), np.float32)
    assert check_array(x32, "the keys", keep_float32=True) is x32
    assert check_array(x32, "the keys").dtype == np.float64
    x64 = np.ones((2, 2))
    assert check_array(x64, "the keys") is x64  # no copy of what is already right
    with pytest.raises(ValueError, match="non-empty 2-D"):
        check_array([1, 2, 3], "the tokens")  # without one_row a vector is not a table


def test_bipolar_patterns_are_always_the_networks_own_copy():
    X = np.array([[1.0, -1.0], [-1.0, 1.0]])
    checked = check_patterns(X, bipolar=True)
    assert checked is not X and not np.shares_memory(checked, X)
    np.testing.assert_array_equal(checked, X)
    assert check_patterns(X, bipolar=False) is X


@pytest.mark.parametrize("call, message", [
    (lambda: ModernHopfield([[1.0, np.nan]]), r"^the patterns must be finite everywhere"),
    (lambda: ebm.nll([[0.0, 1.0]], [[np.nan, 1.0]]), r"^the data must be finite everywhere"),
    (lambda: expfamily.token_layers([[np.inf, 0.0]], 1, 1.0), r"^the token cloud Z must be finite"),
    (lambda: expfamily.attention_weights(np.ones((2, 3)), [np.nan] * 3, 1.0),
     r"^the query q must be finite"),
    (lambda: fixed_point.iterate(np.ones((1, 2, 3)), np.ones((1, 0, 3)), 1.0),
     r"^the keys must be a non-empty 2-D or 3-D array \(N keys of d values, per head\), got"),
])
def test_every_core_module_names_its_subject(call, message):
    with pytest.raises(ValueError, match=message):
        call()
