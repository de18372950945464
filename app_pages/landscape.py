"""The energy landscape: see the surface the dynamics roll down, in 2-D, on planes and lines
through image space, and exhaustively for small binary networks."""
import numpy as np
import pandas as pd
import streamlit as st

from hopfield_core import analysis, images, metastable
from hopfield_core import landscape as core
from ui import figures, state, widgets
from ui import figures_landscape as figs
from ui import landscape_cache as cache
from ui.text import escaped

PAGE = "landscape"
CHART = {"displayModeBar": False}
BETAS = [0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0]
DEFAULT_POINTS = ((1.0, 0.0), (-0.5, 0.866), (-0.5, -0.866))  # a triangle on the unit circle
QUERY_LIMIT = 10.0
CLICK_GRID = 25
KIND_LABELS = {"stored": "Stored", "mirror": "Mirror", "mixture": "Mixture", "spurious": "Spurious"}
MODERN_ENERGY = (r"E(\xi) = -\frac1\beta \log\sum_{\mu=1}^{N} e^{\beta\, x_\mu^\top \xi}"
                 r" + \tfrac12\,\xi^\top\xi + \frac1\beta\log N + \tfrac12 M^2")


def nearest_beta(value: float) -> float:
    """Snap a beta from the URL to the log scale the slider offers (the smallest for a
    value that is not a positive number)."""
    return metastable.snap(value, BETAS) if np.isfinite(value) and value > 0 else BETAS[0]


def beta_slider(label: str, key: str, url_key: str, default: float, help: str) -> float:
    start = nearest_beta(state.url_value(url_key, default))
    return float(st.select_slider(label, BETAS, value=start, key=key,
                                  format_func=lambda b: f"{b:g}", help=help))


def point_text(p) -> str:
    """(x, y) to 2 decimals, without the "-0.00" of tiny negative numbers."""
    return "(" + ", ".join(f"{v:.2f}".replace("-0.00", "0.00") for v in p) + ")"


def url_int_choice(url_key: str, default: int, n: int) -> int:
    v = state.url_value(url_key, default, int)
    return v if 0 <= v < n else default


# ---------------------------------------------------------------- (a) the 2-D world

def initial_points() -> pd.DataFrame:
    """The editor's starting table, fixed for the session: from the link's `pts`, else a triangle.

    (The editor stores edits relative to this table, so it must never change under it.)"""
    if "_ls_points_initial" not in st.session_state:
        rows, note = DEFAULT_POINTS, None
        raw = st.query_params.get("pts")
        if raw:
            try:
                cells = [r.split(",") for r in raw.split(";") if r.strip()]
                rows = [tuple(r) for r in core.parse_points(cells)]
            except ValueError as e:
                rows, note = DEFAULT_POINTS, f"The link's patterns could not be read ({escaped(e)}) "
        st.session_state._ls_points_initial = pd.DataFrame(rows, columns=["x", "y"], dtype=float)
        st.session_state._ls_points_note = note
    return st.session_state._ls_points_initial


def apply_click() -> None:
    """A point picked on the chart (last run) becomes the query, once per new pick."""
    event = st.session_state.get("ls_world_chart")
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError):
        return
    if not points:
        return
    picked = (float(points[0]["x"]), float(points[0]["y"]))
    if picked == st.session_state.get("_ls_click_applied"):
        return  # this pick was applied already; the number inputs may have moved on since
    st.session_state._ls_click_applied = picked
    st.session_state.ls_qx = round(float(np.clip(picked[0], -QUERY_LIMIT, QUERY_LIMIT)), 3)
    st.session_state.ls_qy = round(float(np.clip(picked[1], -QUERY_LIMIT, QUERY_LIMIT)), 3)


