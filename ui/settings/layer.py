"""One settings layer (DESIGN 5.1): what defines a demo, declared once, bound to widgets,
to the link and to messages.

A page declares its settings as typed fields (ui.settings.fields: `Int`, `Float`, `Steps`,
`Choice`, `Flag`, `Pick` (a stored pattern), `Multi`, `Range`, `Custom` for a value the page
draws its own widget for, and `Kept` for a value of the link the app keeps elsewhere, e.g. the
pattern store): a default, a range or the allowed values, a label, a help text. `Settings(page, fields)`
then does the rest:

- `bind()` (first thing on the page): on the page's first run in a session, reads the
  link's values for its fields. A value that cannot be used is named in a plain-text message
  (the user's text quoted inertly) with the value used instead.
- `show(key, where)`: the widget of a field (its type is part of the declaration), seeded
  from the value in use. A link can hide a control with `<key>_hide=1`: the value still
  applies, the widget is not drawn, and a hidden value that differs from its default is named
  in a "Settings for this lesson" line (ui.settings.lesson_line).
- `row(keys)`: columns for a row of controls, none for a hidden one, the lesson's line above.
- `value(key)` / `assign(key, value)`: the value in use, and a change from a callback.
- `link()`: the values in use as the link writes them. After the page ran, streamlit_app.py rewrites the
  address bar to them (`publish`: the shared settings of ui.store.shared_settings, then the page's),
  so a bad value is not shared again. A page off the layer (Home) gets the shared ones only:
  what the link named that no page uses is dropped.

Values live in `st.session_state["_settings"]`, apart from the widgets' own state, so that a
control that is not drawn in a run (a hidden one, a closed section) keeps its value. Pages
never read st.query_params: this module is its only reader and writer.
"""
from __future__ import annotations

import hashlib
from typing import Callable

import streamlit as st

from ui.serving.text import quoted

from . import lesson_line, link_check
from .fields import HIDE, SHOW, Field
from .modes import presenter

# ---------------------------------------------------------------- binding

_USED = "_settings_used"  # the fields whose controls this run drew or reached (Settings.show)
_KEPT = "_settings_kept_on_screen"  # state keys a link keeps on screen in presenter mode (`_show`)
_KEPT_RUN = "_settings_kept_this_run"  # [(settings, key, widget arguments)] reached this run
MOST_KEPT = 2  # controls presenter mode keeps on screen
_BOUND = "_settings_bound"  # every Settings bound in this session, by name (`identity`)


def _values() -> dict:
    return st.session_state.setdefault("_settings", {})


def note(message: str) -> None:
    """One sentence for the link's messages box (ui.shell.link_messages), once."""
    notes = st.session_state.setdefault("link_messages", [])
    if message not in notes:
        notes.append(message)


