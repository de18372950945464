"""Metastable states of the modern Hopfield network: how beta decides where a query ends.

# N patterns, d dimensions, K inverse temperatures (betas) in a sweep
# X (N, d) stored patterns, q (d,) the query, betas (K,)

For each beta the query is run to its fixed point with ModernHopfield; the fixed
point is "single" (one pattern holds >= 90 % of the softmax weight), "metastable"
(a few patterns share it) or "global" (nearly all patterns share it). Small beta
gives the global average, large beta a single pattern. The retrieval bound of
Ramsauer et al. (2020) that the sweep is read against (its value, its radius, and the
smallest beta from which a pattern of separation Delta meets it) lives in bound.py and
is re-exported here.
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


def nearest_pattern(patterns, query) -> tuple[int, float]:
    """(i, |q - x_i|): the stored pattern nearest to the query (Euclidean), and how far."""
    X = np.asarray(patterns, dtype=np.float64)  # (N, d)
    q = np.asarray(query, dtype=np.float64)     # (d,)
    dist = np.linalg.norm(X - q, axis=1)        # (N,)
    i = int(np.argmin(dist))
    return i, float(dist[i])
