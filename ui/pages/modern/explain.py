"""The modern-network page's prose: the title, how the network works and what to try (the
numbers stated here are checked in tests/ui/pages/test_page_claims.py and
tests/app/test_corrected_sentences.py)."""
from __future__ import annotations

import streamlit as st

from ui.pages.links import page_link
from ui.settings.modes import presenter
from ui.shell import heading, layout

TITLE = "The modern continuous network and metastable states"
LEDE = ("Continuous states and a log-sum-exp energy: the inverse temperature β decides "
        "whether the state ends at one pattern, a blend of a few, or a blend of all.")
# the first prompt's setup: the letters O, Q, X, query O with 20 % of its pixels flipped, beta = 10
METASTABLE_LINK = page_link("modern", presets="letters/O,letters/Q,letters/X",
                            q_corruption="flip", q_amount=0.2, beta=10)


def intro() -> None:
    heading.title(TITLE, LEDE)


def lede() -> None:
    heading.lede(LEDE)


def explanation() -> None:
    if presenter():
        lede()
    text, eq = layout.explain("modern")
    text.markdown(
        "Here the state $\\xi$ is a vector of real numbers and the stored patterns are the "
        "rows $x_\\mu$ of $X$ (centred, unit length). One update replaces $\\xi$ by a "
        "**weighted average of the patterns**, with weights $p = \\mathrm{softmax}(\\beta X\\xi)$: "
        "patterns that resemble $\\xi$ more get exponentially more weight. The **inverse "
        "temperature** $\\beta$ sets how sharp that choice is. At large $\\beta$ one pattern "
        "takes all the weight and is retrieved (a *single* fixed point). At small $\\beta$ "
        "every pattern keeps a share and the state settles on a blend of them all (the "
        "*global* fixed point), the plain average only as $\\beta \\to 0$. In between, "
        "similar patterns share the weight and the state ends as their blend: a **metastable** "
        "state. We count $k_{90}$, the fewest patterns that hold 90 % of the weight.\n\n"
        "The step size $\\gamma$ blends the old state with the average. $\\gamma = 1$ is the "
        "paper's update (the concave-convex procedure, CCCP): it usually lands next to a "
        "pattern in one step. $\\gamma < 1$ is plain gradient descent on $E$, because "
        "$\\nabla E = \\xi - X^\\top p$. For any $\\gamma \\in (0, 1]$ the energy never rises. "
        "With $\\gamma = 1$, the state as the query, the stored patterns as both the keys and "
        "the values, and no learned projections, this update is exactly a Transformer's "
        "attention, with $\\beta$ in the place of its $1/\\sqrt{d_k}$."
    )
    with eq:
        st.latex(r"\begin{aligned} E(\xi) = &-\frac{1}{\beta}\log\sum_{\mu=1}^{N} "
                 r"e^{\beta\, x_\mu^\top \xi} + \frac12\,\xi^\top\xi \\"
                 r"&+ \frac{1}{\beta}\log N + \frac12 M^2,\quad M = \max_\mu \lVert x_\mu \rVert"
                 r"\end{aligned}")
        st.latex(r"\xi' = (1-\gamma)\,\xi + \gamma\, X^\top \mathrm{softmax}(\beta X \xi)")
        st.latex(r"\begin{aligned} \gamma = 1 &:\ \text{one-step retrieval (CCCP)} \\"
                 r"\gamma < 1 &:\ \xi' = \xi - \gamma\, \nabla E(\xi)\ \text{(gradient descent)}"
                 r"\end{aligned}")
        st.latex(r"k_{90} = \min\{k : \text{the } k \text{ largest } p_\mu"
                 r" \text{ sum to} \ge 0.9\}")


def try_this() -> None:
    with st.expander("Try this", expanded=not presenter()):
        st.markdown(
            "- **A metastable state.** Store the letters **O, Q, X** (clear the store first), "
            "start from O with 20 % flips, beta = 10 "
            f"([open this setup]({METASTABLE_LINK})). The run ends in a 50/50 blend of O and Q: "
            "k90 = 2, *metastable*. Raise beta to 50: O alone (*single*). Drop it to 1: X "
            "gets weight again, but not an equal share: O 0.40, Q 0.41, X 0.19, so k90 = 3 "
            "(*global*), a blend that leans on the near-twins O and Q. Only near beta = 0.1 do "
            "the three weigh about the same (0.34, 0.34, 0.32). The sweep shows all three "
            "regimes at once.\n"
            "- **The bound is sufficient, not necessary.** With O, Q, X, look at the bound "
            "table: O and Q are near-twins (overlap 0.895, so separation 1 - 0.895 = 0.105), "
            "and the paper's guarantee needs beta >= 70.5, yet at beta = 50 O is already "
            "retrieved. X, far from both, is guaranteed from beta = 3.6.\n"
            "- **One big step or many small ones.** With the default H, O, X at beta = 10, "
            "gamma = 1 settles in 4 steps; set gamma = 0.1 and the same fixed point takes 94 "
            "steps of gradient descent. The energy falls at every step either way."
        )


def bound() -> None:
    """What the separation bound of Ramsauer et al. says, and the bound itself."""
    st.markdown(
        "The **separation** $\\Delta_i$ says how far pattern $i$ stands out from its closest "
        "neighbour. Ramsauer et al. prove that when $\\Delta_i$ meets the bound below, the small "
        "sphere $S_i$ of radius $1/(\\beta N M)$ around $x_i$ holds a single fixed point, every "
        "query that starts inside $S_i$ converges to it, and one update already lands "
        "exponentially close to it (the larger the separation, the closer). About a query "
        "outside $S_i$ the theorem says nothing.")
    st.latex(r"\Delta_i = x_i^\top x_i - \max_{j \ne i} x_i^\top x_j \;\ge\; "
             r"\frac{2}{\beta N} + \frac{1}{\beta}\log\!\left(2 (N-1) N \beta M^2\right)")
