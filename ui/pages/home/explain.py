"""Home's prose: what the app is, the road from Hopfield 1982 to the Transformer (with the
energies), how to start."""
from __future__ import annotations

import streamlit as st

from hopfield_core import capacity
from ui.shell import heading, layout

TITLE = "Hopfield energy landscapes"
ALPHA = f"{capacity.CLASSICAL_ALPHA:g}"  # the classical capacity per neuron, as written: 0.138


def intro() -> None:
    heading.title(TITLE)
    st.markdown(
        "An associative memory stores patterns as the **valleys of an energy landscape**. "
        "Give it a corrupted or partial pattern and its dynamics roll downhill, step by step, "
        "until they settle in the valley whose basin holds the query (usually, not always, the "
        "nearest): the memory is *retrieved*. This app lets you "
        "store your own patterns, corrupt a query, step the dynamics and watch the energy fall, "
        "for every network on the road from Hopfield's 1982 paper to the attention inside a "
        "Transformer."
    )


def road() -> None:
    st.header("The road from 1982 to the Transformer")
    left, right = layout.explain("home", heading=None)
    with left:
        st.markdown(
            "**1. Classical network (Hopfield, 1982).** Binary neurons $\\xi_i \\in \\{-1,+1\\}$, "
            f"Hebbian weights, a quadratic energy. It holds about ${ALPHA}\\,d$ random patterns "
            "in $d$ neurons, each recalled with at most about 1.6 % of its bits wrong (Amit, "
            "Gutfreund and Sompolinsky); beyond that the memory near each pattern is lost: "
            "started at one, the network slides away to a state that keeps only part of it, and "
            "less the more patterns are stored (at $d = 200$ the final overlap with the pattern, "
            "1 when it is kept whole, averages about 0.78 with $0.2\\,d$ patterns and about 0.56 "
            "with $0.25\\,d$, over 8,000 trials).\n\n"
            "**2. Dense associative memory (Krotov & Hopfield, 2016; Demircigil et al., 2017).** "
            "Replace the quadratic by a steeper interaction $F$: a polynomial $z^n$ stores a number "
            "of patterns that grows like $d^{\\,n-1}$, an exponential $e^{z}$ exponentially many "
            "in $d$.\n\n"
            "**3. Modern continuous network (Ramsauer et al., 2020).** Continuous states and a "
            "log-sum-exp energy. When the patterns are well separated and the inverse temperature "
            "$\\beta$ is large, one update retrieves a pattern; $\\beta$ decides whether the "
            "fixed point is one pattern, a blend of a few (metastable), or a blend of them all "
            "(the plain average only as $\\beta \\to 0$).\n\n"
            "**4. The attention limit.** Take the full update (step size $\\gamma = 1$), the "
            "state as the query, the stored patterns as both the keys and the values, and no "
            "learned projections: then the continuous update *is* the attention of a "
            "Transformer, $\\mathrm{softmax}(\\beta\\, Q K^\\top) V$, with $\\beta = 1/\\sqrt{d_k}$.\n\n"
            "**5. The Energy Transformer (Hoover et al., 2023).** A whole Transformer block whose "
            "dynamics descend one global energy: it completes masked images."
        )
    left.markdown("**The energies**")
    with right:
        st.latex(r"E_{1982}(\xi) = -\tfrac12\, \xi^\top W \xi, \quad W = \tfrac1d \sum_\mu x_\mu x_\mu^\top")
        st.latex(r"E_{\mathrm{dense}}(\xi) = -\sum_\mu F(x_\mu^\top \xi)")
        st.latex(r"\begin{aligned} E_{\mathrm{modern}}(\xi) = &-\tfrac1\beta \log \sum_\mu"
                 r" e^{\beta\, x_\mu^\top \xi} \\ &+ \tfrac12\, \xi^\top \xi + \mathrm{const}"
                 r" \end{aligned}")  # two lines: a phone's width
        st.latex(r"\xi^{\mathrm{new}} = X^\top \mathrm{softmax}(\beta X \xi)")


def how_to_start() -> None:
    st.header("How to start")
    st.markdown(
        "1. Open a page and store a few patterns in its sidebar: letters, digits, shapes, "
        "photos, your own images, or one you draw.\n"
        "2. Pick one, corrupt it (flip pixels, add noise, hide half), and press **Step**.\n"
        "3. Watch the state, the energy curve and the overlap with every stored pattern.\n"
        "4. Store more patterns than the classical network can hold, and see which network "
        "still retrieves them."
    )
