"""Text that came from a user (a link value, a file name) made safe to show.

Streamlit renders messages (st.warning, st.error, captions, help) as markdown: a link value
such as `[click](http://...)` would become a live link, `![b](http://...)` an image every
browser fetches. Nothing here imports streamlit; the functions return strings.

- `quoted(value)`: a user's value as an inline code span, shown exactly as typed (control
  characters dropped, long values cut), never interpreted: no link, image, HTML, LaTeX,
  emoji or colour directive can come alive inside it.
- `escaped(sentence)`: a whole sentence that may contain user text (e.g. an error message
  from the core that repeats a cell of a table) with every markdown character escaped.
- `safe_name(filename)`: the name a stored upload is shown under: letters, digits, spaces,
  dots and hyphens only, so it is inert in markdown, in HTML and in Plotly titles alike.
"""
from __future__ import annotations

import re
import unicodedata

MAX_QUOTED = 60
MAX_NAME = 24
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=\"'])")


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


def escaped(sentence: str) -> str:
    """A sentence shown as written: every character markdown could act on is escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", _printable(str(sentence)))


def safe_name(filename: str, fallback: str = "upload") -> str:
    """A display name from an uploaded file's name: its stem, with underscores as spaces and
    every character other than a letter, digit, space, dot or hyphen dropped."""
    stem = str(filename).rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    stem = stem.rsplit(".", 1)[0] if "." in stem[1:] else stem
    stem = stem.replace("_", " ")
    kept = "".join(ch for ch in stem if ch.isalnum() or ch in " .-")
    kept = re.sub(r"\s+", " ", kept).strip(" .-")[:MAX_NAME].strip(" .-")
    return kept or fallback
