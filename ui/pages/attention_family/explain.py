"""The exponential-family page's explanations (the numbers stated here are checked in
tests/app/test_attention_family_page.py)."""
from __future__ import annotations

import streamlit as st

from ui.shell import heading, layout

TITLE = "Attention as an exponential family"
LEDE = ("Attention is the gradient of a log-normalizer: it spreads tokens apart, layer "
        "norm pulls them back, and with fixed memories as both keys and values (no "
        "projections) every layer is a step down one energy.")

FAMILY = (
    "**Attention weights are an exponential family.** Over the N keys put "
    "$p(k_j \\mid q) = e^{\\beta k_j^\\top q - \\beta A(q)}$: the keys are the outcomes, the "
    "query is the natural parameter, and $A(q) = \\frac{1}{\\beta}\\,\\mathrm{lse}(\\beta K q)$ "
    "is the log-normalizer that makes the weights sum to 1. The family's classic property: "
    "the gradient of the log-normalizer is the mean of the outcomes, "
    "$\\nabla A(q) = \\sum_j p_j k_j = K^\\top p$, which is exactly the attention output "
    "when the values are the keys. Its Hessian is β times the covariance of the keys under "
    "the weights, so it is positive semidefinite and A is convex. The metrics check both on "
    "your patterns: torch autograd on A beside the closed forms. (Shim (2021) writes the "
    "Hessian as $\\mathbb{E}[k k^\\top]$; it is the covariance, "
    "$\\mathbb{E}[k k^\\top] - \\mathbb{E}[k]\\,\\mathbb{E}[k]^\\top$.) The keys are the "
    "stored patterns, of length 1, and the query is the sidebar's.")
FAMILY_FORMULAS = [
    r"p = \mathrm{softmax}(\beta K q)",
    r"A(q) = \frac{1}{\beta}\log\sum_j e^{\beta k_j^\top q}",
    r"\nabla A(q) = \sum_j p_j\, k_j = K^\top p",
    # on two lines: a phone's width
    r"\begin{aligned} \nabla^2 A(q) &= \beta\Big(\sum_j p_j k_j k_j^\top"
    r" - K^\top p\, p^\top K\Big) \\ &= \beta\,\mathrm{Cov}_p[k] \end{aligned}",
]
CLOUD = (
    "**Expansion.** Let every token attend to the whole cloud with no projections (queries, "
    "keys and values are the tokens): token i receives $\\nabla A(z_i)$ with the cloud as "
    "its keys, and a residual layer adds it, $z_i \\leftarrow z_i + \\nabla A(z_i)$. With the "
    "keys held fixed that is a unit step uphill on the convex A, which pushes tokens "
    "outwards (the keys move too, so it is not the full gradient of $\\sum_i A(z_i)$). As the "
    "page opens (a blob of 32 tokens in 3-D, β = 1) the spread grows from 1.52 to 2353 in "
    "10 layers.\n\n"
    "**Contraction.** Layer normalisation (here without gain or bias) centres each token over "
    "its own features and scales it to unit variance: every token lands on the sphere of "
    "radius $\\sqrt{d}$ in the plane where its features sum to 0, so the spread can never "
    "pass $\\sqrt{d}$ (1.73 in 3-D). As the page opens it ends at 1.70. In 2-D that plane "
    "meets the circle in just two points, ±(1, −1): every token ends on one of them.\n\n"
    "**Where the story fails.** At β = 0.001 attention is nearly uniform and every token "
    "gains almost the same vector, so the spread only goes from 1.52 to 1.54 in 10 layers, "
    "and with layer norm the blob shrinks to 0.38. A cloud away from the origin (the blob "
    "off the origin) has every token attend to the same few tokens, so a layer mostly moves "
    "the cloud: at β = 0.1 in 2-D its spread goes from 1.13 to 1.56 in 10 layers, where the "
    "centred blob reaches 143. And layer norm does not centre the cloud, only each token's "
    "features: the blob off the origin collapses to nearly one point.")
CLOUD_FORMULAS = [
    r"z_i \leftarrow z_i + \sum_j \mathrm{softmax}_j(\beta z_i^\top z_j)\, z_j",
    r"\mathrm{LN}(z) = \frac{z - \bar z\,\mathbf{1}}{\sqrt{\tfrac{1}{d}|z - \bar z\,\mathbf{1}|^2"
    r" + \epsilon}}",
]
DESCENT = (
    "**A layer as a step down an energy.** Let tokens attend to fixed memories K, with K as "
    "both keys and values and no projections: $z \\leftarrow K^\\top "
    "\\mathrm{softmax}(\\beta K z)$ is $z - \\nabla E(z)$ for the modern Hopfield energy "
    "$E(z) = \\frac12 |z|^2 - \\frac{1}{\\beta}\\mathrm{lse}(\\beta K z)$. Because the "
    "log-sum-exp is convex, $E(z') \\le E(z) - \\frac12 |z' - z|^2$: every layer lowers the "
    "energy (blue). With independent random $W_Q, W_K, W_V$ the update "
    "$z \\leftarrow \\mathrm{softmax}(\\beta\\, z W_Q (K W_K)^\\top)\\, K W_V$ is no longer a "
    "gradient step of this energy, and measured along it the energy can rise: as the page "
    "opens (seeds 0, distance 1, β = 1) it rises at layer 2. This is why the Energy "
    "Transformer takes its update from the gradient of one energy (it has no independent "
    "$W_V$), the same energy at every step. (Here "
    "the attention output replaces the token, as in a Hopfield step; a Transformer's "
    "residual block adds it instead.) Memories: two clusters of 8 points in 3-D; tokens: a "
    "blob of 16, both from the seed.")
DESCENT_FORMULAS = [
    r"E(z) = \tfrac12 |z|^2 - \tfrac{1}{\beta}\log\sum_\mu e^{\beta k_\mu^\top z}",
    r"z' = K^\top \mathrm{softmax}(\beta K z) = z - \nabla E(z)",
    r"E(z') \le E(z) - \tfrac12 |z' - z|^2",
]


def intro() -> None:
    heading.title(TITLE, LEDE)


def lede() -> None:
    heading.lede(LEDE)


def explain(view: str) -> None:
    text, formulas = {"family": (FAMILY, FAMILY_FORMULAS), "cloud": (CLOUD, CLOUD_FORMULAS),
                      "descent": (DESCENT, DESCENT_FORMULAS)}[view]
    layout.note(f"attention_family_{view}", text, formulas, heading="How it works")
    if view == "descent":
        st.page_link("app_pages/energy_transformer.py", label="The Energy Transformer: one "
                     "energy for the whole block", icon=":material/arrow_forward:")
    else:
        st.page_link("app_pages/attention.py", label="The attention limit: one Hopfield step "
                     "is softmax attention", icon=":material/arrow_forward:")
