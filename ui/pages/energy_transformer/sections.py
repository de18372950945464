"""The Energy Transformer page's live parts: the completion, and below the player the images,
the numbers, the energy and the error against steps, why the energy falls, on the live model,
and a look inside it (inside.py)."""
from __future__ import annotations

import hashlib
from typing import NamedTuple

import numpy as np
import streamlit as st

from hopfield_core.analysis import energy_rises
from hopfield_core.et.descent import ROUNDING
from hopfield_core.et.masks import masked_patch_mse, mean_fill, show_masked
from ui.charts.pictures import image_png
from ui.player import play
from ui.player.live_charts import live, live_image
from ui.settings.modes import presenter

from . import cache, explain, inside
from . import figures as et_figures
from .metrics import metrics, small
from .settings import GRID, PATCH

PAGE = "energy_transformer"  # the page's player (ui.player.play.player) and its keys


def unavailable(error: str) -> None:
    """Why the model did not load, and a button to try again."""
    st.error(f"The Energy Transformer is unavailable: {error} The other pages still work.")
    st.button("Retry", key="energy_transformer_retry", icon=":material/refresh:",
              help="Load the weights again (after they have been restored or retrained).")


def hidden_note(mask: np.ndarray, cfg) -> None:
    """How many patches are hidden (mask (GRID, GRID), True = hidden), and a warning when none
    or all are (cfg: the configuration of the model that runs)."""
    st.caption(f"Hidden: {int(mask.sum())} of {GRID * GRID} patches.")
    if not mask.any():
        st.warning("Nothing is hidden: hide some patches to see the model fill them in.")
    elif mask.all():
        st.warning(explain.all_hidden(cfg))


class Run(NamedTuple):
    out: object        # the Completion (hopfield_core.et.complete), T steps
    seconds: float     # how long it took
    key: tuple         # the run's parameters: the player's run and the spectra's cache key
    mse: np.ndarray    # (T+1,) masked-patch error of every frame
    yardstick: float   # the mean fill's masked-patch error


def complete(c) -> Run:
    """The completion of the chosen image and mask by the chosen model (c: controls.Choices),
    cached for every session, with its errors."""
    mask_key = hashlib.sha1(c.mask.tobytes()).hexdigest()
    out, seconds = cache.complete(c.device, c.name, c.image_key, mask_key, c.steps, c.image,
                                  c.mask)
    key = (c.image_key, mask_key, c.device, c.name, len(out.energies) - 1)
    yardstick = masked_patch_mse(mean_fill(c.image, c.mask, PATCH), c.image, c.mask, PATCH)
    return Run(out, seconds, key, error_curve(out.frames, c.image, c.mask, PATCH), yardstick)


def frame(run: Run, model, c) -> None:
    """The player and everything it shows at the step it is on (the body that Play re-runs):
    the pictures, the errors, the curves, and why the energy falls (model: the loaded ET)."""
    out, mse, T = run.out, run.mse, len(run.out.energies) - 1
    if presenter():  # the player beside the input and the result (ui/shell/responsive_css.py: _stage)
        player_place, *stage = st.container(key="energy_transformer_stage").columns(3)
    else:
        player_place, stage = st.container(), None
    with player_place:
        t = play.player(PAGE, T, run.key)
    pictures(c.image, c.mask, out.frames[t], t, PATCH,
             out.frames[0] if model.cfg.readout == "change" else None, stage)
    if presenter():  # above the player on a screen of its own; below the pictures here
        explain.lede()
        hidden_note(c.mask, model.cfg)
    metrics(run, c.device, t)
    curves(out, mse, run.yardstick, t)
    st.caption(settled(out, mse, model.cfg.steps, explain.start_picture(model.cfg)))
    if energy_rises(out.energies, rtol=ROUNDING).size:
        st.warning("The energy rose at some step for this image: the step size is too large "
                   "for it.")
    spectrum = cache.spectrum(c.device, c.name, run.key, t, out.tokens[t])
    why_it_falls(out, spectrum, float(model.model.ln_gamma), model.cfg, t)
    inside.section(run, model, c, t)
    play.stop_if_done(PAGE, t, T)


def rate_noise(rates: np.ndarray) -> float:
    """Below this, dE/dt is zero as far as float32 can tell: a millionth (ROUNDING) of the
    fastest rate of the run. The law's value, -(gamma / sigma) |s|^2 summed, is never positive,
    so a positive value this small is rounding."""
    return ROUNDING * float(np.max(np.abs(rates)))


def error_curve(frames: np.ndarray, image: np.ndarray, mask: np.ndarray, p: int) -> np.ndarray:
    """Masked-patch MSE of every frame, (T+1,)."""
    return np.array([masked_patch_mse(f, image, mask, p) for f in frames])