def world_tab() -> dict:
    st.markdown(
        "With patterns in the **plane** you can see the whole landscape at once. Place 2 to 6 "
        "patterns and a query; the contour shows the exact energy of the continuous network "
        "(every constant included), and the white path is `model.run(query)`: each step jumps "
        "to the softmax-weighted average of the patterns. Small $\\beta$ melts the valleys into "
        "one; large $\\beta$ digs one valley per pattern."
    )
    st.latex(MODERN_ENERGY + r",\qquad \xi \leftarrow X^\top \mathrm{softmax}(\beta X \xi)")
    apply_click()
    for key, url_key, default in (("ls_qx", "qx", 0.3), ("ls_qy", "qy", 0.2)):
        if key not in st.session_state:
            v = state.url_value(url_key, default)
            st.session_state[key] = float(np.clip(v, -QUERY_LIMIT, QUERY_LIMIT)) if np.isfinite(v) else default
    with st.container(key="controls_landscape_world"):
        c1, c2 = st.columns([2, 3], gap="large")
        with c1:
            table = st.data_editor(
                initial_points(), key="ls_points", num_rows="dynamic", width="stretch",
                column_config={c: st.column_config.NumberColumn(c, min_value=-5.0, max_value=5.0,
                                                                step=0.001, format="%.3f")
                               for c in ("x", "y")})
            st.caption("Stored patterns $x_1, x_2, \\dots$: edit, add or delete rows (2 to 6).")
        with c2:
            q1, q2 = st.columns(2)
            qx = q1.number_input("Query ξ, first coordinate", -QUERY_LIMIT, QUERY_LIMIT, step=0.05,
                                 key="ls_qx", format="%.3f")
            qy = q2.number_input("Query ξ, second coordinate", -QUERY_LIMIT, QUERY_LIMIT, step=0.05,
                                 key="ls_qy", format="%.3f")
            beta = beta_slider("Inverse temperature β (log scale)", "ls_beta", "beta", 5.0,
                               "Large β: sharp softmax, one valley per pattern. Small β: the "
                               "valleys merge into one at the patterns' mean.")
            max_steps = st.number_input("Step limit", 1, 500, 50, key="ls_steps")
    note = st.session_state.get("_ls_points_note")
    if note:
        st.warning(note + "so the default triangle is shown.")
    settings = {"beta": f"{beta:g}", "qx": f"{qx:g}", "qy": f"{qy:g}"}
    rows = table[["x", "y"]].astype(object).values.tolist() if set(table.columns) >= {"x", "y"} else []
    try:
        P = core.parse_points(rows)
    except ValueError as e:
        st.error(escaped(e), icon=":material/edit_note:")  # it may repeat a typed cell
        return settings
    settings["pts"] = ";".join(f"{x:g},{y:g}" for x, y in P)
    us, vs, E, traj = cache.world(tuple(map(tuple, P)), beta, (float(qx), float(qy)), int(max_steps))
    click = core.grid_axis(us[0], us[-1], CLICK_GRID)
    left, right = st.columns([3, 2], gap="large")
    with left:
        key = ("world", tuple(map(tuple, P)), beta, float(qx), float(qy), int(max_steps))
        fig = state.shared(("landscape",) + key, lambda: figs.world(us, vs, E, P, traj.states, click,
                                                   f"E(ξ) at β = {beta:g}"))
        st.plotly_chart(fig, key="ls_world_chart", on_select="rerun", selection_mode="points",
                        config=CHART)
        st.caption("Click any faint square (or a star, or a step) to move the query there. "
                   "Orange: the query (step 0); the numbers count the update steps.")
    with right:
        v = analysis.verdict(traj, P, binary=False)
        m1, m2 = st.columns(2)
        m1.metric("Energy of the query", f"{traj.energies[0]:.6g}")
        m2.metric("Energy at the end", f"{traj.energies[-1]:.6g}")
        m3, m4 = st.columns(2)
        m3.metric("Steps taken", traj.steps)
        m4.metric("Ends at", point_text(traj.final))
        st.info(v.sentence([f"x{i + 1}" for i in range(len(P))]))
        st.plotly_chart(state.shared(("landscape",) + key + ("energy",), lambda: figures.energy_curve(
                            traj.energies, traj.steps, title="Energy at each step", height=280)),
                        key="ls_world_energy", config=CHART)
    return settings


# ---------------------------------------------------------------- (b) a plane through image space

