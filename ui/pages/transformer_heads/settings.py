"""The settings of "Inside a trained Transformer": declared once, bound to widgets, the link and
messages by ui.settings.layer."""
from __future__ import annotations

import re
import unicodedata

from hopfield_core.heads.fixed_point import MAX_ITER
from hopfield_core.heads.wordpiece import MAX_TOKENS
from ui.settings.fields import Choice, Custom, Flag, Int, LinkValueError
from ui.settings.layer import Settings

PAGE = "transformer_heads"
MODELS = {"minilm": "MiniLM (text)", "vit": "Digits ViT (images)"}
DEFAULT_TEXT = "The cat sat on the mat because it was tired after chasing the mouse."
MAX_TEXT = 600          # characters of a sentence: the box takes no more, the link no more
MAX_LAYERS, MAX_HEADS = 6, 12   # the larger model's (MiniLM: 6 x 12; the ViT: 4 x 4)
HELDOUT_DIGITS = 360            # assets/vit_digits/heldout.safetensors
SECTIONS = {"head": "One head settles", "model": "The whole model"}


_MARKUP = re.compile(r"[<>\[\]`]|://|(?i:www\.)")  # what could act as markup or a link


def linkable(text: str) -> bool:
    """Whether the link may carry this sentence: no markup characters (< > [ ] `), no web
    address, nothing invisible. The box takes any text; such a text stays out of the link."""
    return not _MARKUP.search(text) and all(unicodedata.category(c)[0] != "C" for c in text)


def read_text(text: str) -> str:
    """A sentence from the link, as written, unless it holds markup (ValueError: refused)."""
    if not linkable(text):
        raise LinkValueError("a sentence in a link may not hold angle or square brackets, "
                             "backticks, a web address or invisible characters")
    return text


def read_step(text: str) -> int:
    """The player's step from the link: a whole number 0 .. MAX_ITER (the player draws it)."""
    if not re.fullmatch(r"[0-9]{1,4}", text) or int(text) > MAX_ITER:  # ASCII digits: "²" is a digit to str.isdigit
        raise LinkValueError(f"it should be a whole number from 0 to {MAX_ITER}")
    return int(text)


def write_text(text: str) -> str | None:
    """The sentence as the link writes it; None (left out of the link) when not linkable."""
    return text if linkable(text) else None


SETTINGS = Settings(PAGE, [
    Choice("model", "Model", "minilm", tuple(MODELS), widget="segmented", names=MODELS),
    Custom("text", "Your sentence", DEFAULT_TEXT, read_text, write_text, max_len=MAX_TEXT,
           help=f"Any text; at most {MAX_TEXT} characters, and only its first {MAX_TOKENS - 2} "
                f"word pieces are read ({MAX_TOKENS} tokens with [CLS] and [SEP])."),
    Int("digit", "Held-out digit (index)", 0, 0, HELDOUT_DIGITS - 1, widget="number",
        help=f"One of the {HELDOUT_DIGITS} digits the ViT never saw in training."),
    Flag("fixed", "Head map at the fixed point",
         help="Off: each head's kind after one attention step, as the Transformer computes it. "
              "On: after iterating the head's Hopfield update from every query to its fixed point."),
    Int("layer", "Layer", 0, 0, MAX_LAYERS - 1, widget="number"),
    Int("head", "Head", 0, 0, MAX_HEADS - 1, widget="number"),
    Int("token", "Query token (position)", 1, 0, MAX_TOKENS - 1, widget="number"),
    Choice("view", "Section", "head", tuple(SECTIONS), widget="segmented", names=SECTIONS),
    Custom("iteration", "the step of the settling head", 0, read_step, str),
])
