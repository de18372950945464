"""Metastable states of the modern Hopfield network: how beta decides where a query ends.

# N patterns, d dimensions, K inverse temperatures (betas) in a sweep
# X (N, d) stored patterns, q (d,) the query, betas (K,)

For each beta the query is run to its fixed point with ModernHopfield; the fixed
point is "single" (one pattern holds >= 90 % of the softmax weight), "metastable"
(a few patterns share it) or "global" (nearly all patterns share it). Small beta
gives the global average, large beta a single pattern. Also: the smallest beta
from which the retrieval bound of Ramsauer et al. (2020) holds for a pattern of
separation Delta:

    Delta >= 2/(beta N) + (1/beta) log(2 (N-1) N beta M^2).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .modern import ModernHopfield, fixed_point_kind, k90

NICE_MANTISSAS = (1.0, 1.5, 2.0, 3.0, 5.0, 7.0)  # readable values per decade
KINDS = ("single", "metastable", "global")


def log_grid(lo: float, hi: float, mantissas=NICE_MANTISSAS) -> np.ndarray:
    """Readable values m * 10^k (m in `mantissas`) from lo to hi inclusive, ascending."""
    if not (0 < lo <= hi and math.isfinite(hi)):
        raise ValueError(f"need 0 < lo <= hi < inf, got lo={lo}, hi={hi}")
    values = []
    for k in range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1):
        for m in mantissas:
            v = float(f"{m * 10.0 ** k:.6g}")  # 3.0000000000000004 -> 3.0
            if lo * (1 - 1e-12) <= v <= hi * (1 + 1e-12):
                values.append(v)
    return np.array(sorted(set(values)))


def snap(value: float, grid) -> float:
    """The grid value nearest to `value` on a log scale (value > 0)."""
    g = np.asarray(grid, dtype=np.float64)
    if not (np.isfinite(value) and value > 0):
        raise ValueError(f"value must be a positive finite number, got {value}")
    return float(g[int(np.argmin(np.abs(np.log(g) - math.log(value))))])


@dataclass(frozen=True)
class BetaSweep:
    """Where one query ends for each beta."""

    betas: np.ndarray         # (K,)
    k90: np.ndarray           # (K,) ints: fewest patterns holding >= 90 % of the weight
    kinds: tuple              # (K,) "single" | "metastable" | "global"
    fixed_points: np.ndarray  # (K, d) the last state of each run
    weights: np.ndarray       # (K, N) softmax weights at that state
    energies: np.ndarray      # (K,) energy at that state
    steps: np.ndarray         # (K,) steps taken
    converged: np.ndarray     # (K,) bool

    def index(self, beta: float) -> int:
        """Index of the sweep's beta nearest to `beta` (log scale)."""
        return int(np.argmin(np.abs(np.log(self.betas) - math.log(beta))))


def beta_sweep(patterns, query, betas, max_steps: int = 100, tol: float = 1e-6,
               gamma: float = 1.0) -> BetaSweep:
    """Run ModernHopfield(patterns, beta).run(query, ...) for every beta.

    Only each run's end is kept (copied: a view would keep its whole trajectory alive), so
    the runs' trajectories never add up: one at a time is in memory."""
    betas = np.asarray(betas, dtype=np.float64)
    if betas.ndim != 1 or betas.size == 0:
        raise ValueError("betas must be a non-empty 1-D sequence")
    ends = [_run_end(patterns, query, float(b), max_steps, tol, gamma) for b in betas]
    finals, weights, energies, steps, conv = zip(*ends)
    W = np.stack(weights)
    return BetaSweep(betas=betas, k90=np.array([k90(p) for p in W], dtype=int),
                     kinds=tuple(fixed_point_kind(p) for p in W), fixed_points=np.stack(finals),
                     weights=W, energies=np.array(energies, dtype=np.float64),
                     steps=np.array(steps, dtype=int), converged=np.array(conv, dtype=bool))


def _run_end(patterns, query, beta: float, max_steps: int, tol: float, gamma: float) -> tuple:
    """(last state (d,), its weights (N,), energy, steps, converged) of one run: copies, so
    that the trajectory is freed when this returns."""
    traj = ModernHopfield(patterns, beta).run(query, max_steps=max_steps, tol=tol, gamma=gamma)
    return (traj.final.copy(), traj.weights[-1].copy(), float(traj.energies[-1]), traj.steps,
            bool(traj.converged))


