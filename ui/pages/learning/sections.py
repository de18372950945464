"""The learning page's parts: the points in the plane (data, training run, player, figures)
and the user's images. app_pages/learning.py lays them out."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
import streamlit as st

from hopfield_core import ebm, images, questions
from ui.charts import chart_numbers, charts, pictures
from ui.player import browser
from ui.serving.shared_cache import shared
from ui.serving.text import escaped
from ui.settings import gate
from ui.settings.modes import presenter, projector
from ui.store import patterns, store

from . import cache, figures, player_frames
from .settings import FRAMES, LIMIT, MAX_MY_POINTS, SETTINGS

PAGE = "learning"
PLANE = "learning_plane_chart"  # the plane on which clicks add my points


@dataclass(frozen=True)
class PlaneControls:
    """The plane's controls: the values in use (a link may hide some)."""

    name: str        # the data: a preset's name, or "mine" (points clicked on the plane)
    n: int           # training points
    N: int           # stored patterns
    seed: int
    beta: float
    lr: float        # Adam's step size
    per_frame: int   # Adam steps a frame
    kind: str        # the contour: what the plane shows


def plane_controls() -> PlaneControls:
    with st.container(key="controls_learning_pair_row"):  # two a row on a phone, not one
        c1, c2, c3, c4 = st.columns(4)
        name = SETTINGS.show("data", c1)
        n = SETTINGS.show("n", c2, disabled=name == "mine")
        N = SETTINGS.show("N", c3)
        seed = SETTINGS.show("seed", c4)
        c1, c2, c3, c4 = st.columns(4)
        beta = SETTINGS.show("beta", c1)
        lr = SETTINGS.show("lr", c2)
        per_frame = SETTINGS.show("per_frame", c3)
        kind = SETTINGS.show("contour", c4)
    return PlaneControls(name, int(n), int(N), int(seed), float(beta), float(lr), int(per_frame),
                         kind)


def _picked(event) -> tuple[float, float] | None:
    """The square a chart's selection event picked, rounded to 2 decimals (None: none)."""
    try:
        picked = event["selection"]["points"][0]
        return point_of(picked)
    except (KeyError, TypeError, IndexError):
        return None


def point_of(picked) -> tuple[float, float] | None:
    """{x, y} as a browser sent it, rounded to 2 decimals; None for anything that is not two
    finite numbers (a page can be sent anything)."""
    try:
        xy = round(float(picked["x"]), 2), round(float(picked["y"]), 2)
    except (KeyError, TypeError, ValueError, OverflowError):
        return None
    return xy if all(math.isfinite(v) for v in xy) else None


def apply_click() -> bool:
    """A square picked on the empty plane (there is no run yet) becomes one more of my points,
    once per pick. True when a point was added."""
    applied = st.session_state.setdefault("_eb_clicks_applied", {})
    xy = _picked(st.session_state.get(PLANE))
    if xy is not None and xy != applied.get(PLANE):
        applied[PLANE] = xy
        return _add_point(xy)
    return False


PICKED = "_learning_picked"  # a click on the player's plane, kept by _keep_pick for the script


def _keep_pick() -> None:
    """The player's callback when a square of its plane is clicked (browser.picked): kept for
    apply_pick, which the script runs before it draws the points."""
    st.session_state[PICKED] = browser.picked(PAGE)


def apply_pick() -> bool:
    """A square clicked on the player's plane becomes one more of my points. True when a
    point was added."""
    picked = st.session_state.pop(PICKED, None)
    xy = point_of(picked) if isinstance(picked, dict) else None
    return xy is not None and _add_point(xy)


def _add_point(xy: tuple[float, float]) -> bool:
    pts = tuple(SETTINGS["pts"])
    if len(pts) < MAX_MY_POINTS and max(abs(xy[0]), abs(xy[1])) <= LIMIT:
        SETTINGS.assign("pts", pts + (xy,))
        return True
    return False


def my_points_bar(c: PlaneControls) -> None:
    if c.name != "mine":
        return
    pts = SETTINGS["pts"]
    row = st.container(horizontal=True, vertical_alignment="center")
    row.markdown(f"**{len(pts)} of at most {MAX_MY_POINTS} points.** Click the faint squares "
                 "on the chart to add points.", width="content")
    if row.button("Remove the last point", key="learning_undo", disabled=not pts):
        SETTINGS.assign("pts", tuple(pts[:-1]))
        st.rerun()
    if row.button("Clear my points", key="learning_clear", disabled=not pts):
        SETTINGS.assign("pts", ())
        st.rerun()


