"""Side by side: every Hopfield variant on the same stored patterns and the same corrupted query."""
from dataclasses import dataclass

import streamlit as st

from hopfield_core import Trajectory, analysis, compare
from ui import charts, dynamics_view, figures_compare, layout, sidebar, state, tables
from ui.side_by_side.settings import SETTINGS

PAGE = "side_by_side"
EASY_LINK = ("side_by_side?presets=" + ",".join(f"letters/{c}" for c in "ABCDEFGH")
             + "&size=12&q_index=0&q_corruption=flip&q_amount=0.2&q_seed=0")
HARD_LINK = EASY_LINK.replace("size=12", "size=16").replace("q_index=0", "q_index=3")


@dataclass(frozen=True)
class Net:
    """One column of the comparison: a finished run and how to read it."""

    name: str
    settings: str
    ps: state.PatternSet  # the binary or the continuous patterns it stores
    traj: Trajectory


def explain() -> None:
    text, eq = layout.explain(PAGE)
    text.markdown(
        "Four networks, one memory, one question. Every network below stores the **same "
        "patterns** from the sidebar and starts from the **same corrupted query**; only the "
        "energy differs. The classical network's quadratic energy holds about $0.14\\,d$ random "
        "patterns, fewer when they look alike. The **dense** networks sharpen the valleys with a "
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
    with st.expander("Try this", expanded=not state.presenter()):
        st.markdown(
            f"- Store the 8 letters **A to H** at size **12**, query **A** with 20 % flipped, "
            f"seed 0 ([open this setup]({EASY_LINK})): the classical network falls into a "
            "spurious state while both dense networks and the modern one retrieve A.\n"
            f"- Same letters at size **16**, query **D** ([open]({HARD_LINK})): now the cubic "
            "fails too, only the exponential and the modern network retrieve D. Raise the degree "
            "to **4** and the polynomial network retrieves it as well.\n"
            "- In that setup lower the modern **β** to **10**: the modern network stops at a "
            "metastable average of D and B; at **1** it averages nearly every letter."
        )


def main() -> None:
    S = SETTINGS.bind()
    sidebar.panels()
    st.title("Side by side")
    st.caption("Four networks, one memory: the same stored images and the same corruption of "
               "the query; the energies differ (and the modern network's states are continuous).")
    with st.container(key="controls_side_by_side"):
        c = st.columns(3) + st.columns(3)  # two rows: readable on a projector
        mode = S.show("sb_mode", c[0], horizontal=True)
        degree = S.show("sb_degree", c[1])
        exp_beta = S.show("sb_exp_beta", c[2], format="%.2f")
        beta = S.show("sb_beta", c[3], format="%.1f")
        max_steps = S.show("sb_steps", c[4])
        view = S.show("sb_view", c[5], horizontal=True)
    ps = state.patterns(binary=True)
    if ps.N == 0:
        st.info("Store at least one pattern in the sidebar to begin.")
        explain()
        try_this()
        return
    pc = state.patterns(binary=False)
    q, qkey = state.query(ps)
    qc, qckey = state.query(pc)
    seed = int(state.setting("q_seed"))
    steps = int(max_steps)
    binary_run = dict(mode=mode, max_steps=steps, rng=seed, share=0.3)  # four runs, one budget
    nets = [
        Net("Classical (1982)", mode, ps, state.run(
            "classical", {"learning_rule": "hebbian"}, ps, q, qkey, temperature=0.0, **binary_run)),
        Net("Dense polynomial", f"{mode}, n = {int(degree)}", ps, state.run(
            "dense", {"interaction": "polynomial", "degree": int(degree)}, ps, q, qkey,
            readable=True, **binary_run)),
        Net("Dense exponential", f"{mode}, β = {exp_beta:g}", ps, state.run(
            "dense", {"interaction": "exponential", "beta": float(exp_beta)}, ps, q, qkey,
            readable=True, **binary_run)),
        Net("Modern continuous", f"β = {beta:g}", pc, state.run(
            "modern", {"beta": float(beta)}, pc, qc, qckey, max_steps=steps, share=0.1)),
    ]
    titles = [n.name for n in nets]
    curves = [n.traj.energies for n in nets]
    # everything below depends only on this key: figures and verdicts are built once per key
    run_key = "|".join(map(str, (PAGE, qkey, qckey, "/".join(ps.names), mode, int(degree),
                                 exp_beta, beta, steps)))
    verdicts = state.shared("verdicts|" + run_key, lambda: [
        analysis.verdict(n.traj, n.ps.X, binary=n.ps.binary) for n in nets])

    st.subheader("The query")
    query_fig = state.shared(f"{PAGE}|query|{qkey}|{qckey}", lambda: figures_compare.image_row(
        [dynamics_view.picture(q, ps), dynamics_view.picture(qc, pc)], ["binary networks", "modern network"], height=200))
    charts.plot(st, query_fig, key="sb_query", config={"displayModeBar": False}, width=420)

    st.subheader("Where each network ends")
    finals_fig = state.shared("finals|" + run_key, lambda: figures_compare.image_row(
        [dynamics_view.frames_of(n.traj, n.ps)[-1] for n in nets], titles))
    charts.plot(st, finals_fig, key="sb_finals", config={"displayModeBar": False})
    for col, v, n in zip(st.columns(len(nets)), verdicts, nets):
        with col:
            dynamics_view.VERDICT_STYLE[v.kind](v.sentence(n.ps.names))
    if view == "own scales":
        fig = state.shared("energies|" + run_key,
                                   lambda: figures_compare.energy_small_multiples(curves, titles))
        caption = ("Energy per step, each panel on its own y scale: the four energies have "
                   "different units, so compare shapes, not heights. The dense panels show "
                   "E / dⁿ and the log-domain energy −(1/β) log(−E), increasing functions of "
                   "E that stay readable (see the dense page).")
    else:
        fig = state.shared("normalised|" + run_key, lambda: figures_compare.energies_normalised(
            [compare.normalised_energies(E) for E in curves], titles))
        caption = ("Energies normalised to 1 at the query and 0 at the end, "
                   "(E(t) − E(end)) / (E(0) − E(end)), so the speeds can be compared on one axis.")
    charts.plot(st, fig, key="sb_energies", config={"displayModeBar": False})
    st.caption(caption)

    target = state.query_source(ps)
    st.subheader("Summary")
    tables.show(st, {  # fitted to the column: the answer first, the long verdict last
        "Network": titles,
        "Retrieved?": [compare.retrieval_outcome(v, target) for v in verdicts],
        "Steps": [n.traj.steps for n in nets],
        "Converged": [bool(n.traj.converged) for n in nets],
        "Final energy (as plotted)": [float(n.traj.energies[-1]) for n in nets],
        "Settings": [n.settings for n in nets],
        "Verdict": [v.sentence(n.ps.names) for v, n in zip(verdicts, nets)],
    }, key="sb_table", formats={"Final energy (as plotted)": "%.4g"},
        short_labels={"Converged": "Conv.", "Final energy (as plotted)": "Final E"})
    st.caption("A step is one sweep over all neurons for the binary networks and one update "
               "ξ ← Xᵀ softmax(βXξ) for the modern one; the count includes the last step, which "
               "confirms that nothing changes any more. "
               + ("“Retrieved?” asks whether the network recovered the pattern the query was "
                  "made from." if target is not None else
                  "The query is an uploaded image: “Retrieved?” asks whether any stored pattern "
                  "was recovered."))
    explain()
    try_this()


main()
