"""The capacity lab's estimates before a run (ui/pages/capacity_lab/cost.py): the sentences that refuse a
run over ui.serving.budget.RUN_BYTES or cost.MAX_SECONDS, the issue's links accepted, the bytes the
core's own estimators give, and the update counts the seconds model assumes against the
updates the core's runs really take (counted, not timed: benchmarks/bench_capacity_memory.py
prints the seconds beside CPU time)."""
import numpy as np
import pytest

from hopfield_core.capacity import curves, phase, rules
from ui.pages.capacity_lab import cost
from ui.serving.budget import RUN_BYTES

LINK_NS = cost.counts(1, 3000, 2, log=True)  # the issue's link: n_lo=1&n_hi=3000&points=2


def test_the_issues_curves_link_runs_at_once_and_with_trials_100_after_run():
    assert list(LINK_NS) == [1, 3000]
    assert cost.curves_refusal(["modern"], 1000, LINK_NS, 20) is None
    assert cost.curves_seconds(["modern"], 1000, LINK_NS, 20) <= cost.INSTANT_SECONDS
    assert cost.curves_refusal(["modern"], 1000, LINK_NS, 100) is None
    assert cost.curves_bytes(["modern"], 1000, LINK_NS, 100) <= RUN_BYTES
    assert cost.curves_seconds(["modern"], 1000, LINK_NS, 100) > cost.INSTANT_SECONDS


def test_a_store_too_large_for_memory_is_refused_with_the_limit_and_what_to_lower():
    ns = cost.counts(1, 20000, 2, log=True)  # one trial of 20 000 patterns of d = 1000: 160 MB
    seconds = cost.curves_seconds(["modern"], 1000, ns, 1)
    assert seconds < cost.INSTANT_SECONDS  # quick, yet it may not run
    need = curves.peak_bytes("modern", 1000, ns, 1, RUN_BYTES)
    assert cost.curves_refusal(["modern"], 1000, ns, 1) == (
        f"This curve would need about {need / 2**20:.0f} MB of the server's memory, even one "
        f"trial at a time; one run may use at most {RUN_BYTES / 2**20:.0f} MB, so that the "
        "class's server has room for everyone. Lower d or the largest N.")
    assert cost.curves_refusal(["modern"], 1000, cost.counts(1, 18000, 2, log=True), 1) is None


def test_a_run_too_long_is_refused_with_its_seconds_and_what_to_lower():
    ns = cost.counts(10, 300, 15, log=False)
    seconds = cost.curves_seconds(["classical-sync"], 1000, ns, 200)
    assert seconds > cost.MAX_SECONDS and cost.curves_bytes(["classical-sync"], 1000, ns, 200) \
        <= RUN_BYTES  # the trials are chunked: only the time is over
    assert cost.curves_refusal(["classical-sync"], 1000, ns, 200) == (
        f"This curve would take about {seconds:.0f} s of the server's time; one run may take at "
        f"most {cost.MAX_SECONDS:.0f} s, so that the class is not kept waiting. Lower d, the "
        "trials, the points or the largest N.")


def test_a_run_over_both_limits_names_both():
    ns = cost.counts(2, 100000, 15, log=True)
    said = cost.curves_refusal(["classical-sync", "dense"], 1000, ns, 200)
    assert "MB of the server's memory" in said and "s of the server's time" in said
    assert said.count("Lower") == 2


def test_a_basin_map_and_a_phase_diagram_are_named_in_their_refusals():
    ns = cost.counts(2, 200, 15, log=False)
    said = cost.curves_refusal(["classical-sync"], 1000, ns, 100, (0.0, 0.2, 0.4), what="basin map")
    assert said.startswith("This basin map would take about")
    said = cost.phase_refusal(400, 20, 16, 100, 0.5)
    assert said.startswith("This phase diagram would take about") and said.endswith(
        "Lower d, the grid points, the trials per cell or the sweeps.")
    assert cost.phase_refusal(100, 12, 4, 30, 0.24) is None  # the page's default


def test_the_bytes_are_the_cores_estimates_of_the_runs_the_page_makes():
    ns = cost.counts(10, 2000, 8, log=True)
    assert cost.curves_bytes(["dense", "modern"], 400, ns, 50) == max(
        curves.peak_bytes(v, 400, ns, 50, RUN_BYTES) for v in ("dense", "modern"))
    loads = cost.phase_loads(15, 0.24)
    assert loads == tuple(np.round(np.linspace(0.24 / 15, 0.24, 15), 4))  # as the page's
    assert cost.phase_bytes(400, 15, 16, 0.24) == phase.peak_bytes(400, loads, range(15), 16,
                                                                   RUN_BYTES)


def _updates(monkeypatch, variant, d, N, trials, flip, params) -> float:
    """The updates one point of the core really takes, in trial x N x d elements (summed
    over its chunks), over trials x N x d: the update count of an unchunked run."""
    done = []
    for name in ("classical_sync", "pairwise", "modern_update"):
        real = getattr(rules, name)
        monkeypatch.setattr(rules, name, lambda X, *a, real=real, **k:
                            (done.append(X.shape[0]), real(X, *a, **k))[1])
    curves.success_point(variant, d, N, trials, flip, 0, budget=RUN_BYTES, **params)
    return sum(done) / trials


@pytest.mark.parametrize("variant, d, ns, trials, flip, params", [
    ("classical-sync", 500, cost.counts(10, 100, 15, False), 20, 0.0, {}),   # "find 0.138"
    ("classical-sync", 1000, cost.counts(10, 300, 15, False), 20, 0.1, {}),
    ("dense", 100, cost.counts(10, 1000, 15, True), 20, 0.0, {"degree": 3}),  # "beat it"
    ("dense", 100, cost.counts(10, 600, 8, True), 20, 0.2, {"degree": 3}),
    ("exponential", 40, cost.counts(10, 3000, 8, True), 20, 0.2, {"beta": 1.0}),
    ("modern", 400, cost.counts(10, 2000, 6, True), 20, 0.0, {"beta": 1.0}),
    ("modern", 100, cost.counts(10, 2000, 6, True), 20, 0.3, {"beta": 1.0}),
    ("modern", 20, cost.counts(10, 2000, 6, True), 20, 0.1, {"beta": 1.0}),
])
def test_the_update_counts_of_the_seconds_model_are_the_cores(monkeypatch, variant, d, ns,
                                                              trials, flip, params):
    """Weighted by the work of each point (N d), the modelled updates of a curve are within
    a factor 1.5 of those the core takes."""
    kw = {"degree": params.get("degree", 3), "beta": params.get("beta", 1.0)}
    model = sum(cost.steps(variant, d, int(N), flip, **kw) * N for N in ns)
    real = sum(_updates(monkeypatch, variant, d, int(N), trials, flip, params) * N for N in ns)
    assert 1 / 1.5 <= model / real <= 1.5, (model, real)
