"""The sections of "Inside a trained Transformer": the input, the head map, the whole model.

# L layers, H heads, N tokens
"""
from __future__ import annotations

import unicodedata

import numpy as np
import streamlit as st

from hopfield_core.heads import analysis, kinds
from ui.charts import chart_numbers, charts, pictures, tables
from ui.settings import gate
from ui.settings.modes import presenter

from . import cache, explain, figures
from .cache import Input
from .settings import MAX_TEXT, PAGE, linkable
from .settings import SETTINGS as S


def clean_text(text: str) -> tuple[str, list[str]]:
    """The text the MiniLM reads, and a sentence for each thing changed on the way: cut to
    MAX_TEXT characters, control and format characters (right-to-left marks included) dropped,
    line breaks and tabs read as spaces."""
    notes = []
    if len(text) > MAX_TEXT:
        notes.append(cut_note(len(text)))
        text = text[:MAX_TEXT]
    text = text.replace("\n", " ").replace("\r", " ").replace("\t", " ")
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    if len(kept) < len(text):
        notes.append(f"{len(text) - len(kept)} control or format characters (invisible marks "
                     "such as right-to-left overrides) were dropped: they are not words.")
    return kept, notes


def unknown_note(tokens) -> str:
    """A sentence when some word pieces are [UNK] (emoji, symbols the vocabulary lacks)."""
    n = sum(t == "[UNK]" for t in tokens)
    if not n:
        return ""
    return (f"{n} of the {len(tokens)} tokens are [UNK]: the MiniLM's vocabulary has no piece for "
            "them (emoji and many symbols), so the model reads them all as one unknown token.")


def cut_note(length: int) -> str:
    return (f"Your text has {length:,} characters; only its first {MAX_TEXT} are kept and read. "
            "Shorten it to see all of it.")


CUT = f"{PAGE}_text_cut"  # the length of the last text typed or pasted, when it was cut


def _cut_long_text() -> None:
    """on_change of the box: a text over MAX_TEXT is cut there and the page says so (the box
    has no max_chars: Streamlit's drops a longer paste silently and keeps the old text)."""
    sk = S.state_key("text")
    text = st.session_state.get(sk) or ""
    st.session_state.pop(CUT, None)
    if len(text) > MAX_TEXT:
        st.session_state[CUT] = len(text)
        S.assign("text", text[:MAX_TEXT])


def text_box() -> str:
    """The sentence box, bound to the page's settings (the link carries the text)."""
    sk = S.state_key("text")
    S.assign("text", S.value("text"))  # seeded every run: the value survives a page switch
    text = st.text_area("Your sentence (the MiniLM reads it)", key=sk, height=80,
                        on_change=_cut_long_text, help=S.fields["text"].help)
    if st.session_state.get(CUT):
        st.warning(cut_note(st.session_state[CUT]))
    return text


def model_choice() -> tuple[str, str]:
    """(model to run, a sentence if the one chosen cannot run, else "")."""
    wanted = S.show("model", label_visibility="collapsed")
    if wanted == "minilm":
        _, why = cache.load_minilm()
        if why:
            return "vit", f"{why} This page runs on the digits ViT for now."
    return wanted, ""


def minilm_input() -> Input | None:
    text, notes = clean_text(text_box())
    if not text.strip():
        st.info("Type a sentence in the box to look inside the MiniLM: the box is empty.")
        return None
    inp = cache.text_input(text)
    notes += [n for n in (inp.note, unknown_note(inp.tokens)) if n]
    if inp.N <= 2:
        st.info("Nothing in this text is a word piece the MiniLM reads. Type a sentence with "
                "some words in it.")
        return None
    for note in notes:
        st.info(note)  # our own sentences: they hold no user text
    if not linkable(S.value("text")):
        st.caption("This sentence holds angle or square brackets, backticks, a web address or "
                   "invisible characters, so the page's link leaves it out.")
    return inp


def token_list(inp: Input) -> None:
    """The sentence's tokens as the MiniLM reads them, numbered by position (the query token's
    picker counts the same way): plain text, a token is never markdown or HTML."""
    st.caption(f"{inp.N} tokens, as the model reads them (position: word piece):")
    st.code("  ".join(f"{i}:{t}" for i, t in enumerate(inp.tokens)), language=None,
            wrap_lines=True)


def vit_input() -> Input | None:
    loaded, why = cache.load_vit()
    if loaded is None:
        st.error(why)
        return None
    _, images, labels = loaded
    index = S.show("digit")
    inp = cache.digit_input(index)
    # beside each other; one below the other in presenter mode's narrower column
    left, right = (st.container(), st.container()) if presenter() else st.columns([1, 3])
    ink = 1.0 - np.repeat(images[index][:, :, None] / 16.0, 3, axis=2)  # (8, 8, 3) dark ink
    left.image(pictures.image_png(ink, 160), width=120, output_format="PNG",
               alt=f"held-out digit {index}, an 8 x 8 picture of a {int(labels[index])}")
    left.caption(f"Held-out digit {index}: a {int(labels[index])}")
    right.caption("The ViT cuts the 8 x 8 image into 16 patches of 2 x 2 pixels and adds a CLS "
                  f"token: {inp.N} tokens, {inp.L} layers x {inp.H} heads.")
    return inp


def top_places():
    """Where the input and the head map go: one below the other, or side by side in presenter
    mode (a 1024 x 768 projector shows both on its first screen)."""
    if presenter():
        return st.columns([2, 3], gap="medium")
    return st.container(), st.container()


