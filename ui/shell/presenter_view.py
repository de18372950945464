"""What the class sees above the live figure in presenter mode: one large line with the values
that define the demonstration (the page's key parameters always, any other value of the view
that differs from its default, the load of the pattern store), the stored patterns with their
names in a strip, and the controls a teacher's link keeps on screen (`<key>_show=1`, at most
two, ui.settings.layer). It stands in for the "Settings for this lesson" line, which would say
less (only hidden values) in a smaller font. Drawn after the page ran (the values in use), into
a slot above the page."""
from __future__ import annotations

import base64
import html
import re

import streamlit as st

from ui.charts import pictures
from ui.serving.text import escaped
from ui.settings import layer, link_check
from ui.settings.lesson_line import lower_label
from ui.store import patterns, store

SKIPPED = ("view",)  # a page's section is its own heading, not a value of the demonstration
STRIP_MOST = 40      # the store's most
STRIP_NAME = 14      # characters of a pattern's name under its picture


def _short(label: str) -> str:
    """"Inverse temperature beta (log scale)" -> "inverse temperature beta"."""
    return lower_label(re.sub(r"\s*\([^)]*\)\s*$", "", label).strip())


def item(f, value, label: str | None = None) -> str:
    """One value as the line names it: "beta = 50" for a number, "update sync" for a choice.
    label: the name to give it (default: its label without a closing parenthesis)."""
    label = _short(f.label) if label is None else label
    if f.kind in ("int", "float", "multi", "range", "pick") or (
            f.kind == "choice" and all(isinstance(o, (int, float)) for o in f.options)):
        return f"{label} = {f.label_of(value)}"
    if f.kind == "custom":
        return f"{label}: {f.label_of(value)}"
    return f"{label} {f.label_of(value)}"


def values(parts, keys: tuple[str, ...]) -> list[str]:
    """The items of the line: for each of the settings `parts` (the page's first), the fields this
    run used that are the page's key parameters (`keys`) or differ from their defaults."""
    chosen = []
    for i, part in enumerate(parts):
        if part is None:
            continue
        for key, f in part.fields.items():
            if key in SKIPPED or f.kind == "kept" or not layer.used(part, key) or not link_check.applies(part, f):
                continue
            value = part.value(key)
            if (i == 0 and key in keys) or f.shown(value) != f.shown(f.default):
                chosen.append((f, value))
    shorts = [_short(f.label) for f, _ in chosen]  # two "β" (exponential, modern) keep their qualifier
    return [item(f, v, None if shorts.count(short) == 1 else lower_label(f.label))
            for (f, v), short in zip(chosen, shorts)]


def load_words() -> str | None:
    """"3 patterns, d = 256 neurons", for a page that drew the store this run."""
    if not st.session_state.get(STORE_DRAWN):
        return None
    ps = patterns.from_store(binary=True)
    if ps.N == 0:
        return "no pattern stored"
    return f"{ps.N} pattern{'s' if ps.N != 1 else ''}, d = {ps.d} neurons"


STORE_DRAWN = "_store_panel_drawn"  # set by ui.shell.sidebar when the page drew the store's panel


def start_run() -> None:
    """Before the page runs: no store panel drawn yet."""
    st.session_state.pop(STORE_DRAWN, None)


def strip_html() -> str | None:
    """The stored patterns, small, each with its name: one row that scrolls sideways, alt texts."""
    if not st.session_state.get(STORE_DRAWN):
        return None
    items = store.items()[:STRIP_MOST]
    if not items:
        return None
    ps = patterns.from_store(binary=True)
    figures = []
    for i, (it, x) in enumerate(zip(items, ps.X), start=1):
        png = base64.b64encode(pictures.picture_png(x, ps.shape, width=96)).decode("ascii")
        name = it.name if len(it.name) <= STRIP_NAME else it.name[: STRIP_NAME - 1] + "…"
        alt = html.escape(f"Stored pattern {i}: {it.name}", quote=True)
        figures.append(f'<figure><img src="data:image/png;base64,{png}" alt="{alt}">'
                       f"<figcaption>{i}. {html.escape(name)}</figcaption></figure>")
    return (f'<div class="hp-memories" role="group" aria-label="The stored patterns ({len(items)})">'
            + "".join(figures) + "</div>")


CSS = """<style>
.st-key-presenter_values p { font-size: 1.4rem !important; line-height: 1.3 !important; font-weight: 600;
  margin: 0 !important; }
.hp-memories { display: flex; gap: 0.6rem; overflow-x: auto; padding-bottom: 0.2rem; }
.hp-memories figure { margin: 0; flex: 0 0 auto; text-align: center; }
.hp-memories img { width: 48px; height: 48px; image-rendering: pixelated; border: 1px solid #444; display: block;
  margin: 0 auto; }
.hp-memories figcaption { font-size: 0.95rem; line-height: 1.15; white-space: nowrap; }
</style>"""


def draw(slot, parts, keys: tuple[str, ...]) -> None:
    """In presenter mode: the values line, the memory strip and the kept controls, in `slot`."""
    words = values(parts, keys)
    load = load_words()
    if load:
        words.append(load)
    strip = strip_html()
    with slot:
        st.html(CSS)
        if words:
            with st.container(key="presenter_values"):
                st.markdown(escaped(" · ".join(words)))
        kept = layer.kept_on_screen()
        if strip and kept:
            left, right = st.columns([3, 2], vertical_alignment="center")
        else:
            left = right = st.container()
        if strip:
            with left, st.container(key="presenter_memories"):
                st.html(strip)
        if kept:
            with right, st.container(key="presenter_controls"):
                layer.draw_kept(kept)
