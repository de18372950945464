"""The classical page's prose: the title and the caption that states the settings in use, how
the network works (with the weights of the chosen learning rule) and what to try.

A teacher's link may hide the controls, so the caption must never describe other settings than
those in use, nor the explanation another rule's weights than the rule in use."""
from __future__ import annotations

from typing import NamedTuple

import streamlit as st

from hopfield_core.capacity import CLASSICAL_ALPHA, classical_capacity
from ui.settings.modes import presenter
from ui.shell import heading, layout

from .settings import RULE_NAMES


class Rule(NamedTuple):
    sentence: str    # how storing patterns sets the weights
    formulas: tuple  # LaTeX: W as this rule builds it (hopfield_core/classical.py)


RULES = {
    "hebbian": Rule(
        "Storing patterns sets the weights by **Hebb's rule**: neurons that are on together in "
        "a pattern are wired together.",
        (r"W = \frac1d \sum_{\mu=1}^{N} x_\mu x_\mu^\top,\quad W_{ii} = 0",)),
    "storkey": Rule(
        "Storing patterns sets the weights by **Storkey's rule** (1997): the patterns are "
        "learned one at a time, each adding Hebb's term $x_i x_j$ less two corrections made of "
        "the local fields $h_{ij}$ of the weights learned before it, so that patterns that share "
        "features disturb each other less than under Hebb's rule.",
        (r"W_{ij} \leftarrow W_{ij} + \frac1d \big(x_i x_j - x_i h_{ji} - h_{ij} x_j\big),\quad "
         r"h_{ij} = \sum_{k \neq i,j} W_{ik} x_k",
         r"\text{for } x = x_1, \dots, x_N \text{ in turn, from } W = 0;\quad W_{ii} = 0")),
    "pseudoinverse": Rule(
        "Storing patterns sets the weights by the **pseudo-inverse rule** (the projection "
        "rule): $W$ projects a state onto the space the stored patterns span, so every stored "
        "pattern is a fixed point, however much the patterns overlap.",
        (r"W = X^\top (X X^\top)^{+} X,\quad W_{ii} = 0",)),
}


TITLE = "The classical Hopfield network (1982)"


def intro(mode: str, temperature: float, rule: str) -> None:
    """The title and the lede, which names the settings in use, hidden or not (presenter
    mode: explain() opens with it, below the live view)."""
    heading.title(TITLE, caption(mode, temperature, rule))


def caption(mode: str, temperature: float, rule: str) -> str:
    weights = f"Binary neurons and {RULE_NAMES[rule]} weights"
    heat = "at zero temperature" if temperature == 0 else f"at temperature T = {temperature:g}"
    if mode == "async" and temperature == 0:
        what = f"updated one at a time {heat}, the state only goes downhill in energy"
    elif mode == "async":
        what = (f"updated one at a time {heat}, a neuron may go against its field, so the energy "
                "can rise as well as fall")
    elif temperature == 0:
        what = (f"all updated at once {heat}, the energy is not guaranteed to fall and the state "
                "may blink between two states forever")
    else:
        what = (f"all updated at once {heat}, neurons may go against their field and the energy "
                "is not guaranteed to fall")
    return f"{weights}: {what}. Corrupt a stored pattern and step it back."


def explain(mode: str, temperature: float, rule: str) -> None:
    """How the network works, with the weights of the learning rule in use (RULES); in
    presenter mode after the caption that intro() left out."""
    if presenter():
        st.caption(caption(mode, temperature, rule))
    text, eq = layout.explain("classical")
    text.markdown(
        "Each of the $d$ neurons is on ($+1$) or off ($-1$). " + RULES[rule].sentence + " "
        "A neuron then follows its **local field** $h_i$, the weighted vote of all "
        "the others. Updated one at a time (*asynchronous*), every flip lowers the energy, "
        "so the state must end in a valley. Updated all at once (*synchronous*), the state "
        "can oscillate between two states forever. With a **temperature** $T > 0$ neurons "
        "sometimes disobey their field: noise that can shake the state out of shallow "
        "spurious valleys, or out of the memory altogether. Updated one at a time this is "
        "**Glauber dynamics**, which in the long run visits each state with probability "
        "$\\propto e^{-E/T}$; updated all at once it is **Little dynamics**, whose long-run "
        "law is a different one."
    )
    with eq:
        for formula in RULES[rule].formulas:
            st.latex(formula)
        st.latex(r"E(\xi) = -\tfrac12\, \xi^\top W \xi")
        st.latex(r"\xi_i \leftarrow \mathrm{sgn}(h_i),\quad h = W\xi,\quad \mathrm{sgn}(0): \text{keep}")
        st.latex(r"T > 0:\ P(\xi_i = +1) = \frac{1}{1 + e^{-2 h_i / T}}")


def try_this() -> None:
    with st.expander("Try this", expanded=not presenter()):
        st.markdown(
            "- Store **H, O, X**, flip 20 % of the pixels, choose **async** and press *Run*: "
            "the letter comes back and the energy falls at every step.\n"
            "- Store only the shapes *checker* and *stripes*, flip 50 % with seed 5 and choose "
            "**sync**: the state blinks between two images forever (a 2-cycle). Switch to "
            "**async** and it settles.\n"
            "- Store the 8 letters **A to H** (16 px): only 1 of them is still a fixed point, "
            f"although 256 neurons hold about {CLASSICAL_ALPHA:g} d = {classical_capacity(16 * 16):.0f} "
            "*random* patterns (8 random ones all "
            "stay). Letters share their strokes (mean |overlap| 0.27), and such correlated "
            "patterns interfere far below that capacity. Try the pseudo-inverse rule: all 8 "
            "are fixed points again."
        )
