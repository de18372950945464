"""The parts of the attention page: its controls, what they set up (the queries, the
projections, the two betas), and its three sections: who attends to whom, one Hopfield step
checked against attention, the iteration. Layout; the numbers come from hopfield_core via
.cache, the words from .explain."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import streamlit as st

from hopfield_core import compare, questions
from ui.charts import chart_numbers, charts
from ui.settings import gate
from ui.store import patterns
from ui.store.shared_settings import SIDEBAR

from . import cache, explain
from .settings import RUN_MAX_STEPS, RUN_TOL, SETTINGS

PAGE = "attention"


@dataclass(frozen=True)
class Controls:
    """The values of the page's widgets."""

    proj_kind: str
    d_k: int
    heads: int
    seed: int
    custom: bool       # beta set by hand
    beta: float        # the hand-set beta (used only when `custom`)
    all_queries: bool
    T: int


@dataclass(frozen=True)
class Setup:
    """What the three sections share: the patterns, the queries, the projections, the betas."""

    ps: patterns.PatternSet
    q: np.ndarray             # (d,) the query
    qkey: tuple               # names the query (ui.store.query.make)
    corruption: tuple         # (kind, amount, seed) of the corrupted patterns added as queries
    Q: np.ndarray             # (n_q, d): the query, then each stored pattern corrupted
    query_labels: list
    key_labels: list
    all_queries: bool
    proj_kind: str
    proj: compare.Projections | None  # None: identity projections
    d_k: int
    heads: int
    seed: int
    custom: bool
    beta: float               # the attention's beta (1/sqrt(d_k) unless set by hand)
    beta_id: float            # the Hopfield step's, identity projections: d_k = d
    T: int


def controls() -> Controls:
    S = SETTINGS
    with st.container(key="controls_attention"):
        c = st.columns([2, 2, 2, 2])
        proj_kind = S.show("proj", c[0])
        identity = proj_kind == "identity"
        d_k = S.show("dk", c[1], disabled=identity)
        heads = S.show("heads", c[2], disabled=identity)
        seed = S.show("seed", c[3], disabled=identity)
        c = st.columns([2, 2, 2, 2])
        custom = S.show("bhand", c[0])
        beta = S.show("beta", c[1], format="%.3f", disabled=not custom)
        all_queries = S.show("all", c[2])
        T = S.show("T", c[3])
    return Controls(proj_kind, int(d_k), int(heads), int(seed), bool(custom), float(beta),
                    bool(all_queries), int(T))


def setup(c: Controls, ps, q: np.ndarray, qkey: tuple) -> Setup:
    """The queries (the query, and with "every pattern" each stored pattern corrupted by the
    sidebar's settings), the projections and the betas the controls ask for."""
    key_labels = [f"{i + 1}. {n}" for i, n in enumerate(ps.names)]
    query_labels = ["query"]
    corruption = (str(SIDEBAR["q_corruption"]), float(SIDEBAR["q_amount"]),
                  int(SIDEBAR["q_seed"]))
    Q = q[None, :]  # (1, d)
    if c.all_queries:
        corrupted = compare.corrupt_all(ps.X, ps.shape, *corruption, binary=False)  # (N, d)
        Q = np.vstack([Q, corrupted])  # (1 + N, d)
        query_labels += [f"{label} (corrupted)" for label in key_labels]
    identity = c.proj_kind == "identity"
    heads = 1 if identity else c.heads
    d_k = ps.d if identity else c.d_k
    proj = None if identity else cache.projections(ps.d, d_k, heads, c.seed,
                                                             c.proj_kind == "tied")
    beta = c.beta if c.custom else 1.0 / math.sqrt(d_k)
    beta_id = c.beta if c.custom else 1.0 / math.sqrt(ps.d)
    return Setup(ps, q, qkey, corruption, Q, query_labels, key_labels, c.all_queries,
                 c.proj_kind, proj, d_k, heads, c.seed, c.custom, beta, beta_id, c.T)