def kind_ranges(betas, kinds) -> list[tuple[str, float, float]]:
    """Consecutive betas with the same kind, merged: [(kind, first beta, last beta), ...]."""
    out: list[tuple[str, float, float]] = []
    for b, k in zip(betas, kinds):
        if out and out[-1][0] == k:
            out[-1] = (k, out[-1][1], float(b))
        else:
            out.append((k, float(b), float(b)))
    return out


def representative_betas(betas, kinds) -> tuple[float, float, float]:
    """Three betas worth looking at (small, medium, large): the middle of the first range,
    of the longest "metastable" range (else the geometric middle of the grid), and of the
    last range."""
    betas = np.asarray(betas, dtype=np.float64)
    ranges = kind_ranges(betas, kinds)

    def middle(lo, hi):
        inside = betas[(betas >= lo) & (betas <= hi)]
        return float(inside[len(inside) // 2])

    small = middle(*ranges[0][1:])
    large = middle(*ranges[-1][1:])
    meta = [r for r in ranges if r[0] == "metastable"]
    if meta:
        best = max(meta, key=lambda r: np.sum((betas >= r[1]) & (betas <= r[2])))
        medium = middle(*best[1:])
    else:
        medium = float(betas[len(betas) // 2])
    return small, medium, large


def bound_value(beta, N: int, M: float):
    """The right-hand side of the retrieval bound at `beta` (scalar or array)."""
    b = np.asarray(beta, dtype=np.float64)
    if N < 2:
        return np.full(b.shape, -np.inf) if b.ndim else -math.inf
    return 2.0 / (b * N) + np.log(2.0 * (N - 1) * N * b * M ** 2) / b


def retrieval_radius(beta: float, N: int, M: float) -> float:
    """Radius 1/(beta N M) of Ramsauer et al.'s sphere S_i around x_i: when x_i meets the
    bound, S_i holds a single fixed point and every query inside S_i converges to it."""
    return math.inf if not (beta > 0 and N > 0 and M > 0) else 1.0 / (beta * N * M)


def nearest_pattern(patterns, query) -> tuple[int, float]:
    """(i, |q - x_i|): the stored pattern nearest to the query (Euclidean), and how far."""
    X = np.asarray(patterns, dtype=np.float64)  # (N, d)
    q = np.asarray(query, dtype=np.float64)     # (d,)
    dist = np.linalg.norm(X - q, axis=1)        # (N,)
    i = int(np.argmin(dist))
    return i, float(dist[i])


def bound_beta(separation, N: int, M: float) -> np.ndarray:
    """For each separation Delta_i: the smallest beta from which Delta_i >= bound(beta)
    holds for every larger beta. inf when Delta_i <= 0 (no beta separates a pattern from
    a copy), 0 when N == 1 (nothing to be separated from).

    With c = 2 (N-1) N M^2 the bound is (2/N + log(c beta)) / beta: it rises up to
    beta_0 = e^(1 - 2/N) / c, where it equals c e^(2/N - 1) >= 4 M^2 > 2 M^2 >= Delta,
    then falls to 0. (At tiny beta it turns negative and holds again, but there the
    sphere of radius 1/(beta N M) it promises holds every pattern: an empty promise.)
    So the answer is the one root of bound(beta) = Delta beyond e / c >= beta_0,
    found by bisection on log beta.
    """
    sep = np.atleast_1d(np.asarray(separation, dtype=np.float64))
    if N < 2:
        return np.zeros_like(sep)
    out = np.full(sep.shape, np.inf)
    if not M > 0:  # every pattern is zero: Delta = 0 everywhere
        return out
    c = 2.0 * (N - 1) * N * M ** 2
    lo0 = math.log(math.e / c)
    for i, delta in enumerate(sep):
        if not delta > 0:
            continue
        lo, hi = lo0, lo0 + 1.0
        while hi <= 700.0 and bound_value(math.exp(hi), N, M) > delta:
            lo, hi = hi, hi + 2.0 * (hi - lo0)
        if hi > 700.0:  # beta beyond ~1e304: no float beta satisfies it
            continue
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if bound_value(math.exp(mid), N, M) > delta:
                lo = mid
            else:
                hi = mid
            if hi - lo < 1e-13:
                break
        out[i] = math.exp(hi)
    return out