GAINS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


def change_picture(frame: np.ndarray, start: np.ndarray) -> tuple[np.ndarray, int]:
    """(frame - start) magnified around mid-grey, and the gain: the largest of GAINS that keeps
    every pixel in [0, 1], so a change of a few hundredths is visible (grey = no change)."""
    diff = np.asarray(frame, dtype=np.float64) - np.asarray(start, dtype=np.float64)
    biggest = float(np.abs(diff).max())
    gain = max([g for g in GAINS if g * biggest <= 0.5] or [1])
    return np.clip(0.5 + gain * diff, 0, 1), gain


PICTURE_PX = 896  # the pictures' PNG width: 28 px a pixel, crisp at a 1920 px projector's half


def _picture(where, key: str, title: str, img: np.ndarray, alt: str, live: bool = False) -> None:
    """One picture under its title, as wide as its column (a PNG, scaled by the browser: a
    Plotly chart's height is fixed, a picture's follows the width). A picture that changes on
    every frame of Play goes in the page's message (live_image), never blank."""
    box = where.container(key=f"energy_transformer_pic_{key}")
    box.markdown(f"**{title}**")
    png = image_png(img, PICTURE_PX)
    if live:
        live_image(box, png, alt=alt, width="stretch")
    else:
        box.image(png, width="stretch", output_format="PNG", alt=alt)


def pictures(image, mask, frame, t: int, p: int, start: np.ndarray | None = None,
             stage=None) -> None:
    """Original, masked input, the frame at step t, and either the mean fill or (given the
    start frame, for a model that refines a starting picture) what the steps changed.
    Four in a row on a wide screen, two by two on a narrow one (ui/shell/responsive_css.py); in
    presenter mode (stage: the places of the input and the result, beside the player, and on
    a wide screen under it, half the width each) the other two below them."""
    hidden = int(mask.sum())
    if stage:
        masked, result = stage
        original, fourth = st.columns(2)
    else:
        with st.container(key="energy_transformer_pictures_pair_row"):
            original, masked, result, fourth = st.columns(4)
    _picture(original, "original", "Original", image, "The original photo, every patch shown.")
    _picture(masked, "masked", "Masked input", show_masked(image, mask, p),
             f"The input: the photo with {hidden} of {mask.size} patches hidden, drawn as grey "
             "checks.")
    _picture(result, "frame", f"After step {t}", frame,
             f"The model's picture after step {t}: the hidden patches filled in.", live=True)
    if start is None:
        _picture(fourth, "meanfill", "Mean fill", mean_fill(image, mask, p),
                 "The yardstick: every hidden patch filled with the mean colour of the visible "
                 "ones.")
        return
    change, gain = change_picture(frame, start)
    _picture(fourth, "change", f"Change x{gain}" if t else "Change", change,
             f"What the steps changed since step 0, magnified {gain} times: grey is no change."
             if t else "Step 0: no change yet, all grey.", live=True)
    # one caption at every step (its gain is in the title): a caption that changed length
    # would move every chart below it when Play leaves step 0
    fourth.caption("The change since step 0: grey is none; any other colour is what the descent "
                   "has added to or taken from each channel, magnified as its title says.")


def pair():
    """Two places for two charts: side by side, or one below the other on a projector (the
    presenter's larger fonts leave half a width too narrow for a chart and its legend)."""
    if presenter():
        return st.container(), st.container()
    return st.columns(2)


def curves(out, mse: np.ndarray, yardstick: float, t: int) -> None:
    """Energy and error against steps, side by side."""
    left, right = pair()
    live(left, et_figures.energy(out.energies, t), "energy_transformer_energy", PAGE)
    live(right, et_figures.error(mse, yardstick, t), "energy_transformer_error", PAGE)


def settled(out, mse: np.ndarray, trained: int, start: str = "the decoder's reading of the starting tokens") -> str:
    """Sentences on how far the run has settled (the last step's largest pixel change) and,
    past the model's trained number of steps, whether the picture held or got worse."""
    T = len(mse) - 1
    if T == 0:
        return f"No step taken yet: this is {start}."
    move = float(np.abs(out.frames[-1] - out.frames[-2]).max())
    text = (f"Between steps {T - 1} and {T} the picture changes by at most {small(move)} per "
            f"pixel value (on a 0 to 1 scale), and the error by {small(mse[-1] - mse[-2], True)}.")
    if T <= trained:
        return text
    fell = out.energies[-1] < out.energies[trained]
    if mse[-1] > 1.05 * mse[trained]:
        return (f"{text} Past its trained {trained} steps the error rises from "
                f"{mse[trained]:.4f} to {mse[-1]:.4f} while the energy "
                f"{'keeps falling' if fell else 'stays put'}: this model's answer is a passing "
                "state of the descent, not where it settles. Lower energy is not, by itself, a "
                "better picture.")
    return (f"{text} Past its trained {trained} steps the error stays within 5 % of its value "
            f"there ({mse[trained]:.4f} at step {trained}, {mse[-1]:.4f} at step {T}): the "
            "answer is where the descent settles.")


