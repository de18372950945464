"""The energy landscape: see the surface the dynamics roll down, in 2-D, on planes and lines
through image space, and exhaustively for small binary networks. Layout only: the pieces are
in ui/landscape/."""
import streamlit as st

from ui import layout, sidebar, state
from ui.landscape import plane, slice, states, world
from ui.landscape.settings import SETTINGS


def intro() -> None:
    st.title("The energy landscape")
    st.caption("The surface the dynamics roll down: whole in a 2-D world, on a plane and a line "
               "through image space, and state by state for a tiny binary network.")


def explain() -> None:
    text, eq = layout.explain("landscape")
    text.markdown(
        "Every Hopfield network has an **energy** $E(\\xi)$. Updated one neuron at a time "
        "(asynchronously), or with the continuous update below, the state only ever goes "
        "downhill; synchronous updates of binary neurons can climb (see the classical page). "
        "Memories are the **valleys** of this landscape; recall is rolling from the "
        "query into the nearest one. This page shows the landscape itself: in a 2-D world you "
        "can see whole, on a plane and a line through image space, and, for tiny binary "
        "networks, state by state, with every valley found and named."
    )
    with eq:
        st.latex(r"\begin{aligned} E(\xi) = &-\frac1\beta \log\sum_{\mu=1}^{N} e^{\beta\, x_\mu^\top \xi}"
                 r" + \tfrac12\,\xi^\top\xi \\ &+ \frac1\beta\log N + \tfrac12 M^2,\quad"
                 r" M = \max_\mu \lVert x_\mu \rVert \end{aligned}")
        st.latex(r"E(\xi_{t+1}) \le E(\xi_t)")
    with st.expander("Try this", expanded=not state.presenter()):
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


def main() -> None:
    SETTINGS.bind()
    view = SETTINGS["view"]  # the sidebar shows what the open section uses
    sidebar.panels(store=view in ("plane", "slice") or (view == "states" and SETTINGS["bsrc"] == "store"),
                   representation=view in ("plane", "slice"), binary=False, query=view == "plane")
    intro()
    # one section at a time: only the chosen one runs, a closed one costs the server nothing
    view = SETTINGS.show("view", label_visibility="collapsed", width="stretch")
    with st.container():
        if view == "world":
            world.show()
        elif view == "states":
            states.show()
        else:
            ps = state.patterns(binary=False)
            if ps.N == 0:
                st.info("Store at least one pattern in the sidebar to begin.")
            else:
                (plane if view == "plane" else slice).show(ps)
    explain()


main()
