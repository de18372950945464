"""How the shipped ET's tokens move, in words and formulas, for the configuration it runs:
the paper's update, or this project's settling one (hidden tokens only, projected)."""
from __future__ import annotations

from hopfield_core.et.config import ETConfig


def settling(cfg: ETConfig) -> bool:
    return cfg.project and cfg.clamp_visible


def step_latex(cfg: ETConfig) -> str:
    if settling(cfg):
        return (r"x_B \leftarrow x_B - \alpha\, s_B,\ \ s_B = P_B\, \frac{\partial E}{\partial g_B}"
                r"\ \ (B \text{ hidden}),\ \ P_B = I - \tfrac{1}{D}\mathbf{1}\mathbf{1}^\top "
                r"- \hat u_B \hat u_B^\top")
    return r"x \leftarrow x - \alpha\, \frac{\partial (E_{\mathrm{ATT}} + E_{\mathrm{HN}})}{\partial g}"


def attention_latex(cfg: ETConfig) -> str:
    keys, queries = ((r"(g_B + p_B)", r"(g_C + p_C)") if cfg.energy_positions else ("g_B", "g_C"))
    return (r"E_{\mathrm{ATT}} = -\frac1\beta \sum_h \sum_C \log \sum_{B \neq C} "
            rf"e^{{\beta\, (W_K^h {keys})^\top (W_Q^h {queries})}}")


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
            "energy falls. The masked-patch error falls at every step, from 0.1563 at step 0 "
            "(the decoder's reading of the mask tokens) to 0.0485 after step 8, below the mean "
            "fill's 0.0698; with **Steps T** at 100 the energy keeps falling and the error "
            "creeps back up to 0.0497.\n")


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


def law_latex(cfg: ETConfig) -> str:
    if settling(cfg):
        return (r"\frac{dE}{dt} = \frac{\partial E}{\partial g}^{\!\top} \frac{\partial g}{\partial x}"
                r"\frac{dx}{dt} = -\frac{\partial E}{\partial g}^{\!\top} M\, s = -\sum_{B\ \mathrm{hidden}}"
                r"\frac{\gamma}{\sigma_B} \lVert s_B \rVert^2,\quad M = \frac{\partial^2 L}{\partial x^2}"
                r" \succeq 0")
    return (r"\frac{dE}{dt} = \frac{\partial E}{\partial g}^{\!\top} \frac{\partial g}{\partial x}"
            r"\frac{dx}{dt} = -\frac{\partial E}{\partial g}^{\!\top} M\, \frac{\partial E}{\partial g},"
            r"\quad M = \frac{\partial^2 L}{\partial x^2} \succeq 0")


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
