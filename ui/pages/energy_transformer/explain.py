"""The Energy Transformer page's prose: the title, the lede, the formulas and what to try, each
true of the model the page runs (its configuration cfg: the paper's update, or this project's
settling one, hidden tokens only, projected)."""
from __future__ import annotations

import streamlit as st

from hopfield_core.et.config import ETConfig
from hopfield_core.et.standing import biharmonic_words
from ui.settings.modes import presenter
from ui.shell import heading, layout

from .settings import BENCH_EVALS, EVALS, MAX_STEPS, PATCH, SIZE

TITLE = "The Energy Transformer"
LEDE = ("A Transformer block run as an energy descent fills in the hidden patches of a "
        f"{SIZE} x {SIZE} photo, step by step, while its energy falls.")


def intro() -> None:
    heading.title(TITLE, LEDE)


def lede() -> None:
    heading.lede(LEDE)


def explain(cfg, name: str) -> None:
    """The lede, the formulas and what to try, true of the model the page runs (cfg, the
    shipped model `name`)."""
    text, eq = layout.explain("energy_transformer")
    text.markdown(
        "The **Energy Transformer** (Hoover et al., 2023) is a Transformer block run as an "
        f"energy descent. The image is cut into ${PATCH}\\times{PATCH}$-pixel patches; each "
        "becomes a token $x_B$; " + where_hidden_start(cfg) + ". Then one block "
        "is applied $T$ times, and each application moves the tokens **downhill** on one "
        "global energy: an **attention** part, in which every token is both a query and a key "
        "(so, unlike the modern Hopfield update, a moving token moves as a key too), and a **Hopfield** "
        "part with $K$ learned memories. A standard Transformer's attention is a step down an "
        "energy only in special cases (keys and values equal to the stored patterns, as in "
        "Ramsauer et al.); with independent learned $W_Q, W_K, W_V$ no energy is guaranteed to "
        "fall, and each layer has its own weights. Here one block is reused and every part "
        "descends one global energy. " + watch(cfg) + how_tokens_move(cfg)
        + where_tokens_are(cfg) + "\n\n"
        f"The model was trained to be read after $T = {cfg.steps}$ steps. Run it longer with "
        "**Steps T** and compare the two curves: the energy never rises in the limit of small "
        "steps (and, beyond float32 rounding, does not on any preset photo with the page's "
        f"default masks, up to $T = {MAX_STEPS}$), but whether the picture stays good depends on how "
        "the model was trained. The answer should be where "
        "the descent settles; the sentence under the curves says whether it is, for this image."
    )
    text.markdown(held_out_words(cfg, EVALS.get(name, {}), BENCH_EVALS.get(name)))
    with eq:
        st.latex(r"g = \gamma\,\frac{x - \overline{x}}{\sqrt{\mathrm{var}(x) + \epsilon}} + \delta")
        st.latex(attention_latex(cfg))
        st.latex(r"E_{\mathrm{HN}} = -\tfrac12 \sum_B \sum_\mu \mathrm{relu}(\xi_\mu^\top g_B)^2")
        st.latex(step_latex(cfg))
    with st.expander("Try this", expanded=not presenter()):
        st.markdown(
            first_try(cfg)
            + "- Switch **Model** between the two: from the mask token alone (the paper's start) the "
            "descent draws the whole hole, its error falling with the energy from far above the mean "
            "fill's; started from classical inpainting (the harmonic fill) it adjusts a smooth guess a "
            "little (lowering the energy, not always the error). Which ends lower?\n"
            "- Set **Steps T** to 100 and compare the error curve with the energy curve: does the "
            "picture hold once the trained steps are over?\n"
            + share_try(cfg) +
            "- Choose **click patches**, press *Hide none*, then hide a single patch: one token "
            "is rebuilt from its neighbours."
        )
    st.caption("Compare: a modern Hopfield step moves one query towards fixed stored patterns, "
               r"$\xi \leftarrow X^\top \mathrm{softmax}(\beta X \xi)$; attention is that step with "
               "projections; the ET descends an energy in which all tokens attend to each other.")


