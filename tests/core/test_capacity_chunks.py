"""Chunked capacity runs (hopfield_core.capacity.stores, runs, rules, phase): a point's
numbers come from its own stream as stores.py documents them; a run cut into chunks by a
small byte budget equals the same run in one chunk, bit for bit, for every variant, through
every path that stitches chunks together (the sync runs' common stop with 2-cycles, the
modern runs' re-runs); the blocked update rules equal the network classes; the phase
diagram's cells depend on neither the chunks nor the rest of the grid."""
import numpy as np
import pytest

from hopfield_core.capacity import curves, phase, rules, runs
from hopfield_core.capacity.stores import Stream
from hopfield_core.dense import DenseAssociativeMemory

ONE_TRIAL = 1  # a budget no chunk fits: one trial (or one cell) at a time


def few_a_chunk(variant, d, ns, trials) -> int:
    """The smallest budget (within 10 %) whose chunks hold a quarter of the trials."""
    def smallest_chunk(budget):
        if variant == "classical-async":
            return min(b["rows"] for b in runs.async_plan(d, ns, trials, budget))
        return min(runs.layout(variant, d, N, trials, budget)[0] for N in ns)
    budget = 10_000
    while smallest_chunk(budget) < trials // 4:
        budget = int(budget * 1.1)
    return budget


def _fields(points):
    return [(p.n_patterns, p.mean_overlap, p.success, p.stable, p.guaranteed) for p in points]


def _same(a, b):
    """Equal field by field, nan (the fields a variant does not measure) equal to nan."""
    return all(x == y or (x != x and y != y) for pa, pb in zip(_fields(a), _fields(b))
               for x, y in zip(pa, pb))


def test_a_stream_gives_the_numbers_its_docstring_says():
    """T N d draws for the patterns (-1 below 1/2), T d for the flips, T d a sweep."""
    seed, d, N, T, n_flip = 7, 30, 9, 5, 6
    gen = np.random.default_rng([seed, d, N, n_flip])
    X = np.where(gen.random((T, N, d)) < 0.5, -1.0, 1.0)
    flips = np.argsort(gen.random((T, d)), axis=1)[:, :n_flip]
    q = X[:, 0].copy()
    np.put_along_axis(q, flips, -np.take_along_axis(q, flips, axis=1), axis=1)
    orders = [np.argsort(gen.random((T, d)), axis=1) for _ in range(3)]
    stream = Stream(seed, d, N, T, n_flip)
    for a, b in [(0, T), (2, 4), (4, 5)]:
        chunk = stream.patterns(a, b)
        np.testing.assert_array_equal(chunk, X[a:b])
        np.testing.assert_array_equal(stream.patterns(a, b, np.int8, transposed=True),
                                      X[a:b].transpose(0, 2, 1))
        np.testing.assert_array_equal(stream.queries(chunk[:, 0], a), q[a:b])
        for sweep in (2, 0, 1):  # in any order
            np.testing.assert_array_equal(stream.orders(sweep, a, b), orders[sweep][a:b])


def test_patterns_made_in_blocks_are_the_same(monkeypatch):
    from hopfield_core.capacity import stores

    whole = Stream(1, 40, 25, 6, 0).patterns(0, 6)
    for block in (37, 40 * 25 + 3, 7):  # part of a pattern, more than a trial, a few draws
        monkeypatch.setattr(stores, "GEN_BLOCK", block)
        np.testing.assert_array_equal(Stream(1, 40, 25, 6, 0).patterns(0, 6), whole)


@pytest.mark.parametrize("variant, d, ns, trials, flip, params", [
    ("classical-sync", 60, [20, 40], 200, 0.3, {}),          # 2-cycles and fixed points mixed
    ("classical-sync", 200, [40, 60, 90], 60, 0.2, {}),
    ("dense", 40, [30, 300], 30, 0.2, {"degree": 3}),
    ("dense", 24, [60], 40, 0.3, {"degree": 2}),
    ("exponential", 16, [64, 512], 30, 0.25, {"beta": 1.0}),
    ("modern", 24, [4, 16, 64], 30, 0.25, {"beta": 1.0}),  # chunks that stop at other steps
    ("modern", 16, [512], 20, 0.1, {"beta": 0.5}),
    ("classical-async", 50, [3, 8, 20], 25, 0.2, {}),
])
def test_a_run_in_chunks_equals_the_run_in_one(variant, d, ns, trials, flip, params):
    whole = curves.success_points(variant, d, ns, trials, flip, seed=5, **params)
    assert runs.layout(variant, d, max(ns), trials, curves.BUDGET)[0] == trials  # one chunk
    for budget in (ONE_TRIAL, few_a_chunk(variant, d, ns, trials)):
        cut = curves.success_points(variant, d, ns, trials, flip, seed=5, budget=budget,
                                    **params)
        assert _same(cut, whole), (budget, _fields(cut), _fields(whole))


