"""The Energy Transformer page's numbers for a step, as text: the error as PSNR, a small change,
the error's change since step 0 (the player's metrics: player_frames.py)."""
from __future__ import annotations

import numpy as np

from hopfield_core.et.inspect import psnr
from ui.player.frames import START


def decibels(mse: float) -> str:
    value = psnr(mse)
    return "perfect" if value == float("inf") else f"{value:.2f} dB"


def small(x: float, signed: bool = False) -> str:
    """A change that can be far below 1e-4 (a state at rest) reads as a number, not 0.0000."""
    if x == 0:
        return "0"
    if abs(x) < 1e-3:
        return f"{x:+.1e}" if signed else f"{x:.1e}"
    return f"{x:+.5f}" if signed else f"{x:.4f}"


def since_start(mse: np.ndarray, t: int) -> str | None:
    """The error's change from step 0 to step t, in per cent of step 0's, for the metric's
    delta (None, no arrow, at step 0, when step 0's error is 0 or when nothing changed)."""
    if t == 0 or mse[0] <= 0 or mse[t] == mse[0]:
        return None
    pct = 100 * (mse[t] / mse[0] - 1)
    digits = ".1f" if abs(pct) >= 0.1 else ".2f" if abs(pct) >= 0.01 else ".1e"
    return f"{pct:+{digits}} % since step 0"


def no_change(mse: np.ndarray, t: int) -> str:
    """The delta line where since_start has no percentage: why there is none."""
    if t == 0:
        return START
    if mse[t] == mse[0]:
        return "no change since step 0"
    return "step 0's error was 0"
