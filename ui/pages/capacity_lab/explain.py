"""The capacity lab's explanations and prompts (numbers stated here are checked in
tests/core/test_capacity_curves.py and tests/core/test_capacity_ags.py)."""
from __future__ import annotations

import streamlit as st

from hopfield_core.capacity.curves import MAX_STEPS, SUCCESS_OVERLAP
from ui.shell import heading, layout

TITLE = "Capacity lab"
LEDE = ("Store N random patterns in d neurons, many times over, and count how often a "
        "pattern comes back: capacity measured, not quoted.")

RUN = (
    "**One trial.** Store N fresh random ±1 patterns, start the network at pattern 1 (with "
    "the chosen fraction of its bits flipped), update until nothing changes (at most "
    f"{MAX_STEPS['classical-sync']} synchronous steps, {MAX_STEPS['classical-async']} "
    f"asynchronous sweeps, {MAX_STEPS['dense']} updates for the others) and count a success "
    f"when the final overlap with pattern 1 is at least {SUCCESS_OVERLAP}. The dense and "
    "exponential networks here update every neuron at once from the same state "
    "(synchronously, like classical sync); the modern network's state is continuous, and its "
    "overlap is the cosine of the angle to the pattern. Each point repeats this for the "
    "chosen number of trials; the same seed gives the same stores to every network.")
CURVES = RUN + "\n\n" + (
    "**Where 0.138 d comes from.** Start the classical network at a stored pattern $x^1$. "
    "Neuron $i$ feels the field $h_i = x^1_i + \\text{crosstalk}$: the first term is the "
    "pattern's own signal, the second is the sum of the other $N - 1$ patterns' small random "
    "overlaps with $x^1$, close to a Gaussian of variance $N/d$. A bit flips when the crosstalk "
    "beats the signal, with probability $\\Phi(-\\sqrt{d/N})$: at N/d = 0.138 that is only "
    "0.4 % of the bits on the first update. But each wrong bit adds to the crosstalk of the "
    "next update. The replica theory of Amit, Gutfreund and Sompolinsky follows this feedback "
    "to the end: states near every pattern exist up to $\\alpha_c = 0.138$ (with about 1.6 % of "
    "bits wrong there) and vanish abruptly beyond it; the network then slides to a spin-glass "
    "state that keeps little of the pattern.\n\n"
    "**A finite network lands higher.** The theory holds for $d \\to \\infty$. At finite d the "
    "drop is smoothed: some stores of N random patterns are luckier than average, and the curve "
    "falls over a band of loads instead of at one point. At d = 500 (sync, 20 trials) the mean "
    "final overlap crosses 0.9 between N/d = 0.14 and 0.16; at N/d = 0.25 it is below 0.4, "
    "while at d = 100 it is still above 0.6: the smaller the network, the gentler the fall.\n\n"
    "**Correlated images fail far sooner.** The 0.138 d assumes random patterns, whose "
    "overlaps are of order $\\sqrt{d}$. Letters and photos share most of their pixels: their "
    "overlaps are of order $d$, so the crosstalk is a systematic pull towards their common part, "
    "not noise. On the classical page, 8 letters at 16 × 16 pixels (d = 256, a load of 0.03) "
    "keep only 1 of 8 as a fixed point.\n\n"
    "**How the dense and exponential networks escape.** With $F(z) = z^n$, what decides neuron "
    "$i$ is $F(m + 1) - F(m - 1) \\approx 2n\\, m^{n-1}$ for each pattern: the pattern at hand "
    "gives a signal of order $d^{\\,n-1}$, each other pattern (overlap of order $\\sqrt{d}$) a "
    "term of order $d^{(n-1)/2}$ with a random sign, so $N$ of them add noise "
    "$\\sqrt{N}\\, d^{(n-1)/2}$, small up to about "
    "$d^{\\,n-1} / \\big(2\\,(2n-3)!!\\,\\ln d\\big)$ patterns (Krotov and Hopfield). "
    "With $F(z) = e^z$ the signal $e^d$ dwarfs the other patterns' terms up to exponentially "
    "many, $2^{d/2}$ at flip 0 (Demircigil et al.; this network at $\\beta = 1$, the only "
    "$\\beta$ where the dashed line is drawn). Their x axis is N on a log scale for that "
    "reason. The modern continuous network (Ramsauer et al.) retrieves a pattern that is "
    "separated from the others by "
    "$\\Delta \\ge \\frac{2}{\\beta N} + \\frac{1}{\\beta} \\ln\\big(2 (N-1) N \\beta M^2\\big)$ "
    "from any query within $1/(\\beta N M)$ of it; the dotted line is the fraction of trials "
    "this sufficient condition covers, so it never lies above the measured curve. A query "
    "with $k$ flipped bits lies $2\\sqrt{k}$ from the pattern, outside that small sphere, so "
    "past flip 0 the line is at 0: the theorem says nothing there. The one exception in this "
    "lab is a single stored pattern at small $\\beta$: its sphere's radius "
    "$1/(\\beta \\sqrt{d})$ reaches 2 when $\\beta \\sqrt{d} \\le 1/2$ (at d = 16 and "
    "$\\beta = 0.05$ it is 5, wide enough for 6 flipped bits).")
