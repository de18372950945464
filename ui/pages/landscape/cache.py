"""Cached wrappers for the energy-landscape page: small keys, arrays passed unhashed (_name)."""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core import (
    ClassicalHopfield,
    DenseAssociativeMemory,
    ModernHopfield,
    binary_landscape,
    landscape,
)
from ui.serving import budget, memory_gate, memory_plan
from ui.serving.byte_cache import ByteCache

WORLD_GRID = 121    # points a side of the 2-D world's energy grid
PLANE_GRID = 61     # points a side of the image-plane grid
SLICE_POINTS = 301  # points on t in [-0.25, 1.25]
SLICE_RANGE = (-0.25, 1.25)
BARRIER_POINTS = 401  # landscape.barrier's grid
SMALLER_IMAGE = "A smaller image size in the sidebar brings it back."


# ---------------------------------------------------------------- what each computation may cost

def plane_bytes(d: int, N: int, itemsize: int = 8) -> int:
    """Peak bytes of the plane's energy grid (plane_grid)."""
    return landscape.grid_bytes(PLANE_GRID ** 2, d, N, itemsize)


def plane_note(d: int, N: int, itemsize: int = 8) -> str | None:
    """A sentence when the plane's energy grid would not fit in one run's memory, else None."""
    return budget.over(plane_bytes(d, N, itemsize), "The energy on this plane", SMALLER_IMAGE)


def slice_bytes(d: int, N: int, betas: int) -> int:
    """Peak bytes of the line between two patterns and its barriers (one beta at a time)."""
    return max(landscape.line_bytes(SLICE_POINTS, d, N, betas),
               landscape.line_bytes(BARRIER_POINTS, d, N)) + 8 * betas * SLICE_POINTS


def slice_note(d: int, N: int, betas: int) -> str | None:
    """The same for the line between two patterns and its barriers (one beta at a time)."""
    return budget.over(slice_bytes(d, N, betas), "The energy along this line", SMALLER_IMAGE)


def binary_note(d: int, N: int) -> str | None:
    """The same for every state of a small binary network."""
    return budget.over(binary_landscape.binary_bytes(d, N), f"Every one of the 2^{d} states",
                       "Fewer neurons d bring it back.")


@st.cache_data(max_entries=64, show_spinner=False)
def world(points: tuple, beta: float, query: tuple, max_steps: int):
    """The 2-D world: (us, vs, E grid, trajectory) for patterns `points` ((x, y), ...)."""
    P = np.asarray(points, dtype=np.float64)
    model = ModernHopfield(P, beta=beta)
    traj = model.run(np.asarray(query, dtype=np.float64), max_steps=max_steps)
    lo, hi = landscape.square_extent(np.vstack([P, traj.states]), margin=0.3, minimum=1.5)
    us = vs = landscape.grid_axis(lo, hi, WORLD_GRID)
    return us, vs, landscape.world_energy_grid(model, us, vs), traj


@st.cache_resource(max_entries=32, show_spinner=False)
def plane_for(fingerprint: str, mode: str, chosen: tuple, _X: np.ndarray) -> landscape.Plane:
    """mode "pca": the PCA plane; mode "three": the plane through X[chosen]."""
    if mode == "pca":
        return landscape.pca_plane(_X)
    a, b, c = chosen
    return landscape.plane_through(_X[a], _X[b], _X[c])


@st.cache_data(max_entries=64, show_spinner=False)
def plane_grid(fingerprint: str, mode: str, chosen: tuple, beta: float, extent: tuple,
               _X: np.ndarray, _plane: landscape.Plane):
    """(us, vs, E) on the plane over the box extent ((u_lo, u_hi), (v_lo, v_hi))."""
    (u0, u1), (v0, v1) = extent
    us, vs = landscape.grid_axis(u0, u1, PLANE_GRID), landscape.grid_axis(v0, v1, PLANE_GRID)
    N, d = _X.shape  # N patterns, d neurons
    with memory_gate.reserve(plane_bytes(d, N, _X.dtype.itemsize)):  # ui/serving/memory_gate.py
        model = ModernHopfield(_X, beta=beta)
        return us, vs, landscape.plane_energy_grid(model.energy, _plane, us, vs,
                                                   dtype=model.dtype)


@st.cache_data(max_entries=64, show_spinner=False)
def line_slice(fingerprint: str, a: int, b: int, betas: tuple, _X: np.ndarray):
    """(ts, E (K, T), barriers) for the segment x_a -> x_b."""
    ts = np.linspace(*SLICE_RANGE, SLICE_POINTS)
    N, d = _X.shape  # N patterns, d neurons
    with memory_gate.reserve(slice_bytes(d, N, len(betas))):  # ui/serving/memory_gate.py
        E = landscape.slice_energies(_X, a, b, ts, betas)
        return ts, E, [landscape.barrier(_X, a, b, bt) for bt in betas]


# every state of the small networks, bounded by bytes (ui/serving/memory_plan.py): 9 MB at d = 16
BINARY = ByteCache("binary landscapes", memory_plan.BINARY_BYTES)


def binary(model: str, patterns_key: str, _X: np.ndarray) -> binary_landscape.BinaryLandscape:
    """Every state of the small network: read-only, shared by reruns (never mutate it)."""
    def make():  # its estimated peak held while it computes (ui/serving/memory_gate.py)
        with memory_gate.reserve(binary_landscape.binary_bytes(_X.shape[1], len(_X))):
            net = (ClassicalHopfield(_X) if model == "classical"
                   else DenseAssociativeMemory(_X, degree=3))
            return binary_landscape.binary_landscape(net)
    return BINARY.get((model, patterns_key), make)
