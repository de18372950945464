"""Energy landscapes of continuous patterns: the energy on grids, planes and lines through
pattern space, and the barrier between two patterns.

# N patterns, d dimensions (neurons), B batch of states, K betas, T points on a line
# X (N, d) patterns, us (nu,) vs (nv,) grid axes, E (nv, nu) a grid of energies (row = v)
# Plane: origin (d,), basis (2, d) orthonormal rows; coords (..., 2) positions in the plane

Everything is evaluated with the models' own batch energy (no second formula to drift).
The every-state landscape of small binary networks is hopfield_core.binary_landscape.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .modern import ModernHopfield

GRID_CHUNK_VALUES = 2 ** 19    # at most this many floats per batch of states (4 MB of float64)


# ---------------------------------------------------------------- a table of 2-D points

def parse_points(rows, min_points: int = 2, max_points: int = 6, limit: float = 100.0,
                 columns=("x", "y")) -> np.ndarray:
    """Rows of a table (anything: numbers, strings, None, NaN) -> (P, 2) floats.

    Raises ValueError with a sentence that names the bad cell: empty cells, text,
    NaN or infinite numbers, numbers beyond +-limit, too few or too many rows.
    """
    rows = [list(r) for r in rows]
    if len(rows) < min_points:
        raise ValueError(f"Give at least {min_points} patterns (rows); the table has {len(rows)}.")
    if len(rows) > max_points:
        raise ValueError(f"Give at most {max_points} patterns (rows); the table has {len(rows)}.")
    P = np.empty((len(rows), len(columns)))
    for i, row in enumerate(rows):
        if len(row) != len(columns):
            raise ValueError(f"Row {i + 1} must hold {len(columns)} numbers ({', '.join(columns)}).")
        for j, cell in enumerate(row):
            where = f"Row {i + 1}, column {columns[j]}"
            if cell is None or (isinstance(cell, str) and not cell.strip()):
                raise ValueError(f"{where} is empty: type a number there (or delete the row).")
            if isinstance(cell, bool):
                raise ValueError(f"{where} holds {cell!r}, not a number.")
            try:
                v = float(cell)
            except (TypeError, ValueError):
                raise ValueError(f"{where} holds {str(cell)!r}, which is not a number.") from None
            if math.isnan(v):
                raise ValueError(f"{where} is empty or not a number: type a number there (or delete the row).")
            if not math.isfinite(v) or abs(v) > limit:
                raise ValueError(f"{where} is {v:g}: keep coordinates between -{limit:g} and {limit:g}.")
            P[i, j] = v
    return P


# ---------------------------------------------------------------- grids and planes

def grid_axis(lo: float, hi: float, n: int) -> np.ndarray:
    """n evenly spaced values from lo to hi, both included."""
    if not (np.isfinite(lo) and np.isfinite(hi) and hi > lo):
        raise ValueError(f"a grid needs finite bounds lo < hi, got {lo}, {hi}")
    if int(n) != n or n < 2:
        raise ValueError(f"a grid needs at least 2 points a side, got {n}")
    return np.linspace(float(lo), float(hi), int(n))


def square_extent(points: np.ndarray, margin: float = 0.25, minimum: float = 1.0) -> tuple[float, float]:
    """A symmetric range [-r, r] that holds every point (..., 2) with a margin."""
    P = np.asarray(points, dtype=np.float64)
    r = float(np.max(np.abs(P))) if P.size else 0.0
    r = max(minimum, r * (1 + margin))
    return -r, r


def box_extent(points: np.ndarray, margin: float = 0.25, minimum: float = 1e-3):
    """((u_lo, u_hi), (v_lo, v_hi)): the bounding box of points (..., 2), padded by
    `margin` of its size (at least `minimum`), made square so that the plane is not stretched."""
    P = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    lo, hi = P.min(axis=0), P.max(axis=0)
    centre = (lo + hi) / 2
    half = max(float(np.max(hi - lo)) / 2 * (1 + 2 * margin), minimum)
    return ((float(centre[0] - half), float(centre[0] + half)),
            (float(centre[1] - half), float(centre[1] + half)))


@dataclass(frozen=True)
class Plane:
    """A 2-D plane in R^d: origin + u basis[0] + v basis[1], the basis orthonormal."""

    origin: np.ndarray            # (d,)
    basis: np.ndarray             # (2, d)
    explained: tuple = ()         # for a PCA plane: the share of variance along each axis

    def project(self, points) -> np.ndarray:
        """Coordinates (..., 2) of the orthogonal projection of points (..., d)."""
        return (np.asarray(points, dtype=np.float64) - self.origin) @ self.basis.T

    def lift(self, coords) -> np.ndarray:
        """The points (..., d) of the plane at coordinates (..., 2)."""
        return self.origin + np.asarray(coords, dtype=np.float64) @ self.basis

    def distance(self, points) -> np.ndarray:
        """Euclidean distance (...,) of points (..., d) from the plane."""
        P = np.asarray(points, dtype=np.float64)
        return np.linalg.norm(P - self.lift(self.project(P)), axis=-1)


def _sign_fix(v: np.ndarray) -> np.ndarray:
    """Flip v so that its largest entry (by size) is positive: SVD signs are arbitrary."""
    return v if v[np.argmax(np.abs(v))] >= 0 else -v


def pca_plane(X) -> Plane:
    """The plane through the mean of the patterns along their top 2 principal directions."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] < 3:
        raise ValueError("The PCA plane needs at least 3 stored patterns.")
    mean = X.mean(axis=0)
    _, s, Vt = np.linalg.svd(X - mean, full_matrices=False)
    if s.size < 2 or s[1] <= 1e-9 * max(s[0], 1e-300):
        raise ValueError("The stored patterns lie on one line (or one point): they span no plane.")
    var = s ** 2
    basis = np.stack([_sign_fix(Vt[0]), _sign_fix(Vt[1])])
    return Plane(mean, basis, explained=(float(var[0] / var.sum()), float(var[1] / var.sum())))


