"""The exponential-family page's three sections. app_pages/attention_family.py lays them out."""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core import expfamily as ef
from hopfield_core import questions, reference
from hopfield_core.analysis import energy_rises
from ui.charts import chart_numbers, charts, figures
from ui.player import browser
from ui.serving import budget, memory_gate
from ui.serving.shared_cache import shared
from ui.settings import gate
from ui.settings.modes import presenter, projector
from ui.store import patterns, query, store

from . import cache, cloud_frames
from . import figures as figs
from .settings import CLOUDS, SETTINGS

PAGE = "attention_family"
HESSIAN_MAX_D = 256  # autograd's Hessian takes d backward passes
# presenter mode: the weights' and the eigenvalues' height (ui.charts.charts makes it 1.2 x taller), so
# that under the title and the section switcher they fit on a 1024 x 768 projector's first screen
PRESENTER_BARS_PX = 250


def _columns(keys):
    return [SETTINGS.show(k, c) for k, c in zip(keys, st.columns(len(keys)))]


# ------------------------------------------------------------------ 1. attention is a gradient

def family_section() -> None:
    with st.container(key="controls_attention_family"):
        beta = float(SETTINGS.show("beta"))
    ps = patterns.from_store(binary=False)
    if ps.N == 0:
        st.info(store.store_first("to begin: they are the keys"))
        return
    need = ef.family_bytes(ps.N, ps.d, ps.d <= HESSIAN_MAX_D)
    note = budget.over(need, f"The attention family of {ps.N} keys of d = {ps.d} values",
                       "A smaller image size in the sidebar brings it back.")
    if note:
        st.warning(note, icon=":material/memory:")
        return
    K = ps.X
    q, _ = query.make(ps)
    with memory_gate.reserve(need):  # every number below, computed within its estimate
        p = ef.attention_weights(K, q, beta)
        closed = ef.log_normalizer_grad(K, q, beta)
        A = ef.log_normalizer(K, q, beta)
        grad_gap = np.max(np.abs(reference.log_normalizer_grad(K, q, beta) - closed))
        gap = (np.max(np.abs(reference.log_normalizer_hessian(K, q, beta)
                             - ef.log_normalizer_hessian(K, q, beta)))
               if ps.d <= HESSIAN_MAX_D else None)
        lam = ef.hessian_spectrum(K, q, beta)
    # the numbers above the charts; in presenter mode below them, so that the charts have the
    # projector's first screen
    first, second = st.container(), st.container()
    numbers, charts_at = (second, first) if presenter() else (first, second)
    m1, m2, m3 = numbers.columns(3)
    m1.metric("Log-normalizer A(q) = lse(βKq)/β", f"{A:.6g}")
    m2.metric("Largest |∇A(q) by autograd − Kᵀp|", f"{grad_gap:.1e}")
    if gap is not None:
        m3.metric("Largest |Hessian by autograd − β Cov_p[k]|", f"{gap:.1e}")
    else:
        m3.metric("Hessian by autograd", "not at this size",
                  help=f"It takes d = {ps.d} backward passes: choose a size of 16 or less in "
                       "the sidebar to see it checked.")
    left, right = charts_at.columns(2, gap="large")
    bars_px = PRESENTER_BARS_PX if presenter() else 300
    shown = [figures.weight_bars(p, list(ps.names), "Weights p = softmax(βKq)", bars_px),
             figs.eigen_bars(lam, bars_px)]
    charts.plot(left, shown[0], key="attention_family_weights")
    charts.plot(right, shown[1], key="attention_family_eigen")
    right.caption(f"The Hessian β Cov_p[k] is d × d = {ps.d} × {ps.d} but has rank at most "
                  f"N − 1 = {ps.N - 1}: these are its {ps.N} largest eigenvalues (computed "
                  f"from an N × N matrix); all the others are 0. The smallest, {lam[-1]:.1e}, is zero up to "
                  "rounding error: a covariance has no negative eigenvalues, so A is convex.")
    chart_numbers.show(st, shown, "attention_family_family_numbers")