CURVE_FORMULAS = [  # the first on two lines: a phone's width
    r"\begin{aligned} h_i &= x^1_i + \frac{1}{d}\sum_{\mu \ne 1}\sum_{j \ne i}"
    r" x^\mu_i x^\mu_j x^1_j \\ &\;\Rightarrow\; P(\text{flip}) \approx"
    r" \Phi\!\left(-\sqrt{d/N}\right) \end{aligned}",
    r"N_{\max} \approx 0.138\, d",
    r"N_{\max}^{(n)} \approx \frac{d^{\,n-1}}{2\,(2n-3)!!\,\ln d}",
    r"N_{\max}^{\exp} = 2^{d/2}\ (\text{flip } 0)",
]
BASINS = (
    "Each cell runs the experiment with the query a stored pattern with that fraction of its "
    "bits flipped. Near the top of the map the memories are still stable but their basins of "
    "attraction have shrunk: the network recalls a clean pattern and fails on a noisy one. "
    "A basin is wide when the signal beats the crosstalk even after the flipped bits have cut "
    "the signal from $d$ to $d\\,(1 - 2\\,\\text{flip})$.")
PHASE = (
    "**Temperature.** Asynchronous Glauber dynamics sets each neuron to +1 with probability "
    "$1 / (1 + e^{-2h/T})$: at T = 0 it follows the field, at large T it ignores it. Each cell "
    "starts at a stored pattern, runs the sweeps and reports the overlap with that pattern "
    "averaged over the last third of them.\n\n"
    "**The theory line.** For $d \\to \\infty$ the replica-symmetric equations of Amit, "
    "Gutfreund and Sompolinsky (below, with $\\beta = 1/T$ the inverse temperature: not the "
    "exponential network's $\\beta$ of the curves) have a retrieval solution for "
    "$T < T_M(\\alpha)$: $T_M = 1$ "
    "with no load (the ferromagnet of one pattern), falling to 0 at $\\alpha_c = 0.138$. "
    "Beyond the line memory melts: a spin glass at low T, a paramagnet at high T, and in "
    "both the overlap with the pattern is small. At finite d the edge is blurred and, at "
    "T = 0, sits beyond $\\alpha_c$ (see the curves).")
PHASE_FORMULAS = [
    r"m = \mathbb{E}_z \tanh\!\big(\beta (m + \sqrt{\alpha r}\, z)\big)",
    r"q = \mathbb{E}_z \tanh^2\!\big(\beta (m + \sqrt{\alpha r}\, z)\big)",
    r"r = \frac{q}{\big(1 - \beta (1 - q)\big)^2}",
]


def intro() -> None:
    heading.title(TITLE, LEDE)


def lede() -> None:
    heading.lede(LEDE)


def explain(view: str) -> None:
    if view == "phase":
        layout.note("capacity_lab_phase", PHASE, PHASE_FORMULAS, heading="How it works")
    elif view == "basins":
        layout.note("capacity_lab_basins", BASINS + "\n\n" + CURVES, CURVE_FORMULAS,
                    heading="How it works")
    else:
        layout.note("capacity_lab_curves", CURVES, CURVE_FORMULAS, heading="How it works")


# The settings each prompt names (a test checks that none is refused as too costly)
PROMPT_RUNS = {
    "find 0.138": dict(variants=("classical-sync", "classical-async"), d=500, n_lo=10, n_hi=100,
                       trials=20, points=15),
    "beat it": dict(variants=("dense",), d=100, n_lo=10, n_hi=1000, trials=20, points=15),
}


def prompts() -> str:
    """The "Try this" prompts, as markdown."""
    a, b = PROMPT_RUNS["find 0.138"], PROMPT_RUNS["beat it"]
    return (
        f"1. **Find 0.138 yourself.** Classical sync and async, d = {a['d']}, N from "
        f"{a['n_lo']} to {a['n_hi']}, {a['trials']} trials. Where does the mean overlap fall "
        "below 0.9? Now d = 100: the fall is gentler.\n"
        f"2. **Beat it by a power of d.** Choose only the dense network (n = 3), d = {b['d']}, "
        f"N from {b['n_lo']} to {b['n_hi']}. The dashed line is the formula's value, about 360 "
        "patterns.\n"
        "3. **Melt a memory.** Open the phase diagram: the bright region is retrieval. Raise "
        "the load past 0.14 at T = 0, then heat a lightly loaded network past T = 1.")


def try_this() -> None:
    st.header("Try this")
    st.markdown(prompts())
