"""The dense page's prose: the title, how the network works, which energy the curves show and
what to try (the numbers stated here are checked in tests/ui/pages/test_page_claims.py and
tests/app/test_dense_page.py)."""
from __future__ import annotations

import streamlit as st

from hopfield_core import capacity
from ui.settings.modes import presenter
from ui.shell import heading, layout

from .settings import DEMO_LETTERS, DEMO_SIZE, load_demo

TITLE = "Dense associative memory (Krotov & Hopfield 2016)"
LEDE = ("A sharper interaction than the classical square: far more patterns stored in "
        "the same neurons. Load the demo, then compare the degree n = 2 with n = 3.")

ALPHA = f"{capacity.CLASSICAL_ALPHA:g}"  # the classical capacity per neuron, as written: 0.138


def intro() -> None:
    heading.title(TITLE, LEDE)


def lede() -> None:
    heading.lede(LEDE)


def explain() -> None:
    if presenter():
        lede()
    text, eq = layout.explain("dense")
    text.markdown(
        "The classical network scores a state by the **squared** overlaps $x_\\mu\\cdot\\xi$ "
        "with the stored patterns. Every stored pattern adds crosstalk of size about "
        f"$\\sqrt d$ to every other, so beyond about ${ALPHA}\\,d$ random patterns the memories "
        "drown. Krotov and Hopfield replaced the square by a sharper **interaction function** "
        "$F$: with $F(z) = z^n$ a pattern that nearly matches the state outweighs all the "
        "crosstalk, and the number of patterns the network holds grows like $d^{\\,n-1}$. "
        "Demircigil and colleagues used an **exponential**, $F(z) = e^{z}$, which outgrows "
        "every power: it stores exponentially many patterns, up to about $2^{d/2}$ random ones "
        "(fewer when the query is noisy).\n\n"
        "There is no weight matrix any more: the network keeps the patterns themselves. To "
        "update neuron $i$ it tries both values, $\\xi_i = +1$ and $\\xi_i = -1$ (all other "
        "neurons fixed), and keeps the one with the **lower energy** (a tie keeps the "
        "current value). Updated one neuron at a time (*async*) the energy can never rise. "
        "**Degree $n = 2$ is exactly the classical network**: same updates, same fixed points."
    )
    with eq:
        st.latex(r"E(\xi) = -\sum_{\mu=1}^{N} F(x_\mu \cdot \xi)")
        st.latex(r"\begin{aligned} F(z) &= z^n \ \text{ or } \max(z, 0)^n \ \text{(rectified)}"
                 r"\\ F(z) &= e^{\beta (z - d)} \ \text{(exponential)} \end{aligned}")
        st.latex(r"\begin{aligned} \xi_i &\leftarrow \mathrm{sgn}\big[E(\xi^{(i-)}) - "
                 r"E(\xi^{(i+)})\big] \\ &= \mathrm{sgn}\Big[\sum_\mu F(x_\mu\cdot\xi^{(i+)})"
                 r" - F(x_\mu\cdot\xi^{(i-)})\Big] \end{aligned}")
        st.latex(r"\begin{aligned} N_{\max} &\sim d^{\,n-1} && \text{polynomial} \\ "
                 r"N_{\max} &\sim 2^{d/2} && \text{exponential} \end{aligned}")
    st.caption("$\\xi^{(i\\pm)}$ is $\\xi$ with neuron $i$ set to $\\pm 1$.")
    st.info(
        "The exponential used "
        "here, $e^{\\beta(z-d)} = e^{-\\beta d}\\, e^{\\beta z}$, is a **positive rescaling** "
        "of Demircigil's $e^{z}$ (at $\\beta = 1$): every term is multiplied by the same "
        "positive constant $e^{-\\beta d}$. That **changes no update** (each neuron compares "
        "two energies, and the comparison survives the rescaling) and keeps $E$ in "
        "$[-N, 0]$, where $e^{z}$ would already reach $10^{111}$ at $d = 256$.",
        icon=":material/info:"
    )
    with st.expander("Which energy the curves show"):
        st.markdown(
            "$E$ itself is unreadable at the two ends: at $n = 10$ and $d = 256$ it reaches $-10^{24}$, "
            "and the exponential's terms fall below the smallest float away from the "
            "patterns ($E = -5\\cdot 10^{-45}$ for a query 51 flips from H at $\\beta = 1$, "
            "$d = 256$; exactly $-0.0$ at $\\beta = 10$). The curves show a strictly "
            "increasing function of $E$ instead: it falls exactly when $E$ falls, so "
            "every update and every verdict is the same."
        )
        # each name on a line of its own, the long right side on another: nothing is cut on a
        # 390 px phone (tests/e2e/test_devices_e2e.py: formulas)
        st.latex(r"\begin{aligned} &\text{polynomial:} \\ \frac{E}{d^{\,n}} &= -\sum_\mu "
                 r"\Big(\frac{x_\mu\cdot\xi}{d}\Big)^{n} \in [-N, N] \end{aligned}")
        st.latex(r"\begin{aligned} &\text{exponential:} \\ \tilde E &= -\frac1\beta \log "
                 r"\sum_\mu e^{\beta (x_\mu\cdot\xi - d)} \\ &= -\frac1\beta \log(-E) "
                 r"\end{aligned}")


def try_this() -> None:
    with st.expander("Try this", expanded=not presenter()):
        st.markdown(
            f"1. **Beat the classical capacity.** *Load this demo* stores the {len(DEMO_LETTERS)} "
            f"letters {', '.join(DEMO_LETTERS)} at {DEMO_SIZE} x {DEMO_SIZE} pixels: "
            f"$d = {DEMO_SIZE ** 2}$, so $N = {len(DEMO_LETTERS)} > {ALPHA}\\,d \\approx "
            f"{capacity.classical_capacity(DEMO_SIZE ** 2):.1f}$. The query is H with 20 % of "
            "its pixels flipped. Below, the classical network ends in a mixture state while "
            "degree 3 brings H back. Slide $n$ down to 2: the dense memory fails exactly like "
            "the classical one. Slide it up to 10: still H.\n"
            "2. **Too gentle an exponential.** In the demo choose *exponential* and "
            "$\\beta = 0.01$: $e^{\\beta u} \\approx 1 + \\beta u$ is almost linear, a memory "
            "that cannot tell which pattern is near, and it ends in a spurious state (at "
            "$\\beta = 0.02$ too). From $\\beta = 0.05$ up it retrieves H.\n"
            "3. **Synchronous trouble.** In the demo start from pattern *4. F*, flip 30 %, "
            "choose **sync** and $n = 8$: the energy rises at step 3 and the state blinks "
            "between two images. Switch to **async** and F comes back."
        )
        c1, c2 = st.columns([1, 3])
        c1.button("Load this demo", key="dense_demo", icon=":material/science:", on_click=load_demo,
                  type="primary", help="Replaces the stored patterns and the query settings.")
        c2.caption("Replaces the pattern store, the image size and the query (an uploaded "
                   "query image too); sets the model to polynomial, n = 3, async.")
