"""The capacity lab's computations, cached by their parameters for every session: one point
of a curve at a time, so that widening a range computes only the new points, and the
missing points of a curve computed together (curves.success_points batches async sweeps).

Not st.cache_data: the progress bars and partial charts these functions feed live outside
them, and a cache hit would replay those updates. No Streamlit here."""
from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from hopfield_core.capacity import ags, curves, phase
from ui.serving.budget import RUN_BYTES


class LRU:
    """A dict shared by every session, least recently used out first, safe across threads."""

    def __init__(self, size: int):
        self.size, self._items, self._lock = size, OrderedDict(), threading.Lock()

    def get(self, key):
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return None

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


POINTS = LRU(4000)  # about 100 bytes each
PHASES = LRU(16)
BOUNDARIES = LRU(8)  # the replica theory's line, per largest load: 75 ms to compute


def params_of(variant: str, degree: int, beta: float) -> tuple:
    """The parameters a variant uses (the others would split its cache for nothing)."""
    if variant == "dense":
        return (("degree", int(degree)),)
    if variant in ("exponential", "modern"):
        return (("beta", float(beta)),)
    return ()


def _point_keys(variant, d, ns, trials, flip, seed, params) -> list[tuple]:
    return [(variant, d, int(n), trials, float(flip), seed, params) for n in ns]


def has_points(variant: str, d: int, ns, trials: int, flip: float, seed: int,
               params: tuple) -> bool:
    """Is every one of these points cached (a run that computes nothing)?"""
    return all(POINTS.get(k) is not None
               for k in _point_keys(variant, d, ns, trials, flip, seed, params))


def points(variant: str, d: int, ns, trials: int, flip: float, seed: int, params: tuple,
           progress=None) -> list[curves.Point]:
    """success_point for each N in ns: cached points at once, the missing ones computed
    together. progress(i, point) as each point arrives (the cached ones first)."""
    keys = _point_keys(variant, d, ns, trials, flip, seed, params)
    out = [POINTS.get(k) for k in keys]
    if progress is not None:
        for i, p in enumerate(out):
            if p is not None:
                progress(i, p)
    missing = [i for i, p in enumerate(out) if p is None]

    def arrived(j, p):
        i = missing[j]
        out[i] = p
        POINTS.put(keys[i], p)
        if progress is not None:
            progress(i, p)

    if missing:
        curves.success_points(variant, d, [int(ns[i]) for i in missing], trials, flip, seed,
                              progress=arrived, budget=RUN_BYTES, **dict(params))
    return out


def has_phase_diagram(d: int, loads: tuple, temperatures: tuple, trials: int, sweeps: int,
                      seed: int) -> bool:
    return PHASES.get((d, loads, temperatures, trials, sweeps, seed)) is not None


def phase_diagram(d: int, loads: tuple, temperatures: tuple, trials: int, sweeps: int,
                  seed: int, progress=None) -> phase.PhaseDiagram:
    """Cached for every session by its parameters."""
    key = (d, loads, temperatures, trials, sweeps, seed)
    result = PHASES.get(key)
    if result is None:
        result = phase.phase_diagram(d, loads, temperatures, trials=trials, sweeps=sweeps,
                                     measure=max(1, sweeps // 3), rng=seed, progress=progress,
                                     budget=RUN_BYTES)
        PHASES.put(key, result)
    return result


def theory_boundary(max_load: float) -> tuple[np.ndarray, np.ndarray]:
    """(alphas (50,), T_M(alpha) (50,)) of the replica theory up to alpha_c (or max_load, if
    lower): the phase diagram's dashed line, cached for every session."""
    result = BOUNDARIES.get(max_load)
    if result is None:
        alphas = np.linspace(1e-3, min(max_load, 0.1379), 50)
        result = (alphas, ags.retrieval_boundary(alphas))
        BOUNDARIES.put(max_load, result)
    return result