def held_out_words(cfg: ETConfig, ev: dict, bench: dict | None = None) -> str:
    """What the model's descent does on the photos it never saw, from its card's evaluation (ev:
    checkpoint.shipped_eval, bench: its "eval_bench"; '' without ev): its error beside where it
    starts and beside the two baselines, and plainly whether the descent or the start does the work."""
    need = ("et_mse", "mean_fill_mse", "biharmonic_mse", "harmonic_mse")
    if not all(isinstance(ev.get(k), (int, float)) and ev[k] > 0 for k in need):
        return ""
    et, mean = ev["et_mse"], ev["mean_fill_mse"]
    against = (biharmonic_words(ev, bench, these="the card's") or
               f"at {et / ev['biharmonic_mse']:.2f} x the error of biharmonic inpainting")
    versus = (f"**On photos it never saw** (the card's held-out crops, half the patches hidden at "
              f"random) this model's error is {et / mean:.2f} x the mean fill's, and it is "
              f"{against}. Biharmonic inpainting is a classical method with no learning")
    if cfg.start == "harmonic":
        start = ev["harmonic_mse"]
        share = 1 - et / start
        return (f"{versus}. Most of the model's accuracy is its start's: the harmonic fill alone is at "
                f"{start / mean:.2f} x the mean fill's, and the descent lowers its error by only "
                f"{100 * share:.1f} % overall. On some single images it makes the error "
                "worse (the second example under *Try this*). It does the work on the mask-token "
                "model, where it draws the whole hole.")
    return (f"{versus}. This model's descent does all the work, drawing every hidden patch from the mask token"
            + (", and yet it ends behind the harmonic fill the other model starts from." if et > ev["harmonic_mse"]
               else "."))


def settling(cfg: ETConfig) -> bool:
    return cfg.project and cfg.clamp_visible


def step_latex(cfg: ETConfig) -> str:
    """The update, one statement a line (a phone's width holds each line)."""
    if settling(cfg):
        return (r"\begin{aligned} x_B &\leftarrow x_B - \alpha\, s_B \quad (B \text{ hidden}) \\ "
                r"s_B &= P_B\, \frac{\partial E}{\partial g_B} \\ "
                r"P_B &= I - \tfrac{1}{D}\mathbf{1}\mathbf{1}^\top - \hat u_B \hat u_B^\top \end{aligned}")
    return r"x \leftarrow x - \alpha\, \frac{\partial (E_{\mathrm{ATT}} + E_{\mathrm{HN}})}{\partial g}"


def attention_latex(cfg: ETConfig) -> str:
    """The attention energy; the exponent's score on a line of its own (a phone's width)."""
    keys, queries = ((r"(g_B + p_B)", r"(g_C + p_C)") if cfg.energy_positions else ("g_B", "g_C"))
    return (r"\begin{aligned} E_{\mathrm{ATT}} &= -\frac1\beta \sum_h \sum_C \log \sum_{B \neq C} "
            r"e^{\beta\, A^h_{BC}} \\ "
            rf"A^h_{{BC}} &= (W_K^h {keys})^\top (W_Q^h {queries}) \end{{aligned}}")


def where_hidden_start(cfg: ETConfig) -> str:
    """The lede's clause on the hidden patches' starting tokens, true of the model it runs."""
    if cfg.start == "harmonic":
        text = ("a hidden patch starts from a smooth guess, its *harmonic fill* (every hidden "
                "pixel the mean of its 2 to 4 neighbours, the visible pixels fixed), encoded like "
                "a visible patch plus a learned *mask token* (this project's start; in the paper "
                "a hidden patch starts as the mask token alone)")
        if cfg.readout == "change":
            text += ("; the picture after each step is that fill plus the decoder's reading of "
                     "how the tokens have changed since the start, so step 0 shows the fill itself")
        return text
    return "hidden patches start as a learned *mask token*"


def watch(cfg: ETConfig) -> str:
    """The lede's sentence on what the frames show."""
    if cfg.readout == "change":
        return ("Each step's picture is the fill plus the decoded change of the tokens, so you "
                "can watch what the descent does to the smooth guess. ")
    return "The decoder turns each step's tokens back into pixels, so you can watch the hole fill in. "


def first_try(cfg: ETConfig) -> str:
    """The first 'Try this' item(s): holes on *coffee* where the shipped model's descent does
    what the words say, and, for the harmonic start, one where it does not help (every number
    is the shipped weights', recomputed in tests/app/test_et_try_this.py)."""
    if cfg.readout == "change":
        return (
            "- Keep *coffee* (a photo the model never saw), choose **rectangle** and set "
            "**Rows** to 0 – 4 and **Columns** to 3 – 5. Step 0 is the smooth harmonic fill, "
            "with a masked-patch error of 0.0256: press **Play** and watch the descent change "
            "it while the energy falls (the fourth picture magnifies the change). After step 8 "
            "the error is 0.0240, 6 % below the fill's, and with **Steps T** at 100 it stays "
            "there.\n"
            "- Now set **Rows** and **Columns** both to 2 – 6: on this larger hole the descent "
            "leaves the fill about where the harmonic start put it (0.0477 at step 0, 0.0483 "
            "after step 8: a little worse, +1.4 % since step 0, in red). The descent lowers the "
            "energy, not always the error.\n")
    return ("- Keep *coffee* (a photo the model never saw), choose **rectangle** and set **Rows** "
            "and **Columns** to 2 – 6: press **Play** and watch the hole fill in while the "
            "energy falls. The masked-patch error falls at every step, from 0.1500 at step 0 "
            "(the decoder's reading of the mask tokens) to 0.0475 after step 8, below the mean "
            "fill's 0.0698; with **Steps T** at 100 the energy keeps falling and the error "
            "creeps back up to 0.0501.\n")