def plane_tab(ps) -> dict:
    st.markdown(
        "Image patterns live in $d$ dimensions, so we look at a **plane** through that space: "
        "either the plane of the stored patterns' two main directions of variation (PCA, "
        "through their mean $\\bar x$), or the plane through three chosen patterns. The colours "
        "are the exact energy of the points of that plane; the query's trajectory is drawn as "
        "its projection (hover a step for its own energy and its distance from the plane)."
    )
    st.latex(r"\xi(u, v) = \bar x + u\, e_1 + v\, e_2,\qquad E(u, v) = E(\xi(u, v)),\qquad "
             r"(u, v) = \big(e_1^\top(\xi - \bar x),\ e_2^\top(\xi - \bar x)\big)")
    if ps.N < 3:
        st.info("A plane needs at least 3 stored patterns: add some in the sidebar.")
        return {}
    with st.container(key="controls_landscape_plane"):
        c1, c2, c3 = st.columns([2, 3, 2], gap="large")
        modes = {"pca": "PCA plane of all patterns", "three": "through three patterns"}
        start = state.url_value("plane", "pca", str)
        mode = c1.radio("Plane", list(modes), format_func=modes.get, key="ls_plane",
                        index=list(modes).index(start) if start in modes else 0)
        with c2:
            labels = [f"{i + 1}. {n}" for i, n in enumerate(ps.names)]
            s1, s2, s3 = st.columns(3)
            chosen = tuple(col.selectbox(f"Pattern {k}", range(ps.N), format_func=labels.__getitem__,
                                         key=f"ls_p{k}", index=url_int_choice(f"p{k}", k - 1, ps.N),
                                         disabled=mode != "three")
                           for k, col in zip((1, 2, 3), (s1, s2, s3)))
        with c3:
            beta = beta_slider("β (log scale)", "ls_pbeta", "pbeta", 10.0,
                               "The inverse temperature of the continuous network.")
            max_steps = st.number_input("Step limit", 1, 200, 30, key="ls_psteps")
    settings = {"plane": mode, "pbeta": f"{beta:g}"}
    chosen = chosen if mode == "three" else ()
    if mode == "three":
        settings.update({"p1": chosen[0], "p2": chosen[1], "p3": chosen[2]})
    try:
        plane = cache.plane_for(ps.fingerprint, mode, chosen, ps.X)
    except ValueError as e:
        st.error(str(e))
        return settings
    q, qkey = state.query(ps)
    traj = state.run("modern", {"beta": beta}, ps, q, qkey, max_steps=int(max_steps))
    pc, tc = plane.project(ps.X), plane.project(traj.states)
    off = plane.distance(traj.states)
    extent = core.box_extent(np.vstack([pc, tc]), margin=0.2)
    extent = tuple(tuple(round(v, 6) for v in pair) for pair in extent)
    us, vs, E = cache.plane_grid(ps.fingerprint, mode, chosen, beta, extent, ps.X, plane)
    hover = [f"step {t}: its own E = {e:.5g}, {o:.3f} off the plane"
             for t, (e, o) in enumerate(zip(traj.energies, off))]
    axes = (("u: 1st principal direction", "v: 2nd principal direction") if mode == "pca" else
            (f"u: from {ps.names[chosen[0]]} towards {ps.names[chosen[1]]}", "v"))
    title = f"E on the {'PCA plane' if mode == 'pca' else 'plane of three patterns'}, β = {beta:g}"
    left, right = st.columns([3, 2], gap="large")
    key = ("plane", ps.fingerprint, tuple(ps.names), mode, chosen, beta, qkey, int(max_steps))
    left.plotly_chart(state.shared(("landscape",) + key, lambda: figs.plane(us, vs, E, pc, ps.names, tc, hover,
                                                           title, axes)),
                      key="ls_plane_chart", config=CHART)
    with right:
        m1, m2 = st.columns(2)
        m1.metric("Query off the plane", f"{off[0]:.3f}")
        m2.metric("End off the plane", f"{off[-1]:.3f}")
        m3, m4 = st.columns(2)
        m3.metric("Steps taken", traj.steps)
        if mode == "pca":
            m4.metric("Variance the plane holds", f"{100 * sum(plane.explained):.0f} %")
        st.caption("The colours are the energy *on the plane*. A state off the plane has its own "
                   "energy (in the hover), usually higher than the colour under its dot. Stored "
                   "patterns on the plane sit in their valleys; the PCA plane of more than three "
                   "patterns passes only near them.")
        st.plotly_chart(state.shared(("landscape",) + key + ("energy",), lambda: figures.energy_curve(
                            traj.energies, traj.steps, title="The query's own energy at each step",
                            height=260)),
                        key="ls_plane_energy", config=CHART)
    with st.expander("What the plane's origin and axes look like"):
        st.caption("Grey is 0; the directions are shown with their own contrast (white: +, black: -).")
        cols = st.columns(3)
        pics = [(plane.origin, "origin: " + ("the mean pattern" if mode == "pca" else "mean of the three")),
                (plane.basis[0], "direction u"), (plane.basis[1], "direction v")]
        for col, (vec, cap) in zip(cols, pics):
            lim = float(np.max(np.abs(vec))) or 1.0
            col.image(state.picture_png(vec, ps.shape, -lim, lim, width=160), caption=cap, width=160,
                      output_format="PNG")
    return settings


