"""The beta sweep, its grid and the retrieval-bound threshold, against independent computations."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hopfield_core import ModernHopfield
from hopfield_core.bound import bound_beta, bound_value, retrieval_radius
from hopfield_core.metastable import (
    beta_sweep,
    kind_ranges,
    log_grid,
    nearest_pattern,
    representative_betas,
    snap,
)
from tests.support.oracles import k90_by_counting


def unit_rows(rng, N, d):
    X = rng.normal(size=(N, d))
    X -= X.mean(axis=1, keepdims=True)
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def independent_run(X, q, beta, max_steps, tol, gamma):
    """The update written out with math.exp, row by row, in float64."""
    xi = [float(v) for v in q]
    steps = 0
    for _ in range(max_steps):
        scores = [beta * math.fsum(a * b for a, b in zip(x, xi)) for x in X]
        m = max(scores)
        e = [math.exp(s - m) for s in scores]
        Z = math.fsum(e)
        p = [v / Z for v in e]
        target = [math.fsum(p[mu] * X[mu][j] for mu in range(len(X))) for j in range(len(xi))]
        new = [(1 - gamma) * a + gamma * t for a, t in zip(xi, target)]
        moved = max(abs(a - b) for a, b in zip(new, xi))
        xi = new
        steps += 1
        if moved <= tol:
            break
    scores = [beta * math.fsum(a * b for a, b in zip(x, xi)) for x in X]
    m = max(scores)
    e = [math.exp(s - m) for s in scores]
    p = np.array(e) / math.fsum(e)
    return np.array(xi), p, steps


def test_log_grid_has_readable_values_per_decade():
    g = log_grid(0.1, 1e4)
    assert g[0] == 0.1 and g[-1] == 1e4
    assert np.all(np.diff(g) > 0)
    assert list(g[:7]) == [0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0]
    assert {1.0, 3.0, 30.0, 50.0, 300.0, 1000.0, 7000.0} <= set(g.tolist())
    assert len(g) == 5 * 6 + 1
    assert list(log_grid(2, 9)) == [2.0, 3.0, 5.0, 7.0]
    with pytest.raises(ValueError):
        log_grid(0, 10)
    with pytest.raises(ValueError):
        log_grid(10, 1)


def test_snap_picks_the_nearest_value_on_a_log_scale():
    g = log_grid(0.1, 1e4)
    for v in [0.05, 0.1, 0.13, 4.0, 42.0, 1234.5, 1e4, 1e6]:
        dist = [abs(math.log(x) - math.log(v)) for x in g]
        assert snap(v, g) == g[dist.index(min(dist))]
    assert snap(42.0, g) == 50.0  # 42 is closer to 50 than to 30 on a log scale
    for bad in [0.0, -1.0, float("nan"), float("inf")]:
        with pytest.raises(ValueError):
            snap(bad, g)


def test_sweep_matches_an_independent_run_at_every_beta():
    rng = np.random.default_rng(3)
    X = unit_rows(rng, 4, 12)
    X[1] = X[0] + 0.3 * X[1]  # two similar patterns: room for a metastable state
    X[1] /= np.linalg.norm(X[1])
    q = X[0] + 0.2 * rng.normal(size=12)
    betas = [0.01, 0.3, 2.0, 10.0, 100.0, 1e4]
    sw = beta_sweep(X, q, betas, max_steps=300, tol=1e-9, gamma=1.0)
    assert sw.fixed_points.shape == (6, 12) and sw.weights.shape == (6, 4)
    for i, b in enumerate(betas):
        xi, p, steps = independent_run(X, q, b, 300, 1e-9, 1.0)
        np.testing.assert_allclose(sw.fixed_points[i], xi, atol=1e-9)
        np.testing.assert_allclose(sw.weights[i], p, atol=1e-9)
        assert sw.k90[i] == k90_by_counting(p)
        assert sw.steps[i] == steps
        assert sw.energies[i] == pytest.approx(ModernHopfield(X, b).energy(xi), abs=1e-9)
    # tiny beta: the global average; huge beta: the nearest pattern alone
    assert sw.kinds[0] == "global" and sw.k90[0] >= 4
    assert sw.kinds[-1] == "single" and sw.k90[-1] == 1
    np.testing.assert_allclose(sw.fixed_points[-1], X[0], atol=1e-9)
    assert np.all(sw.converged)
    assert np.all(np.isfinite(sw.energies))


def test_sweep_with_small_gamma_reaches_the_same_fixed_points():
    rng = np.random.default_rng(4)
    X = unit_rows(rng, 3, 10)
    q = X[2] + 0.1 * rng.normal(size=10)
    betas = [0.5, 5.0, 50.0]
    one = beta_sweep(X, q, betas, max_steps=2000, tol=1e-10, gamma=1.0)
    gd = beta_sweep(X, q, betas, max_steps=2000, tol=1e-10, gamma=0.1)
    np.testing.assert_allclose(gd.fixed_points, one.fixed_points, atol=1e-7)
    assert one.kinds == gd.kinds
    assert np.all(gd.steps > one.steps)
    for i, b in enumerate(betas):
        xi, _, steps = independent_run(X, q, b, 2000, 1e-10, 0.1)
        np.testing.assert_allclose(gd.fixed_points[i], xi, atol=1e-9)
        assert gd.steps[i] == steps


def test_sweep_reports_runs_stopped_by_the_step_limit():
    rng = np.random.default_rng(5)
    X = unit_rows(rng, 3, 8)
    sw = beta_sweep(X, rng.normal(size=8), [1.0], max_steps=2, tol=0.0, gamma=0.05)
    assert not sw.converged[0] and sw.steps[0] == 2


def test_sweep_rejects_an_empty_grid():
    with pytest.raises(ValueError):
        beta_sweep(np.eye(3), np.ones(3), [])


def test_kind_ranges_merge_neighbours():
    betas = [1, 2, 3, 5, 7, 10]
    kinds = ["global", "global", "metastable", "metastable", "single", "single"]
    assert kind_ranges(betas, kinds) == [("global", 1.0, 2.0), ("metastable", 3.0, 5.0),
                                         ("single", 7.0, 10.0)]
    assert kind_ranges([1.0], ["single"]) == [("single", 1.0, 1.0)]


def test_representative_betas_pick_one_beta_from_each_regime():
    betas = [0.1, 0.3, 1, 3, 10, 30, 100, 300, 1000]
    kinds = ["global"] * 3 + ["metastable"] * 3 + ["single"] * 3
    assert representative_betas(betas, kinds) == (0.3, 10.0, 300.0)
    # no metastable range: the middle of the grid
    assert representative_betas(betas, ["global"] * 4 + ["single"] * 5)[1] == 10.0
    # the longest of two metastable ranges
    kinds = ["global", "metastable", "single", "metastable", "metastable", "metastable",
             "single", "single", "single"]
    assert representative_betas(betas, kinds)[1] == 10.0


def test_bound_value_matches_the_core():
    rng = np.random.default_rng(6)
    X = unit_rows(rng, 5, 9)
    for b in [0.1, 1.0, 37.0, 1e4]:
        rb = ModernHopfield(X, b).retrieval_bound()
        N, M = 5, float(np.max(np.linalg.norm(X, axis=1)))
        direct = 2 / (b * N) + math.log(2 * (N - 1) * N * b * M * M) / b
        assert bound_value(b, N, M) == pytest.approx(direct, rel=1e-12)
        assert rb.bound == pytest.approx(direct, rel=1e-12)
    np.testing.assert_allclose(bound_value(np.array([1.0, 10.0]), 5, 1.0),
                               [bound_value(1.0, 5, 1.0), bound_value(10.0, 5, 1.0)])


def test_bound_beta_is_where_the_core_starts_to_report_satisfied():
    rng = np.random.default_rng(7)
    X = unit_rows(rng, 4, 16)
    X[3] = 0.8 * X[0] + 0.2 * X[3]  # a close pair: a small separation, a large beta needed
    X[3] /= np.linalg.norm(X[3])
    sep = ModernHopfield(X, 1.0).retrieval_bound().separation
    M = float(np.max(np.linalg.norm(X, axis=1)))
    need = bound_beta(sep, 4, M)
    assert need[0] > need[1]  # pattern 0 has a close neighbour
    for i, b in enumerate(need):
        assert np.isfinite(b) and b > 0
        assert ModernHopfield(X, b * (1 + 1e-9)).retrieval_bound().satisfied[i]
        assert not ModernHopfield(X, b * (1 - 1e-6)).retrieval_bound().satisfied[i]
        # and it keeps holding above: a log-spaced scan of the direct formula
        for big in b * np.logspace(0.001, 8, 200):
            assert sep[i] >= 2 / (big * 4) + math.log(2 * 3 * 4 * big * M * M) / big


def test_bound_beta_edge_cases():
    assert bound_beta([0.0, -0.5], 3, 1.0).tolist() == [math.inf, math.inf]  # duplicates
    assert bound_beta([math.inf], 1, 1.0).tolist() == [0.0]                  # one pattern
    assert bound_beta([0.5], 3, 0.0).tolist() == [math.inf]                  # all patterns zero
    tiny = bound_beta([1e-300], 3, 1.0)[0]
    assert tiny == math.inf or tiny > 1e290


@given(N=st.integers(2, 60), M=st.floats(0.1, 10.0), frac=st.floats(1e-6, 1.0))
def test_bound_beta_solves_the_bound_equation(N, M, frac):
    delta = frac * 2 * M * M
    b = bound_beta([delta], N, M)[0]
    assert np.isfinite(b)
    lhs = 2 / (b * N) + math.log(2 * (N - 1) * N * b * M * M) / b
    assert lhs == pytest.approx(delta, rel=1e-9, abs=1e-12)
    assert bound_value(b * 1.01, N, M) < delta < bound_value(b / 1.01, N, M)


def test_retrieval_radius():
    assert retrieval_radius(10.0, 4, 0.5) == pytest.approx(1 / 20)
    assert retrieval_radius(1e4, 40, 1.0) == pytest.approx(2.5e-6)
    assert retrieval_radius(1.0, 3, 0.0) == math.inf


def test_nearest_pattern_by_brute_force():
    rng = np.random.default_rng(3)
    X = unit_rows(rng, 5, 12)
    for _ in range(20):
        q = rng.normal(size=12)
        dists = [math.sqrt(math.fsum((a - b) ** 2 for a, b in zip(x, q))) for x in X]
        i, dist = nearest_pattern(X, q)
        assert i == dists.index(min(dists)) and dist == pytest.approx(min(dists), rel=1e-12)
    assert nearest_pattern(X, X[2]) == (2, 0.0)


@pytest.mark.parametrize("N, d, seed", [(3, 64, 0), (6, 256, 1)])
def test_the_theorem_the_bound_section_states(N, d, seed):
    """From the beta where every x_i meets the bound: a query inside the sphere S_i (radius
    1/(beta N M)) stays inside it at every step and ends on a fixed point inside it; one update
    removes over 90 % of its distance to that point, and far more at a larger beta (the
    modern page's bound section)."""
    rng = np.random.default_rng(seed)
    X = unit_rows(rng, N, d)
    model = ModernHopfield(X, 1.0)
    need = float(bound_beta(model.retrieval_bound().separation, N, model.M).max())
    worst = {}
    for factor in (1.0, 3.0):
        model = ModernHopfield(X, factor * need * (1 + 1e-9))
        assert model.retrieval_bound().satisfied.all()
        radius = retrieval_radius(model.beta, N, model.M)
        ratios = []
        for i in range(N):
            for _ in range(10):
                u = rng.normal(size=d)
                q = X[i] + radius * rng.uniform(0.5, 1.0) * u / np.linalg.norm(u)
                traj = model.run(q, max_steps=200, tol=1e-12)
                assert traj.converged
                assert np.all(np.linalg.norm(traj.states - X[i], axis=1) <= radius * (1 + 1e-9))
                fixed = traj.final
                ratios.append(np.linalg.norm(traj.states[1] - fixed) / np.linalg.norm(q - fixed))
        worst[factor] = max(ratios)
    assert worst[1.0] < 0.1 and worst[3.0] < 1e-3 * worst[1.0]
