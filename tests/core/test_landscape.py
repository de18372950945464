"""hopfield_core.landscape against independent computations: point-by-point energies, direct
projections, and a brute-force barrier search (the binary landscape: test_binary_landscape.py)."""
import math

import numpy as np
import pytest

from hopfield_core import ModernHopfield
from hopfield_core import landscape as L


def modern_energy_direct(X, xi, beta):
    """The paper's energy term by term in float64 (no shared code with ModernHopfield)."""
    scores = [beta * float(np.dot(x, xi)) for x in X]
    m = max(scores)
    lse = m + math.log(math.fsum(math.exp(s - m) for s in scores))
    M = max(math.sqrt(math.fsum(v * v for v in x)) for x in X)
    return -lse / beta + 0.5 * math.fsum(v * v for v in xi) + math.log(len(X)) / beta + 0.5 * M * M


# ---------------------------------------------------------------- grids

@pytest.mark.parametrize("beta", [0.3, 2.0, 50.0])
def test_world_grid_equals_the_model_energy_point_by_point(beta):
    P = np.array([[1.0, 0.0], [-0.5, 0.866], [-0.5, -0.866], [0.2, 0.3]])
    model = ModernHopfield(P, beta=beta)
    us = L.grid_axis(-1.5, 1.2, 13)
    vs = L.grid_axis(-1.0, 2.0, 9)  # not square: rows are v, columns are u
    E = L.world_energy_grid(model, us, vs)
    assert E.shape == (9, 13)
    for j, v in enumerate(vs):
        for i, u in enumerate(us):
            xi = np.array([u, v])
            assert E[j, i] == pytest.approx(model.energy(xi), rel=1e-12, abs=1e-12)
            assert E[j, i] == pytest.approx(modern_energy_direct(P, xi, beta), rel=1e-9, abs=1e-9)


def test_plane_grid_equals_the_model_energy_in_chunks(monkeypatch):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(6, 40))
    model = ModernHopfield(X, beta=4.0)
    plane = L.pca_plane(X)
    us, vs = L.grid_axis(-2, 2, 7), L.grid_axis(-1, 3, 5)
    monkeypatch.setattr(L, "GRID_CHUNK_VALUES", 40 * 4)  # 4 states a batch: chunk borders tested
    E = L.plane_energy_grid(model.energy, plane, us, vs)
    for j, v in enumerate(vs):
        for i, u in enumerate(us):
            xi = plane.origin + u * plane.basis[0] + v * plane.basis[1]
            assert E[j, i] == pytest.approx(modern_energy_direct(X, xi, 4.0), rel=1e-9, abs=1e-9)


def test_float32_patterns_give_float32_energies_close_to_float64():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(5, 30)).astype(np.float32)
    model = ModernHopfield(X, beta=2.0)
    plane = L.pca_plane(X)
    E = L.plane_energy_grid(model.energy, plane, L.grid_axis(-1, 1, 4), L.grid_axis(-1, 1, 4),
                            dtype=np.float32)
    ref = L.plane_energy_grid(ModernHopfield(X.astype(np.float64), 2.0).energy, plane,
                              L.grid_axis(-1, 1, 4), L.grid_axis(-1, 1, 4))
    assert np.all(np.isfinite(E))
    np.testing.assert_allclose(E, ref, rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------- planes

def test_pca_plane_is_orthonormal_and_spans_the_top_principal_directions():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(8, 20)) * np.linspace(3, 0.1, 20)  # clear top directions
    plane = L.pca_plane(X)
    np.testing.assert_allclose(plane.basis @ plane.basis.T, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(plane.origin, X.mean(axis=0), atol=1e-12)
    # independent: the top 2 eigenvectors of the covariance matrix span the same plane
    C = np.cov(X.T, bias=True)
    w, V = np.linalg.eigh(C)
    top = V[:, np.argsort(w)[::-1][:2]]
    np.testing.assert_allclose(plane.basis.T @ plane.basis, top @ top.T, atol=1e-9)
    assert sum(plane.explained) == pytest.approx(np.sort(w)[::-1][:2].sum() / w.sum(), rel=1e-9)


def test_projection_of_a_point_in_the_plane_returns_its_coordinates():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(5, 12))
    for plane in (L.pca_plane(X), L.plane_through(X[0], X[2], X[4])):
        coords = rng.normal(size=(10, 2)) * 3
        pts = np.array([plane.origin + c[0] * plane.basis[0] + c[1] * plane.basis[1] for c in coords])
        np.testing.assert_allclose(plane.project(pts), coords, atol=1e-10)
        np.testing.assert_allclose(plane.lift(coords), pts, atol=1e-10)
        np.testing.assert_allclose(plane.distance(pts), 0, atol=1e-10)


def test_distance_from_the_plane_is_the_length_of_the_orthogonal_part():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(4, 9))
    plane = L.pca_plane(X)
    normal = rng.normal(size=9)
    normal -= plane.basis.T @ (plane.basis @ normal)  # orthogonal to the plane
    normal /= np.linalg.norm(normal)
    p = plane.lift([0.3, -1.2]) + 2.5 * normal
    assert float(plane.distance(p)) == pytest.approx(2.5, rel=1e-12)
    np.testing.assert_allclose(plane.project(p), [0.3, -1.2], atol=1e-12)


