"""Links typed into page text ("[open this setup](...)"), built in one place and checked
against the settings layer: a key no field declares, or a value its field would not use as
written, fails when the link is built (at import or when the page draws it, so in the tests),
not when a student clicks it.

    page_link("side_by_side", presets="letters/A,letters/B", size=12, q_index=0)
    -> "side_by_side?presets=letters/A,letters/B&size=12&q_index=0"

The link is relative: it opens the page (ui.pages; "" is Home) at the app's address,
wherever the app is served. `<key>_hide=1` hides a field's control (ui.settings.layer: its value
still applies)."""
from __future__ import annotations

from urllib.parse import urlencode

from ui import pages
from ui.settings.fields import HIDE, Field
from ui.settings.layer import Settings
from ui.store import shared_settings

SAFE = "/,;"  # kept as written in a link: preset names and lists read as they are typed


def link_fields(page: str) -> dict[str, list[Field]]:
    """Every field a link to `page` can set: the page's own, the sidebar's and the others every
    page shares (ui.store.shared_settings: the store, the query image, presenter mode), by link key."""
    shared = [s for s in vars(shared_settings).values() if isinstance(s, Settings)]
    own = pages.settings_of(page)
    out: dict[str, list[Field]] = {}
    for settings in shared + ([own] if own is not None else []):
        for key, f in settings.fields.items():
            out.setdefault(key, []).append(f)
    return out


def page_link(page: str, **values) -> str:
    """A relative link that opens `page` with `values` (link key -> value, as a value or as the
    link's text). ValueError for an unknown page or key, or a value a field would not use as
    written (the message the link would give names it)."""
    fields = link_fields(page)
    pairs, read = [], {}
    for key, value in values.items():
        if key.endswith(HIDE) and any(f.kind != "kept" for f in fields.get(key[:-len(HIDE)], ())):
            if str(value).lower() not in ("1", "true"):
                raise ValueError(f"{key} hides a control: its value is 1, not {value!r}")
            pairs.append((key, "1"))
            continue
        if key not in fields:
            raise ValueError(f"a link to {page!r} cannot set {key!r}: no field of that page, the "
                             f"sidebar or the store is called so")
        text = value if isinstance(value, str) else fields[key][0].shown(value)
        if text is None:  # a value the link leaves out (presenter mode off)
            continue
        for f in fields[key]:  # a key two settings share: both read it
            read[key], problem = f.parse(text)
            if problem:
                raise ValueError(f.message(text, problem, read[key]))
        pairs.append((key, text))
    stored = len(read["presets"]) if "presets" in read else None
    for key in read:
        picks = any(f.kind == "pick" for f in fields[key])
        if picks and stored is not None and read[key] >= stored:  # the page would use another
            raise ValueError(f"{key} = {read[key]} names pattern {read[key] + 1}, but the link "
                             f"stores {stored}")
    query = urlencode(pairs, safe=SAFE)
    path = pages.page(page).url_path
    return f"{path}?{query}" if query else (path or "./")