def plane_through(a, b, c) -> Plane:
    """The plane through three points, centred on their mean: u runs along b - a, v
    completes it towards c."""
    a, b, c = (np.asarray(p, dtype=np.float64) for p in (a, b, c))
    e1 = b - a
    n1 = np.linalg.norm(e1)
    if n1 <= 1e-12 * max(1.0, np.linalg.norm(a)):
        raise ValueError("Two of the three chosen patterns are the same point: choose three different ones.")
    e1 = e1 / n1
    w = (c - a) - ((c - a) @ e1) * e1
    n2 = np.linalg.norm(w)
    if n2 <= 1e-9 * max(1.0, np.linalg.norm(c - a)):
        raise ValueError("The three chosen patterns lie on one line: they span no plane.")
    return Plane((a + b + c) / 3, np.stack([e1, w / n2]))


def plane_energy_grid(energy, plane: Plane, us: np.ndarray, vs: np.ndarray,
                      dtype=np.float64) -> np.ndarray:
    """E (nv, nu): E[j, i] = energy(plane.lift((us[i], vs[j]))), by the batch energy in chunks."""
    us, vs = np.asarray(us, dtype=np.float64), np.asarray(vs, dtype=np.float64)
    U, V = np.meshgrid(us, vs)                     # (nv, nu) each
    coords = np.stack([U.ravel(), V.ravel()], -1)  # (G, 2)
    d = plane.origin.shape[0]
    chunk = max(1, GRID_CHUNK_VALUES // max(d, 1))
    out = np.empty(len(coords))
    for start in range(0, len(coords), chunk):
        pts = plane.lift(coords[start:start + chunk]).astype(dtype, copy=False)
        out[start:start + chunk] = energy(pts)
    return out.reshape(U.shape)


def world_energy_grid(model: ModernHopfield, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """For a model living in the plane itself (d = 2): E[j, i] = model.energy((us[i], vs[j]))."""
    if model.d != 2:
        raise ValueError(f"the 2-D world needs patterns with 2 coordinates, got d = {model.d}")
    plane = Plane(np.zeros(2), np.eye(2))
    return plane_energy_grid(model.energy, plane, us, vs, dtype=model.dtype)


# ---------------------------------------------------------------- a line between two patterns

def line_points(xa, xb, ts) -> np.ndarray:
    """(T, d): (1 - t) xa + t xb for every t."""
    xa, xb = np.asarray(xa, dtype=np.float64), np.asarray(xb, dtype=np.float64)
    t = np.asarray(ts, dtype=np.float64)[:, None]
    return (1 - t) * xa + t * xb


def slice_energies(X, a: int, b: int, ts, betas) -> np.ndarray:
    """E (K, T): the ModernHopfield energy at (1 - t) x_a + t x_b for each beta (rows)."""
    X = np.asarray(X)
    pts = line_points(X[a], X[b], ts).astype(X.dtype, copy=False)
    return np.stack([np.asarray(ModernHopfield(X, beta=bt).energy(pts), dtype=np.float64)
                     for bt in betas])


@dataclass(frozen=True)
class Barrier:
    """The energy barrier on the segment from x_a (t = 0) to x_b (t = 1)."""

    beta: float
    e_a: float        # E(x_a)
    e_b: float        # E(x_b)
    e_max: float      # max of E on t in [0, 1]
    t_max: float      # where that maximum is
    from_a: float     # e_max - e_a: the climb that leaving x_a towards x_b needs
    from_b: float     # e_max - e_b
    height: float     # e_max - max(e_a, e_b): the barrier seen from the higher end (>= 0)


def barrier(X, a: int, b: int, beta: float, n: int = 401) -> Barrier:
    """Max of E on [0, 1] by a grid of n points, then a second grid of n points around the best."""
    X = np.asarray(X)
    model = ModernHopfield(X, beta=beta)
    xa, xb = X[a], X[b]

    def E(ts):
        return np.asarray(model.energy(line_points(xa, xb, ts).astype(X.dtype, copy=False)),
                          dtype=np.float64)

    ts = np.linspace(0.0, 1.0, n)
    Es = E(ts)
    k = int(np.argmax(Es))
    fine = np.linspace(ts[max(k - 1, 0)], ts[min(k + 1, n - 1)], n)
    Ef = E(fine)
    j = int(np.argmax(Ef))
    t_max, e_max = (float(fine[j]), float(Ef[j])) if Ef[j] >= Es[k] else (float(ts[k]), float(Es[k]))
    e_a, e_b = float(Es[0]), float(Es[-1])
    return Barrier(float(beta), e_a, e_b, e_max, t_max, e_max - e_a, e_max - e_b,
                   e_max - max(e_a, e_b))


# ---------------------------------------------------------------- memory, from the sizes alone

SMALL_BYTES = 2 ** 14  # the small arrays and Python objects of any call


def grid_bytes(points: int, d: int, N: int, itemsize: int = 8) -> int:
    """Peak bytes of plane_energy_grid (or world_energy_grid, d = 2) over `points` grid points
    with a network of N patterns: the grid's coordinates and energies (six values a point),
    and one chunk of states lifted into R^d (two arrays of its size while they are made) with
    the energy's temporaries (two more)."""
    k = min(points, max(1, GRID_CHUNK_VALUES // max(d, 1)))  # states in a chunk
    return 8 * 6 * points + k * d * (16 + 2 * itemsize) + 3 * 8 * k * N + SMALL_BYTES


def line_bytes(points: int, d: int, N: int, betas: int = 1) -> int:
    """Peak bytes of slice_energies (or one grid of barrier) at `points` points of a line in
    R^d: the points (two more arrays of their size while they are made, or the energy's
    xi * xi after), the (points, N) scores and the energies for each beta."""
    return 3 * 8 * points * d + 3 * 8 * points * N + 8 * points * (betas + 1) + SMALL_BYTES
