"""The parts of the dense page: explanation, controls, the comparison with the classical
network, the capacity counts. Layout helpers; the numbers come from hopfield_core."""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core import capacity

from .. import budget, charts, dynamics_view, layout, state
from . import cache as dense_cache
from .settings import DEMO_LETTERS, DEMO_SIZE, MAX_DEGREE, SETTINGS, load_demo

RISE_REASON = ("synchronous updates set every neuron from the same old state. Each flip would "
               "lower the energy on its own, but flipped together they can raise it, and the "
               "state can even blink between two images (a 2-cycle). Choose async for a "
               "guaranteed descent.")
# the pages plot DenseAssociativeMemory.readable_energy: an increasing function of E that stays
# readable at every d and degree (E itself reaches -1e24 at n = 10 and underflows to -0.0 for
# the exponential away from the patterns)
ENERGY_LABEL = {"polynomial": "Energy E / dⁿ", "exponential": "Log-domain energy"}
ALPHA = f"{capacity.CLASSICAL_ALPHA:g}"  # the classical capacity per neuron, as written: 0.138
CLASSICAL_LABEL = f"Classical capacity {ALPHA} d"


def intro() -> None:
    st.title("Dense associative memory (Krotov & Hopfield 2016)")
    st.caption("A sharper interaction than the classical square: far more patterns stored in "
               "the same neurons. Load the demo, then compare the degree n = 2 with n = 3.")


def explain() -> None:
    text, eq = layout.explain("dense")
    text.markdown(
        "The classical network scores a state by the **squared** overlaps $x_\\mu\\cdot\\xi$ "
        "with the stored patterns. Every stored pattern adds crosstalk of size about "
        f"$\\sqrt d$ to every other, so beyond about ${ALPHA}\\,d$ random patterns the memories "
        "drown. Krotov and Hopfield replaced the square by a sharper **interaction function** "
        "$F$: with $F(z) = z^n$ a pattern that nearly matches the state outweighs all the "
        "crosstalk, and the number of patterns the network holds grows like $d^{\\,n-1}$. "
        "Demircigil and colleagues used an **exponential**, $F(z) = e^{z}$, which outgrows "
        "every power: it stores exponentially many patterns, $2^{d/2}$ random ones.\n\n"
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
        st.latex(r"\text{polynomial: } \frac{E}{d^{\,n}} = -\sum_\mu "
                 r"\Big(\frac{x_\mu\cdot\xi}{d}\Big)^{n} \in [-N, N]")
        st.latex(r"\text{exponential: } \tilde E = -\frac1\beta \log \sum_\mu "
                 r"e^{\beta (x_\mu\cdot\xi - d)} = -\frac1\beta \log(-E)")


def controls() -> dict:
    """The model's controls; returns the values in use (a link may hide some controls)."""
    S = SETTINGS
    with st.container(key="controls_dense"):
        c1, c2, c3 = st.columns([2, 3, 3])
        poly = S.show("interaction", c1) == "polynomial"
        S.show("rect", c1, disabled=not poly)
        S.show("n", c2, disabled=not poly)
        S.show("beta", c3, disabled=poly)
        st.caption("n = 2 **is** the classical network; each step up from n multiplies the "
                   "capacity by about d / (2n - 1)." if poly else "The degree plays no part in the exponential.")
        c5, c6, c7 = st.columns([2, 2, 5])
        S.show("mode", c5, horizontal=True)
        S.show("steps", c6)
        c7.caption("Async: a sweep visits every neuron once in a random order (the query's "
                   "seed), each seeing the updated others. Sync: all neurons decide from the "
                   "same old state.")
    return {key: S[key] for key in ("interaction", "n", "rect", "beta", "mode", "steps")}


def try_this() -> None:
    with st.expander("Try this", expanded=not state.presenter()):
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
            "that cannot tell which pattern is near, and it ends in a spurious state. From "
            "$\\beta = 0.1$ up it retrieves H.\n"
            "3. **Synchronous trouble.** In the demo start from pattern *4. F*, flip 30 %, "
            "choose **sync** and $n = 8$: the energy rises at step 3 and the state blinks "
            "between two images. Switch to **async** and F comes back."
        )
        c1, c2 = st.columns([1, 3])
        c1.button("Load this demo", key="dn_demo", icon=":material/science:", on_click=load_demo,
                  type="primary", help="Replaces the stored patterns and the query settings.")
        c2.caption("Replaces the pattern store, the image size and the query (an uploaded "
                   "query image too); sets the model to polynomial, n = 3, async.")


def model_label(interaction: str, degree: int, beta: float, rectified: bool) -> str:
    if interaction == "exponential":
        return f"exponential, beta = {beta:g}"
    return f"n = {degree}" + (", rectified" if rectified else "")


