"""Text that came from a user (a link value, a file name) made safe to show.

Streamlit renders messages (st.warning, st.error, captions, help) as markdown: a link value
such as `[click](http://...)` would become a live link, `![b](http://...)` an image every
browser fetches. Nothing here imports streamlit; the functions return strings.

- `quoted(value)`: a user's value as an inline code span, shown exactly as typed (control
  characters dropped, long values cut), never interpreted: no link, image, HTML, LaTeX,
  emoji or colour directive can come alive inside it.
- `escaped(sentence)`: a whole sentence that may contain user text (e.g. an error message
  from the core that repeats a cell of a table) with every markdown character escaped.
- `safe_name(filename)`: the name a stored upload is shown under, as written but for the
  characters that could act in markdown, HTML or a Plotly title: it keeps letters, digits,
  spaces and . - ( ) , ' and underscores inside a word (`phone_4000x3000`), so a page may show
  it as it is, anywhere.

Streamlit's markdown is GitHub-flavoured: it turns `www.x.org`, `http://x` and `a@b.org` into
live links even when every character is escaped (the links are found in the text after
escapes are resolved). `escaped` and `safe_name` break them with an invisible word joiner
(U+2060) after `www` and before `://`, and after `@`: the reader sees the text as written, and
no link.
"""
from __future__ import annotations

import re
import unicodedata

MAX_QUOTED = 60
MAX_NAME = 24
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=\"'])")
_NAME_PUNCTUATION = " .-_(),'"  # inert in markdown, HTML and Plotly (underscores: see safe_name)
WORD_JOINER = "\u2060"  # invisible; no line break at it
_AUTOLINK = re.compile(r"(?i)(?<=www)(?=\.)|(?=://)|(?<=@)")  # where GFM would start a link


def _printable(text: str) -> str:
    """Drop control and format characters (newlines, NUL, right-to-left overrides...)."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")


def quoted(value, limit: int = MAX_QUOTED) -> str:
    """`value` as a markdown inline code span (CommonMark: a fence longer than any run of
    backticks inside, padded with spaces), cut to `limit` characters with a note."""
    text = _printable(str(value))
    if len(text) > limit:
        text = f"{text[:limit]}... ({len(text)} characters)"
    if not text.strip():
        return "(empty)"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {text} {fence}" if longest or text[0] == " " or text[-1] == " " else f"{fence}{text}{fence}"


def unlinked(text: str) -> str:
    """`text` with a word joiner where GitHub-flavoured markdown would find a web address or
    an e-mail address (after `www`, before `://`, after `@`): it reads the same, links nothing."""
    return _AUTOLINK.sub(WORD_JOINER, text)


def escaped(sentence: str) -> str:
    """A sentence shown as written: every character markdown could act on is escaped, and no
    web or e-mail address in it becomes a link."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", unlinked(_printable(str(sentence))))


def _inner_underscores(text: str) -> str:
    """Underscores kept only between two letters or digits (`phone_4000x3000`), where markdown
    never reads them as emphasis; any other run (`_draft_`) becomes a space."""
    def one(m: re.Match) -> str:
        before, after = text[m.start() - 1:m.start()], text[m.end():m.end() + 1]
        return m.group() if before.isalnum() and after.isalnum() else " "
    return re.sub(r"_+", one, text)


def safe_name(filename: str, fallback: str = "upload") -> str:
    """A display name from an uploaded file's name: its stem as written, cut to MAX_NAME
    characters, keeping letters, digits, spaces, `. - ( ) , '` and underscores inside a word;
    anything else (markdown, HTML or Plotly syntax) dropped, web addresses unlinked."""
    stem = str(filename).rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    stem = stem.rsplit(".", 1)[0] if "." in stem[1:] else stem
    kept = "".join(ch for ch in stem if ch.isalnum() or ch in _NAME_PUNCTUATION)
    kept = re.sub(r"\s+", " ", _inner_underscores(kept)).strip(" .-")[:MAX_NAME].strip(" .-_")
    return unlinked(kept) or fallback


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    end = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{end}"
