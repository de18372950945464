"""The energy metric's change per step (ui.player.dynamics_frames.energy_change, shared by the classical,
dense and modern pages): rounding noise reads "no change", a real change, however small, is
shown. "Real" is decided against an exact computation of the change, not the helper."""
import numpy as np
import pytest

from hopfield_core import ModernHopfield
from tests.support.apptest import open_app
from tests.support.player import at_step
from tests.support.samples import HOX, OQX, TOL, patterns, query
from ui.player.dynamics_frames import (
    NO_CHANGE,
    ROUNDING_ULPS,
    energy_change,
    rounding_tolerance,
)


def exact_changes(X, states, beta) -> np.ndarray:
    """E(xi_t) - E(xi_{t-1}) for the modern energy, from the difference itself:
    -(1/beta) log sum_mu p_mu(a) e^(beta x_mu.(b - a)) + (b - a).a + |b - a|^2 / 2 with
    p(a) = softmax(beta X a), so nothing of size E is subtracted: accurate to ~eps |b - a|."""
    out = []
    for a, b in zip(states[:-1], states[1:]):
        z = beta * X @ a
        p = np.exp(z - z.max())
        p /= p.sum()
        delta = b - a
        lse = np.log1p(np.sum(p * np.expm1(beta * X @ delta))) / beta
        out.append(-lse + delta @ a + 0.5 * delta @ delta)
    return np.array(out)


def test_the_tolerance_is_ulps_of_the_dtype_at_the_energy_scale():
    E = np.array([0.5, -2.0, 0.25])
    assert rounding_tolerance(E, np.float64) == ROUNDING_ULPS * 2.0 ** -52 * 2.0
    assert rounding_tolerance(E, np.float32) == ROUNDING_ULPS * 2.0 ** -23 * 2.0
    assert rounding_tolerance(E, np.int8) == rounding_tolerance(E, np.float64)  # bipolar states


def test_a_change_below_the_tolerance_reads_no_change_a_real_small_one_is_shown():
    E = np.array([0.537, 0.1099, 0.1099 - 2.2e-16, 0.1099 - 2.2e-16 - 6.45e-12])
    assert energy_change(E, 0) is None                      # step 0: nothing to compare with
    assert energy_change(E, 1) == "-0.427"
    assert energy_change(E, 2) == NO_CHANGE                 # one ulp of 1: rounding
    assert energy_change(E, 3) == "-6.45e-12"               # small, but 30 000 ulps: real
    # the same numbers computed in float32 are equal to within its rounding
    assert energy_change(np.array([1.0, 1.0 - 1e-6]), 1, np.float32) == NO_CHANGE
    assert energy_change(np.array([1.0, 1.0 - 1e-6]), 1, np.float64) == "-1e-06"


def energy_metric(at, t):
    """(value, change, tone) of the modern player's energy metric at step t."""
    step = at_step(at, "modern", t)
    assert step.p["panels"]["energy_metric"]["label"] == "Energy"
    return step.metric()


def test_the_modern_page_says_no_change_where_the_floats_cannot_tell():
    """The default run (H, O, X, beta = 10) ends with a computed change of -2.2e-16 whose
    exact value is 1e-16: noise, so "no change", grey and without an arrow."""
    X = patterns(HOX)
    ref = ModernHopfield(X, 10.0).run(query(X), max_steps=100, tol=TOL)
    computed = np.diff(ref.energies)
    exact = exact_changes(X, ref.states, 10.0)
    tol = rounding_tolerance(ref.energies, X.dtype)
    assert computed[-1] != 0 and abs(computed[-1]) <= tol and abs(exact[-1]) <= tol
    at = open_app("modern")
    assert energy_metric(at, "end")[1:] == (NO_CHANGE, "off")  # grey, no arrow
    assert energy_metric(at, 1)[1:] == (f"{computed[0]:.3g}", "good")  # a fall: green, down


def test_the_modern_page_shows_a_real_change_of_a_few_picounits():
    """O, Q, X at beta = 10 ends with -6.45e-12: the exact change agrees to 4 digits (the
    run converges geometrically, each step about 0.28 of the last), so it is shown."""
    X = patterns(OQX)
    ref = ModernHopfield(X, 10.0).run(query(X), max_steps=100, tol=TOL)
    computed, exact = np.diff(ref.energies), exact_changes(X, ref.states, 10.0)
    assert exact[-1] == pytest.approx(computed[-1], rel=1e-4)
    assert exact[-1] / exact[-2] == pytest.approx(0.276, abs=0.002)
    assert abs(exact[-1]) > 1000 * rounding_tolerance(ref.energies, X.dtype)
    at = open_app("modern", query={"presets": ",".join(OQX), "beta": "10"})
    _, delta, tone = energy_metric(at, "end")
    assert delta == f"{computed[-1]:.3g}" == "-6.45e-12" and tone == "good"


@pytest.mark.parametrize("beta", [10.0, 50.0, 1.0])
@pytest.mark.parametrize("keys", [HOX, OQX])
def test_no_change_exactly_where_the_exact_change_is_below_rounding(keys, beta):
    """Every step of the modern runs the page shows: the helper hides a change only when the
    exact change is below the tolerance too, and shows every change that is not."""
    X = patterns(keys)
    ref = ModernHopfield(X, beta).run(query(X), max_steps=100, tol=TOL)
    tol = rounding_tolerance(ref.energies, X.dtype)
    exact = exact_changes(X, ref.states, beta)
    for t in range(1, ref.steps + 1):
        shown = energy_change(ref.energies, t, X.dtype)
        if shown == NO_CHANGE:
            assert abs(exact[t - 1]) <= tol, (t, exact[t - 1])
        else:
            assert abs(exact[t - 1]) > tol / 2 and float(shown) == pytest.approx(exact[t - 1], rel=5e-3)
