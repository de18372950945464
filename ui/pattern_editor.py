"""Drawing by hand: a grid to draw a pattern at the current size and store it, and the query
with pixels to flip by clicking. The grid is a fragment (a click reruns the grid, not the page,
until the drawing is stored); a flip changes the query, so it reruns the page, and is applied
before the query is made."""
from __future__ import annotations

import numpy as np
import streamlit as st
from PIL import Image, ImageDraw
from streamlit_image_coordinates import streamlit_image_coordinates

from hopfield_core import drawing

from . import patterns, query, store
from .shared_settings import MAX_FLIPS, SIDEBAR

WIDTH = 320   # pixels the grid is shown at
LINE = (190, 190, 190)


def grid_picture(cells: np.ndarray, width: int = WIDTH) -> Image.Image:
    """A (size, size) grid of values in [0, 1] (0 black) enlarged to `width` pixels, with thin
    grey lines between the cells so that each one is a target."""
    size = cells.shape[0]
    grey = np.round(np.clip(cells, 0, 1) * 255).astype(np.uint8)
    im = Image.fromarray(grey, "L").resize((width, width), Image.Resampling.NEAREST).convert("RGB")
    pen = ImageDraw.Draw(im)
    for i in range(1, size):
        at = round(i * width / size)
        pen.line([(at, 0), (at, width)], fill=LINE)
        pen.line([(0, at), (width, at)], fill=LINE)
    return im


def _event(click) -> tuple[tuple[float, float], tuple[float, float], float, float] | None:
    """(start, end, shown width, shown height) of a click or a drag."""
    if not click:
        return None
    w, h = click.get("width") or WIDTH, click.get("height") or WIDTH
    if "x1" in click:
        return (click["x1"], click["y1"]), (click["x2"], click["y2"]), w, h
    return (click["x"], click["y"]), (click["x"], click["y"]), w, h


# ---------------------------------------------------------------- draw a pattern

def _grid(size: int) -> np.ndarray:
    grids = st.session_state.setdefault("_drawings", {})
    return grids.setdefault(size, np.zeros((size, size), dtype=bool))


def _set_grid(size: int, grid: np.ndarray) -> None:
    st.session_state.setdefault("_drawings", {})[size] = grid


def _new_event(key: str):
    """The click or drag on the picture `key` since the last one handled, or None."""
    click = st.session_state.get(key)
    if not click or click == st.session_state.get(f"_{key}_handled"):
        return None
    st.session_state[f"_{key}_handled"] = click
    return _event(click)


def _apply_draw(key: str, size: int) -> None:
    """Paint what the last click or drag on the grid covered (before the grid is drawn)."""
    event = _new_event(key)
    if event:
        _set_grid(size, drawing.paint(_grid(size), *event))


def _store_drawing(size: int) -> None:
    grid = _grid(size)
    message = store.add(drawing.key(grid)) if grid.any() else "Draw something first: the grid is empty."
    st.session_state.draw_message = message or "Stored: it is the last pattern of the store."


@st.fragment
def draw(page: str) -> None:
    """Draw a pattern at the representation's size and store it (a click reruns only this)."""
    size = int(patterns.representation()[0])
    key = f"{page}_draw_{size}"
    st.caption(f"{size} x {size} cells. Click a cell to ink or erase it; drag across cells to "
               "paint a rectangle (a drag that starts on ink erases).")
    _apply_draw(key, size)
    streamlit_image_coordinates(grid_picture(~_grid(size)), key=key, width=WIDTH, click_and_drag=True,
                                cursor="crosshair")
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
    """Flip the pixel of the query that was clicked last (before the query is made, so the
    whole run sees it)."""
    size = ps.shape[0]
    event = _new_event(f"{page}_flip_{size}")
    if not event:
        return
    r, c = drawing.cell(*event[0], event[2], event[3], size)
    pixel, flips = r * size + c, set(query.flipped_pixels(ps))
    if pixel not in flips and len(flips) >= MAX_FLIPS:
        st.session_state.flip_message = f"At most {MAX_FLIPS} pixels can be flipped by hand."
        return
    _set_flips(flips ^ {pixel})


def flip_query(page: str, ps, q: np.ndarray) -> None:
    """The query before any step, each pixel a target: a click flips it."""
    size = ps.shape[0]
    cells = q.reshape(ps.shape).mean(axis=2) if len(ps.shape) == 3 else q.reshape(ps.shape)
    flips = query.flipped_pixels(ps)
    streamlit_image_coordinates(grid_picture((cells + 1) / 2), key=f"{page}_flip_{size}", width=WIDTH,
                                cursor="pointer")
    message = st.session_state.pop("flip_message", None)
    if message:
        st.warning(message)
    st.caption(f"{len(flips)} pixel(s) flipped by hand, on top of the corruption chosen in the "
               "sidebar. Click a pixel to flip it; the run starts from this query.")
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