def plane_section() -> None:
    c = plane_controls()
    if c.name == "mine":
        apply_click()
        apply_pick()
    my_points_bar(c)
    pts = tuple(SETTINGS["pts"]) if c.name == "mine" else ()
    note = cache.plane_note(len(pts) if c.name == "mine" else c.n, c.N, c.per_frame)
    if note:
        st.warning(note, icon=":material/memory:")
        return
    try:
        run = cache.plane_run(c.name, c.n, c.seed, pts, c.N, c.beta, c.lr,
                              c.per_frame)
    except ValueError as e:
        st.warning(escaped(e) + (" Click the chart to add points." if c.name == "mine"
                                 else ""))
        run = None
    if run is None:
        if c.name == "mine":  # the points so far, to click more into
            charts.plot(st, figures.plane(None, 0, None, c.kind,
                                          np.array(pts, dtype=float).reshape(-1, 2),
                                          np.zeros((0, 2)), True, "Click to add points"),
                        key=PLANE, on_select="rerun", selection_mode="points")
        return
    look = (presenter(), projector())
    run_key = f"{c}|{len(pts)}|{hash(pts)}"
    key = ("learning-player", dataclasses.astuple(c), pts, *look)
    data = shared(key, lambda: browser.frames.encoded(player_frames.payload(
        PAGE, run_key, run, c.beta, c.kind, c.seed, c.name == "mine", *look)))
    gate.offer(PAGE, questions.HELD_OUT_FALLS.key, questions.held_out_falls_options(),
               lambda: questions.held_out_falls(run.held_nll, run.nll))
    browser.show(PAGE, data, on_pick=_keep_pick if c.name == "mine" else None)
    if gate.closed(PAGE):  # a lesson's question waits: every step's NLL would answer it
        return
    steps = np.arange(FRAMES + 1) * run.per_frame
    chart_numbers.show_columns(st, {"Adam steps": steps, "training NLL": run.nll, "held-out NLL": run.held_nll},
                               "learning_numbers", "Every step of this run")


# ------------------------------------------------------------------ your images

def images_section() -> None:
    with st.container(key="controls_learning_images"):
        c1, c2, c3, c4, c5 = st.columns(5)
        N = int(SETTINGS.show("img_N", c1))
        beta = float(SETTINGS.show("img_beta", c2))
        steps = int(SETTINGS.show("img_steps", c3))
        lr = float(SETTINGS.show("lr", c4))
        seed = int(SETTINGS.show("seed", c5))
    items = store.items()
    if len(items) < 1:
        st.info(store.store_first("to learn from"))
        return
    size, colour, _ = patterns.representation()
    if N > len(items):
        st.warning(f"{N} patterns but only {len(items)} stored image"
                   f"{'s' if len(items) > 1 else ''}: use at most as many patterns as images "
                   "(or store more in the sidebar).")
        return
    data = cache.image_data(items, size, colour)
    note = cache.image_note(len(data), N, data.shape[1], steps)
    if note:
        st.warning(note, icon=":material/memory:")
        return
    key = (tuple(s.key for s in items), size, colour)
    X, history, ran, note = cache.image_run(key, N, beta, lr, steps, seed, data)
    if note:
        st.info(note, icon=":material/timer:")
    shape = (size, size, 3) if colour else (size, size)
    lo, hi = float(data.min()), float(data.max())
    m1, m2, m3 = st.columns(3)
    m1.metric("NLL of the images, start", f"{history[0]:.2f}")
    m2.metric(f"after {ran} Adam steps", f"{history[-1]:.2f}",
              delta=f"{history[-1] - history[0]:.2f}", delta_color="inverse")
    m3.metric("NLL per pixel value", f"{history[-1] / data.shape[1]:.3f}")
    r = ebm.responsibilities(X, data, beta)
    st.markdown("**Stored images** (as the model sees them: centred, on one grey scale)")
    _gallery([images.to_image(x, shape, lo, hi) for x in data], [s.name for s in items])
    st.markdown("**Learned patterns**, each with the images that attend to it most")
    labels = []
    for mu in range(N):
        top = np.argsort(-r[:, mu])[:2]
        labels.append(f"x{mu + 1}: " + ", ".join(f"{items[i].name} {r[i, mu]:.0%}" for i in top))
    _gallery([images.to_image(x, shape, lo, hi) for x in X], labels)
    charts.plot(st, figures.nll_curves(np.arange(len(history)), history, None, ran,
                                       title="NLL of the stored images"),
                key="learning_img_nll")


def _gallery(shown, captions, per_row: int = 8) -> None:
    for a in range(0, len(shown), per_row):
        cols = st.columns(per_row)
        for col, img, cap in zip(cols, shown[a:a + per_row], captions[a:a + per_row]):
            col.image(pictures.image_png(img, 160), width="stretch", output_format="PNG")
            col.caption(escaped(cap))