# ---------------------------------------------------------------- (c) a line between two patterns

def slice_tab(ps) -> dict:
    st.markdown(
        "Walk in a straight line from one stored pattern to another. Two separate valleys show "
        "a **barrier** in between, and $\\beta$ sets its height: at small $\\beta$ the valleys "
        "merge (no barrier: the midpoint is lower), at large $\\beta$ each pattern is a deep, "
        "narrow well. The shaded band is the segment itself ($0 \\le t \\le 1$)."
    )
    st.latex(r"E(t) = E\big((1-t)\,x_a + t\,x_b\big),\qquad "
             r"\Delta E = \max_{0\le t\le 1} E(t) - \max\big(E(0), E(1)\big)")
    if ps.N < 2:
        st.info("A slice needs at least 2 stored patterns: add some in the sidebar.")
        return {}
    labels = [f"{i + 1}. {n}" for i, n in enumerate(ps.names)]
    with st.container(key="controls_landscape_slice"):
        c1, c2, c3 = st.columns([1, 1, 2], gap="large")
        a = c1.selectbox("From pattern x_a (t = 0)", range(ps.N), format_func=labels.__getitem__,
                         key="ls_sa", index=url_int_choice("sa", 0, ps.N))
        b = c2.selectbox("To pattern x_b (t = 1)", range(ps.N), format_func=labels.__getitem__,
                         key="ls_sb", index=url_int_choice("sb", 1, ps.N))
        raw = state.url_value("betas", "2,5,20", str)
        try:
            start = sorted({nearest_beta(float(v)) for v in raw.split(",") if v.strip()})[:4]
        except ValueError:
            start = [2.0, 5.0, 20.0]
        betas = c3.multiselect("Values of β (up to 4)", BETAS, default=start or [2.0, 5.0, 20.0],
                               key="ls_sbetas", max_selections=4, format_func=lambda v: f"{v:g}")
    settings = {"sa": a, "sb": b, "betas": ",".join(f"{v:g}" for v in sorted(betas))}
    if a == b:
        st.warning("Choose two different patterns: a line from a pattern to itself is a point.")
        return settings
    if not betas:
        st.info("Choose at least one value of β.")
        return settings
    betas = tuple(sorted(float(v) for v in betas))
    ts, E, bars = cache.line_slice(ps.fingerprint, a, b, betas, ps.X)
    key = ("slice", ps.fingerprint, a, b, betas, ps.names[a], ps.names[b])
    st.plotly_chart(state.shared(("landscape",) + key, lambda: figs.slice_chart(ts, E, betas, bars, ps.names[a],
                                                               ps.names[b])),
                    key="ls_slice_chart", config=CHART)
    cols = st.columns(len(betas))
    for col, bar in zip(cols, bars):
        col.metric(f"Barrier at β = {bar.beta:g}", f"{bar.height:.4g}")
    st.dataframe(pd.DataFrame({
        "β": [f"{bar.beta:g}" for bar in bars],
        f"E({ps.names[a]})": [bar.e_a for bar in bars],
        f"E({ps.names[b]})": [bar.e_b for bar in bars],
        "max E on the segment": [bar.e_max for bar in bars],
        "at t": [bar.t_max for bar in bars],
        f"climb from {ps.names[a]}": [bar.from_a for bar in bars],
        f"climb from {ps.names[b]}": [bar.from_b for bar in bars],
    }), hide_index=True, key="ls_slice_table")
    st.caption("A barrier of 0 means the segment has no hump: from the higher end the energy "
               "only falls along the line, so that end is no valley in this direction.")
    return settings


# ---------------------------------------------------------------- (d) every state of a small network

