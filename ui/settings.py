"""One settings layer (DESIGN 5.1): what defines a demo, declared once, bound to widgets,
to the link and to messages.

A page declares its settings as typed fields (`Int`, `Float`, `Steps`, `Choice`, `Flag`,
`Pick` (a stored pattern), `Multi`, `Range`, and `Custom` for a value the page draws its own
widget for): a default, a range or the allowed values, a label, a help text. `Settings(page, fields)`
then does the rest:

- `bind()` (first thing on the page): on the page's first run in a session, reads the
  link's values for its fields. A value that cannot be used is named in a plain-text message
  (the user's text quoted inertly) with the value used instead.
- `show(key, where)`: the widget of a field (its type is part of the declaration), seeded
  from the value in use. A link can hide a control with `<key>_hide=1`: the value still
  applies, the widget is not drawn, and a hidden value that differs from its default is named
  in a "Settings for this lesson" line (ui.lesson).
- `row(keys)`: columns for a row of controls, none for a hidden one, the lesson's line above.
- `value(key)` / `assign(key, value)`: the value in use, and a change from a callback.
- `link()`: the values in use as the link writes them. After the page ran, streamlit_app.py rewrites the
  address bar to them (with the sidebar's shared settings and the store: ui.state.publish_url),
  so a bad value is not shared again. A page off the layer (Home) gets the shared ones only:
  what the link named that no page uses is dropped.

Values live in `st.session_state["_settings"]`, apart from the widgets' own state, so that a
control that is not drawn in a run (a hidden one, a closed section) keeps its value. Pages
never read st.query_params: this module and ui.state's store are the only readers.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import streamlit as st

from . import lesson
from .text import escaped, quoted

MAX_RAW = 40  # characters of a link value worth reading: no setting needs more
HIDE = "_hide"


@dataclass(frozen=True)
class Field:
    key: str                   # the name in the link
    label: str                 # the widget's label; messages name it too
    default: Any
    kind: str                  # "int", "float", "choice" or "flag"
    widget: str                # "slider", "number", "select_slider", "radio", "select",
                               # "segmented" or "toggle"
    lo: float | None = None    # int, float: the range
    hi: float | None = None
    options: tuple = ()        # choice: the allowed values; float: the slider's steps
    names: dict | None = None  # choice: how each value is shown (default: as written)
    step: float | None = None  # slider / number input step
    log: bool = False          # steps: snap to the nearest on a log scale
    help: str | None = None
    state: str | None = None   # the widget's key (default: "<page>_<key>")
    most: int = 0              # multi: how many values at most
    parser: Callable | None = None  # custom: text -> value (ValueError with a reason)
    writer: Callable | None = None  # custom: value -> text
    max_len: int = MAX_RAW

    # ---------------------------------------------------------------- text
    def shown(self, value) -> str:
        """A value as the page and the link write it."""
        if self.kind == "flag":
            return "1" if value else "0"
        if self.kind == "float":
            return f"{float(value):g}"
        if self.kind == "multi":
            return ",".join(f"{float(v):g}" for v in value)
        if self.kind == "range":
            return f"{int(value[0])},{int(value[1])}"
        if self.kind == "custom":
            return self.writer(value)
        return str(value)

    def label_of(self, value) -> str:
        """A value as a sentence names it: never empty (an empty list or text is "none")."""
        if self.kind == "multi":
            return ", ".join(f"{float(v):g}" for v in value) or "none"
        if self.kind == "pick":
            return f"pattern {int(value) + 1}"
        if self.kind == "range":
            return f"{int(value[0])} to {int(value[1])}"
        if self.kind == "flag":
            return "on" if value else "off"
        return str((self.names or {}).get(value, self.shown(value))).strip() or "none"

    # ---------------------------------------------------------------- reading a link
    def parse(self, raw: str) -> tuple[Any, str | None]:
        """(value to use, None) or (value used instead, why the link's value was not used)."""
        text = str(raw).strip()
        if len(text) > self.max_len:
            return self.default, "is far too long for this setting"
        if self.kind == "custom":
            try:
                return self.parser(text), None
            except ValueError as e:
                return self.default, f"could not be read ({escaped(e)})"
        if self.kind == "multi":
            return self._parse_many(text)
        if self.kind == "range":
            return self._parse_range(text)
        if self.kind == "choice":
            for option in self.options:
                if text == self.shown(option):
                    return option, None
            allowed = ", ".join(self.shown(o) for o in self.options)
            if all(isinstance(o, int) for o in self.options):  # numbers: the nearest one
                try:
                    number = float(text)
                except ValueError:
                    number = math.nan
                if math.isfinite(number):
                    return min(self.options, key=lambda o: abs(o - number)), f"is not one of {allowed}"
            return self.default, f"is not one of {allowed}"
        if self.kind == "flag":
            if text.lower() in ("1", "true", "yes", "on"):
                return True, None
            if text.lower() in ("0", "false", "no", "off"):
                return False, None
            return self.default, "should be 1 (on) or 0 (off)"
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            what = "a whole number" if self.kind in ("int", "pick") else "a number"
            return self.default, f"is not {what}"
        if self.kind in ("int", "pick"):
            if number != int(number):
                return self.default, "is not a whole number"
            number = int(number)
        if not self.lo <= number <= self.hi:
            clamped = min(max(number, self.lo), self.hi)
            value = self._snap(clamped)
            return value, f"is outside {self.shown(self.lo)} to {self.shown(self.hi)}"
        value = self._snap(number)
        if (self.options or self.widget == "slider") and not math.isclose(value, number, rel_tol=1e-9, abs_tol=1e-12):
            return value, "is not a step of the slider: the nearest step it is"
        return value, None

    def _parse_range(self, text: str):
        """range: "a,b", whole numbers with lo <= a <= b <= hi."""
        try:
            a, b = (int(p) for p in text.split(","))
        except ValueError:
            return self.default, "is not two whole numbers a,b"
        if not self.lo <= min(a, b) <= max(a, b) <= self.hi:
            a, b = (min(max(v, self.lo), self.hi) for v in (a, b))
            return (min(a, b), max(a, b)), f"is outside {self.shown(self.lo)} to {self.shown(self.hi)}"
        if a > b:
            return (b, a), "has its ends the wrong way round"
        return (a, b), None

    def _parse_many(self, text: str):
        """multi: comma-separated numbers, each snapped to the nearest option."""
        chosen, bad = [], []
        for part in (p.strip() for p in text.split(",")):
            try:
                number = float(part)
            except ValueError:
                number = math.nan
            if math.isfinite(number) and number > 0:
                chosen.append(self._snap(number))
            elif part:
                bad.append(part)
        chosen = tuple(sorted(set(chosen)))
        problems = []
        if bad:
            problems.append(f"holds {len(bad)} value(s) that are not positive numbers")
        if len(chosen) > self.most:
            chosen = chosen[:self.most]
            problems.append(f"has more than {self.most} values")
        if not chosen:
            chosen = self.default
        if problems:
            return chosen, " and ".join(problems)
        return chosen, None

    def _snap(self, number):
        if self.kind in ("int", "pick"):
            return int(number)
        if not self.options:
            if self.step and self.widget == "slider":  # a slider's value sits on its steps
                return float(min(max(round(round(number / self.step) * self.step, 10), self.lo), self.hi))
            return float(number)
        if self.log and number > 0:
            return min(self.options, key=lambda o: abs(math.log(o / number)))
        return min(self.options, key=lambda o: abs(o - number))

    def message(self, raw: str, problem: str, used) -> str:
        """A whole sentence, whatever the link's value and the value used (never "using .")."""
        if not str(raw).strip():
            return f"The link gives {self.key} no value ({self.label}); using {self.label_of(used)}."
        return (f"The link sets {self.key} = {quoted(raw)} ({self.label}), which {problem}; "
                f"using {self.label_of(used)}.")


# ---------------------------------------------------------------- field constructors

def Int(key, label, default, lo, hi, widget="slider", step=1, **kw) -> Field:
    return Field(key, label, int(default), "int", widget, lo=lo, hi=hi, step=step, **kw)


def Float(key, label, default, lo, hi, widget="slider", step=None, **kw) -> Field:
    return Field(key, label, float(default), "float", widget, lo=lo, hi=hi, step=step, **kw)


def Steps(key, label, default, steps, log=True, **kw) -> Field:
    """A number chosen on a select_slider of fixed steps (a link's value snaps to the nearest)."""
    steps = tuple(float(s) for s in steps)
    return Field(key, label, float(default), "float", "select_slider", lo=steps[0], hi=steps[-1],
                 options=steps, log=log, **kw)


def Choice(key, label, default, options, widget="radio", names=None, **kw) -> Field:
    return Field(key, label, default, "choice", widget, options=tuple(options), names=names, **kw)


def Flag(key, label, default=False, **kw) -> Field:
    return Field(key, label, bool(default), "flag", "toggle", **kw)


def Range(key, label, default, lo, hi, **kw) -> Field:
    """Two whole numbers lo <= a <= b <= hi (a range slider; the link: "a,b")."""
    return Field(key, label, tuple(int(v) for v in default), "range", "slider", lo=lo, hi=hi,
                 step=1, **kw)


def Pick(key, label, default, most, **kw) -> Field:
    """One of the stored patterns, by its index (0 = the first): a selectbox whose options are
    the store's patterns, given when it is drawn (`show(key, options=...)`)."""
    return Field(key, label, int(default), "pick", "pick", lo=0, hi=most - 1, **kw)


def Multi(key, label, default, options, most, log=True, **kw) -> Field:
    """Up to `most` values out of fixed steps (a multiselect; the link: comma-separated)."""
    return Field(key, label, tuple(float(v) for v in default), "multi", "multiselect",
                 options=tuple(float(o) for o in options), most=most, log=log, **kw)


def Custom(key, label, default, parser, writer, max_len=MAX_RAW, **kw) -> Field:
    """A value the page draws its own widget for (e.g. a table): the layer reads it from the
    link with `parser` and writes it with `writer`; the page sets it with `assign`."""
    return Field(key, label, default, "custom", "none", parser=parser, writer=writer,
                 max_len=max_len, **kw)


# ---------------------------------------------------------------- binding

def _values() -> dict:
    return st.session_state.setdefault("_settings", {})


def _note(message: str) -> None:
    notes = st.session_state.setdefault("link_messages", [])
    if message not in notes:
        notes.append(message)


class Settings:
    """The settings of one page (or of the sidebar, shared by every page)."""

    def __init__(self, page: str, fields: list[Field]):
        self.page = page
        self.fields = {f.key: f for f in fields}

    def state_key(self, key: str) -> str:
        return self.fields[key].state or f"{self.page}_{key}"

    def key_of(self, state_key: str) -> str:
        return next(k for k in self.fields if self.state_key(k) == state_key)

    # ------------------------------------------------------------ the link
    def bind(self) -> "Settings":
        """Once per session: the link's values for these fields (messages for bad ones).
        Every run: remember that this page is the one the address bar describes."""
        parsed = st.session_state.setdefault("_settings_read", set())
        if self.page not in parsed:
            parsed.add(self.page)
            self.read(st.query_params)
        if self.page != "sidebar":
            st.session_state["_settings_page"] = self
        return self

    def read(self, params) -> None:
        values = _values()
        for key, f in self.fields.items():
            sk = self.state_key(key)
            values.setdefault(sk, f.default)
            if params.get(key + HIDE, "").strip().lower() in ("1", "true"):
                st.session_state.setdefault("_hidden", set()).add(sk)
            if key not in params:
                continue
            given = params.get_all(key) if hasattr(params, "get_all") else [params[key]]
            raw = given[-1]
            if len(given) > 1:
                _note(f"The link sets {key} {len(given)} times; using the last, {quoted(raw)}.")
            value, problem = f.parse(raw)
            if problem:
                _note(f.message(raw, problem, value))
            values[sk] = value
            st.session_state.pop(sk, None)  # the widget starts from the link's value
            st.session_state.setdefault("_settings_from_link", set()).add(sk)

    def link(self) -> dict[str, str]:
        out = {key: f.shown(self.value(key)) for key, f in self.fields.items()}
        hidden = st.session_state.get("_hidden", set())
        out.update({key + HIDE: "1" for key in self.fields if self.state_key(key) in hidden})
        return out

    # ------------------------------------------------------------ values
    def value(self, key: str):
        sk = self.state_key(key)
        if sk in st.session_state:  # the widget's state is the newest
            value = st.session_state[sk]
            return tuple(value) if self.fields[key].kind == "multi" else value
        return _values().get(sk, self.fields[key].default)

    def __getitem__(self, key: str):
        return self.value(key)

    def assign(self, key: str, value) -> None:
        """Set a value from a callback (e.g. "Load this demo"), whether or not its widget shows."""
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
        text = lesson.line([(self.fields[k], self.value(k)) for k in keys if self.hidden(k)])
        if text:
            where.caption(text)
        lesson.said(self, keys)
        shown = [i for i, k in enumerate(keys) if not self.hidden(k)]
        columns = where.columns([(widths or [1] * len(keys))[i] for i in shown]) if shown else []
        out = dict.fromkeys(keys)
        out.update(zip((keys[i] for i in shown), columns))
        return out

    # ------------------------------------------------------------ widgets
    def show(self, key: str, where=None, **kw):
        """Draw the field's widget (unless the link hides it); returns the value in use."""
        f, sk = self.fields[key], self.state_key(key)
        values = _values()
        values.setdefault(sk, f.default)
        if self.hidden(key):
            st.session_state.pop(sk, None)
            lesson.reached(self, key)  # named in the lesson's line instead
            return values[sk]
        # Set the widget's state explicitly on every run, to its own newest value: a widget
        # drawn by a page script has an id of that page, so on another page the same key is a
        # new widget that would otherwise start from its default (the value would be lost).
        current = st.session_state[sk] if sk in st.session_state else values[sk]
        st.session_state[sk] = list(current) if f.kind == "multi" else current
        where = where or st
        common = dict(key=sk, help=f.help, **kw)
        if f.widget == "slider":
            value = where.slider(f.label, f.lo, f.hi, step=f.step, **common)
        elif f.widget == "number":
            value = where.number_input(f.label, f.lo, f.hi, step=f.step, **common)
        elif f.widget == "select_slider":
            value = where.select_slider(f.label, options=f.options, format_func=f.label_of, **common)
        elif f.widget == "radio":
            value = where.radio(f.label, f.options, format_func=f.label_of, **common)
        elif f.widget == "select":
            value = where.selectbox(f.label, f.options, format_func=f.label_of, **common)
        elif f.widget == "segmented":
            value = where.segmented_control(f.label, f.options, format_func=f.label_of,
                                            required=True, **common)
        elif f.widget == "toggle":
            value = where.toggle(f.label, **common)
        elif f.widget == "multiselect":
            value = tuple(where.multiselect(f.label, f.options, format_func=lambda v: f"{v:g}",
                                            max_selections=f.most, **common))
        elif f.widget == "pick":
            options = list(common.pop("options"))
            from_link = st.session_state.setdefault("_settings_from_link", set())
            if st.session_state[sk] not in options and options:
                if sk in from_link:  # the link names a pattern the store does not hold
                    fallback = min(f.default, len(options) - 1)
                    _note(f"The link sets {self.key_of(sk)} = {int(st.session_state[sk])} "
                          f"({f.label}): pattern {int(st.session_state[sk]) + 1}, which the store "
                          f"does not hold ({len(options)} stored); using pattern {fallback + 1}.")
                else:  # the user removed patterns: the nearest that is left
                    fallback = len(options) - 1
                st.session_state[sk] = fallback
            from_link.discard(sk)
            value = where.selectbox(f.label, options, **common)
        else:
            raise ValueError(f"unknown widget {f.widget!r}")
        if value is None:
            value = values[sk]
        values[sk] = value
        return value


def page() -> Settings | None:
    """The settings of the page that ran last in this session (for the address bar)."""
    return st.session_state.get("_settings_page")


def clear_page() -> None:
    """Before the page runs: no page described yet, no hidden control reached yet."""
    st.session_state.pop("_settings_page", None)
    lesson.start_run()
