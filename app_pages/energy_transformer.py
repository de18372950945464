"""The Energy Transformer: a pretrained masked-image completer whose every step lowers an energy."""
import hashlib

import numpy as np
import streamlit as st

from hopfield_core import analysis
from hopfield_core.et.masks import mean_fill, masked_patch_mse, show_masked
from ui import charts, et_cache, figures, layout, state, widgets
from ui.et.controls import PATCH, pick_image, pick_mask
from ui.et.settings import GRID, SETTINGS

PAGE = "et"


def explain() -> None:
    text, eq = layout.explain(PAGE)
    text.markdown(
        "The **Energy Transformer** (Hoover et al., 2023) is a Transformer block run as an "
        "energy descent. The image is cut into $4\\times4$ patches; each becomes a token "
        "$x_B$; hidden patches start as a learned *mask token*. Then one block is applied "
        "$T$ times, and each application moves every token **downhill** on one global "
        "energy: an **attention** part, in which every token is both a query and a key "
        "(so, unlike the modern Hopfield update, the memories move too), and a "
        "**Hopfield** part with $K$ learned memories. In a standard Transformer each attention "
        "update is already an implicit step on an energy of its own queries and keys, but "
        "each layer has its own weights and the parts share no energy; here one block is "
        "reused and every part descends one global energy, which is guaranteed to fall for "
        "a small enough step. The decoder turns each "
        "step's tokens back into pixels, so you can watch the hole fill in."
    )
    with eq:
        st.latex(r"g = \gamma\,\frac{x - \overline{x}}{\sqrt{\mathrm{var}(x) + \epsilon}} + \delta")
        st.latex(r"E_{\mathrm{ATT}} = -\frac1\beta \sum_h \sum_C \log \sum_{B \neq C} "
                 r"e^{\beta\, (W_K^h g_B)^\top (W_Q^h g_C)}")
        st.latex(r"E_{\mathrm{HN}} = -\tfrac12 \sum_B \sum_\mu \mathrm{relu}(\xi_\mu^\top g_B)^2")
        st.latex(r"x \leftarrow x - \alpha\, \frac{\partial (E_{\mathrm{ATT}} + E_{\mathrm{HN}})}{\partial g}")
    with st.expander("Try this", expanded=not state.presenter()):
        st.markdown(
            "- Keep the *astronaut*, choose **rectangle** and hide rows 2 to 6 and columns 2 to 6 "
            "(the face): press **Play** and watch the hole fill in while all three energies fall.\n"
            "- With a **random** mask, slide the hidden share from 0.3 to 0.9: the ET's error grows "
            "but stays below the mean-fill yardstick until almost nothing is left to go on.\n"
            "- Choose **click patches**, press *Hide none*, then hide a single patch: one token "
            "is rebuilt from its neighbours by attention alone."
        )
    st.caption("Compare: a modern Hopfield step moves one query towards fixed stored patterns, "
               r"$\xi \leftarrow X^\top \mathrm{softmax}(\beta X \xi)$; attention is that step with "
               "projections; the ET descends an energy in which all tokens attend to each other.")


def live() -> None:
    """The controls and the completion (or what stops it)."""
    SETTINGS.bind()
    st.title("The Energy Transformer")
    st.caption("A Transformer block run as an energy descent fills in the hidden patches of a "
               "photo, step by step, while its energy falls.")
    options = et_cache.devices()
    with st.container(key="controls_et"):
        left, right = st.columns([1, 1], gap="large")
        with left:
            image, image_key = pick_image()
            device = st.radio("Device", options, key="et_device", horizontal=True,
                              help="CUDA or Apple MPS when this machine has one, else the CPU.") \
                if len(options) > 1 else options[0]
        with right:
            mask = pick_mask(image) if image is not None else None
    model, error = et_cache.load_et(device)
    if model is None:
        st.error(f"The Energy Transformer is unavailable: {error} The other pages still work.")
        st.button("Retry", key="et_retry", icon=":material/refresh:",
                  help="Load the weights again (after they have been restored or retrained).")
        return
    if image is None:
        st.info("Choose a preset photo or upload one to begin.")
        return
    st.caption(f"Hidden: {int(mask.sum())} of {GRID * GRID} patches.")
    if not mask.any():
        st.warning("Nothing is hidden: hide some patches to see the model fill them in.")
    out, seconds = et_cache.complete(device, image_key, hashlib.sha1(mask.tobytes()).hexdigest(),
                                     model.cfg.steps, image, mask)
    T = len(out.energies) - 1
    run_key = f"{image_key}|{mask.tobytes().hex()}|{device}"

    def body():
        t = widgets.player(PAGE, T, run_key)
        c = st.columns(4)
        charts.plot(c[0], figures.image(image, "Original", 260), key="et_original",
                          config={"displayModeBar": False})
        charts.plot(c[1], figures.image(show_masked(image, mask, PATCH), "Masked input", 260),
                          key="et_masked", config={"displayModeBar": False})
        charts.plot(c[2], figures.image(out.frames[t], f"After step {t}", 260), key="et_frame",
                          config={"displayModeBar": False})
        charts.plot(c[3], figures.image(mean_fill(image, mask, PATCH), "Mean fill", 260),
                          key="et_meanfill", config={"displayModeBar": False})
        steps = np.arange(T + 1)
        fig = figures.line_chart(steps, {"total": out.energies, "attention": out.energies_att,
                                         "Hopfield": out.energies_hn},
                                 "Energy after each step", "step t", "E", mark_x=t)
        charts.plot(st, fig, key="et_energy", config={"displayModeBar": False})
        m = st.columns(4)
        m[0].metric("Masked-patch MSE, ET", f"{masked_patch_mse(out.frames[t], image, mask, PATCH):.4f}")
        m[1].metric("Mean-fill MSE", f"{masked_patch_mse(mean_fill(image, mask, PATCH), image, mask, PATCH):.4f}")
        m[2].metric("Device", device.upper())
        m[3].metric("Completion took", f"{seconds * 1000:.0f} ms")
        if analysis.energy_rises(out.energies).size:
            st.warning("The energy rose at some step for this image: the step size is too large "
                       "for it.")
        widgets.stop_if_done(PAGE, t, T)

    widgets.animated(PAGE, body)



def main() -> None:
    live()
    explain()  # below the live figure, whatever happened above


main()
