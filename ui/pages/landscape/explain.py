"""The energy landscape page's prose: the title, how it works and what to try, and the note
under each section (the numbers stated here are checked in tests/ui/pages/test_page_claims.py and
tests/app/test_landscape_page.py)."""
from __future__ import annotations

import streamlit as st

from ui.settings.modes import presenter
from ui.shell import heading, layout

TITLE = "The energy landscape"

MODERN_ENERGY = (r"\begin{aligned} E(\xi) = &-\frac1\beta \log\sum_{\mu=1}^{N} e^{\beta\, x_\mu^\top \xi}"
                 r" \\ &+ \tfrac12\,\xi^\top\xi + \frac1\beta\log N + \tfrac12 M^2 \end{aligned}")  # a phone's width


LEDE = ("The surface the dynamics roll down: whole in a 2-D world, on a plane and a line "
        "through image space, and state by state for a tiny binary network.")


def intro() -> None:
    heading.title(TITLE, LEDE)


def lede_below() -> None:
    """Presenter mode: the lede under the figure, so that a 768 px high projector screen
    shows the figure first (issue 30)."""
    if presenter():
        heading.lede(LEDE)


def explain() -> None:
    text, eq = layout.explain("landscape")
    text.markdown(
        "Every Hopfield network has an **energy** $E(\\xi)$. Updated one neuron at a time "
        "(asynchronously), or with the continuous update below, the state only ever goes "
        "downhill; synchronous updates of binary neurons can climb (see the classical page). "
        "Memories are the **valleys** of this landscape; recall is rolling from the "
        "query into the valley whose basin holds it (usually, not always, the nearest one). "
        "This page shows the landscape itself: in a 2-D world you "
        "can see whole, on a plane and a line through image space, and, for tiny binary "
        "networks, state by state, with every valley found and named."
    )
    with eq:
        st.latex(r"\begin{aligned} E(\xi) = &-\frac1\beta \log\sum_{\mu=1}^{N} e^{\beta\, x_\mu^\top \xi}"
                 r" \\ &+ \tfrac12\,\xi^\top\xi + \frac1\beta\log N + \tfrac12 M^2, \\"
                 r" M = &\max_\mu \lVert x_\mu \rVert \end{aligned}")  # three lines: a phone's width
        st.latex(r"E(\xi_{t+1}) \le E(\xi_t)")
    with st.expander("Try this", expanded=not presenter()):
        st.markdown(
            "- **2-D world**, default triangle: set **β = 1**. There is one valley in the centre "
            "and the query rolls to the mean of the three patterns (a global fixed point). Raise "
            "β step by step: at β ≈ 1.84 three more valleys appear beside the central one (for a "
            "while there are four: a first-order transition), at β = 2 the centre turns into a hill, and "
            "at β = 3 the same query retrieves x1.\n"
            "- **Slice**, store H, O, X: from H to O with **β = 2, 5, 20**. At β = 2 the barrier "
            "is 0 (no valley at the ends); it grows to about 0.09 at β = 5 and 0.2 at β = 20.\n"
            "- **Small binary networks**: d = 16, N = 5, seed 0. The classical network keeps only "
            "2 of the 5 patterns as minima (with 2 mirrors and 2 mixtures). Switch to the dense "
            "network: all 5 are minima, and no mirrors."
        )


def world_view() -> None:
    layout.note("landscape_world", (
        "With patterns in the **plane** you can see the whole landscape at once. Place 2 to 6 "
        "patterns and a query; the contour shows the exact energy of the continuous network "
        "(every constant included), and the white path is `model.run(query)`: each step jumps "
        "to the softmax-weighted average of the patterns. Small $\\beta$ melts the valleys into "
        "one; large $\\beta$ digs one valley per pattern."),
        [MODERN_ENERGY, r"\xi \leftarrow X^\top \mathrm{softmax}(\beta X \xi)"])


def plane_view() -> None:
    layout.note("landscape_plane", (
        "Image patterns live in $d$ dimensions, so we look at a **plane** through that space: "
        "either the plane of the stored patterns' two main directions of variation (PCA, "
        "through their mean $\\bar x$), or the plane through three chosen patterns. The colours "
        "are the exact energy of the points of that plane; the query's trajectory is drawn as "
        "its projection (hover a step for its own energy and its distance from the plane)."),
        [r"\xi(u, v) = \bar x + u\, e_1 + v\, e_2", r"E(u, v) = E(\xi(u, v))",
         r"(u, v) = \big(e_1^\top(\xi - \bar x),\ e_2^\top(\xi - \bar x)\big)"])


def states_view() -> None:
    layout.note("landscape_states", (
        "With $d \\le 16$ neurons there are at most $2^{16} = 65\\,536$ states: few enough to "
        "compute the energy of **every one** and find every **local minimum** (a state that no "
        "single flip lowers). Each minimum is a stored pattern, a **mirror** $-x_\\mu$, an odd "
        "**mixture** $\\mathrm{sgn}(\\pm x_a \\pm x_b \\pm x_c)$, or **spurious** (none of these)."),
        [r"\text{classical: } E = -\tfrac12\,\xi^\top W \xi",
         r"\text{dense } (n=3)\text{: } E = -\sum_\mu (x_\mu^\top \xi)^3"])


def slice_view() -> None:
    layout.note("landscape_slice", (
        "Walk in a straight line from one stored pattern to another. Two separate valleys show "
        "a **barrier** in between, and $\\beta$ sets its height: at small $\\beta$ the valleys "
        "merge (no barrier: the midpoint is lower), at large $\\beta$ each pattern is a deep, "
        "narrow well. The shaded band is the segment itself ($0 \\le t \\le 1$)."),
        [r"E(t) = E\big((1-t)\,x_a + t\,x_b\big)",
         r"\Delta E = \max_{0\le t\le 1} E(t) - \max\big(E(0), E(1)\big)"])