def test_plane_through_three_patterns_contains_them():
    rng = np.random.default_rng(8)
    a, b, c = rng.normal(size=(3, 15))
    plane = L.plane_through(a, b, c)
    np.testing.assert_allclose(plane.distance(np.stack([a, b, c])), 0, atol=1e-10)
    pa, pb = plane.project(a), plane.project(b)
    assert pb[1] == pytest.approx(pa[1], abs=1e-12)  # u runs along b - a
    assert pb[0] > pa[0]


def test_degenerate_planes_raise_clear_errors():
    x = np.arange(6.0)
    with pytest.raises(ValueError, match="same point"):
        L.plane_through(x, x, x + 1)
    with pytest.raises(ValueError, match="one line"):
        L.plane_through(x, 2 * x, 3 * x)
    with pytest.raises(ValueError, match="at least 3"):
        L.pca_plane(np.stack([x, x + 1]))
    with pytest.raises(ValueError, match="one line"):
        L.pca_plane(np.stack([x, 2 * x, 3 * x]))


def test_box_extent_holds_every_point_and_is_square():
    pts = np.array([[0.0, 1.0], [3.0, -1.0], [1.0, 0.5]])
    (u0, u1), (v0, v1) = L.box_extent(pts, margin=0.1)
    assert u0 < 0 and u1 > 3 and v0 < -1 and v1 > 1
    assert u1 - u0 == pytest.approx(v1 - v0)


# ---------------------------------------------------------------- slices and barriers

def letters_like(rng, N=4, d=64):
    X = rng.normal(size=(N, d))
    X -= X.mean(axis=1, keepdims=True)
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def test_slice_at_t0_and_t1_equals_the_pattern_energies():
    X = letters_like(np.random.default_rng(9))
    betas = (0.5, 4.0, 40.0)
    ts = np.linspace(-0.25, 1.25, 61)  # 0 and 1 are grid points
    E = L.slice_energies(X, 1, 3, ts, betas)
    i0, i1 = int(np.argmin(np.abs(ts))), int(np.argmin(np.abs(ts - 1)))
    for k, beta in enumerate(betas):
        assert E[k, i0] == pytest.approx(modern_energy_direct(X, X[1], beta), rel=1e-10)
        assert E[k, i1] == pytest.approx(modern_energy_direct(X, X[3], beta), rel=1e-10)
        t = ts[17]
        assert E[k, 17] == pytest.approx(
            modern_energy_direct(X, (1 - t) * X[1] + t * X[3], beta), rel=1e-10)


@pytest.mark.parametrize("beta", [0.5, 3.0, 8.0, 30.0])
def test_barrier_matches_a_brute_force_search(beta):
    X = letters_like(np.random.default_rng(10))
    bar = L.barrier(X, 0, 2, beta)
    model = ModernHopfield(X, beta=beta)
    ts = np.linspace(0, 1, 100_001)
    E = model.energy((1 - ts)[:, None] * X[0] + ts[:, None] * X[2])
    assert bar.e_a == pytest.approx(model.energy(X[0]), rel=1e-12)
    assert bar.e_b == pytest.approx(model.energy(X[2]), rel=1e-12)
    assert bar.e_max == pytest.approx(E.max(), abs=1e-8)
    assert bar.height == pytest.approx(E.max() - max(E[0], E[-1]), abs=1e-8)
    assert bar.height >= 0
    assert bar.from_a == pytest.approx(bar.e_max - bar.e_a)
    assert bar.from_b == pytest.approx(bar.e_max - bar.e_b)


def test_barrier_grows_with_beta_for_separated_patterns():
    X = letters_like(np.random.default_rng(11))
    heights = [L.barrier(X, 0, 1, b).height for b in (0.5, 5.0, 50.0)]
    assert heights[0] == 0.0        # one merged valley: no hump on the segment
    assert heights[1] < heights[2]  # sharper softmax: deeper, separate wells


# ---------------------------------------------------------------- the points table

def test_parse_points_accepts_numbers_and_numeric_text():
    P = L.parse_points([[1, 0], ["-0.5", 0.866], [np.float32(2.0), -1]])
    np.testing.assert_allclose(P, [[1, 0], [-0.5, 0.866], [2, -1]], rtol=1e-6)


@pytest.mark.parametrize("rows, message", [
    ([[1, 0], [None, 1]], "Row 2, column x is empty"),
    ([[1, 0], [0, float("nan")]], "Row 2, column y is empty or not a number"),
    ([[1, 0], [0, ""]], "Row 2, column y is empty: type a number"),
    ([[1, "abc"], [0, 1]], "Row 1, column y holds 'abc', which is not a number"),
    ([[1, 0], [0, float("inf")]], "between -100 and 100"),
    ([[1, 0], [0, 1e6]], "between -100 and 100"),
    ([[1, 0]], "at least 2"),
    ([[0, 0]] * 7, "at most 6"),
    ([[1, 0], [True, 1]], "not a number"),
])
def test_parse_points_names_the_bad_cell(rows, message):
    with pytest.raises(ValueError, match=message):
        L.parse_points(rows)
