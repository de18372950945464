"""Drawing by hand: a grid to draw a pattern at the current size and store it, and the query
with pixels to flip by clicking, both also from the keyboard (ui/store/grid_editor.py: arrow keys
and Space). The drawing is a fragment (a click reruns the grid, not the page,
until the drawing is stored); a flip changes the query, so it reruns the page, and is applied
before the query is made."""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core import drawing

from . import patterns, query, store
from .grid_editor import cell_grid, new_edits
from .shared_settings import LINK, MAX_FLIPS, SIDEBAR, STORE_KEPT

KEYS_HINT = ("Keyboard: Tab to the grid, the arrow keys move the cursor, Space or Enter "
             "{verb} its cell.")


# ---------------------------------------------------------------- draw a pattern

def _grid(size: int) -> np.ndarray:
    grids = st.session_state.setdefault("_drawings", {})
    return grids.setdefault(size, np.zeros((size, size), dtype=bool))


def _set_grid(size: int, grid: np.ndarray) -> None:
    st.session_state.setdefault("_drawings", {})[size] = grid


def _apply_draw(key: str, size: int) -> None:
    """Paint what the clicks, drags and key presses on the grid since the last run covered, in
    order (before the grid is drawn): each edit is the cells (r0, c0) to (r1, c1)."""
    for r0, c0, r1, c1 in new_edits(key, size):
        # drawing.paint takes points: each cell's centre, on a grid shown `size` units wide
        _set_grid(size, drawing.paint(_grid(size), (c0 + 0.5, r0 + 0.5), (c1 + 0.5, r1 + 0.5),
                                      size, size))


def _store_drawing(size: int) -> None:
    grid = _grid(size)
    message = store.add(drawing.key(grid)) if grid.any() else "Draw something first: the grid is empty."
    st.session_state.draw_message = message or "Stored: it is the last pattern of the store."


@st.fragment
def draw(page: str) -> None:
    """Draw a pattern at the representation's size and store it (a click reruns only this)."""
    if LINK.hidden("presets"):  # the link keeps the store as it is (presets_hide=1)
        st.caption(STORE_KEPT)
        return
    size = int(patterns.representation()[0])
    key = f"{page}_draw_{size}"
    st.caption(f"{size} x {size} cells. Click a cell to ink or erase it; drag across cells to "
               "paint a rectangle (a drag that starts on ink erases). "
               + KEYS_HINT.format(verb="inks or erases"))
    _apply_draw(key, size)
    cell_grid(key, (~_grid(size)).astype(float), "draw", f"Drawing, {size} by {size} cells")
    c1, c2, c3 = st.columns(3)
    c1.button("Clear", key=f"{page}_draw_clear", width="stretch",
              on_click=_set_grid, args=(size, np.zeros((size, size), dtype=bool)))
    c2.button("Invert", key=f"{page}_draw_invert", width="stretch",
              on_click=_set_grid, args=(size, ~_grid(size)))
    if c3.button("Store it", key=f"{page}_draw_store", type="primary", width="stretch",
                 help="Add the drawing to the pattern store (the link carries it)."):
        _store_drawing(size)
        st.rerun(scope="app")  # the pages use the store: all of it runs again
    message = st.session_state.pop("draw_message", None)
    if message:
        (st.success if message.startswith("Stored") else st.warning)(message)


# ---------------------------------------------------------------- flip the query's pixels

def _set_flips(pixels) -> None:
    SIDEBAR.assign("q_flip", tuple(sorted(pixels)))


def apply_flip(page: str, ps) -> None:
    """Flip the pixels of the query clicked (or toggled from the keyboard) since the last run,
    in order (before the query is made, so the whole run sees them)."""
    size = ps.shape[0]
    edits = new_edits(f"{page}_flip_{size}", size)
    if not edits:
        return
    flips = set(query.flipped_pixels(ps))
    for r, c, _, _ in edits:
        pixel = r * size + c
        if pixel not in flips and len(flips) >= MAX_FLIPS:
            st.session_state.flip_message = f"At most {MAX_FLIPS} pixels can be flipped by hand."
            continue
        flips ^= {pixel}
    _set_flips(flips)


def flip_query(page: str, ps, q: np.ndarray) -> None:
    """The query before any step, each pixel a target: a click flips it."""
    size = ps.shape[0]
    cells = q.reshape(ps.shape).mean(axis=2) if len(ps.shape) == 3 else q.reshape(ps.shape)
    flips = query.flipped_pixels(ps)
    cell_grid(f"{page}_flip_{size}", (cells + 1) / 2, "flip", f"Query, {size} by {size} pixels")
    message = st.session_state.pop("flip_message", None)
    if message:
        st.warning(message)
    st.caption(f"{len(flips)} pixel(s) flipped by hand, on top of the corruption chosen in the "
               "sidebar. Click a pixel to flip it; the run starts from this query. "
               + KEYS_HINT.format(verb="flips"))
    st.button("Undo every flip", key=f"{page}_flip_clear", disabled=not flips,
              on_click=_set_flips, args=((),))


def panel(page: str, ps):
    """Both tools in one expander (its contents run only while it is open); returns the query
    and its key (None, None for an empty store), pixels flipped by hand included."""
    if ps.binary and ps.N:
        apply_flip(page, ps)
    q, qkey = query.make(ps) if ps.N else (None, None)
    with st.container(key=f"controls_{page}_editor"):  # presenter mode hides it
        box = st.expander("Draw a pattern, or flip pixels of the query by hand", key=f"{page}_editor",
                          on_change="rerun", icon=":material/draw:")
    if not box.open:
        return q, qkey
    with box:
        left, right = st.columns(2, gap="large")
        with left:
            st.markdown("**Draw a pattern and store it**")
            draw(page)
        with right:
            st.markdown("**The query: click a pixel to flip it**")
            if ps.binary and ps.N:
                flip_query(page, ps, q)
    return q, qkey
