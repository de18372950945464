"""The Energy Transformer page's look inside the model at a chosen step: where one patch looks
in each attention head, and which Hopfield memories the image draws on
(hopfield_core.et.inspect). Computed on the server at the step the student picks
(sections.look_step); the player's Step and Play stay in the browser."""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core.et.inspect import montage
from hopfield_core.et.masks import show_masked
from hopfield_core.heads import kinds
from hopfield_core.modern import k90
from ui.charts.chart_numbers import show_columns
from ui.charts.charts import plot
from ui.charts.pictures import image_png
from ui.store.grid_editor import cell_grid, new_edits

from . import cache
from . import figures as et_figures
from .settings import GRID, PATCH, SETTINGS

QUERY_GRID = "energy_transformer_query_grid"  # the picture to click a patch on (ui/store/grid_editor.py)
QUERY_WORDS = ("the patch looked from", "hidden", "shown")
PICK_PX = 240  # the picture's width
OUTLINE = (0.83, 0.08, 0.35)  # the chosen patch's frame, the charts' red
TOP = 24  # memories drawn
COLUMNS = 8
# a head's kind by the one rule for attention heads (hopfield_core.heads.kinds), as "Inside a
# trained Transformer" names them
KINDS = {"retrieval": "retrieves (nearly) one patch (retrieval)",
         "metastable": "averages over a subset (metastable)",
         "global": "averages over half the patches or more (global)"}


KIND_WORDS = ("A head's kind here is that of this patch's attention, by the one rule for "
              "attention heads that *Inside a trained Transformer* uses too (there a head is "
              "named by its median over its queries): k90 is the fewest of the N patches holding "
              f"90 % of the weight; retrieval: k90 <= {kinds.RETRIEVAL_MAX_K90}; global: k90 >= "
              "N/2; metastable: in between. The modern page names the fixed points of its own "
              "network by a stricter rule: global there means at least 90 % of the patterns.")


def place(q: int) -> str:
    """Patch q (row by row from 0) as the grid names it: rows and columns counted from 1."""
    r, c = divmod(int(q), GRID)
    return f"row {r + 1}, column {c + 1}"


def apply_query_edits() -> None:
    """The patch clicked (or chosen from the keyboard) on the picture since the last run: a new
    choice reruns the whole page, so that the link carries it."""
    edits = new_edits(QUERY_GRID, GRID)
    if edits:
        r, c, _, _ = edits[-1]
        SETTINGS.assign("query", r * GRID + c)
        st.rerun(scope="app")


