"""The classical network (Hopfield 1982): Hebbian weights, sync vs async, temperature."""
import streamlit as st

from hopfield_core.capacity import CLASSICAL_ALPHA, classical_capacity
from ui import charts, dynamics_view, figures, layout, pattern_editor, sidebar, state
from ui.classical.caption import caption
from ui.classical.settings import SETTINGS, W_SHOWN

PAGE = "classical"


def explain() -> None:
    text, eq = layout.explain(PAGE)
    text.markdown(
        "Each of the $d$ neurons is on ($+1$) or off ($-1$). Storing patterns sets the "
        "weights by **Hebb's rule**: neurons that are on together in a pattern are wired "
        "together. A neuron then follows its **local field** $h_i$, the weighted vote of all "
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
        st.latex(r"W = \frac1d \sum_{\mu=1}^{N} x_\mu x_\mu^\top,\quad W_{ii} = 0")
        st.latex(r"E(\xi) = -\tfrac12\, \xi^\top W \xi")
        st.latex(r"\xi_i \leftarrow \mathrm{sgn}(h_i),\quad h = W\xi,\quad \mathrm{sgn}(0): \text{keep}")
        st.latex(r"T > 0:\ P(\xi_i = +1) = \frac{1}{1 + e^{-2 h_i / T}}")


def try_this() -> None:
    with st.expander("Try this", expanded=not state.presenter()):
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


def main() -> None:
    S = SETTINGS.bind()
    sidebar.panels()
    st.title("The classical Hopfield network (1982)")
    st.caption(caption(S["mode"], S["T"], S["rule"]))  # the settings in use, hidden or not
    with st.container(key="controls_classical"):
        c = S.row(["mode", "T", "rule", "steps"])  # no room for a hidden control
        mode = S.show("mode", c["mode"], horizontal=True)
        temperature = S.show("T", c["T"])
        rule = S.show("rule", c["rule"])
        max_steps = S.show("steps", c["steps"])
    ps = state.patterns(binary=True)
    q, qkey = pattern_editor.panel(PAGE, ps)  # draw a pattern, flip the query's pixels
    if ps.N == 0:
        st.info("Store at least one pattern in the sidebar, or draw one above, to begin.")
        explain()
        try_this()
        return
    traj = state.run("classical", {"learning_rule": rule}, ps, q, qkey, mode=mode,
                     max_steps=int(max_steps), rng=int(state.setting("q_seed")),
                     temperature=float(temperature))
    reason = ("synchronous updates change every neuron at once, so the energy is not guaranteed "
              "to fall." if mode == "sync" else
              "at a temperature above zero, neurons may move against their field on purpose.")
    dynamics_view.show(PAGE, traj, ps, monotone=(mode == "async" and temperature == 0),
                       rise_reason=reason)
    explain()
    try_this()

    if S.show("W"):
        model = state.model_for("classical", (("learning_rule", rule),), ps.fingerprint, ps.X)
        n = min(ps.d, W_SHOWN)
        title = f"W ({ps.d} x {ps.d}, {rule})" if n == ps.d else f"W, first {n} of {ps.d} neurons ({rule})"
        charts.plot(st, figures.matrix_heatmap(model.weights_block(n), title), key="cl_weights")
        st.caption("Red: neurons that tend to agree; blue: neurons that tend to disagree. "
                   "The diagonal is zero: no neuron votes for itself.")


main()
