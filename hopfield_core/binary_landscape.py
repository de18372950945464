"""The every-state landscape of a small binary network: all 2^d states, their energies, and the
local minima under single flips, each classified (stored, mirror, mixture or spurious).

# N patterns, d neurons (d <= MAX_EXHAUSTIVE_D), M local minima
# S (2^d, d) every bipolar state, row i = the bits of i (most significant first,
#   bit 1 -> +1), so flipping neuron j of state i gives state i ^ (1 << (d - 1 - j))

Energies are the models' own batch energy (no second formula to drift). The continuous
landscapes (grids, planes, lines) are hopfield_core.landscape.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .analysis import classify_binary

MAX_EXHAUSTIVE_D = 16          # 2^16 = 65536 states: enumerated in a blink
BINARY_KINDS = ("stored", "mirror", "mixture", "spurious")


def all_states(d: int) -> np.ndarray:
    """Every bipolar state of d neurons: (2^d, d), row i = the bits of i, 1 -> +1."""
    if int(d) != d or not 1 <= d <= MAX_EXHAUSTIVE_D:
        raise ValueError(f"exhaustive enumeration needs 1 <= d <= {MAX_EXHAUSTIVE_D}, got {d}")
    idx = np.arange(2 ** d)[:, None]
    bits = (idx >> np.arange(d - 1, -1, -1)[None, :]) & 1
    return np.where(bits == 1, 1.0, -1.0)


def state_index(state) -> int:
    """The row of `all_states(d)` that holds this bipolar state."""
    s = np.asarray(state)
    return int(sum(1 << (len(s) - 1 - j) for j in np.flatnonzero(s > 0)))


def random_patterns(N: int, d: int, seed: int) -> np.ndarray:
    """(N, d) random bipolar patterns, the same for the same seed."""
    return np.random.default_rng(seed).choice([-1.0, 1.0], size=(N, d))


def flip_neighbour_energies(energies: np.ndarray, d: int) -> np.ndarray:
    """(2^d, d): entry (i, j) is the energy of state i with neuron j flipped."""
    idx = np.arange(2 ** d)[:, None] ^ (1 << np.arange(d - 1, -1, -1))[None, :]
    return np.asarray(energies)[idx]


def local_minima(energies: np.ndarray, d: int, rtol: float = 1e-9) -> np.ndarray:
    """Indices of the states that no single flip lowers (beyond rounding), lowest E first."""
    E = np.asarray(energies, dtype=np.float64)
    if E.shape != (2 ** d,):
        raise ValueError(f"need the energies of all 2^{d} states, got shape {E.shape}")
    tol = rtol * max(1.0, float(np.max(np.abs(E))))
    lower = flip_neighbour_energies(E, d) < E[:, None] - tol
    minima = np.flatnonzero(~lower.any(axis=1))
    return minima[np.argsort(E[minima], kind="stable")]


@dataclass(frozen=True)
class BinaryLandscape:
    """Every state of a small binary network, its energy, and its local minima classified."""

    patterns: np.ndarray      # (N, d)
    states: np.ndarray        # (2^d, d)
    energies: np.ndarray      # (2^d,)
    minima: np.ndarray        # (M,) indices into states, lowest energy first
    kinds: tuple              # (M,) "stored", "mirror", "mixture" or "spurious"
    members: tuple            # (M,) the patterns involved (tuple of indices, 0-based)

    def counts(self) -> dict:
        return {k: sum(1 for v in self.kinds if v == k) for k in BINARY_KINDS}


def classify_minimum(state: np.ndarray, X: np.ndarray) -> tuple[str, tuple]:
    """("stored" | "mirror" | "mixture" | "spurious", the patterns involved)."""
    v = classify_binary(state, X)
    if v.kind == "retrieved":
        return "stored", (v.pattern,)
    if v.kind == "mirror":
        return "mirror", (v.pattern,)
    if v.kind == "mixture":
        return "mixture", tuple(v.members)
    return "spurious", ()


def binary_landscape(model) -> BinaryLandscape:
    """Enumerate all 2^d states of a binary model (ClassicalHopfield or DenseAssociativeMemory),
    find every local minimum under single flips and classify it."""
    X = np.asarray(model.patterns, dtype=np.float64)
    d = X.shape[1]
    S = all_states(d)
    E = np.asarray(model.energy(S), dtype=np.float64)
    minima = local_minima(E, d)
    labelled = [classify_minimum(S[i], X) for i in minima]
    return BinaryLandscape(X, S, E, minima, tuple(k for k, _ in labelled),
                           tuple(m for _, m in labelled))


def reference_axis(states: np.ndarray, x: np.ndarray, kind: str = "overlap") -> np.ndarray:
    """Per state: the overlap m = x . s / d with a pattern x, or the Hamming distance to it."""
    dots = np.asarray(states, dtype=np.float64) @ np.asarray(x, dtype=np.float64)
    d = np.asarray(x).shape[0]
    if kind == "overlap":
        return dots / d
    if kind == "hamming":
        return np.rint((d - dots) / 2)
    raise ValueError(f'kind must be "overlap" or "hamming", got {kind!r}')


def unique_points(x: np.ndarray, y: np.ndarray, decimals: int = 9):
    """The distinct (x, y) pairs, sorted by x then y, and how many states share each:
    (x_u, y_u, counts)."""
    xr = np.round(np.asarray(x, dtype=np.float64), decimals)
    yr = np.round(np.asarray(y, dtype=np.float64), decimals)
    # one 1-D sort of complex keys (x + i y): far faster than np.unique(axis=0)
    uniq, counts = np.unique(xr + 1j * yr, return_counts=True)
    return uniq.real.copy(), uniq.imag.copy(), counts


def state_string(state) -> str:
    """A bipolar state as + and - signs."""
    return "".join("+" if v > 0 else "-" for v in np.asarray(state))


# ---------------------------------------------------------------- memory, from the sizes alone

SMALL_BYTES = 2 ** 14  # the small arrays and Python objects of any call


def binary_bytes(d: int, N: int) -> int:
    """Peak bytes of binary_landscape for d neurons: the 2^d states, the energy's temporaries
    (about three arrays of their size) or the flip-neighbour table (2^d x d indices and
    energies), and the (2^d, N) overlaps of the dense energy."""
    states = 2 ** d
    return 32 * states * d + 4 * 8 * states * N + SMALL_BYTES
