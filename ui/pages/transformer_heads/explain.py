"""The words of "Inside a trained Transformer": what the paper found, what is measured here.
Every number is computed from what it names (the model's own shape, the held-out tables)."""
from __future__ import annotations

import streamlit as st

from hopfield_core.heads import kinds
from ui.settings.modes import presenter
from ui.shell import heading

TITLE = "Inside a trained Transformer"
LEDE = ("Every attention head of a Transformer weighs its tokens as a modern Hopfield network "
        "does: its **keys** are the stored patterns and each token's **query** is a state, and "
        "the softmax weights of one attention step are those of one Hopfield update. (The head "
        "then averages its own values, made by its W_V, not the keys; this page iterates the "
        "Hopfield update itself.) Here you look inside two trained models, on your own input, "
        "and ask which kind each head is, after the one step the Transformer takes and at the "
        "fixed point of its Hopfield update: **global** averaging over the whole input, a "
        "**metastable** average over a subset, or **retrieval** of (nearly) a single token. "
        "At the fixed point keys are compared with keys and long keys pull: there a retrieval "
        "is often the head's longest key, not the token the query asked for.")

PAPER_LAYERS, PAPER_HEADS = 12, 12  # BERT-base, the model the paper read (not measured here)


def intro() -> None:
    heading.title(TITLE, LEDE, markdown=True)


def lede_below() -> None:
    """Presenter mode: the lede under the head map, so that a 768 px high projector screen
    shows the map first."""
    if presenter():
        lede()


def lede() -> None:
    heading.lede(LEDE, markdown=True)


def rule() -> str:
    """The one definition of the kinds (hopfield_core.heads.kinds.KIND_RULE)."""
    return kinds.KIND_RULE


def classes_at(N: int) -> str:
    """What the paper's classes mean with N tokens: where class IV starts, and which class the
    heads this page calls retrieval fall in (computed by kinds.paper_class_codes)."""
    iv = kinds.PAPER_SHARES[-1] * N
    retrieval = range(1, kinds.RETRIEVAL_MAX_K90 + 1)  # the medians this page calls retrieval
    classes = " or ".join(sorted({kinds.PAPER_CLASSES[c]
                                  for c in kinds.paper_class_codes(list(retrieval), N)}))
    where = (f"class IV would need a median k90 of at most {iv:.3g}: below 1, so no head can "
             "be in it" if iv < 1 else f"class IV is a median k90 of at most {iv:.3g}")
    return f"with {N} tokens {where}; this page's retrieval heads are the paper's class {classes}."


PULL_WHY = ("Why the fixed point retrieves more often: after the first update the state is a "
            "blend of keys, ξ₁ = Kᵀp₀, so from then on the weights are softmax(β K Kᵀ p): keys "
            "are compared with keys, the query's own projection no longer enters, and long keys "
            "pull. A fixed point's \"retrieval\" is then often the head's longest key, not the "
            "token the query asked for; the one step the Transformer takes shows what the head "
            "itself does.")


def pull_sentence(pull, where: str) -> str:
    """How often the retrieval pairs land on their head's longest key (analysis.LongestPull)."""
    return (f"{where}, of the retrieval pairs (k90 <= 2), {100 * pull.one_step:.0f} % of "
            f"{pull.one_step_pairs:,} after one step and {100 * pull.fixed:.0f} % of "
            f"{pull.fixed_pairs:,} at the fixed point put their most weight on their head's "
            f"longest key (by chance {100 * pull.chance:.0f} %).")


def counts_sentence(counts, when: str) -> str:
    """'One step: 24 global, 46 metastable, 2 retrieval heads.' from counts (3,)."""
    parts = ", ".join(f"{int(c)} {k}" for k, c in zip(kinds.KINDS, counts))
    return f"{when}: {parts} heads."


def paper_and_here(minilm_shape, vit_shape, tables: dict) -> None:
    """What is the paper's and what is measured here, and where they differ. minilm_shape,
    vit_shape: (L, H, d) and (L, H, d, N) of the loaded models (None for one that did not load); tables:
    model -> (KindsTable, changed share, inputs, tokens) of its held-out set."""
    st.subheader("The paper's finding, and what is measured here")
    st.markdown(
        "**The paper** (Ramsauer et al. 2020, *Hopfield Networks is All You Need*) read the "
        f"attention heads of a pretrained **BERT-base** ({PAPER_LAYERS} layers x {PAPER_HEADS} "
        "heads) this way and "
        "found the three kinds: heads in the first layers mostly average globally, heads in "
        "the middle layers form metastable states over a subset of tokens, and some heads "
        "retrieve single tokens. It counted how many tokens carry 90 % of a query's attention "
        "and sorted heads by the median of that count over their queries into **four** "
        "classes, at N/2, N/8 and N/32 of the N tokens. This page's three kinds use cut-offs "
        "of its own (below): with fewer than 32 tokens the paper's class IV (near a single "
        "token) cannot occur, and this page's retrieval heads are then the paper's class III.")
    here = []
    if minilm_shape is not None:
        L, H, d = minilm_shape
        here.append(f"the **MiniLM** (all-MiniLM-L6-v2: {L} layers x {H} heads, {d} dimensions per "
                    "head), a small BERT distilled and then trained to make **sentence "
                    "embeddings**, not BERT-base itself")
    if vit_shape is not None:
        L, H, d, N = vit_shape
        here.append(f"a **digits ViT** trained in this repository on 8 x 8 digits ({L} layers x "
                    f"{H} heads, {d} dimensions per head, {N} tokens)")
    st.markdown("**Measured here**, on this machine: " + "; and ".join(here) + ". The kinds are "
                "this page's own thresholds: " + rule())
    for model, (table, changed, n_inputs, n_tokens) in tables.items():
        name = "MiniLM" if model == "minilm" else "digits ViT"
        what = (f"{n_inputs} windows of {n_tokens} tokens of held-out text" if model == "minilm"
                else f"its {n_inputs} held-out digits")
        st.markdown(
            f"- **{name}**, over {what}: "
            + counts_sentence(table.total_one_step, "one step").rstrip(".")
            + "; " + counts_sentence(table.total_fixed, "at the fixed point").lower()
            + f" {100 * changed:.0f} % of (token, head) pairs change kind when the head's update "
            f"is iterated, and {100 * sharper_share(table):.0f} % of those get sharper (k90 falls). "
            f"Long keys pull: of the retrieval pairs, "
            f"{100 * table.pull.one_step:.0f} % put their most weight on their head's longest key "
            f"after one step, {100 * table.pull.fixed:.0f} % at the fixed point (by chance "
            f"{100 * table.pull.chance:.0f} %).")
    fewer = (f"{minilm_shape[0]} layers, not {PAPER_LAYERS}, " if minilm_shape is not None else "")
    st.markdown(
        "**Where they differ.** The paper looked at one attention step of BERT-base; a "
        "Transformer never iterates a head, so here you can also run each head's update to its "
        "fixed point and see that one step is not the fixed point, and that a fixed point's "
        "retrieval says more about the keys' lengths than about the head. The models differ too: the "
        f"MiniLM has {fewer}and was trained for sentence embeddings; the ViT reads images, not "
        "words. The thresholds are this page's (a head's median k90 over its tokens), so the "
        "counts are not the paper's numbers.")


def sharper_share(table) -> float:
    """Of all pairs that changed kind, the share whose k90 fell (every layer has as many pairs,
    so the layers' shares weigh by how many of their pairs changed)."""
    changed = table.changed_share.sum()
    return float((table.changed_share * table.sharper_share).sum() / changed) if changed else 0.0