# ------------------------------------------------------------------ 2. expansion and contraction

def cloud_section() -> None:
    with st.container(key="controls_attention_family"):
        name, dim, n = _columns(["cloud", "dim", "n"])
        beta, layers, seed = _columns(["cbeta", "layers", "seed"])
    note = budget.over(cache.cloud_bytes(int(n), int(dim), int(layers)),
                       f"{int(layers)} layers of {int(n)} tokens", "Fewer tokens bring it back.")
    if note:
        st.warning(note, icon=":material/memory:")
        return
    plain, normed = cache.cloud_layers(name, int(n), int(dim), int(seed), float(beta), int(layers))
    s_plain, s_normed = ef.spreads(plain), ef.spreads(normed)
    sv = {k: np.array([ef.top_singular_value(Z) for Z in Zs])
          for k, Zs in (("without layer norm", plain), ("with layer norm", normed))}
    run_key = f"{name}|{int(dim)}|{int(n)}|{int(seed)}|{float(beta)!r}|{int(layers)}"
    look = (presenter(), projector())
    data = shared(("cloud-player", PAGE, name, int(dim), int(n), int(seed), float(beta), int(layers), *look),
                  lambda: browser.frames.encoded(cloud_frames.payload(PAGE, run_key, plain, normed, s_plain,
                                                                      s_normed, sv, *look)))
    gate.offer(PAGE, questions.SPREAD.key, questions.spread_options(), lambda: questions.spread(s_plain, s_normed))
    browser.show(PAGE, data)
    if gate.closed(PAGE):  # a lesson's question waits: the curves and the numbers would answer it
        return
    chart_numbers.show_columns(st, {
        "layer": np.arange(len(s_plain)), "spread, without layer norm": s_plain,
        "spread, with layer norm": s_normed, **{f"σ₁, {k}": v for k, v in sv.items()}},
        "attention_family_cloud_numbers", "Every layer: the spread and σ₁ curves")
    st.caption(f"{CLOUDS[name].capitalize()}, {n} tokens in {dim}-D, β = {beta:g}: over "
               f"{layers} layers the spread goes from {s_plain[0]:.4g} to {s_plain[-1]:.4g} "
               f"without layer norm and to {s_normed[-1]:.4g} with it.")


# ------------------------------------------------------------------ 3. a step down an energy

def rise_text(energies: np.ndarray) -> str:
    """The largest rise of the energy from one layer to the next, or that there is none; a
    change within float64 rounding (analysis.energy_rises' tolerance) is not a rise."""
    rises = energy_rises(energies)
    if not rises.size:
        return "none: it never rises"
    changes = np.diff(energies)[rises - 1]
    return f"+{float(changes.max()):.3g} at layer {int(rises[np.argmax(changes)])}"


def descent_section() -> None:
    with st.container(key="controls_attention_family"):
        beta, scale, wseed, layers, seed = _columns(["dbeta", "scale", "wseed", "layers",
                                                     "seed"])
    tied, untied = cache.descent(int(seed), int(wseed), float(scale), float(beta), int(layers))
    fig = figs.energy_curves(tied, untied)
    charts.plot(st, fig, key="attention_family_energy")
    chart_numbers.show(st, fig, "attention_family_energy_numbers")
    rises = energy_rises(untied)
    m1, m2 = st.columns(2)
    m1.metric("Largest rise from one layer to the next, tied", rise_text(tied))
    m2.metric("Largest rise, independent weights", rise_text(untied))
    if rises.size:
        layer = int(rises[np.argmax(np.diff(untied)[rises - 1])])  # the largest rise
        st.info(f"With independent weights the energy rose at layer "
                f"{layer}: that update is no step down this energy.")
    else:
        st.info("With these independent weights the energy happens not to rise: try other "
                "seeds or a larger distance from I. Tied, it can never rise.")
