"""(d) Every state of a small binary network: the energy of all 2^d states and every local
minimum, named (stored, mirror, mixture or spurious)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from hopfield_core import binary_landscape as core
from hopfield_core import images
from hopfield_core.capacity import CLASSICAL_ALPHA, classical_capacity
from ui.charts import charts
from ui.serving import shared_cache
from ui.store import store

from . import cache, explain
from . import figures as figs
from .settings import SETTINGS

KIND_LABELS = {"stored": "Stored", "mirror": "Mirror", "mixture": "Mixture", "spurious": "Spurious"}


def store_4x4(n: int) -> np.ndarray:
    """The first n stored images, shrunk to 4 x 4 and made bipolar: (n', 16)."""
    items = store.items()[:n]
    if not items:
        return np.zeros((0, 16))
    return np.stack([images.to_bipolar(images.resize(s.image, (4, 4))) for s in items])


@dataclass(frozen=True)
class Controls:
    """The binary network's controls: the values in use (a link may hide some)."""

    d: int          # neurons
    n: int          # patterns
    seed: int
    model: str
    source: str     # "random" or "store"
    xaxis: str
    ref: int        # the reference pattern, from 0


def controls() -> Controls:
    with st.container(key="controls_landscape_binary"):
        c1, c2, c3, c4 = st.columns(4)
        d, n = int(SETTINGS.show("bd", c1)), int(SETTINGS.show("bn", c2))
        seed = int(SETTINGS.show("bseed", c3))
        model = SETTINGS.show("bmodel", c4)
        e1, e2, e3 = st.columns([2, 1, 1])
        source = SETTINGS.show("bsrc", e1)
        xaxis = SETTINGS.show("bx", e2)
        ref = SETTINGS.show("bref", e3, options=range(n), format_func=lambda i: f"x{i + 1}")
    return Controls(d, n, seed, model, source, xaxis, int(ref))


def patterns(d, n, seed, source):
    """The network's patterns, or None (with a message) when there are none."""
    if source == "store" and d != 16:
        st.warning("Stored images shrink to 4 x 4 = 16 pixels: set d = 16 to use them. "
                   "Showing random patterns instead.")
        source = "random"
    if source == "random":
        return core.random_patterns(n, d, seed)
    X = store_4x4(n)
    if len(X) < n:
        st.warning(f"The store holds {len(X)} image(s): using {len(X)} pattern(s), not {n}.")
    if len(X) == 0:
        st.info(store.store_first())
        return None
    return X


def show() -> None:
    c = controls()
    d, n, seed, model, source, xaxis, ref = c.d, c.n, c.seed, c.model, c.source, c.xaxis, c.ref
    X = patterns(d, n, seed, source)
    if X is None:
        explain.states_view()
        return
    ref = min(ref, len(X) - 1)
    note = cache.binary_note(X.shape[1], len(X))  # d neurons, N patterns
    if note:
        st.warning(note, icon=":material/memory:")
        explain.states_view()
        return
    patterns_key = X.astype(np.int8).tobytes().hex()
    land = cache.binary(model, patterns_key, X)
    counts = land.counts()
    cols = st.columns(6)
    cols[0].metric("States", f"{2 ** X.shape[1]:,}")
    cols[1].metric("Local minima", len(land.minima))
    for col, kind in zip(cols[2:], core.BINARY_KINDS):
        col.metric(KIND_LABELS[kind], counts[kind])
    xs = core.reference_axis(land.states, X[ref], xaxis)
    names = [f"x{i + 1}" for i in range(len(X))]
    forms = {"stored": "stored {}", "mirror": "mirror of {}", "mixture": "mixture of {}",
             "spurious": "spurious"}
    labels = [forms[k].format(", ".join(names[i] for i in m)) for k, m in zip(land.kinds, land.members)]
    x_title = (f"overlap m with x{ref + 1}" if xaxis == "overlap"
               else f"Hamming distance to x{ref + 1}")

    def cloud():
        ux, uy, cnt = core.unique_points(xs, land.energies)
        return figs.state_cloud(ux, uy, cnt, xs[land.minima], land.energies[land.minima],
                                land.kinds, labels, x_title)

    charts.plot(st, shared_cache.shared(("landscape", "cloud", model, patterns_key, xaxis, ref), cloud),
                    key="landscape_binary_chart")
    left, right = st.columns([3, 2], gap="large")
    left.dataframe(pd.DataFrame({
        "state": [core.state_string(land.states[i]) for i in land.minima],
        "energy": land.energies[land.minima],
        "class": list(land.kinds),
        "which": labels,
        x_title: xs[land.minima],
    }), hide_index=True, key="landscape_minima_table")
    with right:
        st.markdown("**The stored patterns**")
        st.dataframe(pd.DataFrame({"pattern": names,
                                   "state": [core.state_string(x) for x in X]}),
                     hide_index=True, key="landscape_binary_patterns")
        if model == "classical":
            st.caption(f"Hebbian capacity is about {CLASSICAL_ALPHA:g} d = "
                       f"{classical_capacity(X.shape[1]):.1f} random patterns; "
                       "mirrors are always minima too, since E(-ξ) = E(ξ).")
        else:
            st.caption("The cubic energy is odd: E(-ξ) = -E(ξ), so mirrors are maxima, not minima, "
                       "and the capacity grows like d².")
    explain.states_view()