def store_4x4(n: int) -> np.ndarray:
    """The first n stored images, shrunk to 4 x 4 and made bipolar: (n', 16)."""
    items = state.store()[:n]
    if not items:
        return np.zeros((0, 16))
    return np.stack([images.to_bipolar(images.resize(s.image, (4, 4))) for s in items])


def binary_tab() -> dict:
    st.markdown(
        "With $d \\le 16$ neurons there are at most $2^{16} = 65\\,536$ states: few enough to "
        "compute the energy of **every one** and find every **local minimum** (a state that no "
        "single flip lowers). Each minimum is a stored pattern, a **mirror** $-x_\\mu$, an odd "
        "**mixture** $\\mathrm{sgn}(\\pm x_a \\pm x_b \\pm x_c)$, or **spurious** (none of these)."
    )
    st.latex(r"\text{classical: } E = -\tfrac12\,\xi^\top W \xi"
             r"\qquad \text{dense } (n=3)\text{: } E = -\sum_\mu (x_\mu^\top \xi)^3")
    with st.container(key="controls_landscape_binary"):
        c1, c2, c3, c4 = st.columns(4)
        d = c1.slider("Neurons d", 6, 16, key="ls_bd",
                      value=int(np.clip(state.url_value("bd", 16, int), 6, 16)))
        n = c2.slider("Patterns N", 1, 5, key="ls_bn",
                      value=int(np.clip(state.url_value("bn", 3, int), 1, 5)))
        seed = c3.number_input("Seed", 0, 2 ** 31 - 1, key="ls_bseed",
                               value=int(np.clip(state.url_value("bseed", 0, int), 0, 2 ** 31 - 1)))
        models = {"classical": "classical (Hebb)", "dense": "dense, degree 3"}
        mstart = state.url_value("bmodel", "classical", str)
        model = c4.radio("Network", list(models), format_func=models.get, key="ls_bmodel",
                         index=list(models).index(mstart) if mstart in models else 0)
        e1, e2, e3 = st.columns([2, 1, 1])
        sources = {"random": "random ±1 patterns from the seed",
                   "store": "the first stored images, shrunk to 4 x 4 (d = 16 only)"}
        sstart = state.url_value("bsrc", "random", str)
        source = e1.radio("Patterns", list(sources), format_func=sources.get, key="ls_bsrc",
                          index=list(sources).index(sstart) if sstart in sources else 0)
        axes = {"overlap": "overlap m with a pattern", "hamming": "Hamming distance to it"}
        xaxis = e2.radio("Horizontal axis", list(axes), format_func=axes.get, key="ls_bx")
        ref = e3.selectbox("Reference pattern", range(n), format_func=lambda i: f"x{i + 1}",
                           key="ls_bref")
    settings = {"bd": d, "bn": n, "bseed": seed, "bmodel": model, "bsrc": source}
    if source == "store" and d != 16:
        st.warning("Stored images shrink to 4 x 4 = 16 pixels: set d = 16 to use them. "
                   "Showing random patterns instead.")
        source = "random"
    if source == "store":
        X = store_4x4(n)
        if len(X) < n:
            st.warning(f"The store holds {len(X)} image(s): using {len(X)} pattern(s), not {n}.")
        if len(X) == 0:
            st.info("Store at least one pattern in the sidebar to begin.")
            return settings
    else:
        X = core.random_patterns(n, d, int(seed))
    ref = min(int(ref), len(X) - 1)
    patterns_key = X.astype(np.int8).tobytes().hex()
    land = cache.binary(model, patterns_key, X)
    counts = land.counts()
    cols = st.columns(6)
    cols[0].metric("States", f"{2 ** X.shape[1]:,}")
    cols[1].metric("Local minima", len(land.minima))
    for col, kind in zip(cols[2:], core.BINARY_KINDS):
        col.metric(KIND_LABELS[kind], counts[kind])
    xs = core.reference_axis(land.states, X[ref], xaxis)
    names = [f"x{i + 1}" for i in range(len(X))]

    def label(kind, members):
        return {"stored": "stored {}", "mirror": "mirror of {}", "mixture": "mixture of {}",
                "spurious": "spurious"}[kind].format(", ".join(names[i] for i in members))

    labels = [label(k, m) for k, m in zip(land.kinds, land.members)]
    x_title = (f"overlap m with x{ref + 1}" if xaxis == "overlap"
               else f"Hamming distance to x{ref + 1}")

    def cloud():
        ux, uy, cnt = core.unique_points(xs, land.energies)
        return figs.state_cloud(ux, uy, cnt, xs[land.minima], land.energies[land.minima],
                                land.kinds, labels, x_title)

    st.plotly_chart(state.shared(("landscape", "cloud", model, patterns_key, xaxis, ref), cloud),
                    key="ls_binary_chart", config=CHART)
    left, right = st.columns([3, 2], gap="large")
    left.dataframe(pd.DataFrame({
        "state": [core.state_string(land.states[i]) for i in land.minima],
        "energy": land.energies[land.minima],
        "class": list(land.kinds),
        "which": labels,
        x_title: xs[land.minima],
    }), hide_index=True, key="ls_minima_table")
    with right:
        st.markdown("**The stored patterns**")
        st.dataframe(pd.DataFrame({"pattern": names,
                                   "state": [core.state_string(x) for x in X]}),
                     hide_index=True, key="ls_binary_patterns")
        if model == "classical":
            st.caption(f"Hebbian capacity is about 0.14 d = {0.14 * X.shape[1]:.1f} random patterns; "
                       "mirrors are always minima too, since E(-ξ) = E(ξ).")
        else:
            st.caption("The cubic energy is odd: E(-ξ) = -E(ξ), so mirrors are maxima, not minima, "
                       "and the capacity grows like d².")
    return settings


