"""The attention page's words: its title, the sentences between its figures, the
explanation and the prompts below them (the numbers stated here are checked in
tests/app/test_attention_page.py)."""
from __future__ import annotations

import streamlit as st

from ui.settings.modes import presenter
from ui.shell import heading, layout

TITLE = "The attention limit"
LEDE = ("One modern Hopfield step is a Transformer's attention with β = 1/√d_k: the state "
        "is the query, the stored patterns are the keys and the values.")


def intro() -> None:
    heading.title(TITLE, LEDE)


def lede() -> None:
    heading.lede(LEDE)


def heatmap_caption(N: int, heads: int, d_k: int) -> str:
    return (f"Rows are queries, columns the {N} stored patterns (keys); every row sums to 1"
            + (f". Each of the {heads} heads has its own W_Q, W_K, W_V of {d_k} columns."
               if heads > 1 else "."))


def check_intro(beta_id: float, custom: bool, d: int) -> str:
    return (f"With identity projections and the same β = {beta_id:.4g}"
            + (" (= 1/√d, d = %d)" % d if not custom else "")
            + ", `hopfield_attention(Q, X, X)` and `ModernHopfield(X, β).step(Q)` are two "
            "implementations of one map. Their largest difference over every entry of every "
            "query, in float64:")


AGREE = ("Equal up to rounding: one continuous Hopfield step is exactly "
         "softmax(β Q Kᵀ) V (β = 1/√d_k unless set by hand), and PyTorch's attention agrees.")
DISAGREE = "The implementations disagree beyond rounding: please report this as a bug."


def iterate_intro(beta_id: float, T: int) -> str:
    return (f"Apply attention again and again, ξ ← Attention(ξ, X, X) with β = {beta_id:.4g} "
            f"and identity projections, for T = {T} steps from the query.")


AVERAGES = " Attention at this β averages the patterns more than it picks one: raise β to retrieve."
NOT_SETTLED = ("Not settled yet: raise T, or move β away from the boundary between "
               "retrieval and averaging, where the dynamics slow down.")


def explain() -> None:
    text, eq = layout.explain("attention")
    text.markdown(
        "Write the stored patterns as the rows of $X$ and the state as a row $\\xi^\\top$. The "
        "modern Hopfield update compares the state with every pattern ($X\\xi$), turns the "
        "scores into weights with a softmax, and returns the weighted average of the patterns. "
        "That is **attention**: the state is the *query*, the stored patterns are both the "
        "*keys* and the *values*, and the inverse temperature is the Transformer's "
        "$\\beta = 1/\\sqrt{d_k}$. A Transformer adds learned projections $W_Q, W_K, W_V$ and "
        "several heads, and applies attention once per layer. Only when the keys and the values "
        "are the stored patterns themselves, and the output becomes the next query, is "
        "repeating it the Hopfield dynamics, which descend one energy to a fixed point; with "
        "independent learned $W_Q, W_K, W_V$ no energy is guaranteed to fall.\n\n"
        "Our patterns have unit length, so the scores $x_\\mu^\\top\\xi$ are at most "
        "$|\\xi|$: 1 for a query with flipped pixels, less when part of it is hidden, up to "
        "about 1.6 with the strongest noise. So $\\beta = 1/\\sqrt{d}$ is a *very* high "
        "temperature: the weights are nearly uniform. "
        "In a Transformer, queries and keys are about $\\sqrt{d_k}$ long, which brings the "
        "scores back to order one. Set $\\beta$ by hand to see the sharp, retrieving regime."
    )
    with eq:
        st.latex(r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\Big(\frac{Q K^\top}{\sqrt{d_k}}\Big) V")
        st.latex(r"\xi^{\mathrm{new}} = X^\top \mathrm{softmax}(\beta X \xi)")
        st.latex(r"Q = \xi^\top W_Q,\quad K = X W_K,\quad V = X W_V")
        st.markdown("With $W = I$ and $\\beta = 1/\\sqrt{d_k}$:")
        st.latex(r"(\xi^{\mathrm{new}})^\top = \mathrm{Attention}(\xi^\top, X, X)")


TRY_THIS = (  # the prompts' outcomes are checked in tests/app/test_attention_page.py
    "- With the default **H, O, X** and β = 1/√d = 1/16, every weight in the heatmap is "
    "close to 1/3 and the iteration settles within a few steps at nearly the **average** "
    "of the three letters. Switch on *Set β by hand* with **β = 20**: the query's row "
    "lights up on H and the iteration retrieves H after one step.\n"
    "- Keep β = 20, choose **random, W_K = W_Q** with **4 heads** and **d_k = 2**: each "
    "head sees a different random 2-number shadow of the images and the heads disagree. "
    "Raise d_k to **16** and every head puts its weight on H. Now choose **random, "
    "independent**: the heads attend to letters at random, as in an untrained "
    "Transformer; training is what makes Q Kᵀ meaningful.\n"
    "- Switch on *Also query every stored pattern*: at β = 20 the heatmap is "
    "(nearly) a diagonal, each corrupted letter attends to itself.")


def try_this() -> None:
    with st.expander("Try this", expanded=not presenter()):
        st.markdown(TRY_THIS)