def head_codes(inp: Input, fixed: bool) -> tuple[np.ndarray, np.ndarray]:
    """(kind codes (L, H), median k90 (L, H)) of every head, one step or at the fixed point."""
    med = np.stack([a.fixed_head_k90 if fixed else a.one_step_head_k90 for a in inp.heads])
    return kinds.kind_codes(med, inp.N), med


def head_map_section(inp: Input) -> None:
    if not presenter():  # a projector's 768 px: the toggle and the map on the first screen
        st.subheader("The head map")
    if gate.closed(PAGE):  # a lesson's question waits: every head's kind would answer it
        return
    fixed = S.show("fixed")
    codes, med = head_codes(inp, fixed)
    when = "at the fixed point" if fixed else "after one step"
    fig = figures.head_map(codes, med, inp.N, f"Kinds {when}", height=110 + 28 * inp.L)
    charts.plot(st, fig, key=f"{PAGE}_map")
    counts = np.bincount(codes.ravel().astype(int), minlength=3)
    pull = ""
    if fixed:  # the fixed point's retrieval is often the longest key's pull, said beside it
        pull = " " + explain.pull_sentence(analysis.longest_pull(list(inp.heads)),
                                           "On this input") + " " + explain.PULL_WHY
    st.caption(f"Colours: {figures.kind_words()}; the number in a cell is the head's median "
               "k90. " + explain.rule() + " "
               + explain.counts_sentence(counts, f"On this input, {when}") + pull)
    L, H = codes.shape
    on_longest = np.stack([(a.fixed_longest if fixed else a.one_step_longest).sum(axis=1)
                           for a in inp.heads])  # (L, H) queries whose top key is the longest
    chart_numbers.show_columns(st, {
        "layer": np.repeat(np.arange(L), H), "head": np.tile(np.arange(H), L),
        "kind": [kinds.KINDS[c] for c in codes.ravel()], "median k90": med.ravel(),
        f"queries on its longest key (of {inp.N})": on_longest.ravel()},
        key=f"{PAGE}_map_numbers", title="Every head's kind and median k90")


# the kinds tables' headers where the full ones do not fit (the full one on hover)
SHORT = {**{f"{k}, one step": f"{k[:4]}. 1" for k in kinds.KINDS},
         **{f"{k}, fixed point": f"{k[:4]}. fp" for k in kinds.KINDS},
         "pairs changing kind (%)": "changed %"}


CLASS_SHORT = {**{f"class {c}, one step": f"{c} 1" for c in kinds.PAPER_CLASSES},
               **{f"class {c}, fixed point": f"{c} fp" for c in kinds.PAPER_CLASSES}}
TABLE_WORDS = ("Columns: the heads of each kind after one step (1) and at the fixed point (fp); "
               "changed %: the share of the layer's (token, head) pairs whose kind changes. "
               "Hover over a header for its full name.")


def kinds_table(table, key: str) -> None:
    """Heads per kind per layer, one step and at the fixed point, fitted to the column."""
    tables.show(st, figures.kinds_rows(table.one_step, table.fixed, table.changed_share), key=key,
                formats={"pairs changing kind (%)": "%.1f"}, short_labels=SHORT)


def classes_table(table, key: str) -> None:
    """Heads per class of the paper per layer, one step and at the fixed point."""
    tables.show(st, figures.classes_rows(table.paper_one_step, table.paper_fixed), key=key,
                short_labels=CLASS_SHORT)


def model_section(inp: Input) -> None:
    """Heads per kind per layer, one step against fixed point, on this input and on the
    shipped held-out set."""
    if gate.closed(PAGE):
        return
    table = analysis.kinds_table(list(inp.heads))
    changed = analysis.changed_share(list(inp.heads))
    st.markdown("**On your input**: heads per kind in each layer.")
    st.caption(TABLE_WORDS)
    kinds_table(table, f"{PAGE}_kinds_input")
    st.caption(explain.counts_sentence(table.total_one_step, "In all, one step") + " "
               + explain.counts_sentence(table.total_fixed, "At the fixed point") +
               f" {100 * changed:.1f} % of the {sum(a.changed.size for a in inp.heads):,} "
               "(token, head) pairs change kind. "
               + explain.pull_sentence(table.pull, "On this input"))
    held, share, n_inputs, n_tokens = cache.heldout_table(inp.model)
    what = (f"{n_inputs} windows of {n_tokens} tokens of held-out text" if inp.model == "minilm"
            else f"the {n_inputs} held-out digits")
    st.markdown(f"**On the shipped held-out set** ({what}, pooled).")
    kinds_table(held, f"{PAGE}_kinds_heldout")
    st.caption(explain.counts_sentence(held.total_one_step, "In all, one step") + " "
               + explain.counts_sentence(held.total_fixed, "At the fixed point")
               + f" {100 * share:.1f} % of (token, head) pairs change kind. "
               + explain.pull_sentence(held.pull, "Pooled"))
    st.markdown(explain.PULL_WHY)
    st.markdown("**The paper's four classes**, beside this page's three kinds: the same heads "
                "sorted by Ramsauer et al.'s cut-offs.")
    st.caption(kinds.PAPER_RULE + " Columns: one step (1), fixed point (fp).")
    st.markdown(f"**On your input**: {explain.classes_at(inp.N)}")
    classes_table(table, f"{PAGE}_classes_input")
    st.markdown(f"**On the shipped held-out set**: {explain.classes_at(n_tokens)}")
    classes_table(held, f"{PAGE}_classes_heldout")
