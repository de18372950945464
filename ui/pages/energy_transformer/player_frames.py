"""What the Energy Transformer page's player shows at each step of a completion, as the browser
player's payload (ui/player/frames.py): the four pictures (the step's picture, and what the steps
changed for a model that refines a starting picture), the error and PSNR of the step with the
yardstick's, the energy and error curves, and, in the "Why the energy falls" section (a
follower of the player), the energy's two parts and its rate. Built once per run and look, and
shared by every session. No Streamlit here."""
from __future__ import annotations

import numpy as np

from hopfield_core.et.masks import mean_fill, show_masked
from ui.charts import charts
from ui.player import frames

from . import figures as et_figures
from .metrics import decibels, no_change, since_start
from .settings import PATCH

WHY = ("parts", "rate")  # the panels the "Why the energy falls" section shows (the follower)
PICTURE_PX = 896  # the pictures' widest: 28 px a pixel, crisp at a 1920 px projector's half
GAINS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
PSNR_HELP = ("Peak signal-to-noise ratio of the hidden patches, 10 log10(1 / MSE) for pixel values "
             "from 0 to 1: higher is better.")


def change_picture(frame: np.ndarray, start: np.ndarray) -> tuple[np.ndarray, int]:
    """(frame - start) magnified around mid-grey, and the gain: the largest of GAINS that keeps
    every pixel in [0, 1], so a change of a few hundredths is visible (grey = no change)."""
    diff = np.asarray(frame, dtype=np.float64) - np.asarray(start, dtype=np.float64)
    biggest = float(np.abs(diff).max())
    gain = max([g for g in GAINS if g * biggest <= 0.5] or [1])
    return np.clip(0.5 + gain * diff, 0, 1), gain


def error_tone(change: str | None) -> str:
    """The error's change since step 0 (lower is better): a fall good, a rise bad, none grey."""
    if change is None:
        return "off"
    return "good" if change.startswith("-") else "bad"


def layout(presenter: bool, change: bool) -> list[list]:
    """Presenter mode: the player beside the input and the result, the other two pictures and the
    charts (one above the other) below; else the player, the four pictures in a row, the
    numbers, the two charts side by side."""
    fourth = "change" if change else "meanfill"
    numbers = [["mse", 1], ["psnr", 1], ["meanfill_mse", 1], ["device", 1], ["took", 1]]
    if presenter:
        return [[[frames.CONTROLS, 1], ["masked", 1], ["frame", 1]], [["original", 1], [fourth, 1]], numbers,
                [["energy", 1]], [["error", 1]], [["parts", 1]], [["rate", 1]]]
    return [[[frames.CONTROLS, 1]], [["original", 1], ["masked", 1], ["frame", 1], [fourth, 1]], numbers,
            [["energy", 1], ["error", 1]], [["parts", 1], ["rate", 1]]]


def why_layout(presenter: bool) -> list[list]:
    return [[["parts", 1]], [["rate", 1]]] if presenter else [[["parts", 1], ["rate", 1]]]


def payload(page: str, run, image: np.ndarray, mask: np.ndarray, alpha: float, refines: bool,
            device: str, presenter: bool = False, projector: bool = False) -> tuple[dict, dict]:
    """(the player's payload, its follower's for "Why the energy falls") of one completion (run:
    sections.Run): refines, whether the model refines a starting picture (its fourth picture is
    then what the steps changed, else the mean fill)."""
    out, mse = run.out, run.mse
    T = len(out.energies) - 1
    steps = frames.frame_steps(T)
    n = len(steps)
    look = lambda fig: charts.for_mode(fig, presenter, projector)  # noqa: E731
    hidden = int(mask.sum())
    panels = {
        "original": frames.still(frames.to_u8(image), "The original photo, every patch shown.", "Original", n,
                                 PICTURE_PX),
        "masked": frames.still(frames.to_u8(show_masked(image, mask, PATCH)),
                               f"The input: the photo with {hidden} of {mask.size} patches hidden, drawn as grey "
                               "checks.", "Masked input", n, PICTURE_PX),
        "frame": frames.picture(frames.to_u8(out.frames[steps]),
                                [f"The model's picture after step {t}: the hidden patches filled in." for t in steps],
                                [f"After step {t}" for t in steps], PICTURE_PX),
        "mse": frames.metric("Masked-patch MSE, ET", [f"{mse[t]:.4f}" for t in steps],
                             [since_start(mse, t) or no_change(mse, t) for t in steps],
                             [error_tone(since_start(mse, t)) for t in steps]),
        "psnr": frames.metric("PSNR, ET", [decibels(mse[t]) for t in steps], [""] * n, ["off"] * n),
        "meanfill_mse": frames.metric("Mean-fill MSE", [f"{run.yardstick:.4f}"] * n, [""] * n, ["off"] * n),
        "device": frames.metric("Device", [device.upper()] * n, [""] * n, ["off"] * n),
        "took": frames.metric("Completion took", [f"{run.seconds * 1000:.0f} ms"] * n, [""] * n, ["off"] * n),
        # the curves: the whole run, the step marked
        "energy": frames.chart([look(et_figures.energy(out.energies, t)) for t in steps], whole_run=True),
        "error": frames.chart([look(et_figures.error(mse, run.yardstick, t)) for t in steps], whole_run=True),
        "parts": frames.chart([look(et_figures.parts(out.energies_att, out.energies_hn, t)) for t in steps],
                              whole_run=True),
        "rate": frames.chart([look(et_figures.rate(out.rates, out.energies, alpha, t)) for t in steps],
                             whole_run=True),
    }
    panels["psnr"]["help"] = PSNR_HELP
    panels["meanfill_mse"]["help"] = (f"MSE of the yardstick, every hidden patch the mean colour of the shown "
                                      f"ones: PSNR {decibels(run.yardstick)}.")
    if refines:
        changes = [change_picture(out.frames[t], out.frames[0]) for t in steps]
        panels["change"] = frames.picture(
            frames.to_u8(np.stack([c for c, _ in changes])),
            [f"What the steps changed since step 0, magnified {g} times: grey is no change." if t
             else "Step 0: no change yet, all grey." for t, (_, g) in zip(steps, changes)],
            [f"Change x{g}" if t else "Change" for t, (_, g) in zip(steps, changes)], PICTURE_PX)
        # one caption at every step (its gain is in the title)
        panels["change"]["caption"] = ("The change since step 0: grey is none; any other colour is what the "
                                       "descent has added to or taken from each channel, magnified as its title "
                                       "says.")
    else:
        panels["meanfill"] = frames.still(
            frames.to_u8(mean_fill(image, mask, PATCH)), "The yardstick: every hidden patch filled with the mean "
            "colour of the visible ones.", "Mean fill", n, PICTURE_PX)
    p = frames.payload(page, str(run.key), T, panels, layout(presenter, refines), steps=steps)
    p["mode"] = " ".join(m for m, on in (("presenter", presenter), ("stage", presenter), ("projector", projector))
                         if on)
    return frames.follower(p, list(WHY), why_layout(presenter))
