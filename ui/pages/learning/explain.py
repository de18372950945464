"""The learning page's explanations and prompts (the numbers stated here are checked in
tests/app/test_learning_page.py)."""
from __future__ import annotations

import streamlit as st

from ui.settings.modes import presenter
from ui.shell import heading, layout

TITLE = "Learning the memories"

MODEL = (
    "**The network is a probability model.** Give each state ξ the probability "
    "$p(\\xi) = e^{-\\beta E(\\xi)}/Z$, with E the modern Hopfield energy. Expanding the "
    "square shows that $e^{-\\beta E}$ is a sum of one Gaussian bump per pattern, so the "
    "integral Z is exact (see the formulas): p is a **mixture of Gaussians** centred on the "
    "patterns, all of width $1/\\sqrt{\\beta}$, with weights $\\pi_\\mu$ proportional to "
    "$e^{\\beta |x_\\mu|^2/2}$. An exact Z is rare for energy-based models, and it means the "
    "patterns can be learned by maximum likelihood: move them to lower the negative "
    "log-likelihood (NLL) of a data set $\\xi_1, \\dots, \\xi_n$.\n\n"
    "**The gradient has two terms.** The first pulls each pattern towards the data points "
    "that attend to it, weighted by $r_\\mu(\\xi) = \\mathrm{softmax}(\\beta X \\xi)_\\mu$: the "
    "same softmax weights a retrieval step uses, and here also the mixture's posterior "
    "$p(\\mu \\mid \\xi)$. The second comes from $\\log Z$: it pulls each pattern back towards "
    "the origin in proportion to its mixture weight $\\pi_\\mu$, which grows with "
    "$|x_\\mu|^2$. Without it a pattern could win every data point just by growing, since "
    "$e^{\\beta x_\\mu^\\top \\xi}$ grows with its length. Training comes to rest where the "
    "two balance, a stationary point of the NLL: there "
    "$\\pi_\\mu x_\\mu = \\frac1n \\sum_{k=1}^{n} r_\\mu(\\xi_k)\\, \\xi_k$, so each pattern is "
    "$m_\\mu$, the mean of the data weighted by their $r_\\mu$, scaled by $R_\\mu/\\pi_\\mu$, "
    "where $R_\\mu$ is the pattern's mean weight over the data: its share of the data, "
    "while $\\pi_\\mu$ is its share of the probability. The two need not agree, since "
    "$\\pi_\\mu$ is set by $|x_\\mu|$: for the six "
    "patterns learned from the two moons at β = 2 (trained until the gradient vanishes), "
    "$R_\\mu/\\pi_\\mu$ runs from 0.93 to 1.13: a pattern sits up to 13 % farther from the "
    "origin than the weighted mean of its data, or up to 7 % nearer.")
ONE_ENERGY = (
    "**One energy for learning and for recall.** A retrieval step "
    "$\\xi \\leftarrow X^\\top \\mathrm{softmax}(\\beta X \\xi)$ on the modern network's "
    "page never raises this same E: learning shapes the landscape, retrieval rolls down it.")
PLANE = (
    "**Training** here is Adam (the learning rate you choose, moment decays 0.9 and 0.999) "
    "on the patterns only, from patterns drawn near the origin; β stays fixed. A quarter of "
    "the points are held out: the dashed curve scores the model on points it never saw. The "
    "samples in the last chart are exact draws: pick pattern μ with probability $\\pi_\\mu$, then "
    "add Gaussian noise of width $1/\\sqrt{\\beta}$.\n\n"
    "**What β does.** β sets the width of every bump. Small β: wide bumps, the patterns "
    "huddle near the middle of the data and the samples are a blur. Large β: narrow bumps "
    "that must sit on the data, and with few patterns the space between them costs "
    "likelihood. On the two moons with 6 patterns (the other settings as the page opens), "
    "the held-out NLL after 300 Adam steps is 3.44 at β = 0.5, 3.17 at β = 2 and 4.60 at "
    "β = 8.")