def outlined(picture: np.ndarray, q: int, scale: int) -> np.ndarray:
    """The picture (H, W, 3) enlarged `scale` times, patch q framed in OUTLINE."""
    big = np.repeat(np.repeat(np.asarray(picture, dtype=np.float64), scale, 0), scale, 1)
    r, c = divmod(int(q), GRID)
    s, w = PATCH * scale, max(2, scale // 2)
    y, x = r * s, c * s
    for sl in ((slice(y, y + w), slice(x, x + s)), (slice(y + s - w, y + s), slice(x, x + s)),
               (slice(y, y + s), slice(x, x + w)), (slice(y, y + s), slice(x + s - w, x + s))):
        big[sl] = OUTLINE
    return big


def picker(image: np.ndarray, mask: np.ndarray, q: int) -> None:
    cells = np.where(mask, 0.5, 1.0)
    cells.flat[q] = 0.0
    scale = max(1, PICK_PX // image.shape[0])
    st.markdown("**Click a patch to look from**")
    cell_grid(QUERY_GRID, cells, "flip", f"Patch to look from, {GRID} by {GRID}: {place(q)}",
              picture=image_png(outlined(show_masked(image, mask, PATCH), q, scale), PICK_PX),
              words=QUERY_WORDS, cell_px=PICK_PX // GRID)
    st.caption("Keyboard: Tab to the picture, the arrow keys move the cursor, Space or Enter "
               "chooses its patch.")


def head_words(a: np.ndarray, mask: np.ndarray, q: int, self_out: bool) -> list[str]:
    """One sentence a head: how many patches hold 90 % of its weight (k90) and its kind by the
    rule for attention heads (hopfield_core.heads.kinds), where its largest weight sits, and its
    share on the shown patches. a: (H, N)."""
    shown = ~np.asarray(mask, dtype=bool).ravel()
    out = []
    for h, w in enumerate(a):
        keys = np.delete(w, q) if self_out else w
        k = k90(keys)
        kind = kinds.kind_name(k, len(keys))
        top = int(np.argmax(w))
        where = "shown" if shown[top] else "hidden"
        out.append(f"Head {h + 1} {KINDS[kind]}: 90 % of its weight on {k} of {len(keys)} "
                   f"patches, the most ({100 * w[top]:.0f} %) on {place(top)} ({where}), "
                   f"{100 * w[shown].sum():.0f} % on the shown patches.")
    return out


def attention_part(run, model, c, t: int) -> None:
    apply_query_edits()
    q = int(SETTINGS["query"])
    mask = c.mask
    left, right = st.columns([1, 3], gap="medium")
    with left:
        picker(c.image, mask, q)
    a = cache.attention(c.device, c.name, run.key, t, q, run.out.tokens[t])  # (H, N)
    plot(right, et_figures.attention(a, mask, q, t), key="energy_transformer_attention")
    right.caption("Colour: the share of the head's attention on each patch, in per cent. Dots "
                  "mark the hidden patches; the red square is the patch looked from.")
    status = "hidden" if mask.flat[q] else (
        "shown, so its token does not move" if model.cfg.clamp_visible else "shown")
    st.markdown(f"**Patch {place(q)}** ({status}), at step {t}:\n\n" + "\n".join(
        f"- {s}" for s in head_words(a, mask, q, not model.cfg.attend_to_self)))
    st.caption(KIND_WORDS)
    show_columns(st, {
        "patch": [place(b) for b in range(a.shape[1])],
        "hidden": [bool(v) for v in mask.ravel()],
        **{f"head {h + 1} weight (%)": np.round(100 * a[h], 2) for h in range(a.shape[0])}},
        "energy_transformer_attention_numbers", title=f"Attention of patch {place(q)} at step {t}")


def memory_part(run, model, c, t: int) -> None:
    cfg = model.cfg
    seen = cache.memories(c.device, c.name, run.key, t, TOP, run.out.tokens[t])
    order, shares, half = seen["order"], seen["shares"], seen["half"]
    st.markdown(f"**The {TOP} memories this image uses most at step {t}**, of {cfg.memories}, "
                "each drawn as a patch by the model's decoder, the most used first")
    tiles = montage(seen["patches"], COLUMNS)
    scale = max(1, 640 // tiles.shape[1])
    st.container(key="energy_transformer_memories").image(
        image_png(tiles, tiles.shape[1] * scale), output_format="PNG", width="content",
        alt=f"The {TOP} most used of the model's {cfg.memories} memories, each a {cfg.patch_size} by "
            f"{cfg.patch_size} pixel patch, in rows of {COLUMNS}.")
    st.caption(memory_words(shares, half, run.out.tokens.shape[1], *seen["rough"]))
    show_columns(st, {
        "rank": np.arange(1, len(order) + 1), "memory": order,
        "share of the Hopfield energy (%)": np.round(100 * shares, 2)},
        "energy_transformer_memory_numbers", title=f"The most used memories at step {t}")


def compared(a: float, b: float) -> str:
    """How roughness a stands to b, in words: within 20 % is "about as rough as"."""
    if abs(a - b) <= 0.2 * b:
        return "about as rough as"
    return "rougher than" if a > b else "smoother than"


def memory_words(shares: np.ndarray, half: int, tokens: int, rough_memories: float,
                 rough_random: float, rough_tokens: float) -> str:
    """What the use of the memories and their pictures say, measured (shares: the most used
    memories' shares, most first; half: how many make half the use; the roughness
    (inspect.roughness) of the drawn memories, and of random directions and of this image's
    own tokens drawn the same way by the decoder, inspect.drawn)."""
    spread = (f"The most used holds {100 * shares[0]:.1f} % of it, these {len(shares)} together "
              f"{100 * shares.sum():.0f} %, and it takes {half} memories to make half")
    spread += (": no one memory is recalled, many each add a little." if shares[0] < 0.1 else ".")
    look = (f"Drawn by the same decoder, neighbouring pixels of these memories differ by "
            f"{rough_memories:.2f} on average, those of random directions by {rough_random:.2f} "
            f"and those of this image's own tokens by {rough_tokens:.2f}: the memories are "
            f"{compared(rough_memories, rough_random)} random directions and "
            f"{compared(rough_memories, rough_tokens)} the image's tokens. The drawing shows a "
            "direction of the token space, not a patch the model stores.")
    return (f"A memory's use is its part of the Hopfield energy, ½ Σ_B relu(ξ·g_B)² over the "
            f"{tokens} tokens: the parts add up to −E_HN. {spread} (E_HN is a rectified form of the "
            f"quadratic energy of Hopfield's 1982 network, not a softmax: many memories add up, "
            f"none has to win.) {look}")


def section(run, model, c, t: int) -> None:
    """Where the chosen patch looks, and the memories used, at step t (run: sections.Run): the
    step chosen above (sections.look_step), computed once per step and patch for the class."""
    st.header(f"Inside the model at step {t}")
    st.markdown(
        "Each step every hidden token moves along the pull of two energies. The attention "
        "energy scores every pair of patches in each head; for one patch as the query, its "
        "scores over the others become softmax weights, drawn below: the weights with which "
        "its move takes from them (it is also a key for the others). The Hopfield energy pulls "
        "each token towards the stored memories it already leans to.")
    attention_part(run, model, c, t)
    memory_part(run, model, c, t)
