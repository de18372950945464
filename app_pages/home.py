"""Home: what the app is, the road from Hopfield 1982 to the Transformer, how to start."""
import streamlit as st

from ui import layout

PAGES = [("classical", "Classical network"), ("dense", "Dense associative memory"),
         ("modern", "Modern network & metastable states"), ("landscape", "Energy landscape"),
         ("side_by_side", "Side by side"), ("attention", "The attention limit"),
         ("energy_transformer", "Energy Transformer"), ("capacity_lab", "Capacity lab"),
         ("learning", "Learning the memories"),
         ("attention_family", "Attention as an exponential family")]


def main() -> None:
    st.title("Hopfield energy landscapes")
    st.markdown(
        "An associative memory stores patterns as the **valleys of an energy landscape**. "
        "Give it a corrupted or partial pattern and its dynamics roll downhill, step by step, "
        "until they settle in the nearest valley: the memory is *retrieved*. This app lets you "
        "store your own patterns, corrupt a query, step the dynamics and watch the energy fall, "
        "for every network on the road from Hopfield's 1982 paper to the attention inside a "
        "Transformer."
    )
    st.subheader("The road from 1982 to the Transformer")
    left, right = layout.explain("home", heading=None)
    with left:
        st.markdown(
            "**1. Classical network (Hopfield, 1982).** Binary neurons $\\xi_i \\in \\{-1,+1\\}$, "
            "Hebbian weights, a quadratic energy. It stores about $0.14\\,d$ random patterns in "
            "$d$ neurons; beyond that, fewer and fewer of the stored patterns are fixed points: "
            "started at one, the network slides away to a state that keeps only part of it, and "
            "less the more patterns are stored (at $d = 200$ the final overlap with the pattern, "
            "1 when it is kept whole, averages 0.76 with $0.2\\,d$ patterns and 0.57 with "
            "$0.25\\,d$).\n\n"
            "**2. Dense associative memory (Krotov & Hopfield, 2016; Demircigil et al., 2017).** "
            "Replace the quadratic by a steeper interaction $F$: a polynomial $z^n$ stores about "
            "$d^{\\,n-1}$ patterns, an exponential $e^{z}$ exponentially many in $d$.\n\n"
            "**3. Modern continuous network (Ramsauer et al., 2020).** Continuous states and a "
            "log-sum-exp energy; one update retrieves a pattern, and the inverse temperature "
            "$\\beta$ decides whether the fixed point is one pattern, a metastable average of a "
            "few, or the global average.\n\n"
            "**4. The attention limit.** The continuous update *is* the attention of a "
            "Transformer, $\\mathrm{softmax}(\\beta\\, Q K^\\top) V$, with $\\beta = 1/\\sqrt{d_k}$.\n\n"
            "**5. The Energy Transformer (Hoover et al., 2023).** A whole Transformer block whose "
            "every step lowers one global energy: it completes masked images."
        )
    left.markdown("**The energies**")
    with right:
        st.latex(r"E_{1982}(\xi) = -\tfrac12\, \xi^\top W \xi, \quad W = \tfrac1d \sum_\mu x_\mu x_\mu^\top")
        st.latex(r"E_{\mathrm{dense}}(\xi) = -\sum_\mu F(x_\mu^\top \xi)")
        st.latex(r"E_{\mathrm{modern}}(\xi) = -\tfrac1\beta \log \sum_\mu e^{\beta\, x_\mu^\top \xi}"
                 r" + \tfrac12\, \xi^\top \xi + \mathrm{const}")
        st.latex(r"\xi^{\mathrm{new}} = X^\top \mathrm{softmax}(\beta X \xi)")
    st.subheader("How to start")
    st.markdown(
        "1. Open a page and store a few patterns in its sidebar: letters, digits, shapes, "
        "photos, your own images, or one you draw.\n"
        "2. Pick one, corrupt it (flip pixels, add noise, hide half), and press **Step**.\n"
        "3. Watch the state, the energy curve and the overlap with every stored pattern.\n"
        "4. Store more patterns than the classical network can hold, and see which network "
        "still retrieves them."
    )
    with st.container(horizontal=True, wrap=True, gap="medium"):  # wraps on a narrow screen
        for path, label in PAGES:
            st.page_link(f"app_pages/{path}.py", label=label, width="content")


main()