def share_try(cfg: ETConfig) -> str:
    """The 'Try this' item on the hidden share: the ET's error after the trained steps at the
    two ends of the slide, on *coffee* at seed 0 (recomputed in tests/app/test_et_try_this.py)."""
    low, high = ("0.018", "0.047") if cfg.start == "harmonic" else ("0.026", "0.053")
    return ("- With a **random** mask, slide the hidden share from 0.3 to 0.9: the ET's error "
            f"grows, with small dips, from {low} to {high}, while the mean-fill yardstick stays "
            "near 0.05 – 0.06: the ET's lead shrinks as it has less to go on.\n")


def start_picture(cfg: ETConfig) -> str:
    """What frame 0 shows."""
    if cfg.readout == "change":
        return "the starting picture, the harmonic fill of the hidden patches"
    return "the decoder's reading of the starting tokens"


def all_hidden(cfg: ETConfig) -> str:
    """The warning when every patch is hidden."""
    start = ("a flat grey start (the harmonic fill of nothing), the mask token and the positions"
             if cfg.start == "harmonic" else "the mask token and the positions")
    return f"Every patch is hidden: the model has nothing to go on, and what it draws comes from {start} alone."


def where_tokens_are(cfg: ETConfig) -> str:
    """The lede's sentence on positions in the energy ('' for the paper's energy)."""
    if not cfg.energy_positions:
        return ""
    return (" The keys and queries also see $p_B$, a learned code of where token $B$ sits that "
            "is not part of the moving state, so a hidden token cannot lose its place as it "
            "moves (this project's change too; in the paper the position is added to the "
            "tokens once, at the start).")


def how_tokens_move(cfg: ETConfig) -> str:
    """The lede's sentence on the update, true of the model the page runs."""
    if not settling(cfg):
        return "Every token moves along $-\\partial E/\\partial g$, as in the paper."
    return (
        "Only the **hidden** tokens move; the visible ones stay as encoded, the evidence the "
        "hidden ones are fitted to. Each hidden token $B$ steps along $\\partial E/\\partial g_B$ "
        "less the two parts layer norm ignores: a shift of all its features, $(1, \\dots, 1)$, "
        "and a change of its scale, $\\hat u_B$ = the unit vector along $x_B - \\overline{x}_B$. "
        "This is not the paper's update. The paper's keeps the scale part, which makes each "
        "token's spread $\\sigma$ grow about linearly with the steps; since $g$ moves at a rate "
        "$\\gamma/\\sigma$, that descent keeps slowing and is still creeping long after the "
        "trained steps (the first model shipped here got worse the longer it ran). Without it "
        "the energy obeys the same law below, and the state can come to rest: the sentence "
        "under the curves says whether it has."
    )


LAGRANGIAN = (r"L(x) = D\,\gamma \sqrt{\mathrm{var}(x) + \epsilon} + \delta^\top x,\quad "
              r"g = \frac{\partial L}{\partial x}")


def law_latex(cfg: ETConfig) -> str:
    """The chain rule for dE/dt, one equality a line (a phone's or a tablet's width)."""
    if settling(cfg):
        return (r"\begin{aligned} \frac{dE}{dt} &= \frac{\partial E}{\partial g}^{\!\top} "
                r"\frac{\partial g}{\partial x} \frac{dx}{dt} = -\frac{\partial E}{\partial g}^{\!\top} M\, s \\ "
                r"&= -\sum_{B\ \mathrm{hidden}} \frac{\gamma}{\sigma_B} \lVert s_B \rVert^2, \\ "
                r"M &= \frac{\partial^2 L}{\partial x^2} \succeq 0 \end{aligned}")
    return (r"\begin{aligned} \frac{dE}{dt} &= \frac{\partial E}{\partial g}^{\!\top} "
            r"\frac{\partial g}{\partial x} \frac{dx}{dt} \\ "
            r"&= -\frac{\partial E}{\partial g}^{\!\top} M\, \frac{\partial E}{\partial g}, \\ "
            r"M &= \frac{\partial^2 L}{\partial x^2} \succeq 0 \end{aligned}")


def law_words(cfg: ETConfig) -> str:
    move = ("The hidden tokens move along $-s$" if settling(cfg)
            else "The tokens move along $-\\partial E/\\partial g$")
    tail = (" Because $M$ is $\\gamma/\\sigma$ times the projection $P$ (up to $\\epsilon$), the "
            "rate is minus a sum of squares." if settling(cfg) else "")
    return (
        "Each token is normalised by $g = \\partial L/\\partial x$, the gradient of a "
        f"*Lagrangian* $L$ (per token, $D$ features). {move}, but $E$ depends on them through "
        "$g$, so by the chain rule the energy changes at the rate below: a quadratic form in "
        "$M$, the Hessian of $L$. Where $M$ has no negative eigenvalue, that rate cannot be "
        f"positive, whatever the weights are.{tail}"
    )
