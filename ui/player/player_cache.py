"""What the player of every dynamics page (ui/player/dynamics_view.py) keeps of each run, for every
session: the frames as bytes, the overlaps, the energy rises and the verdict, computed once per
run and kept in PLAYER, a cache bounded by bytes (ui/serving/memory_plan.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from hopfield_core import analysis, images
from ui.serving import memory_plan
from ui.serving.byte_cache import ByteCache

if TYPE_CHECKING:
    from ui.store.patterns import PatternSet


def frames_u8(traj, ps: PatternSet) -> np.ndarray:
    """(T+1, H, W, 3) uint8: every state as the player's PNG shows it, round(255 x picture),
    8 times smaller than the float pictures; built one state at a time."""
    lo, hi = (-1.0, 1.0) if ps.binary else (float(ps.X.min()), float(ps.X.max()))
    S = np.asarray(traj.states)  # (T+1, d)
    out = np.empty((len(S), ps.shape[0], ps.shape[1], 3), dtype=np.uint8)
    for t, s in enumerate(S):
        out[t] = np.round(images.to_image(s, ps.shape, lo, hi) * 255)  # to_image clips to [0, 1]
    return out


def analyse(traj, ps: PatternSet) -> tuple:
    """(frames (T+1, H, W, 3) uint8, overlaps (T+1, N), energy rises, verdict) of a run."""
    return (frames_u8(traj, ps), analysis.overlaps(traj.states, ps.X),
            analysis.energy_rises(traj.energies), analysis.verdict(traj, ps.X, binary=ps.binary))


# what the player shows of each run, for every session: bounded by bytes (ui/serving/memory_plan.py)
PLAYER = ByteCache("player", memory_plan.PLAYER_BYTES)


def analysed(run_key: str, fingerprint: str, traj, ps: PatternSet) -> tuple:
    """analyse(traj, ps), computed once per run and kept in PLAYER (shared read-only)."""
    return PLAYER.get((run_key, fingerprint), lambda: analyse(traj, ps))