def test_the_sync_runs_common_stop_is_exercised(monkeypatch):
    """The chunks of the first sync case above stop at different steps, some at fixed points
    and some in 2-cycles: the stitching has something to do."""
    reports, real = [], runs._steps
    monkeypatch.setattr(runs, "_steps", lambda *a: (reports.append(real(*a)[:2]), real(*a))[1])
    curves.success_points("classical-sync", 60, [20, 40], 200, 0.3, seed=5, budget=ONE_TRIAL)
    assert {how for _, how in reports} == {"fixed", "cycle"}
    cycles = {i for i, how in reports if how == "cycle"}
    assert len(cycles) > 1 and {i % 2 for i in cycles} == {0, 1}  # both parities


def test_the_modern_runs_re_runs_are_exercised(monkeypatch):
    """Chunks of the modern cases above settle at other steps: the early ones run again to
    the common stop, from their queries."""
    upto, real = [], runs._modern_chunk
    monkeypatch.setattr(runs, "_modern_chunk", lambda *a: (upto.append(a[4]), real(*a))[1])
    curves.success_points("modern", 24, [4, 16, 64], 30, 0.25, seed=5, budget=ONE_TRIAL,
                          beta=1.0)
    assert any(upto) and not all(upto)


@pytest.mark.parametrize("variant, params", [("dense", {"degree": 4}),
                                             ("exponential", {"beta": 0.3})])
def test_the_pairwise_rule_in_small_blocks_equals_one_block(monkeypatch, variant, params):
    stream = Stream(2, 50, 70, 4, 10)
    XT = stream.patterns(0, 4, np.int8, transposed=True)
    s = stream.queries(XT[:, :, 0], 0)
    whole = rules.pairwise(XT, s, variant, params)
    for block in (50 * 70 + 1, 150, 1):  # whole trials, a few neurons, one neuron
        monkeypatch.setattr(rules, "BLOCK", block)
        np.testing.assert_array_equal(rules.pairwise(XT, s, variant, params), whole)


@pytest.mark.parametrize("d, N, beta", [(400, 60, 5.0), (700, 30, 1.0), (200, 200, 30.0)])
def test_the_exponential_rule_equals_the_class_where_exp_underflows(d, N, beta):
    """beta (z - max z) reaches far below -700 here, where rules raises it to -700 to keep
    exp off its slow path: the decisions are the network class's, which does not."""
    stream = Stream(3, d, N, 3, d // 4)
    X = stream.patterns(0, 3)
    q = stream.queries(X[:, 0], 0)
    rng = np.random.default_rng(0)
    states = [q, np.where(rng.random(q.shape) < 0.5, -1.0, 1.0)]
    for s in states:
        got = rules.pairwise(X.transpose(0, 2, 1).astype(np.int8), s, "exponential",
                             {"beta": beta})
        for t in range(3):
            net = DenseAssociativeMemory(X[t], "exponential", beta=beta)
            np.testing.assert_array_equal(got[t], net.step(s[t], mode="sync"))


def test_a_phase_diagram_in_chunks_equals_it_in_one():
    loads, temps = [0.05, 0.3, 0.15], [0.0, 0.4, 1.5]
    whole = phase.phase_diagram(60, loads, temps, 3, 6, 2, rng=4)
    assert len(phase.plan(60, loads, 3, 3)) == 1
    assert len(phase.plan(60, loads, 3, 3, ONE_TRIAL)) == 9  # a cell a chunk
    cut = phase.phase_diagram(60, loads, temps, 3, 6, 2, rng=4, budget=ONE_TRIAL)
    np.testing.assert_array_equal(cut.overlap, whole.overlap)
    alone = phase.phase_diagram(60, [0.3], [0.4], 3, 6, 2, rng=4)  # one cell, no grid
    assert alone.overlap[0, 0] == whole.overlap[1, 1]


def test_a_phase_diagram_reports_its_progress_a_sweep_at_a_time():
    """As many calls as sweeps, in order, whether the grid is one chunk or several."""
    for budget in (phase.BUDGET, ONE_TRIAL):
        seen = []
        phase.phase_diagram(40, [0.1, 0.2], [0.0, 1.0], 2, 5, 2, rng=0, budget=budget,
                            progress=lambda k, n: seen.append((k, n)))
        assert seen == [(k, 5) for k in range(1, 6)]
