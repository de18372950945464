"""The Energy Transformer page's live parts: the completion, the player in the browser (the
pictures, the numbers, the energy and the error against steps: player_frames.py), why the energy
falls, on the live model, and a look inside it (inside.py) at a step of the student's choice."""
from __future__ import annotations

import hashlib
from typing import NamedTuple

import numpy as np
import streamlit as st

from hopfield_core import questions
from hopfield_core.analysis import energy_rises
from hopfield_core.et.descent import ROUNDING
from hopfield_core.et.masks import masked_patch_mse, mean_fill
from ui.player import browser
from ui.serving.shared_cache import shared
from ui.settings import gate
from ui.settings.modes import presenter, projector

from . import cache, explain, inside, player_frames
from .metrics import small
from .settings import GRID, PATCH

PAGE = "energy_transformer"  # the page's player (ui/player/browser.py) and its keys


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


LOOK = "energy_transformer_look"  # the step the look inside (and M's spectrum) is at


def look_step(T: int) -> int:
    """The step that "Why the energy falls" (M's eigenvalues) and "Inside the model" look at: a
    slider of its own, the last step unless a student moves it (each step is computed once, when
    looked at, and cached for the class). The player's Step and Play stay in the browser."""
    if T == 0:
        return 0
    if st.session_state.get(LOOK, T) > T or LOOK not in st.session_state:
        st.session_state[LOOK] = T  # the slider's value comes from here alone (no default beside it)
    return int(st.slider("The step to look at, in this section and inside the model", 0, T, key=LOOK))


def frame(run: Run, model, c) -> None:
    """The player (in the browser: the pictures, the numbers and the curves of every step, sent
    once), then how far the run settled, why the energy falls and a look inside the model at a
    step of the student's choice (model: the loaded ET)."""
    out, mse, T = run.out, run.mse, len(run.out.energies) - 1
    look = (presenter(), projector())
    key = ("et-player", PAGE, run.key, model.cfg.readout, float(model.cfg.alpha), c.device, float(run.seconds),
           float(run.yardstick), *look)
    gate.offer(PAGE, questions.ERROR_FALLS.key, questions.error_falls_options(),
               lambda: questions.error_falls(mse))
    gate.offer(PAGE, questions.RISES.key, questions.rises_options(),
               lambda: questions.rises(out, rtol=ROUNDING))  # the page's own tolerance (float32)
    data, why = shared(key, lambda: tuple(browser.frames.encoded(p) for p in player_frames.payload(
        PAGE, run, c.image, c.mask, model.cfg.alpha, model.cfg.readout == "change", c.device, *look)))
    browser.show(PAGE, data)
    if presenter():  # above the player on a screen of its own; below the pictures here
        explain.lede()
        hidden_note(c.mask, model.cfg)
    if gate.closed(PAGE):  # how far it settled would answer a lesson's question, or tell the class early
        if gate.pending(PAGE):  # a lesson's: so would every part below
            return
    else:
        st.caption(settled(out, mse, model.cfg.steps, explain.start_picture(model.cfg)))
        if energy_rises(out.energies, rtol=ROUNDING).size:
            st.warning("The energy rose at some step for this image: the step size is too large "
                       "for it.")
    st.header("Why the energy falls")  # at the player's step: presenter mode shows it as it goes
    browser.show(PAGE, why, "why")  # the two parts and the rate, at the player's step
    t = look_step(T)
    spectrum = cache.spectrum(c.device, c.name, run.key, t, out.tokens[t])
    why_it_falls(out, spectrum, float(model.model.ln_gamma), model.cfg, t)
    inside.section(run, model, c, t)


def rate_noise(rates: np.ndarray) -> float:
    """Below this, dE/dt is zero as far as float32 can tell: a millionth (ROUNDING) of the
    fastest rate of the run. The law's value, -(gamma / sigma) |s|^2 summed, is never positive,
    so a positive value this small is rounding."""
    return ROUNDING * float(np.max(np.abs(rates)))


def error_curve(frames: np.ndarray, image: np.ndarray, mask: np.ndarray, p: int) -> np.ndarray:
    """Masked-patch MSE of every frame, (T+1,)."""
    return np.array([masked_patch_mse(f, image, mask, p) for f in frames])


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