class Settings:
    """The settings of one page (or of the sidebar, shared by every page)."""

    def __init__(self, page: str, fields: list[Field], prefix: str | None = None):
        """page: the page's name (its file in app_pages/, ui.pages), "sidebar" for the
        shared settings. Each widget's key is prefix + the field's key, the prefix being
        "<page>_" (none for the sidebar's, which every page shares), so that two pages'
        fields of the same name never share a widget."""
        self.page = page
        self.prefix = (f"{page}_" if page != "sidebar" else "") if prefix is None else prefix
        self.fields = {f.key: f for f in fields}

    def state_key(self, key: str) -> str:
        return self.prefix + key

    # ------------------------------------------------------------ the link
    def bind(self) -> "Settings":
        """Once per session: the link's values for these fields (messages for bad ones).
        Every run: remember that this page is the one the address bar describes."""
        parsed = st.session_state.setdefault("_settings_read", set())
        if self.page not in parsed:
            parsed.add(self.page)
            self.read(st.query_params)
        if self.prefix:  # a page's (the shared ones, prefix "", describe no page)
            st.session_state["_settings_page"] = self
        st.session_state.setdefault(_BOUND, {})[self.page] = self
        return self

    def read(self, params) -> None:
        values = _values()
        for key, f in self.fields.items():
            sk = self.state_key(key)
            values.setdefault(sk, f.default)
            if f.hidden_in(params):
                st.session_state.setdefault("_hidden", set()).add(sk)
            if f.asks_shown(params) and f.widget not in ("none", "pick"):
                kept = st.session_state.setdefault(_KEPT, [])
                if len(kept) < MOST_KEPT:
                    kept.append(sk)
                else:
                    note(f"The link asks presenter mode to show more than {MOST_KEPT} controls; it shows "
                          f"the first {MOST_KEPT}, not {f.key} ({f.label}).")
            name = f.names_in(params)  # an old link may name it as it was once called
            if name is None:
                continue
            given = params.get_all(name) if hasattr(params, "get_all") else [params[name]]
            raw = given[-1]
            if len(given) > 1:
                note(f"The link sets {name} {len(given)} times; using the last, {quoted(raw)}.")
            value, problem = f.parse(raw)
            if f.kind == "kept":  # the parser's own sentences; the value kept where the app keeps it
                for sentence in problem or ():
                    note(sentence)
                f.use(value)
                continue
            if problem:
                note(f.message(raw, problem, value, name))
            values[sk] = value
            st.session_state.pop(sk, None)  # the widget starts from the link's value
            st.session_state.setdefault("_settings_from_link", set()).add(sk)
            if f.kind == "pick":  # its message, if the store lacks the pattern, quotes the link
                st.session_state.setdefault("_settings_link_text", {})[sk] = (name, raw)
        for sentence in link_check.unheeded(self, params):
            note(sentence)

    def link(self) -> dict[str, str]:
        """The values the view uses, as the link writes them: a field whose control this run drew
        (or reached, hidden), or whose value differs from its default, if it applies (a field
        that depends on another's value, e.g. beta set by hand, does not apply when that is off;
        a custom field, whose widget is the page's own, is used when the run read its value).
        A default the view does not use is left out: a link that leaves it out gets it."""
        used = st.session_state.get(_USED, set())
        out = {}
        for key, f in self.fields.items():
            if not link_check.applies(self, f):
                continue
            value = self.value(key)
            text = f.shown(value)
            default = text == f.shown(f.default)
            if text is None or default and (f.kind != "kept" and self.state_key(key) not in used
                                            or f.kind == "custom" and not text):
                continue  # a default the view does not use, or an empty one of the page's own
            out[key] = text
        hidden = st.session_state.get("_hidden", set())
        out.update({key + HIDE: "1" for key in self.fields if self.state_key(key) in hidden})
        kept = st.session_state.get(_KEPT, [])
        out.update({key + SHOW: "1" for key in self.fields if self.state_key(key) in kept})
        return out

    # ------------------------------------------------------------ values
    def value(self, key: str):
        if self.fields[key].kind == "kept":
            return self.fields[key].current()
        sk = self.state_key(key)
        if self.fields[key].kind == "custom":  # the page draws its own widget: reading it is using it
            st.session_state.setdefault(_USED, set()).add(sk)
        if sk in st.session_state:  # the widget's state is the newest
            value = st.session_state[sk]
            return tuple(value) if self.fields[key].kind == "multi" else value
        return _values().get(sk, self.fields[key].default)

    def __getitem__(self, key: str):
        return self.value(key)

    def assign(self, key: str, value) -> None:
        """Set a value from a callback (e.g. "Load this demo"), whether or not its widget shows."""
        if self.fields[key].kind == "kept":
            self.fields[key].use(value)
            return
        sk = self.state_key(key)
        _values()[sk] = value
        st.session_state[sk] = value

    def hidden(self, key: str) -> bool:
        return self.state_key(key) in st.session_state.get("_hidden", set())

    def row(self, keys: list[str], where=None, widths: list[float] | None = None) -> dict:
        """Columns for the controls of `keys` (relative `widths`), one for each control that
        shows: a control the link hides takes no room. The hidden ones whose values differ
        from their defaults are named above the row ("Settings for this lesson: ...").
        Returns {key: its column}; a hidden key's is None (`show` draws nothing for it)."""
        where = where or st
        text = lesson_line.line([(self.fields[k], self.value(k)) for k in keys if self.hidden(k)])
        if text and not presenter():  # presenter mode names every value in its own line
            where.caption(text)
        lesson_line.said(self, keys)
        shown = [i for i, k in enumerate(keys) if not self.hidden(k)]
        columns = where.columns([(widths or [1] * len(keys))[i] for i in shown]) if shown else []
        out = dict.fromkeys(keys)
        out.update(zip((keys[i] for i in shown), columns))
        return out

    # ------------------------------------------------------------ widgets
    def show(self, key: str, where=None, **kw):
        """Draw the field's widget (unless the link hides it); returns the value in use."""
        f, sk = self.fields[key], self.state_key(key)
        kept_now = kw.pop("_kept", False)  # draw_kept's call: draw it here
        values = _values()
        values.setdefault(sk, f.default)
        st.session_state.setdefault(_USED, set()).add(sk)  # the view uses it: its link carries it
        if f.widget == "pick":  # shown or hidden, a pattern the store holds
            held = _held_pattern(f, sk, st.session_state.get(sk, values[sk]), list(kw["options"]))
            values[sk] = held
            if sk in st.session_state:
                st.session_state[sk] = held
        if presenter() and sk in st.session_state.get(_KEPT, ()) and not kept_now:
            # drawn above the figure instead, once the page ran (draw_kept): its value as it stands
            st.session_state.setdefault(_KEPT_RUN, []).append((self, key, kw))
            return st.session_state[sk] if sk in st.session_state else values[sk]
        if self.hidden(key):
            st.session_state.pop(sk, None)
            lesson_line.reached(self, key)  # named in the lesson's line instead
            return values[sk]
        # Set the widget's state explicitly on every run, to its own newest value: a widget
        # drawn by a page script has an id of that page, so on another page the same key is a
        # new widget that would otherwise start from its default (the value would be lost).
        current = st.session_state[sk] if sk in st.session_state else values[sk]
        st.session_state[sk] = list(current) if f.kind == "multi" else current
        where = where or st
        value = WIDGETS[f.widget](where, f, dict(key=sk, help=f.help, **kw))
        if value is None:
            value = values[sk]
        values[sk] = value
        return value