def comparison(ps, q, qkey, dense_traj, cfg, mode, steps, seed) -> None:
    st.subheader("The same query, classical vs dense")
    cl_kwargs = dict(mode=mode, max_steps=steps, rng=seed, temperature=0.0)
    cl_cfg = {"learning_rule": "hebbian"}
    cl_traj = state.run("classical", cl_cfg, ps, q, qkey, share=0.5, **cl_kwargs)
    dn_kwargs = dict(mode=mode, max_steps=steps, rng=seed)
    cl_verdict = dense_cache.final_verdict(
        f"classical|{sorted(cl_cfg.items())}|{qkey}|{sorted(cl_kwargs.items())}", ps.fingerprint,
        cl_traj, ps.X)
    dn_verdict = dense_cache.final_verdict(
        f"dense|{sorted(cfg.items())}|{qkey}|{sorted(dn_kwargs.items())}", ps.fingerprint,
        dense_traj, ps.X)
    label = model_label(**cfg)

    c1, c2, c3 = st.columns(3)
    panels = [(c1, "The query", q, None, None),
              (c2, "Classical network (1982)", cl_traj.final, cl_verdict, cl_traj),
              (c3, f"Dense memory ({label})", dense_traj.final, dn_verdict, dense_traj)]
    for col, title, x, verdict, traj in panels:
        col.markdown(f"**{title}**")
        col.image(state.picture_png(x, ps.shape, width=220), width=220, output_format="PNG")
        if verdict is None:
            col.caption(f"{ps.d} neurons; the same query goes into both networks, with the same "
                        f"update mode ({mode}), step limit and random order.")
        else:
            who = "Classical" if traj is cl_traj else "Dense"
            with col:
                dynamics_view.VERDICT_STYLE[verdict.kind](f"{who}: {verdict.sentence(ps.names)}")
            label = "Energy E" if traj is cl_traj else ENERGY_LABEL[cfg["interaction"]]
            what = label[0].lower() + label[1:]
            col.caption(f"after {traj.steps} step{'s' if traj.steps != 1 else ''}, "
                        f"final {what} {traj.energies[-1]:.6g}")
    differ = int(np.count_nonzero(cl_traj.final != dense_traj.final))
    st.markdown(f"The two final states differ in **{differ} of {ps.d}** neurons.")
    if cfg["interaction"] == "polynomial" and cfg["degree"] == 2 and not cfg["rectified"]:
        st.info("Degree 2 is the classical network: $E_{\\text{dense}} = 2d\\,E_{\\text{classical}}"
                " - N d$, a positive rescaling plus a constant, so every update and every final "
                "state is the same.")


def capacity_context(ps, cfg, label) -> None:
    d, N = ps.d, ps.N
    classical_cap = capacity.classical_capacity(d)
    if cfg["interaction"] == "exponential":
        cap_label = "Exponential capacity 2^(d/2)"
        dense_cap = capacity.format_log10(capacity.log10_exponential_capacity(d))
        dense_help = ("Demircigil et al.'s bound for random patterns with F(z) = e^z, which is "
                      "beta = 1 here. A gentler beta (below 1) holds fewer patterns: compare the "
                      "count of fixed points below.")
    else:
        cap_label = f"Capacity of degree {cfg['degree']} (no errors)"
        dense_cap = capacity.format_log10(capacity.log10_polynomial_capacity(d, cfg["degree"]))
        dense_help = ("d^(n-1) / (2 (2n-3)!! ln d): Krotov & Hopfield's estimate for random "
                      "patterns recalled without a single wrong bit (n = 2 gives McEliece's "
                      f"d / (2 ln d), stricter than {ALPHA} d, which allows a few wrong bits).")
    m1, m2, m3 = st.columns(3)
    m1.metric("Stored patterns N", N)
    m2.metric(CLASSICAL_LABEL, f"{classical_cap:.1f}",
              help=f"{ALPHA} d random patterns (Amit, Gutfreund & Sompolinsky), a few bits wrong.")
    m3.metric(cap_label, dense_cap, help=dense_help)
    if N > classical_cap:
        st.markdown(f"$N = {N} > {ALPHA}\\,d \\approx {classical_cap:.1f}$: more patterns than the "
                    "classical network can hold even if they were random.")
    else:
        st.markdown(f"$N = {N} \\le {ALPHA}\\,d \\approx {classical_cap:.1f}$, yet letters and "
                    "photos are far from random: they share most of their pixels, and "
                    "correlated patterns fill the classical network much sooner. The count "
                    "below is the honest test.")

    configs = [(("degree", n), ("interaction", "polynomial")) for n in range(2, MAX_DEGREE + 1)]
    labels = ["classical (n = 2)"] + [f"n = {n}" for n in range(3, MAX_DEGREE + 1)]
    configs.append((("beta", cfg["beta"]), ("interaction", "exponential")))
    labels.append(f"exp, beta = {cfg['beta']:g}")
    current = None
    if cfg["interaction"] == "exponential":
        current = labels[-1]
    elif not cfg["rectified"]:
        current = labels[cfg["degree"] - 2]
    references = (("classical (n = 2)", (("degree", 2),)), ("n = 3", (("degree", 3),)),
                  ("n = 10", (("degree", 10),)),
                  ("exponential, beta = 1", (("beta", 1.0), ("interaction", "exponential"))))
    g1, g2 = st.columns(2)
    cost = len(configs) * ps.N * budget.step_seconds("dense", "sync", d, ps.N)
    if budget.fits(cost):
        charts.plot(g1, dense_cache.stable_figure(ps.fingerprint, tuple(configs), tuple(labels),
                                                  current, ps.X),
                        key="dn_stable", config={"displayModeBar": False})
    else:
        g1.info(f"The count of stable patterns at every degree is left out at d = {d} with "
                f"{ps.N} patterns: it would hold the class's shared server for about "
                f"{cost:.0f} s. A smaller image size in the sidebar brings it back.")
    charts.plot(g2, dense_cache.shape_figure(d, references, tuple(sorted(cfg.items())), label),
                    key="dn_shape", config={"displayModeBar": False})
    g1.caption("Each stored pattern used as the query, uncorrupted: is it left unchanged? A "
               "pattern that is not a fixed point is lost even without noise. Store all 26 "
               "letters at 16 px to see the classical network keep none of them.")
    g2.caption("A random unrelated pattern overlaps the state by about sqrt(d). The sharper F, "
               "the less such crosstalk counts against the one pattern that nearly matches.")


