"""The Energy Transformer: a pretrained masked-image completer whose every step lowers an energy."""
import hashlib

import streamlit as st

from hopfield_core import analysis
from hopfield_core.et.descent import ROUNDING
from hopfield_core.et.masks import mean_fill, masked_patch_mse
from ui import et_cache, layout, state, widgets
from ui.energy_transformer import dynamics, sections
from ui.energy_transformer.controls import pick_device, pick_image, pick_mask
from ui.energy_transformer.sections import PAGE
from ui.energy_transformer.settings import CONFIGS, GRID, PATCH, SETTINGS, SIZE


def explain(cfg) -> None:
    """The lede, the formulas and what to try, true of the model the page runs (cfg)."""
    text, eq = layout.explain(PAGE)
    text.markdown(
        "The **Energy Transformer** (Hoover et al., 2023) is a Transformer block run as an "
        f"energy descent. The image is cut into ${PATCH}\\times{PATCH}$-pixel patches; each "
        "becomes a token $x_B$; " + dynamics.where_hidden_start(cfg) + ". Then one block "
        "is applied $T$ times, and each application moves the tokens **downhill** on one "
        "global energy: an **attention** part, in which every token is both a query and a key "
        "(so, unlike the modern Hopfield update, a moving token moves as a key too), and a **Hopfield** "
        "part with $K$ learned memories. In a standard Transformer each attention update is "
        "already an implicit step on an energy of its own queries and keys, but each layer has "
        "its own weights and the parts share no energy; here one block is reused and every "
        "part descends one global energy. " + dynamics.watch(cfg) + dynamics.how_tokens_move(cfg)
        + dynamics.where_tokens_are(cfg) + "\n\n"
        f"The model was trained to be read after $T = {cfg.steps}$ steps. Run it longer with "
        "**Steps T** and compare the two curves: the energy can only fall, but whether the "
        "picture stays good depends on how the model was trained. The answer should be where "
        "the descent settles; the sentence under the curves says whether it is, for this image."
    )
    with eq:
        st.latex(r"g = \gamma\,\frac{x - \overline{x}}{\sqrt{\mathrm{var}(x) + \epsilon}} + \delta")
        st.latex(dynamics.attention_latex(cfg))
        st.latex(r"E_{\mathrm{HN}} = -\tfrac12 \sum_B \sum_\mu \mathrm{relu}(\xi_\mu^\top g_B)^2")
        st.latex(dynamics.step_latex(cfg))
    with st.expander("Try this", expanded=not state.presenter()):
        st.markdown(
            dynamics.first_try(cfg)
            + "- Switch **Start** between the two models: from the harmonic fill the descent "
            "adjusts a smooth guess a little (lowering the energy, not always the error); from the mask token alone (the paper's start) it "
            "draws the whole hole, its error falling with the energy from far above the mean "
            "fill's. Which ends lower?\n"
            "- Set **Steps T** to 100 and compare the error curve with the energy curve: does the "
            "picture hold once the trained steps are over?\n"
            "- With a **random** mask, slide the hidden share from 0.3 to 0.9: the ET's error "
            "grows, and so does the mean-fill yardstick's.\n"
            "- Choose **click patches**, press *Hide none*, then hide a single patch: one token "
            "is rebuilt from its neighbours."
        )
    st.caption("Compare: a modern Hopfield step moves one query towards fixed stored patterns, "
               r"$\xi \leftarrow X^\top \mathrm{softmax}(\beta X \xi)$; attention is that step with "
               "projections; the ET descends an energy in which all tokens attend to each other.")


def live() -> str:
    """The controls and the completion (or what stops it); the name of the model chosen."""
    SETTINGS.bind()
    st.title("The Energy Transformer")
    st.caption("A Transformer block run as an energy descent fills in the hidden patches of a "
               f"{SIZE} x {SIZE} photo, step by step, while its energy falls.")
    with st.container(key="controls_et"):
        left, right = st.columns([1, 1], gap="large")
        with left:
            image, image_key = pick_image()
            steps = SETTINGS.show("steps")
            name = SETTINGS.show("start")
            device = pick_device(et_cache.devices())
        with right:
            mask = pick_mask(image) if image is not None else None
    model, error = et_cache.load_et(device, name)
    if model is None:
        st.error(f"The Energy Transformer is unavailable: {error} The other pages still work.")
        st.button("Retry", key="et_retry", icon=":material/refresh:",
                  help="Load the weights again (after they have been restored or retrained).")
        return name
    if image is None:
        st.info("Choose a preset photo or upload one to begin.")
        return name
    st.caption(f"Hidden: {int(mask.sum())} of {GRID * GRID} patches.")
    if not mask.any():
        st.warning("Nothing is hidden: hide some patches to see the model fill them in.")
    elif mask.all():
        st.warning(dynamics.all_hidden(model.cfg))
    out, seconds = et_cache.complete(device, name, image_key, hashlib.sha1(mask.tobytes()).hexdigest(),
                                     int(steps), image, mask)
    T = len(out.energies) - 1
    run_key = f"{image_key}|{mask.tobytes().hex()}|{device}|{name}|{T}"
    mse = sections.error_curve(out.frames, image, mask, PATCH)
    yardstick = masked_patch_mse(mean_fill(image, mask, PATCH), image, mask, PATCH)
    gamma = float(model.model.ln_gamma)

    def body():
        t = widgets.player(PAGE, T, run_key)
        sections.pictures(image, mask, out.frames[t], t, PATCH,
                          out.frames[0] if model.cfg.readout == "change" else None)
        m = st.columns(4)
        m[0].metric("Masked-patch MSE, ET", f"{mse[t]:.4f}", delta=sections.since_start(mse, t),
                    delta_color="inverse")
        m[1].metric("Mean-fill MSE", f"{yardstick:.4f}")
        m[2].metric("Device", device.upper())
        m[3].metric("Completion took", f"{seconds * 1000:.0f} ms")
        sections.curves(out, mse, yardstick, t)
        st.caption(sections.settled(out, mse, model.cfg.steps, dynamics.start_picture(model.cfg)))
        if analysis.energy_rises(out.energies, rtol=ROUNDING).size:
            st.warning("The energy rose at some step for this image: the step size is too large "
                       "for it.")
        spectrum = et_cache.spectrum(device, name, run_key, t, out.tokens[t])
        sections.why_it_falls(out, spectrum, gamma, model.cfg, t)
        widgets.stop_if_done(PAGE, t, T)

    widgets.animated(PAGE, body)
    return name


def main() -> None:
    name = live()
    explain(CONFIGS[name])  # below the live figure, whatever happened above


main()