# ---------------------------------------------------------------- the widgets, by Field.widget
# each draws field f in `where` (st or a column) with the widget's keyword arguments `kw`
# (its key, its help, and what the page passed to `show`) and returns the widget's value

def _held_pattern(f: Field, sk: str, value: int, options: list) -> int:
    """A stored pattern the store holds: one it does not hold (any more) gives way to one it
    does; if the link named it, one message says so (the link's reading leaves a whole number
    past the store's patterns to this check, which knows how many there are)."""
    from_link = st.session_state.setdefault("_settings_from_link", set())
    if value not in options and options:
        if sk in from_link:  # the link names a pattern the store does not hold
            fallback = min(f.default, len(options) - 1)
            name, raw = st.session_state.get("_settings_link_text", {}).get(sk, (f.key, str(value)))
            which = (f"pattern {int(value) + 1}, which the store does not hold" if value <= f.hi
                     else f"a pattern past the {int(f.hi) + 1} a store can hold")
            note(f"The link sets {name} = {quoted(raw)} ({f.label}): {which} ({len(options)} "
                  f"stored); using pattern {fallback + 1}.")
        else:  # the user removed patterns: the nearest that is left
            fallback = len(options) - 1
        value = fallback
    from_link.discard(sk)
    return value


def _pick(where, f: Field, kw: dict):
    """A stored pattern, out of the store's (show has made the value one of them)."""
    return where.selectbox(f.label, list(kw.pop("options")), **kw)


