"""What a link asked for that the page could not use as asked, beyond a bad value (which the
field's own parser names): a name no setting of the page has (`betta=5`), a control hidden that
has no control to hide (`presenter_hide=1`), and a setting that applies only when another one is
set a certain way (`beta=20` without `bhand=1`). Each is one plain sentence that says what to
write instead; the user's text is quoted inertly (ui.serving.text.quoted). No streamlit here."""
from __future__ import annotations

import difflib

from ui.serving.text import quoted

from .fields import HIDE, SHOW

# names of a link that no settings layer declares and that the app reads all the same:
# Streamlit's own (embedding), and a short link's code (ui/shell/share.py)
OTHER_NAMES = ("embed", "embed_options", "v")
MOST_UNKNOWN = 8  # unknown names said one by one; beyond these, a count


def unheeded(settings, params) -> list[str]:
    """Sentences for `settings`' fields that the link hides though they cannot be hidden, or sets
    though the field they depend on is set so that they do not apply."""
    out = []
    for f in settings.fields.values():
        if f.asks_hidden(params) and not f.can_hide:
            out.append(f"The link asks to hide {f.key} ({f.label}), which has no control to hide; "
                       f"leave {f.key}{HIDE} out.")
        if f.asks_shown(params) and f.widget in ("none", "pick"):
            out.append(f"The link asks presenter mode to show {f.key} ({f.label}), which has no control "
                       f"it can show; leave {f.key}{SHOW} out.")
        if f.needs and f.names_in(params) is not None and not applies(settings, f):
            other_key, values = f.needs
            other = settings.fields[other_key]
            if str(params[f.names_in(params)]).strip():  # an empty value says nothing
                wanted = " or ".join(f"{other_key}={other.shown(v)}" for v in values)
                name = f.names_in(params)
                out.append(f"The link sets {name} = {quoted(params[name])} ({f.label}), which applies "
                           f"only with {wanted} ({other.label}); add {wanted} to the link to use it.")
    return out


def applies(settings, f) -> bool:
    """Whether field `f` of `settings` applies: it depends on no other, or the other is set so."""
    return not f.needs or settings.value(f.needs[0]) in f.needs[1]


def known_names(parts) -> set[str]:
    """Every name the settings `parts` read from a link: each field's, its old names, and their
    `_hide` and `_show` forms."""
    names = set(OTHER_NAMES)
    for part in parts:
        for f in part.fields.values():
            for n in (f.key, *f.aliases):
                names.update((n, n + HIDE, n + SHOW))
    return names


def unknown(names, parts, where: str) -> list[str]:
    """Sentences for the link's `names` that none of the settings `parts` reads (`where`: the
    page's title), each with the nearest name it may have meant."""
    known = known_names(parts)
    strangers = sorted({n for n in names if n not in known})
    out = []
    for name in strangers[:MOST_UNKNOWN]:
        close = difflib.get_close_matches(name, sorted(known - set(OTHER_NAMES)), n=1, cutoff=0.75)
        meant = f" Did you mean {close[0]}?" if close else ""
        out.append(f"The link names {quoted(name)}, which is not a setting of {where}; it was left out.{meant}")
    if len(strangers) > MOST_UNKNOWN:
        out.append(f"The link names {len(strangers) - MOST_UNKNOWN} more settings that {where} does not have; "
                   "they were left out.")
    return out