def why_it_falls(out, spectrum: dict, gamma: float, cfg, t: int) -> None:
    """dE/dt = -(dE/dg)^T M s on the live model (cfg: its configuration): the two parts, the
    rate, and M's eigenvalues on the tokens of the shown step."""
    alpha = cfg.alpha
    st.header("Why the energy falls")
    left, right = pair()
    live(left, et_figures.parts(out.energies_att, out.energies_hn, t), "energy_transformer_parts", PAGE)
    live(right, et_figures.rate(out.rates, out.energies, alpha, t), "energy_transformer_rate", PAGE)
    text, eq = st.container(), st.container(horizontal=True, wrap=True, gap="large",
                                            key="formulas_energy_transformer_descent")
    eq.latex(explain.LAGRANGIAN)
    eq.latex(explain.law_latex(cfg))
    sign = "positive" if gamma > 0 else "not positive"
    text.markdown(explain.law_words(cfg))
    st.markdown(
        f"**On the tokens of step {t}** ({spectrum['tokens']} tokens, one ${spectrum['dim']}"
        f"\\times{spectrum['dim']}$ block of $M$ each, by autograd): smallest eigenvalue "
        f"**{spectrum['smallest']:.1e}**{rounding(spectrum)}, next smallest "
        f"{spectrum['second']:.1e}, largest "
        f"{spectrum['largest']:.3f}. The zero belongs to the direction $(1, \\dots, 1)$: "
        "layer norm ignores a shift of all of a token's features, so moving along it changes "
        "nothing. The next one, tiny, is a change of the token's scale, which layer norm "
        f"ignores up to $\\epsilon$. The learned $\\gamma = {gamma:.3f}$ is {sign}, so $M$ is "
        f"positive semidefinite and {rate_here(out.rates, t)}"
    )
    st.caption(step_sentence(out, alpha))


def rounding(spectrum: dict) -> str:
    """Why a smallest eigenvalue of about -1e-17 still means a positive semidefinite M."""
    if spectrum["smallest"] != 0 and abs(spectrum["smallest"]) < 1e-9 * spectrum["largest"]:
        return " (zero, up to the rounding of the arithmetic)"
    return ""


def latex_number(x: float, digits: int) -> str:
    """x with `digits` significant digits, powers of ten as 10^k (not 3e-07)."""
    text = f"{x:.{digits}g}"
    if "e" not in text:
        return text
    mantissa, power = text.split("e")
    return rf"{mantissa} \times 10^{{{int(power)}}}"


def rate_here(rates: np.ndarray, t: int) -> str:
    """dE/dt at step t, saying so when it is zero to float32's precision (a state at rest)."""
    rate = float(rates[t])
    if abs(rate) > rate_noise(rates) or t == 0:
        return f"$dE/dt = {latex_number(rate, 4)}$ here."
    if rate > 0:
        return (f"$dE/dt = {latex_number(rate, 2)}$ here: float32 rounding of a rate that cannot "
                "be positive, a millionth or less of the run's fastest. The state is at rest.")
    return (f"$dE/dt = {latex_number(rate, 2)}$ here, a millionth or less of the run's fastest: "
            "the state is at rest.")


def step_sentence(out, alpha: float) -> str:
    """What the chart's two curves show on this run, measured."""
    T = len(out.rates) - 1
    if T == 0:
        return "Take a step to compare the law with what a step does."
    law_falls = bool(np.all(out.rates <= rate_noise(out.rates)))
    rose = int(energy_rises(out.energies, rtol=ROUNDING).size)
    ulps = int(np.sum(np.diff(out.energies) > 0)) - rose  # at rest: float32 rounding either way
    if law_falls and rose == 0:
        found = "both say the energy falls at every step"
        if ulps:
            found = ("both say the energy never rises: every step lowers it except, once the "
                     f"state is at rest, {ulps} that raise it by float32 rounding (under a "
                     "millionth of |E|)")
    else:
        found = (f"{rose} of {T} steps raised the energy, and the law is "
                 f"{'never' if law_falls else 'sometimes'} positive")
    return (f"The chart compares that law's rate of fall $-dE/dt$, taken at the start of each "
            f"step, with what each step of size $\\alpha = {alpha:g}$ did, "
            f"$-(E_{{t+1}} - E_t)/\\alpha$: on this run "
            f"{found}. The law is the limit of ever smaller steps; a step of finite size "
            "falls by a different amount, and only a small enough one is sure to fall.")