def weights_section(s: Setup) -> float:
    """1. The attention weights of every query; returns PyTorch's gap on the same tensors."""
    st.header("1. Who attends to whom")
    with st.spinner("Computing the attention, and asking PyTorch for the same..."):
        heatmap, torch_gap = cache.attention(s)
    charts.plot(st, heatmap, key="attention_heatmap")
    st.caption(explain.heatmap_caption(s.ps.N, s.heads, s.d_k))
    chart_numbers.show(st, heatmap, "attention_heatmap_numbers")
    return torch_gap


def check_section(s: Setup, torch_gap: float) -> None:
    """2. Attention with identity projections against one Hopfield step, and PyTorch's gap."""
    st.header("2. One Hopfield step is attention")
    st.markdown(explain.check_intro(s.beta_id, s.custom, s.ps.d))
    # a plausible mistake to compare with: the Transformer's scale forgotten (beta = 1), or,
    # with beta set by hand, the Transformer's 1/sqrt(d) instead of it
    wrong_beta, wrong_label = (
        (1.0, "… if the step forgot the scale (β = 1)") if not s.custom else
        (1.0 / math.sqrt(s.ps.d), "… if the step used β = 1/√d instead"))
    if math.isclose(wrong_beta, s.beta_id):
        wrong_beta, wrong_label = 2 * s.beta_id, "… if the step used 2β instead"
    gap, wrong = cache.step_gaps(s, wrong_beta)
    m = st.columns(3)
    m[0].metric("max |attention − Hopfield step|", f"{gap:.2e}",
                help="Identity projections, the β above; float64 rounding is about 1e-16.")
    m[1].metric(wrong_label, f"{wrong:.2e}",
                help=f"The same check with β = {wrong_beta:.4g} in the Hopfield step: a real "
                     "mismatch is many orders of magnitude larger than rounding.")
    m[2].metric("max |ours − PyTorch SDPA|", f"{torch_gap:.2e}",
                help="torch.nn.functional.scaled_dot_product_attention on the same tensors as "
                     "the heatmap (projections and heads included), scale = β.")
    if max(gap, torch_gap) < 1e-6:
        st.success(explain.AGREE)
    else:
        st.error(explain.DISAGREE)


def iterate_section(s: Setup) -> None:
    """3. Attention applied T times from the query, against ModernHopfield.run."""
    st.header("3. Iterate it and watch it converge")
    st.markdown(explain.iterate_intro(s.beta_id, s.T))
    it = cache.iteration(s)
    names = list(s.ps.names)
    gate.offer(PAGE, questions.DESTINATION.key, questions.destination_options(names, False, False),
               lambda: questions.destination_of(it["verdict"], it["final"], s.ps.X, names, it["steps"]))
    if gate.closed(PAGE):  # a lesson's question waits: the strip and the verdict would answer it
        return
    charts.plot(st, it["strip"], key="attention_strip")
    c1, c2 = st.columns(2)
    charts.plot(c1, it["changes"], key="attention_changes")
    charts.plot(c2, it["energy"], key="attention_energy")
    chart_numbers.show(st, [it["changes"], it["energy"]], "attention_iterate_numbers")
    m = st.columns(3)
    m[0].metric("Last change max |ξ(T) − ξ(T−1)|", f"{it['last_change']:.2e}")
    m[1].metric("max |ξ(T) − fixed point of ModernHopfield.run|", f"{it['dist']:.2e}",
                help=f"ModernHopfield(X, β).run(query, tol={RUN_TOL:g}) "
                     + (f"stopped after {it['ref_steps']} steps." if it["ref_converged"] else
                        f"did not settle within {RUN_MAX_STEPS} steps."))
    m[2].metric("Energy at T", f"{it['last_energy']:.6g}")
    v = it["verdict"]
    # where the iteration ends is the lesson, not a fault: a warning only when the user must
    # act (not settled yet: raise T)
    {"retrieved": st.success, "not converged": st.warning}.get(v.kind, st.info)(
        v.sentence(s.ps.names) + (explain.AVERAGES if v.kind == "global" else ""),
        icon=":material/flag:")
    if not it["converged"]:
        st.caption(explain.NOT_SETTLED)
