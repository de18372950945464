"""Reading a trajectory: overlaps with the stored patterns and a verdict on where it ended.

# N patterns, d neurons, T steps
# m (N,) or (T+1, N): overlaps m_mu = x_mu . xi / (|x_mu| |xi|) (for bipolar: x_mu . xi / d)
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from .modern import fixed_point_kind, k90
from .trajectory import Trajectory

MIXTURE_MAX_PATTERNS = 20  # above this, odd mixtures are not searched for
RETRIEVED_COSINE = 0.99    # continuous states this close to a pattern count as retrieved


def overlaps(states: np.ndarray, patterns: np.ndarray) -> np.ndarray:
    """Cosine overlap of every state with every pattern: (N,) or (T+1, N), in [-1, 1].

    For bipolar vectors this is Hopfield's m_mu = (1/d) x_mu . xi.
    """
    S = np.asarray(states, dtype=np.float64)
    X = np.asarray(patterns, dtype=np.float64)
    norms = np.linalg.norm(S, axis=-1, keepdims=True) * np.linalg.norm(X, axis=1)
    dots = S @ X.T
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)


@dataclass(frozen=True)
class Verdict:
    """Where a run ended. kind is one of: "retrieved", "mirror", "mixture", "spurious",
    "metastable", "global", "cycle", "not converged"."""

    kind: str
    pattern: int | None = None   # the pattern retrieved or mirrored
    members: tuple[int, ...] = ()  # the patterns a mixture or metastable state mixes
    overlap: float = 0.0         # the largest |overlap| with any pattern

    def sentence(self, names: list[str] | None = None) -> str:
        def name(i):
            return f"{names[i]}" if names else f"#{i + 1}"
        if self.kind == "retrieved":
            return f"Retrieved pattern {name(self.pattern)}."
        if self.kind == "mirror":
            return f"Mirror state: the negative of pattern {name(self.pattern)} (also a minimum)."
        if self.kind == "mixture":
            return "Mixture state of " + ", ".join(name(i) for i in self.members) + "."
        if self.kind == "spurious":
            return f"Spurious state: a minimum that is no stored pattern (best overlap {self.overlap:.2f})."
        if self.kind == "metastable":
            return "Metastable state: a blend of " + ", ".join(name(i) for i in self.members) + "."
        if self.kind == "global":
            return ("Global fixed point: a blend of (nearly) all stored patterns (their plain "
                    "average only as β → 0).")
        if self.kind == "cycle":
            return "Limit cycle of period 2: synchronous updates flip back and forth."
        return "Not converged yet: step further or raise the step limit."

    def short(self, names: list[str] | None = None) -> str:
        """The verdict in a few words, for a narrow box on a projector ("Retrieved H", "Mixture
        of P, F, E"); `sentence` says it whole."""
        def name(i):
            return f"{names[i]}" if names else f"#{i + 1}"
        members = ", ".join(name(i) for i in self.members)
        return {"retrieved": lambda: f"Retrieved {name(self.pattern)}",
                "mirror": lambda: f"Mirror of {name(self.pattern)}",
                "mixture": lambda: f"Mixture of {members}",
                "spurious": lambda: f"Spurious (overlap {self.overlap:.2f})",
                "metastable": lambda: f"Metastable: {members}",
                "global": lambda: "Global blend",
                "cycle": lambda: "2-cycle",
                }.get(self.kind, lambda: "Not converged")()


def _mixture(state: np.ndarray, X: np.ndarray) -> tuple[int, ...]:
    """Patterns (a, b, c) with state == sgn(+-x_a +- x_b +- x_c), or ()."""
    N = len(X)
    if N < 3 or N > MIXTURE_MAX_PATTERNS:
        return ()
    for combo in itertools.combinations(range(N), 3):
        for signs in ((1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1)):
            mix = np.sign(sum(s * X[i] for s, i in zip(signs, combo)))
            if np.array_equal(mix, state) or np.array_equal(-mix, state):
                return combo
    return ()


def classify_binary(state: np.ndarray, patterns: np.ndarray) -> Verdict:
    """A bipolar state: a stored pattern, its mirror, an odd mixture, or spurious."""
    X = np.asarray(patterns, dtype=np.float64)
    m = overlaps(state, X)
    best = int(np.argmax(np.abs(m)))
    hits = np.flatnonzero(np.all(X == state, axis=1))
    if hits.size:
        return Verdict("retrieved", int(hits[0]), overlap=1.0)
    mirrors = np.flatnonzero(np.all(X == -state, axis=1))
    if mirrors.size:
        return Verdict("mirror", int(mirrors[0]), overlap=1.0)
    members = _mixture(state, X)
    if members:
        return Verdict("mixture", members=members, overlap=float(abs(m[best])))
    return Verdict("spurious", best, overlap=float(abs(m[best])))


def verdict(traj: Trajectory, patterns: np.ndarray, binary: bool) -> Verdict:
    """The verdict on a finished run of any model."""
    if traj.cycle:
        return Verdict("cycle")
    if not traj.converged:
        return Verdict("not converged")
    if binary:
        return classify_binary(traj.final, patterns)
    p = traj.weights[-1]  # softmax weights at the fixed point
    m = overlaps(traj.final, patterns)
    best = int(np.argmax(m))
    kind = fixed_point_kind(p)
    if kind == "single" and m[best] >= RETRIEVED_COSINE:
        return Verdict("retrieved", best, overlap=float(m[best]))
    if kind == "global":
        return Verdict("global", overlap=float(m[best]))
    top = tuple(int(i) for i in np.argsort(p)[::-1][: k90(p)])
    return Verdict("metastable", members=top, overlap=float(m[best]))


def energy_rises(energies: np.ndarray, rtol: float = 1e-9) -> np.ndarray:
    """Indices t >= 1 where E(t) > E(t-1) beyond rounding."""
    E = np.asarray(energies, dtype=np.float64)
    if E.size < 2:
        return np.zeros(0, dtype=int)
    rise = np.diff(E) > rtol * np.maximum(1.0, np.abs(E[:-1]))
    return np.flatnonzero(rise) + 1
