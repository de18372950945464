"""WordPiece tokens for the MiniLM (BERT uncased) with the `tokenizers` library, from vocab.txt.

# N tokens, [CLS] first and [SEP] last, at most MAX_TOKENS

Lower-cased, accents stripped, BERT's basic splitting on spaces and punctuation, then WordPiece
(`tokenizers.BertWordPieceTokenizer`). A text longer than MAX_TOKENS tokens is cut to its first
MAX_TOKENS - 2 word pieces, and Encoded.truncated says so; a text longer than MAX_CHARS
characters is cut before tokenizing (every kept piece still counts its tokens).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

MAX_TOKENS = 128
MAX_CHARS = 4000  # 128 word pieces need far fewer characters; longer texts are cut first


@dataclass(frozen=True)
class Encoded:
    ids: list[int]       # (N,) vocabulary ids
    tokens: list[str]    # (N,) the word pieces as text ([CLS], ..., [SEP])
    offsets: list[tuple[int, int]]  # (N,) character spans in the (cut) text; (0, 0) for specials
    truncated: bool      # the text held more than MAX_TOKENS tokens (or MAX_CHARS characters)
    n_text_tokens: int   # tokens of the whole text (of its first MAX_CHARS characters)

    @property
    def message(self) -> str:
        """A sentence for the page when the text was cut, else ''."""
        if not self.truncated:
            return ""
        return (f"The text is longer than {MAX_TOKENS} tokens ({self.n_text_tokens} or more), "
                f"so only its first {len(self.ids) - 2} word pieces are used. Shorten the text "
                "to see all of it.")


class WordPiece:
    """BERT's uncased WordPiece tokenizer over a vocab.txt."""

    def __init__(self, vocab: Path):
        from tokenizers import BertWordPieceTokenizer

        self._tok = BertWordPieceTokenizer(str(vocab), lowercase=True)
        self.cls_id = self._tok.token_to_id("[CLS]")
        self.sep_id = self._tok.token_to_id("[SEP]")
        self.vocab_size = self._tok.get_vocab_size()

    def pieces(self, text: str) -> list[int]:
        """The word pieces' ids of a whole text, no [CLS] or [SEP], nothing cut."""
        return list(self._tok.encode(text, add_special_tokens=False).ids)

    def encode(self, text: str, max_tokens: int = MAX_TOKENS) -> Encoded:
        if not isinstance(text, str):
            raise TypeError("the text must be a string")
        if max_tokens < 2:
            raise ValueError("max_tokens must leave room for [CLS] and [SEP]")
        cut_chars = len(text) > MAX_CHARS
        enc = self._tok.encode(text[:MAX_CHARS])
        ids, tokens, offsets = list(enc.ids), list(enc.tokens), [tuple(o) for o in enc.offsets]
        n = len(ids)
        if n > max_tokens:
            keep = max_tokens - 1
            ids = ids[:keep] + [self.sep_id]
            tokens = tokens[:keep] + ["[SEP]"]
            offsets = offsets[:keep] + [(0, 0)]
        return Encoded(ids=ids, tokens=tokens, offsets=offsets,
                       truncated=cut_chars or n > max_tokens, n_text_tokens=n)
