"""The Energy Transformer: a pretrained masked-image completer whose every step lowers an energy."""
import hashlib

import numpy as np
import streamlit as st
from streamlit_image_coordinates import streamlit_image_coordinates

from hopfield_core import analysis, images
from hopfield_core.et.masks import mean_fill, masked_patch_mse, random_mask, rectangle_mask, \
    show_masked, toggle
from hopfield_core.presets import photo_names, preset_image
from ui import et_cache, figures, state, widgets
from ui.text import quoted
from ui.widgets import UPLOAD_TYPES

PAGE = "et"
SIZE, PATCH, GRID = 32, 4, 8  # the shipped model's image size, patch size and grid
CLICK_WIDTH = 320


def explain() -> None:
    text, eq = st.columns([3, 2], gap="large")
    text.markdown(
        "The **Energy Transformer** (Hoover et al., 2023) is a Transformer block run as an "
        "energy descent. The image is cut into $4\\times4$ patches; each becomes a token "
        "$x_B$; hidden patches start as a learned *mask token*. Then one block is applied "
        "$T$ times, and each application moves every token **downhill** on one global "
        "energy: an **attention** part, in which every token is both a query and a key "
        "(so, unlike the modern Hopfield update, the memories move too), and a "
        "**Hopfield** part with $K$ learned memories. A normal Transformer block stacks "
        "different layers that optimise nothing; here the same weights are reused and the "
        "energy is guaranteed to fall for a small enough step. The decoder turns each "
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


def pick_image() -> tuple[np.ndarray | None, str]:
    src = st.radio("Image", ["preset photo", "upload"], key="et_source", horizontal=True)
    if src == "preset photo":
        name = st.selectbox("Photo", photo_names(), key="et_photo")
        return preset_image("photos", name, SIZE), f"preset/{name}"
    up = st.file_uploader("Upload a photo", type=UPLOAD_TYPES, key="et_upload",
                          help="It is centre-cropped and resized to 32 x 32 pixels.")
    if up is None:
        return None, ""
    try:
        key = state.upload_key(up)
    except images.ImageError as e:
        st.error(f"{quoted(up.name)}: {e}")
        return None, ""
    found = state.stored_upload(key)
    if found is None:
        st.error(state.missing_upload(key))
        return None, ""
    return images.resize(found[1], (SIZE, SIZE)), key


def pick_mask(image: np.ndarray) -> np.ndarray:
    how = st.radio("Mask", ["random", "rectangle", "click patches"], key="et_mask_mode",
                   horizontal=True)
    if how == "random":
        c1, c2 = st.columns(2)
        ratio = c1.slider("Hidden share", 0.05, 0.95, 0.5, 0.05, key="et_ratio")
        seed = c2.number_input("Seed", 0, 10_000, 0, key="et_seed")
        return random_mask(GRID, ratio, int(seed))
    if how == "rectangle":
        c1, c2 = st.columns(2)
        rows = c1.slider("Rows", 0, GRID, (2, 6), key="et_rows")
        cols = c2.slider("Columns", 0, GRID, (2, 6), key="et_cols")
        return rectangle_mask(GRID, rows[0], cols[0], rows[1] - rows[0], cols[1] - cols[0])
    mask = st.session_state.setdefault("et_clicked", random_mask(GRID, 0.5, 0))
    st.caption("Click a patch to hide or show it.")
    shown = images.to_pil(show_masked(image, mask, PATCH)).resize((CLICK_WIDTH, CLICK_WIDTH), 0)
    click = streamlit_image_coordinates(shown, key="et_click", width=CLICK_WIDTH, cursor="pointer")
    if click and click != st.session_state.get("et_last_click"):
        st.session_state.et_last_click = click
        mask = toggle(mask, click["x"], click["y"], click.get("width", CLICK_WIDTH),
                      click.get("height", CLICK_WIDTH))
        st.session_state.et_clicked = mask
        st.rerun()
    c1, c2 = st.columns(2)
    if c1.button("Hide none", key="et_clear_mask"):
        st.session_state.et_clicked = np.zeros((GRID, GRID), dtype=bool)
        st.rerun()
    if c2.button("Hide half at random", key="et_random_mask"):
        st.session_state.et_clicked = random_mask(GRID, 0.5, int(np.random.default_rng().integers(1e6)))
        st.rerun()
    return mask


def main() -> None:
    st.title("The Energy Transformer")
    explain()
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
        c[0].plotly_chart(figures.image(image, "Original", 260), key="et_original",
                          config={"displayModeBar": False})
        c[1].plotly_chart(figures.image(show_masked(image, mask, PATCH), "What the model sees", 260),
                          key="et_masked", config={"displayModeBar": False})
        c[2].plotly_chart(figures.image(out.frames[t], f"After step {t}", 260), key="et_frame",
                          config={"displayModeBar": False})
        c[3].plotly_chart(figures.image(mean_fill(image, mask, PATCH), "Mean-fill yardstick", 260),
                          key="et_meanfill", config={"displayModeBar": False})
        steps = np.arange(T + 1)
        fig = figures.line_chart(steps, {"total": out.energies, "attention": out.energies_att,
                                         "Hopfield": out.energies_hn},
                                 "Energy after each step", "step t", "E", mark_x=t)
        st.plotly_chart(fig, key="et_energy", config={"displayModeBar": False})
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


main()