# ---------------------------------------------------------------- the page

def main() -> None:
    st.title("The energy landscape")
    text, eq = st.columns([3, 2], gap="large")
    text.markdown(
        "Every Hopfield network has an **energy** $E(\\xi)$. Updated one neuron at a time "
        "(asynchronously), or with the continuous update below, the state only ever goes "
        "downhill; synchronous updates of binary neurons can climb (see the classical page). "
        "Memories are the **valleys** of this landscape; recall is rolling from the "
        "query into the nearest one. This page shows the landscape itself: in a 2-D world you "
        "can see whole, on a plane and a line through image space, and, for tiny binary "
        "networks, state by state, with every valley found and named."
    )
    with eq:
        st.latex(r"E(\xi) = -\frac1\beta \log\sum_{\mu=1}^{N} e^{\beta\, x_\mu^\top \xi}"
                 r" + \tfrac12\,\xi^\top\xi")
        st.latex(r"\qquad + \frac1\beta\log N + \tfrac12 M^2,\quad M = \max_\mu \lVert x_\mu \rVert")
        st.latex(r"E(\xi_{t+1}) \le E(\xi_t)")
    with st.expander("Try this", expanded=not state.presenter()):
        st.markdown(
            "- **2-D world**, default triangle: set **β = 1**. There is one valley in the centre "
            "and the query rolls to the mean of the three patterns (a global fixed point). Raise "
            "β step by step: at β ≈ 1.84 three more valleys appear beside the central one (for a "
            "while there are four: a first-order transition), at β = 2 the centre turns into a hill, and "
            "at β = 3 the same query retrieves x1.\n"
            "- **Slice**, store H, O, X: from H to O with **β = 2, 5, 20**. At β = 2 the barrier "
            "is 0 (no valley at the ends); it grows to about 0.09 at β = 5 and 0.2 at β = 20.\n"
            "- **Small binary networks**: d = 16, N = 5, seed 0. The classical network keeps only "
            "2 of the 5 patterns as minima (with 2 mirrors and 2 mixtures). Switch to the dense "
            "network: all 5 are minima, and no mirrors."
        )
    # only the open tab runs: a closed tab costs the server nothing
    opened = widgets.sections("ls_tab", {
        "world": "2-D world", "plane": "A plane through image space",
        "slice": "A line between two patterns", "states": "Every state of a small network"})
    settings = {"view": opened}
    ps = state.patterns(binary=False)
    with st.container():
        if opened == "world":
            settings.update(world_tab())
        elif opened == "states":
            settings.update(binary_tab())
        elif ps.N == 0:
            st.info("Store at least one pattern in the sidebar to begin.")
        else:
            settings.update((plane_tab if opened == "plane" else slice_tab)(ps))
    state.publish_url(settings)


main()
