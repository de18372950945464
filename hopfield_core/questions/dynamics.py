"""The kinds about a run of the networks (classical, dense, modern, the 2-D world, iterated
attention) and of the Energy Transformer: where the query ends, whether the energy rises, the
fixed point's kind, whether the hidden patches' error falls."""
from __future__ import annotations

import numpy as np

from ..analysis import energy_rises, overlaps, verdict
from ..modern import fixed_point_kind, k90
from .base import SHOWN_OVERLAPS, Kind, Option, Outcome, _falls, _largest, with_not_sure

# ------------------------------------------------------------------ where the query ends

DESTINATION = Kind("destination", "Where will the query end?")


def destination_options(names: list[str], binary: bool, sync: bool) -> list[Option]:
    """Each stored pattern by name, then what else a run of this network can end in: for
    bipolar states a pattern's inverse and a state that is no pattern (a mixture or spurious);
    for the continuous network a blend of patterns (metastable or global); a 2-cycle where the
    update is synchronous; no fixed point within the step limit."""
    options = [Option(f"pattern:{i}", f"pattern {name}") for i, name in enumerate(names)]
    if binary:
        options += [Option("mirror", "the inverse of a stored pattern"),
                    Option("other", "a state that is no stored pattern (a mixture or spurious)")]
    else:
        options.append(Option("blend", "a blend of several patterns (metastable or global)"))
    if sync:
        options.append(Option("cycle", "a 2-cycle: it flips back and forth"))
    options.append(Option("unsettled", "nowhere within the step limit"))
    return with_not_sure(options)


def destination(traj, X: np.ndarray, names: list[str], binary: bool) -> Outcome:
    """Where the run ended (analysis.verdict), with its largest overlaps."""
    return destination_of(verdict(traj, X, binary), traj.final, X, names, traj.steps)


def destination_of(v, final: np.ndarray, X: np.ndarray, names: list[str], steps: int) -> Outcome:
    """Where a run ended, from its verdict `v` (analysis.verdict) and its last state."""
    m = overlaps(final, X)
    numbers = _largest(m, names)
    if v.kind == "retrieved":
        return Outcome(f"pattern:{v.pattern}", f"The query settled on pattern {names[v.pattern]}: {numbers}.")
    if v.kind == "mirror":
        return Outcome("mirror", f"The query settled on the inverse of {names[v.pattern]}: {numbers}.")
    if v.kind in ("mixture", "spurious"):
        what = "a mixture" if v.kind == "mixture" else "a spurious state"
        return Outcome("other", f"The query settled into {what}: {numbers}.")
    if v.kind in ("metastable", "global"):
        return Outcome("blend", f"The query settled into a {v.kind} blend: {numbers}.")
    if v.kind == "cycle":
        return Outcome("cycle", f"The query fell into a 2-cycle: it flips between two states ({numbers} "
                                "at the last one).")
    within = f"{steps} step{'' if steps == 1 else 's'}"
    return Outcome("unsettled", f"The query did not settle within {within}: {numbers} at the last.")


# ------------------------------------------------------------------ will the energy rise

RISES = Kind("energy_rises", "Will the energy ever rise during this run?")


def rises_options() -> list[Option]:
    return with_not_sure([Option("yes", "yes, at some step"), Option("no", "no, never")])


def rises(traj, rtol: float = 1e-9) -> Outcome:
    """Whether E(t) > E(t-1) at any step, beyond rounding (analysis.energy_rises with rtol, the
    page's own: float32 models such as the ET need a larger one). traj: anything with the run's
    `energies` (T+1,)."""
    up = energy_rises(traj.energies, rtol=rtol)
    E = np.asarray(traj.energies, dtype=np.float64)
    steps = len(E) - 1
    if up.size:
        steps = ", ".join(str(int(t)) for t in up[:5]) + (" and more" if up.size > 5 else "")
        return Outcome("yes", f"The energy rose at step {steps}: from {E[0]:.6g} to {E[-1]:.6g} in all.")
    return Outcome("no", f"The energy never rose: from {E[0]:.6g} to {E[-1]:.6g} in {steps} "
                         f"step{'' if steps == 1 else 's'}.")


# ------------------------------------------------------------------ the modern network's fixed point

FIXED_POINT = Kind("fixed_point", "What kind of fixed point will the query reach at this β?")
FIXED_POINT_LABELS = {"single": "single: one pattern holds 90 % of the weight",
                      "metastable": "metastable: a few patterns share it",
                      "global": "global: (nearly) all patterns share it"}


def fixed_point_options() -> list[Option]:
    return with_not_sure([Option(k, label) for k, label in FIXED_POINT_LABELS.items()])


def fixed_point(traj, names: list[str]) -> Outcome:
    """The kind of the run's last state by its softmax weights (k90: the fewest patterns
    holding 90 % of the weight; modern.fixed_point_kind)."""
    p = np.asarray(traj.weights[-1], dtype=np.float64)
    kind, k = fixed_point_kind(p), k90(p)
    top = np.argsort(-p, kind="stable")[:min(k, SHOWN_OVERLAPS + 1)]
    shares = ", ".join(f"{names[i]} {p[i]:.2f}" for i in top)
    end = "its fixed point" if traj.converged else f"step {traj.steps}, the step limit"
    return Outcome(kind, f"At {end} k90 = {k} of {len(p)} patterns: a {kind} state (weights {shares}).")


# ------------------------------------------------------------------ the Energy Transformer

ERROR_FALLS = Kind("error_falls", "Will the error on the hidden patches be lower after the run than at its start?")


def error_falls_options() -> list[Option]:
    return with_not_sure([Option("lower", "lower: the steps fill the hole better"),
                          Option("same", "about the same (within 1 %)"),
                          Option("higher", "higher: the steps make it worse")])


def error_falls(mse: np.ndarray) -> Outcome:
    """The hidden patches' mean squared error at the last step against step 0: within 1 % is
    "about the same"; from no error at all, any error is higher."""
    e = np.asarray(mse, dtype=np.float64)
    key, change = _falls(e)
    return Outcome(key, f"The hidden-patch error went from {e[0]:.4f} to {e[-1]:.4f} "
                        f"({100 * change:+.1f} %) over {len(e) - 1} steps.")


