"""The attention limit: one modern Hopfield step is softmax(Q K^T / sqrt(d_k)) V."""
import math

import numpy as np
import streamlit as st

from hopfield_core import ModernHopfield, analysis, compare, hopfield_attention
from ui import charts, compare_cache, dynamics_view, figures, figures_compare, sidebar, state
from ui.attention import sections
from ui.attention.settings import PROJECTION_LABELS, RUN_MAX_STEPS, RUN_TOL, SETTINGS

PAGE = "attention"


def main() -> None:
    S = SETTINGS.bind()
    sidebar.panels(binary=False)
    st.title("The attention limit")
    st.caption("One modern Hopfield step is a Transformer's attention with β = 1/√d_k: the state "
               "is the query, the stored patterns are the keys and the values.")
    with st.container(key="controls_attention"):
        c = st.columns([2, 2, 2, 2])
        proj_kind = S.show("at_proj", c[0])
        identity = proj_kind == "identity"
        d_k_in = S.show("at_dk", c[1], disabled=identity)
        heads_in = S.show("at_heads", c[2], disabled=identity)
        proj_seed = S.show("at_seed", c[3], disabled=identity)
        c = st.columns([2, 2, 2, 2])
        custom = S.show("at_bhand", c[0])
        beta_in = S.show("at_beta", c[1], format="%.3f", disabled=not custom)
        all_queries = S.show("at_all", c[2])
        T = S.show("at_T", c[3])
    ps = state.patterns(binary=False)
    if ps.N == 0:
        st.info("Store at least one pattern in the sidebar to begin.")
        sections.explain()
        sections.try_this()
        return
    q, qkey = state.query(ps)
    X = ps.X  # (N, d)
    key_labels = [f"{i + 1}. {n}" for i, n in enumerate(ps.names)]
    query_labels = ["query"]
    Q = q[None, :]  # (1, d)
    if all_queries:
        Q = np.vstack([Q, compare.corrupt_all(
            X, ps.shape, str(state.setting("q_corruption")), float(state.setting("q_amount")),
            int(state.setting("q_seed")), binary=False)])  # (1 + N, d)
        query_labels += [f"{label} (corrupted)" for label in key_labels]

    heads = 1 if identity else int(heads_in)
    d_k = ps.d if identity else int(d_k_in)
    proj = None if identity else compare_cache.projections(ps.d, d_k, heads, int(proj_seed),
                                                             proj_kind == "tied")
    beta = float(beta_in) if custom else 1.0 / math.sqrt(d_k)  # the attention's beta
    beta_id = float(beta_in) if custom else 1.0 / math.sqrt(ps.d)  # identity projections: d_k = d

    # ---------------------------------------------------------- 1. the weights
    st.subheader("1. Who attends to whom")
    what = ("Q = ξᵀ, K = V = X" if identity else
            f"{PROJECTION_LABELS[proj_kind]} projections, seed {int(proj_seed)}")
    # sections 1 and 2 depend on nothing else: computed and drawn once per key
    att_key = "|".join(map(str, (PAGE, qkey, "/".join(ps.names), int(all_queries), proj_kind,
                                 d_k, heads, int(proj_seed), repr(beta), repr(beta_id))))

    def attend():
        kw = {} if proj is None else dict(W_Q=proj.W_Q, W_K=proj.W_K, W_V=proj.W_V)
        out, weights = hopfield_attention(Q, X, X, beta=beta, heads=heads, return_weights=True,
                                          **kw)
        weights = weights if heads > 1 else weights[None]  # (h, n_q, N)
        fig = figures_compare.attention_heatmaps(
            weights, query_labels, key_labels,
            f"softmax(β Q Kᵀ), β = {beta:.4g}, d_k = {d_k}, {what}")
        # PyTorch's attention on the same tensors, against the output drawn above
        return fig, compare_cache.torch_gap(beta, heads, out, Q, X, X, proj)

    with st.spinner("Computing the attention, and asking PyTorch for the same..."):
        heatmap, tgap = state.shared("attend|" + att_key, attend)
    charts.plot(st, heatmap, key="at_heatmap", config={"displayModeBar": False})
    st.caption(f"Rows are queries, columns the {ps.N} stored patterns (keys); every row sums to 1"
               + (f". Each of the {heads} heads has its own W_Q, W_K, W_V of {d_k} columns."
                  if heads > 1 else "."))

    # ---------------------------------------------------------- 2. the check
    st.subheader("2. One Hopfield step is attention")
    st.markdown(
        f"With identity projections and the same β = {beta_id:.4g}"
        + (" (= 1/√d, d = %d)" % ps.d if not custom else "")
        + ", `hopfield_attention(Q, X, X)` and `ModernHopfield(X, β).step(Q)` are two "
        "implementations of one map. Their largest difference over every entry of every query, "
        "in float64:"
    )
    # a plausible mistake to compare with: the Transformer's scale forgotten (beta = 1), or,
    # with beta set by hand, the Transformer's 1/sqrt(d) instead of it
    wrong_beta, wrong_label = ((1.0, "… if the step forgot the scale (β = 1)") if not custom else
                               (1.0 / math.sqrt(ps.d), "… if the step used β = 1/√d instead"))
    if math.isclose(wrong_beta, beta_id):
        wrong_beta, wrong_label = 2 * beta_id, "… if the step used 2β instead"
    gap, wrong = state.shared(f"gaps|{att_key}|{wrong_beta!r}", lambda: (
        compare.hopfield_step_gap(Q, X, beta_id),
        compare.hopfield_step_gap(Q, X, beta_id, hopfield_beta=wrong_beta)))
    m = st.columns(3)
    m[0].metric("max |attention − Hopfield step|", f"{gap:.2e}",
                help="Identity projections, the β above; float64 rounding is about 1e-16.")
    m[1].metric(wrong_label, f"{wrong:.2e}",
                help=f"The same check with β = {wrong_beta:.4g} in the Hopfield step: a real "
                     "mismatch is many orders of magnitude larger than rounding.")
    m[2].metric("max |ours − PyTorch SDPA|", f"{tgap:.2e}",
                help="torch.nn.functional.scaled_dot_product_attention on the same tensors as "
                     "the heatmap (projections and heads included), scale = β.")
    if max(gap, tgap) < 1e-6:
        st.success("Equal up to rounding: one continuous Hopfield step is exactly "
                   "softmax(Q Kᵀ/√d_k) V, and PyTorch's attention agrees.")
    else:
        st.error("The implementations disagree beyond rounding: please report this as a bug.")

    # ---------------------------------------------------------- 3. iterate
    st.subheader("3. Iterate it and watch it converge")
    st.markdown(f"Apply attention again and again, ξ ← Attention(ξ, X, X) with β = {beta_id:.4g} "
                f"and identity projections, for T = {T} steps from the query.")

    def iterate() -> dict:
        traj = compare.iterate_attention(q, X, int(T), beta=beta_id)
        ref = ModernHopfield(X, beta=beta_id).run(q, max_steps=RUN_MAX_STEPS, tol=RUN_TOL)
        E = traj.energies
        return dict(  # small things only: this is kept for every key
            strip=figures_compare.image_strip(
                list(dynamics_view.frames_of(traj, ps)),
                ["query"] + [f"t = {t}" for t in range(1, traj.steps + 1)]),
            changes=figures_compare.change_chart(traj.changes, tol=compare.CONVERGED_TOL),
            energy=figures.energy_curve(E, traj.steps, analysis.energy_rises(E),
                                        title=f"Hopfield energy, β = {beta_id:.4g}"),
            last_change=float(traj.changes[-1]), last_energy=float(E[-1]),
            converged=traj.converged, verdict=analysis.verdict(traj, X, binary=False),
            dist=float(np.max(np.abs(traj.final - ref.final))),
            ref_steps=ref.steps, ref_converged=ref.converged)

    it = state.shared(
        "|".join(map(str, ("iterate", PAGE, qkey, "/".join(ps.names), repr(beta_id), int(T)))),
        iterate)
    charts.plot(st, it["strip"], key="at_strip", config={"displayModeBar": False})
    c1, c2 = st.columns(2)
    charts.plot(c1, it["changes"], key="at_changes", config={"displayModeBar": False})
    charts.plot(c2, it["energy"], key="at_energy", config={"displayModeBar": False})
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
        v.sentence(ps.names) + (" Attention at this β averages the patterns more than it "
                                "picks one: raise β to retrieve." if v.kind == "global" else ""),
        icon=":material/flag:")
    if not it["converged"]:
        st.caption("Not settled yet: raise T, or move β away from the boundary between "
                   "retrieval and averaging, where the dynamics slow down.")
    sections.explain()
    sections.try_this()


main()
