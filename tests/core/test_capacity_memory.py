"""The capacity lab's memory: each run's peak, estimated before it runs (curves.peak_bytes,
phase.peak_bytes), against the peak tracemalloc measures (NumPy reports its arrays to it);
the peak set by the byte budget, not by the trial count; and chunks that change no result.

The estimate must hold the measured peak (so that a run the page lets through stays within
ui.serving.budget.RUN_BYTES) and be at most twice it (so that it refuses nothing it could run). Tiny
runs are left out of the second bound: their peak is a few hundred kB of Python objects that
the estimate rounds up to stores.SMALL."""

import numpy as np
import pytest

from hopfield_core.capacity import curves, phase, rules, runs
from hopfield_core.capacity.stores import BUDGET, Stream
from tests.support.memory_probe import traced_peak

MB = 2 ** 20


@pytest.fixture(autouse=True)
def one_math_thread():
    """As the app runs them (ui/serving/boot.py): on a busy machine two BLAS threads only wait.
    (threadpoolctl is the app's, not the core's: without it the BLAS keeps its threads.)"""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield
        return
    with threadpool_limits(1):
        yield


# the links of the issue (the curves link runs on page open; trials=100 after Run), and a
# heavy run of every variant; the budget, where given, smaller than the app's (a quicker run
# that fills its batches all the same)
CURVES = [
    ("modern", 1000, [1, 3000], 20, 0.0, {"beta": 1.0}),      # the link: was ~0.9 GB
    ("modern", 1000, [3000], 100, 0.0, {"beta": 1.0}),        # ... with trials=100: +4.5 GB
    ("modern", 400, [10, 2000], 20, 0.1, {"beta": 1.0}),
    ("classical-sync", 2000, [100, 270], 50, 0.0, {}),
    ("classical-async", 300, list(range(10, 61, 10)), 20, 0.1, {}),
    ("classical-async", 1000, [100, 110, 120, 130], 80, 0.0, {"budget": 30 * MB}),  # 2 batches
    ("dense", 300, [100, 3000], 10, 0.0, {"degree": 3}),
    ("dense", 1000, [3000], 4, 0.0, {"degree": 3}),
    ("exponential", 500, [2000], 10, 0.1, {"beta": 1.0}),
]
TINY = [("classical-sync", 100, [2, 30], 20, 0.0, {}), ("modern", 50, [5, 50], 10, 0.1, {})]


def _curve_peak(variant, d, ns, trials, flip, params, budget=BUDGET):
    return traced_peak(lambda: curves.success_points(variant, d, ns, trials, flip, 0,
                                                       budget=budget, **params))


@pytest.mark.parametrize("variant, d, ns, trials, flip, params", CURVES)
def test_a_curves_peak_is_estimated_within_a_factor_two(variant, d, ns, trials, flip, params):
    params = dict(params)
    budget = params.pop("budget", BUDGET)
    estimate = curves.peak_bytes(variant, d, ns, trials, budget)
    got = _curve_peak(variant, d, ns, trials, flip, params, budget)
    assert got <= estimate <= 2 * got, (got / MB, estimate / MB)
    assert estimate <= budget


@pytest.mark.parametrize("variant, d, ns, trials, flip, params", TINY)
def test_a_tiny_runs_peak_is_held_by_its_estimate(variant, d, ns, trials, flip, params):
    got = _curve_peak(variant, d, ns, trials, flip, params)
    assert got <= curves.peak_bytes(variant, d, ns, trials) <= 2 * MB


@pytest.mark.parametrize("d, grid, trials, load, sweeps", [
    (400, 15, 16, 0.24, 2),   # the ph_d=400&ph_grid=15&ph_trials=16: was +3.2 GB
    (400, 20, 16, 0.5, 1),    # the page's largest phase diagram
    (200, 12, 4, 0.24, 3),
])
def test_a_phase_diagrams_peak_is_estimated_within_a_factor_two(d, grid, trials, load, sweeps):
    loads, temps = np.linspace(load / grid, load, grid), np.linspace(0.0, 1.2, grid)
    estimate = phase.peak_bytes(d, loads, temps, trials)
    got = traced_peak(lambda: phase.phase_diagram(d, loads, temps, trials, sweeps, 1, rng=0))
    assert got <= estimate <= 2 * got, (got / MB, estimate / MB)
    assert estimate <= BUDGET


@pytest.mark.parametrize("variant, d, N, params", [("modern", 500, 1000, {"beta": 1.0}),
                                                   ("classical-sync", 500, 1000, {}),
                                                   ("dense", 1000, 4000, {"degree": 3})])
def test_the_peak_does_not_grow_with_the_trials(variant, d, N, params):
    """Five times the trials: the same chunks, the same peak (but for the few bytes a trial
    keeps of its result)."""
    budget = 24 * MB
    chunk, _ = runs.layout(variant, d, N, 1000, budget)
    assert 2 < chunk < 10
    one, five = (_curve_peak(variant, d, [N], k * chunk, 0.0, params, budget) for k in (1, 5))
    assert five <= one + MB // 4 and five <= budget, (one / MB, five / MB)
    assert (curves.peak_bytes(variant, d, [N], 5 * chunk, budget)
            == curves.peak_bytes(variant, d, [N], chunk, budget))


def test_the_phase_diagrams_peak_does_not_grow_with_the_grid_or_the_trials():
    small = phase.peak_bytes(400, np.linspace(0.05, 0.5, 10), range(10), 4)
    big = phase.peak_bytes(400, np.linspace(0.025, 0.5, 20), range(20), 16)
    assert small < big <= BUDGET
    got = traced_peak(lambda: phase.phase_diagram(400, np.linspace(0.025, 0.5, 20),
                                                    np.linspace(0, 1.2, 20), 16, 1, 1, rng=0))
    assert got <= big


def test_a_smaller_budget_gives_a_smaller_peak():
    budget = 40 * MB
    args = ("modern", 1000, [3000], 20, 0.0, {"beta": 1.0})
    assert curves.peak_bytes(*args[:4], budget=budget) <= budget
    assert _curve_peak(*args, budget=budget) <= budget


def test_one_trial_over_the_budget_is_said_by_the_estimate():
    """A store of one trial that does not fit: the run still goes a trial at a time, and
    peak_bytes says it is over (the page refuses it before it starts)."""
    assert curves.peak_bytes("modern", 1000, [20_000], 1) > BUDGET
    assert curves.peak_bytes("classical-sync", 1000, [20_000], 5) > BUDGET
    assert curves.peak_bytes("modern", 1000, [3000], 200) <= BUDGET


def test_the_separation_check_makes_no_copy_of_the_patterns():
    X = Stream(0, 500, 2000, 4, 0).patterns(0, 4)  # 32 MB
    got = traced_peak(lambda: rules.separation_guaranteed(X, 1.0))
    assert got < X.nbytes / 20, got
