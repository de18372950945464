"""What a lesson's step may name, checked against the app as it is: the page (the registry), its
settings (the page's fields, the sidebar's and the link's, through their own parsers: the same
values a link may carry), and the question (a kind the page asks, PageInfo.questions). A lesson
file (ui/lessons/lesson_file.py) is read with `problems` as its check, so a file naming a page,
a setting or a question the app no longer has is refused with a sentence, and a step saved
from a page is checked the same way."""
from __future__ import annotations

from ui.serving.text import quoted
from ui.settings.fields import HIDE
from ui.settings.modes import FIELDS as MODE_FIELDS
from ui.store.shared_settings import LINK, SIDEBAR

from . import PAGES, page, settings_of

_MODES = {f.key for f in MODE_FIELDS}  # presenter and projector: each viewer's own choice


def fields_of(name: str) -> dict:
    """Every field a view of page `name` may set, by each name a link may give it."""
    own = settings_of(name)
    found = {}
    for settings in (own, SIDEBAR, LINK):
        for f in (settings.fields.values() if settings is not None else ()):
            if f.key not in _MODES:
                found.update({n: f for n in (f.key, *f.aliases)})
    return found


def problems(name: str, view: dict, question: str | None) -> list[str]:
    """Sentences on what the step names that the app cannot show or ask ([]: none). Users'
    texts are quoted inertly (ui.serving.text.quoted)."""
    try:
        info = page(name)
    except ValueError:
        return [f"the app has no page called {quoted(name)} (its pages: "
                f"{', '.join(p.file for p in PAGES)})."]
    fields, out = fields_of(name), []
    for key, raw in view.items():
        if key.endswith(HIDE) and key[: -len(HIDE)] in fields:
            if str(raw).strip().lower() not in ("1", "0", "true", "false"):
                out.append(f"{quoted(key)} should be 1 or 0, not {quoted(raw)}.")
            continue
        f = fields.get(key)
        if f is None:
            out.append(f"the page {info.title} has no setting called {quoted(key)}.")
            continue
        _, problem = f.parse(raw)
        if problem:
            why = " ".join(problem) if isinstance(problem, tuple) else f"{quoted(raw)} {problem}."
            out.append(f"{f.label} ({quoted(key)}): {why}")
    if question is not None and question not in info.questions:
        asks = ", ".join(info.questions) or "none"
        out.append(f"the page {info.title} asks no question of the kind {quoted(question)} (it asks: {asks}).")
    elif question is not None and info.asked_in:
        shown = view.get("view", settings_of(name).fields["view"].default)
        if shown not in info.asked_in:
            out.append(f"the page {info.title} asks its questions in its view {' or '.join(info.asked_in)}, "
                       f"not in {quoted(shown)}: set the step's view to {info.asked_in[0]}.")
    return out