WIDGETS: dict[str, Callable] = {
    "slider": lambda where, f, kw: where.slider(f.label, f.lo, f.hi, step=f.step, **kw),
    "number": lambda where, f, kw: where.number_input(f.label, f.lo, f.hi, step=f.step, **kw),
    "select_slider": lambda where, f, kw: where.select_slider(
        f.label, options=f.options, format_func=f.label_of, **kw),
    "radio": lambda where, f, kw: where.radio(f.label, f.options, format_func=f.label_of, **kw),
    "select": lambda where, f, kw: where.selectbox(f.label, f.options, format_func=f.label_of, **kw),
    "segmented": lambda where, f, kw: where.segmented_control(
        f.label, f.options, format_func=f.label_of, required=True, **kw),
    "toggle": lambda where, f, kw: where.toggle(f.label, **kw),
    "multiselect": lambda where, f, kw: tuple(where.multiselect(
        f.label, f.options, format_func=lambda v: f"{v:g}", max_selections=f.most, **kw)),
    "pick": _pick,
}


def publish(*parts: Settings | None) -> dict[str, str]:
    """Rewrite the address bar to the values in use of these settings (None: none), in order;
    returns them."""
    wanted = {}
    for part in parts:
        wanted.update(part.link() if part is not None else {})
    if dict(st.query_params) != wanted:
        st.query_params.from_dict(wanted)
    return wanted


def opening_value(name: str) -> str | None:
    """A value of the link as the browser gave it (a short link's code, ui/shell/share.py)."""
    return st.query_params.get(name)


def open_view(script: str, params: dict[str, str]) -> None:
    """Open a page with these link values, as if its long link had been opened (a short link)."""
    st.switch_page(script, query_params=params)


def opened() -> None:
    """The session's first run: keep the names its link gave, for `check_names` once the page ran."""
    if "_link_checked" not in st.session_state:
        st.session_state.setdefault("_link_names", tuple(st.query_params.keys()))


def check_names(parts: list[Settings | None], where: str) -> None:
    """Once a session, after its first page ran: each name of the opening link that none of these
    settings reads gets a sentence (ui.settings.link_check.unknown)."""
    names = st.session_state.pop("_link_names", None)
    if names is None:
        return
    st.session_state["_link_checked"] = True
    for sentence in link_check.unknown(names, [p for p in parts if p is not None], where):
        note(sentence)


def _peek(s: Settings, key: str):
    """The value in use, read without counting as a use (Settings.value marks a custom field used)."""
    f, sk = s.fields[key], s.state_key(key)
    if f.kind == "kept":
        return f.current()
    value = st.session_state[sk] if sk in st.session_state else _values().get(sk, f.default)
    return tuple(value) if f.kind == "multi" else value


def identity(page: str, left_out: tuple[str, ...] = ()) -> str:
    """A digest of every value in use that defines page's demonstration (its own settings, the
    shared ones, the store): the same values, the same run. `left_out`: keys that do not (a
    section's choice, presenter mode, the speed)."""
    parts = []
    for name, s in sorted(st.session_state.get(_BOUND, {}).items()):
        if s.prefix and name != page:  # another page's settings
            continue
        for key, f in s.fields.items():
            if key not in left_out:
                parts.append(f"{name}.{key}={f.shown(_peek(s, key))}")
    return hashlib.sha1("&".join(parts).encode("utf-8")).hexdigest()


def used(settings: Settings, key: str) -> bool:
    """Whether this run drew or reached the field's control (or read a custom field)."""
    return settings.state_key(key) in st.session_state.get(_USED, set())


def kept_on_screen() -> list:
    """The controls a link keeps on screen in presenter mode that this run reached."""
    return list(st.session_state.get(_KEPT_RUN, []))


def draw_kept(kept: list) -> None:
    """Draw the controls presenter mode keeps on screen (kept_on_screen), where the caller is."""
    for settings, key, kw in kept:
        settings.show(key, _kept=True, **kw)


def page() -> Settings | None:
    """The settings of the page that ran last in this session (for the address bar)."""
    return st.session_state.get("_settings_page")


def clear_page() -> None:
    """Before the page runs: no page described yet, no hidden control reached yet."""
    st.session_state.pop("_settings_page", None)
    st.session_state[_USED] = set()
    st.session_state[_KEPT_RUN] = []
    lesson_line.start_run()