MODEL_FORMULAS = [
    r"\begin{aligned} e^{-\beta E(\xi)} &= \sum_\mu e^{\beta x_\mu^\top \xi - \frac{\beta}{2}|\xi|^2}"
    r" \\ &= \sum_\mu e^{\frac{\beta}{2}|x_\mu|^2}\, e^{-\frac{\beta}{2}|\xi - x_\mu|^2} \end{aligned}",
    r"Z = \int e^{-\beta E(\xi)}\, d\xi"
    r" = \Big(\frac{2\pi}{\beta}\Big)^{d/2} \sum_\mu e^{\frac{\beta}{2}|x_\mu|^2}",
    r"\log Z = \frac{d}{2}\log\frac{2\pi}{\beta} + \mathrm{lse}_\mu\Big(\frac{\beta}{2}|x_\mu|^2\Big)",
    r"\frac{\partial\, \mathrm{NLL}}{\partial x_\mu} = \beta\Big(\pi_\mu x_\mu"
    r" - \frac{1}{n}\sum_{k=1}^{n} r_\mu(\xi_k)\, \xi_k\Big)",
    r"\frac{\partial\, \mathrm{NLL}}{\partial x_\mu} = 0"
    r" \iff x_\mu = \frac{R_\mu}{\pi_\mu}\, m_\mu",
    r"R_\mu = \frac{1}{n}\sum_{k=1}^{n} r_\mu(\xi_k),"
    r"\quad m_\mu = \frac{\sum_{k=1}^{n} r_\mu(\xi_k)\, \xi_k}{\sum_{k=1}^{n} r_\mu(\xi_k)}",
]
IMAGES = (
    "Each stored image becomes a continuous vector (2 × pixel − 1, minus its mean: the "
    "sidebar's size and colour apply), and N patterns start near the origin. Adam moves them "
    "to lower the NLL of the images under the same mixture of Gaussians: towards a stationary "
    "point, where each pattern is the mean of the images weighted by their $r_\\mu$, scaled "
    "by $R_\\mu/\\pi_\\mu$ (see the formulas), so with fewer patterns than images, similar "
    "images share one blurred pattern. The captions name the two images with the largest "
    "weights $r_\\mu$ for each pattern.")
IMAGE_TRAINING = (
    "**Training** here is Adam (the learning rate you choose, moment decays 0.9 and 0.999) "
    "on the patterns only, for the number of steps you choose; β stays fixed. Every stored "
    "image is trained on and none is held out, so the one curve is the NLL of the stored "
    "images after each step, and *NLL per pixel value* divides the last one by the d values "
    "of an image.")


LEDE = ("The modern Hopfield network is a probability model whose normaliser is exact, "
        "so its patterns can be learned from data by maximum likelihood.")


def intro() -> None:
    heading.title(TITLE, LEDE)


def lede_below() -> None:
    """Presenter mode: the lede under the figure, so that a 768 px high projector screen
    shows the figure and its player first (issue 30)."""
    if presenter():
        heading.lede(LEDE)


def explain(view: str) -> None:
    """Each tab's explanation describes what that tab shows (ui/pages/learning/sections.py)."""
    if view == "images":
        prose = "\n\n".join([IMAGES, MODEL, IMAGE_TRAINING, ONE_ENERGY])
        layout.note("learning_images", prose, MODEL_FORMULAS, heading="How it works")
    else:
        prose = "\n\n".join([MODEL, PLANE, ONE_ENERGY])
        layout.note("learning_plane", prose, MODEL_FORMULAS, heading="How it works")
    st.page_link("app_pages/modern.py", label="The modern network: retrieval on the same energy",
                 icon=":material/arrow_forward:")


PROMPTS = (  # the first prompt's outcomes are checked in tests/app/test_learning_page.py
    "1. **Watch the two forces.** Press Play on the four clusters: the six patterns leave "
    "the origin and split up. Four of them settle, one on each cluster; the other two win "
    "almost none of the data (their share $R_\\mu$ falls to about 0), so nothing pulls "
    "them out and they stall short of any cluster. Set N = 4: at seed 0 each pattern "
    "takes a cluster of its own (not at every seed: at seed 2 one starves and another "
    "sits between two clusters). "
    "Then set N = 2: each pattern settles between two clusters and shares them.\n"
    "2. **Too wide, too narrow.** Choose the two moons and compare β = 0.5, 2 and 8 after "
    "the last step: which gives the lowest held-out NLL, and what do the samples look like?\n"
    "3. **Your own data.** Choose *my points*, click a shape into the plane, and train.")


def try_this() -> None:
    st.header("Try this")
    st.markdown(PROMPTS)
