"""One head of one layer, from one token's query: its attention, its kind, and the player that
iterates its Hopfield update to the fixed point (hopfield_core.heads.fixed_point.settle).

# N tokens, T updates to the fixed point
"""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core import questions
from hopfield_core.heads import analysis, kinds
from ui.charts import chart_numbers
from ui.player import browser
from ui.serving.shared_cache import shared
from ui.serving.text import ordinal, quoted
from ui.settings import gate
from ui.settings.modes import presenter, projector

from . import cache, player_frames
from .cache import Input
from .sections import token_list
from .settings import PAGE
from .settings import SETTINGS as S


def _within(key: str, n: int) -> int:
    """The setting `key` kept below n (the ViT has fewer layers, heads and tokens than the
    MiniLM's widgets allow): a value past the end becomes the last, before its widget is drawn."""
    if S.value(key) > n - 1:
        S.assign(key, n - 1)
    return n


def choose(inp: Input) -> tuple[int, int, int]:
    """The layer, head and query token, each within this input's model."""
    for key, n in (("layer", inp.L), ("head", inp.H), ("token", inp.N)):
        _within(key, n)
    cols = S.row(["layer", "head", "token"])
    layer = S.show("layer", cols["layer"])
    head = S.show("head", cols["head"])
    token = S.show("token", cols["token"])
    return min(layer, inp.L - 1), min(head, inp.H - 1), min(token, inp.N - 1)


def linked_start(run_key: str, T: int) -> int:
    """The step the player opens at: the link's (kept within 0 .. T, said so when past T) for the
    first query the session shows, 0 for any other (a new head starts at its start). The player
    runs in the browser, so its later steps do not reach the link."""
    first = st.session_state.setdefault(f"_{PAGE}_linked_run", run_key)
    if first != run_key:
        if S.value("iteration"):
            S.assign("iteration", 0)  # the link opens this query where the player does: at 0
        return 0
    step = S.value("iteration")
    if step > T:
        st.caption(f"The link's step {step} is past this query's last step, {T}: showing "
                   f"step {T}.")
    return min(step, T)


# Ramsauer et al. 2020, eq. 2, with the head's keys as the stored patterns (fixed_point.energy)
# (two lines: a phone's width, as the landscape page writes the same energy)
ENERGY_LATEX = (r"\begin{aligned} E(\xi) = &-\frac1\beta \log\sum_{j=1}^{N} e^{\beta\, k_j^\top\xi}"
                r" \\ &+ \tfrac12\,\xi^\top\xi + \frac1\beta\log N + \tfrac12 M^2 \end{aligned}")


def landing_words(inp: Input, layer: int, head: int, token: int) -> str:
    """Where this query puts its most weight after one step and at the fixed point, how long
    that key is among the head's, and how many of the head's queries end on the same token:
    at the fixed point keys are compared with keys, and long keys pull (issue 43)."""
    K = np.asarray(inp.layers[layer][1])[head]  # (N, d) the head's keys
    one, fixed = cache.landing(inp.key, layer, head, inp)
    a, b = int(one[token]), int(fixed[token])
    name = lambda j: f"token {j} {quoted(inp.tokens[j])}"  # noqa: E731
    rank = analysis.key_rank(K, b)
    longest = "the longest" if rank == 1 else f"the {ordinal(rank)} longest"
    return (f"Its most weight sits on {name(a)} after one step and on {name(b)} at the fixed "
            f"point, whose key is {longest} of the head's {inp.N}. At the fixed point "
            f"{int(np.sum(fixed == b))} of this head's {inp.N} queries end on that token; after "
            f"one step {int(np.sum(one == b))} put their most weight there.")


def section(inp: Input, input_key: str) -> None:
    st.subheader("One head settles")
    if inp.model == "minilm":
        token_list(inp)
    layer, head, token = choose(inp)
    st.caption(f"Query token {token}: {quoted(inp.tokens[token])}. Step 0 is the head's own "
               "attention weights on this query (the one step the Transformer takes; the head "
               "then averages its values, not its keys). Each further step is the Hopfield "
               r"update $\xi \leftarrow K^\top \mathrm{softmax}(\beta K \xi)$, with the head's "
               r"keys $K$ (one row per token) as the stored patterns and "
               r"$\beta = 1/\sqrt{d_{\text{head}}}$: this page runs it, the Transformer does not.")
    st.caption("The energy is that of this Hopfield network (Ramsauer et al.'s eq. 2, with its "
               "constants), the keys $k_j$ as the stored patterns and $M = \\max_j |k_j|$ the "
               "longest key's length; the update never raises it:")
    st.latex(ENERGY_LATEX)
    run = cache.settle(inp, layer, head, token)
    W, E, T = run.extras["weights"], run.energies, run.steps  # W (T+1, N), E (T+1,)
    first, last = kinds.k90(W[0]), kinds.k90(W[T])
    run_key = f"{input_key}|{layer}|{head}|{token}"
    start = linked_start(run_key, T)
    look = (presenter(), projector())
    data = shared(("head-player", run_key, start, *look), lambda: browser.frames.encoded(player_frames.payload(
        PAGE, run_key, W, E, inp.tokens, layer, head, token, start, *look)))
    gate.offer(PAGE, questions.HEAD_KIND.key, questions.head_kind_options(),
               lambda: questions.head_kind(W[T], bool(run.converged)))
    browser.show(PAGE, data)
    if gate.closed(PAGE):  # a lesson's question waits: k90 at the end would answer it
        return
    chart_numbers.show_columns(st, {"step": np.arange(T + 1), "energy": E,
                                    **{f"weight of token {j} ({tok})": W[:, j]
                                       for j, tok in enumerate(inp.tokens)}},
                               f"{PAGE}_head_numbers", "Every step: the energy and each token's weight")
    converged = "reaches its fixed point" if run.converged else "stops at the step limit"
    st.caption(f"Blue bars: the k90 set, the fewest tokens holding 90 % of the attention. "
               f"This query {converged} after {T} updates: k90 goes from {first} "
               f"({kinds.kind_name(first, inp.N)}) to {last} ({kinds.kind_name(last, inp.N)}), "
               f"and the energy from {E[0]:.6g} to {E[T]:.6g}. "
               + landing_words(inp, layer, head, token))
