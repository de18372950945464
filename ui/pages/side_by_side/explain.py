"""The side-by-side page's words: its title, the captions under its figures, the explanation
and the prompts (the prompts' outcomes are checked in tests/app/test_side_by_side_page.py)."""
from __future__ import annotations

import streamlit as st

from hopfield_core import capacity
from ui.pages.links import page_link
from ui.settings.modes import presenter
from ui.shell import heading, layout

TITLE = "Side by side"
LEDE = ("Four networks, one memory: the same stored images and the same corruption of "
        "the query; the energies differ (and the modern network's states are continuous).")

ALPHA = f"{capacity.CLASSICAL_ALPHA:g}"  # the classical capacity per neuron: 0.138
PAGE = "side_by_side"
_LETTERS = ",".join(f"letters/{c}" for c in "ABCDEFGH")
# the first two prompts' setups: the letters A to H, 20 % of the query flipped (seed 0);
# query A at size 12, then D at size 16
EASY_LINK = page_link(PAGE, presets=_LETTERS, size=12, q_index=0, q_corruption="flip",
                      q_amount=0.2, q_seed=0)
HARD_LINK = page_link(PAGE, presets=_LETTERS, size=16, q_index=3, q_corruption="flip",
                      q_amount=0.2, q_seed=0)


def intro() -> None:
    heading.title(TITLE, LEDE)


def lede() -> None:
    heading.lede(LEDE)


OWN_SCALES = ("Energy per step, each panel on its own y scale: the four energies have "
              "different units, so compare shapes, not heights. The dense panels show "
              "E / dⁿ and the log-domain energy −(1/β) log(−E), increasing functions of "
              "E that stay readable (see the dense page).")
NORMALISED = ("Energies normalised to 1 at the query and 0 at the end, "
              "(E(t) − E(end)) / (E(0) − E(end)), so the speeds can be compared on one axis.")


def summary_caption(from_pattern: bool) -> str:
    """Under the summary table; `from_pattern`: the query was made from a stored pattern (not
    an uploaded image)."""
    return ("A step is one sweep over all neurons for the binary networks and one update "
            "ξ ← Xᵀ softmax(βXξ) for the modern one; the count includes the last step, which "
            "confirms that nothing changes any more. "
            + ("“Retrieved?” asks whether the network recovered the pattern the query was "
               "made from." if from_pattern else
               "The query is an uploaded image: “Retrieved?” asks whether any stored pattern "
               "was recovered."))


def explain() -> None:
    text, eq = layout.explain(PAGE)
    text.markdown(
        "Four networks, one memory, one question. Every network below stores the **same "
        "patterns** from the sidebar and starts from the **same corrupted query**; only the "
        "energy differs. The classical network's quadratic energy holds about "
        f"${ALPHA}\\,d$ random patterns, fewer when they look alike. The **dense** networks "
        "sharpen the valleys with a "
        "steeper interaction $F$: a cubic $z^3$ or an exponential. The **modern** network uses "
        "continuous states (the same images as centred, unit-length vectors, and the same "
        "corruption) and a log-sum-exp energy whose sharpness is set by $\\beta$. "
        "The exponential network's $F$ is shifted by $d$, a positive rescaling of $e^{z}$ that "
        "keeps its energy between $-N$ and $0$ for any $d$."
    )
    with eq:
        st.latex(r"E_{1982} = -\tfrac12\, \xi^\top W \xi,\quad W = \tfrac1d \sum_\mu x_\mu x_\mu^\top")
        st.latex(r"E_{\mathrm{poly}} = -\sum_\mu (x_\mu^\top \xi)^n")
        st.latex(r"E_{\exp} = -\sum_\mu e^{\beta\,(x_\mu^\top \xi - d)}")
        st.latex(r"E_{\mathrm{modern}} = -\tfrac1\beta \log \sum_\mu e^{\beta\, x_\mu^\top \xi}"
                 r" + \tfrac12\, \xi^\top \xi + C")


def try_this() -> None:
    with st.expander("Try this", expanded=not presenter()):
        st.markdown(
            f"- Store the 8 letters **A to H** at size **12**, query **A** with 20 % flipped, "
            f"seed 0 ([open this setup]({EASY_LINK})): the classical network falls into a "
            "spurious state while both dense networks and the modern one retrieve A.\n"
            f"- Same letters at size **16**, query **D** ([open]({HARD_LINK})): now the cubic "
            "fails too, only the exponential and the modern network retrieve D. Raise the degree "
            "to **4** and the polynomial network retrieves it as well.\n"
            "- In that setup lower the modern **β** to **10**: the modern network stops at a "
            "metastable state, mostly on D (weight 0.90) with a trace of B (0.05), so "
            "k90 = 2; at **1** it blends nearly every letter (k90 = 7 of 8)."
        )
