"""The capacity lab's computations, cached by their parameters for every session: one point
of a curve at a time, so that widening a range computes only the new points."""
from __future__ import annotations

import threading
from collections import OrderedDict

import streamlit as st

from hopfield_core.capacity import curves, phase


@st.cache_data(max_entries=4000, show_spinner=False)
def point(variant: str, d: int, n: int, trials: int, flip: float, seed: int,
          params: tuple) -> curves.Point:
    return curves.success_point(variant, d, n, trials, flip, seed, **dict(params))


def params_of(variant: str, degree: int, beta: float) -> tuple:
    """The parameters a variant uses (the others would split its cache for nothing)."""
    if variant == "dense":
        return (("degree", int(degree)),)
    if variant in ("exponential", "modern"):
        return (("beta", float(beta)),)
    return ()


_PHASE: OrderedDict = OrderedDict()  # parameters -> PhaseDiagram, least recently used out first
_PHASE_MAX = 16
_lock = threading.Lock()


def phase_diagram(d: int, loads: tuple, temperatures: tuple, trials: int, sweeps: int,
                  seed: int, progress=None) -> phase.PhaseDiagram:
    """Cached for every session by its parameters. Not st.cache_data: the progress bar it
    moves lives outside the function, and a cache hit would replay those updates."""
    key = (d, loads, temperatures, trials, sweeps, seed)
    with _lock:
        if key in _PHASE:
            _PHASE.move_to_end(key)
            return _PHASE[key]
    result = phase.phase_diagram(d, loads, temperatures, trials=trials, sweeps=sweeps,
                                 measure=max(1, sweeps // 3), rng=seed, progress=progress)
    with _lock:
        _PHASE[key] = result
        while len(_PHASE) > _PHASE_MAX:
            _PHASE.popitem(last=False)
    return result
