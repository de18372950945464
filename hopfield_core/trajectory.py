"""The Trajectory record and the shared run loop of every model.

# T steps taken, d neurons, N patterns
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np


@dataclass
class Trajectory:
    """What `model.run(query)` returns.

    states:    (T+1, d) every state, the query first
    energies:  (T+1,)   the energy of each state
    converged: True when the last state is a fixed point
    cycle:     0, or the period of the limit cycle the dynamics fell into
    extras:    model-specific series, e.g. "weights" (T+1, N) for the continuous model
    """

    states: np.ndarray
    energies: np.ndarray
    converged: bool
    cycle: int = 0
    extras: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def steps(self) -> int:
        """Number of update steps taken (T)."""
        return len(self.states) - 1

    @property
    def final(self) -> np.ndarray:
        return self.states[-1]

    def __getattr__(self, name: str):
        # trajectory.weights reads extras["weights"]; only called when normal lookup fails
        extras = self.__dict__.get("extras", {})
        if name in extras:
            return extras[name]
        raise AttributeError(name)


def run_discrete(
    step: Callable[[np.ndarray], np.ndarray],
    energy: Callable[[np.ndarray], np.ndarray],
    query: np.ndarray,
    max_steps: int,
    deterministic: bool,
    stochastic: bool = False,
) -> Trajectory:
    """Iterate `step` on a bipolar state until a fixed point, a cycle or `max_steps`.

    A fixed point is a step that changes nothing. With `deterministic` dynamics
    (synchronous updates) any revisited state closes a limit cycle whose period
    is the distance between the two visits. With `stochastic` dynamics
    (temperature > 0) an unchanged state proves nothing, so the loop runs to
    `max_steps` and reports converged=False.
    """
    state = np.array(query, copy=True)
    states = [state]
    seen = {state.tobytes(): 0}
    cycle = 0
    converged = False
    for t in range(1, max_steps + 1):
        new = step(state)
        states.append(new)
        if not stochastic and np.array_equal(new, state):
            converged = True
            break
        if deterministic:
            key = new.tobytes()
            if key in seen:
                cycle = t - seen[key]
                break
            seen[key] = t
        state = new
    stacked = np.stack(states)
    energies = np.asarray(energy(stacked), dtype=np.float64)
    return Trajectory(states=stacked, energies=energies, converged=converged, cycle=cycle)
