"""The kinds of setting a page declares (ui.settings.layer binds them): a Field is a typed value
with its default, its range or allowed values, its label and help, how the link writes it
(`shown`) and how a link's text is read (`parse`, with a plain message for a value that
cannot be used). `Int`, `Float`, `Steps`, `Choice`, `Flag`, `Range`, `Pick`, `Multi`, `Custom`
and `Kept` build them. No streamlit here: a link can be checked without an app
(ui.pages.links)."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable

from ui.serving.text import escaped, quoted

MAX_RAW = 40  # characters of a link value worth reading: no setting needs more
HIDE = "_hide"
SHOW = "_show"  # presenter mode keeps this control on screen, large (ui.shell.presenter_view)
UNREADABLE = "could not be read as this setting"  # a parser's failure without a reason of its own


class LinkValueError(ValueError):
    """Why a link's text cannot be this setting, in words for the page: what a custom field's
    parser raises. Any other error of a parser is named only as UNREADABLE, so that no Python
    message ("invalid literal for int() ...") reaches a page."""


@dataclass(frozen=True)
class Field:
    key: str                   # the name in the link
    label: str                 # the widget's label; messages name it too
    default: Any
    kind: str                  # what the value is: "int", "float", "choice", "flag", "range",
                               # "pick", "multi", "custom" or "kept" (the constructors below set it)
    widget: str                # how it is drawn, a key of WIDGETS ("none": custom, the page's own)
    lo: float | None = None    # int, float, range, pick: the range
    hi: float | None = None
    options: tuple = ()        # choice: the allowed values; steps, multi: the values to pick from
    names: dict | None = None  # choice: how each value is shown (default: as written)
    step: float | None = None  # slider / number input step
    log: bool = False          # steps: snap to the nearest on a log scale
    help: str | None = None
    most: int = 0              # multi: how many values at most
    parser: Callable | None = None  # custom: text -> value (ValueError with a reason)
    writer: Callable | None = None  # custom: value -> text (kept: None leaves it out of the link)
    max_len: int = MAX_RAW
    current: Callable | None = None  # kept: () -> the value in use, where the app keeps it
    use: Callable | None = None      # kept: value -> None, puts a value in use there
    aliases: tuple[str, ...] = ()    # the names older links gave it: read, never written
    hides: bool | None = None        # whether `<key>_hide=1` can hide its control (None: every field
                                     # but a kept one; the pattern store's editing can be hidden)
    needs: tuple = ()                # (another field's key, the values of it under which this one
                                     # applies): e.g. ("bhand", (True,)) for a beta set by hand

    @property
    def can_hide(self) -> bool:
        return self.kind != "kept" if self.hides is None else self.hides

    def names_in(self, params) -> str | None:
        """The name under which a link gives this field (its own first, then an old one)."""
        return next((n for n in (self.key, *self.aliases) if n in params), None)

    def hidden_in(self, params) -> bool:
        """Whether a link hides this field's control (`<name>_hide=1`, under any of its names)."""
        return self.can_hide and self.asks_hidden(params)

    def asks_shown(self, params) -> bool:
        """Whether the link keeps its control on screen in presenter mode (`<name>_show=1`)."""
        return any(str(params.get(n + SHOW, "")).strip().lower() in ("1", "true")
                   for n in (self.key, *self.aliases))

    def asks_hidden(self, params) -> bool:
        """Whether the link asks to hide it, whether or not it can be hidden."""
        return any(str(params.get(n + HIDE, "")).strip().lower() in ("1", "true")
                   for n in (self.key, *self.aliases))

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
        if self.kind in ("custom", "kept"):
            return self.writer(value)
        return str(value)

    def bounds(self) -> str:
        """The range of a number, a pick or a range field, as a message writes it: "0 to 7"."""
        if self.kind in ("int", "pick", "range"):
            return f"{int(self.lo)} to {int(self.hi)}"
        return f"{float(self.lo):g} to {float(self.hi):g}"

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
        """(value to use, None) or (value used instead, why the link's value was not used; for
        a kept value, the parser's own whole sentences, a tuple)."""
        if self.kind == "kept":  # the parser reads the text as the link gives it
            value, notes = self.parser(str(raw))
            return value, tuple(notes) or None
        text = str(raw).strip()
        if len(text) > self.max_len:
            return self.default, "is far too long for this setting"
        if self.kind == "custom":
            try:
                return self.parser(text), None
            except LinkValueError as e:
                return self.default, f"could not be read ({escaped(e)})"
            except (ValueError, TypeError, ArithmeticError, LookupError):
                return self.default, UNREADABLE
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
        if self.kind == "pick" and number > self.hi:  # past any store's patterns: the widget says
            return int(self.hi) + 1, None             # so, knowing how many this store holds
        if not self.lo <= number <= self.hi:
            clamped = min(max(number, self.lo), self.hi)
            value = self._snap(clamped)
            return value, f"is outside {self.bounds()}"
        value = self._snap(number)
        if (self.options or self.widget == "slider") and not math.isclose(value, number, rel_tol=1e-9, abs_tol=1e-12):
            return value, "is not a step of the slider: the nearest step it is"
        return value, None

    def _parse_range(self, text: str):
        """range: "a,b", whole numbers with lo <= a <= b <= hi."""
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 2 or not all(re.fullmatch(r"[+-]?[0-9]{1,9}", p) for p in parts):
            return self.default, "is not two whole numbers a,b"
        a, b = (int(p) for p in parts)
        if not self.lo <= min(a, b) <= max(a, b) <= self.hi:
            a, b = (int(min(max(v, self.lo), self.hi)) for v in (a, b))
            return (min(a, b), max(a, b)), f"is outside {self.bounds()}"
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

    def message(self, raw: str, problem: str, used, name: str | None = None) -> str:
        """A whole sentence, whatever the link's value and the value used (never "using .");
        `name`: the name the link gave it (an old one, see aliases), else its key."""
        name = name or self.key
        if self.kind == "kept":  # the parser's own sentences
            return " ".join(problem)
        if not str(raw).strip():
            return f"The link gives {name} no value ({self.label}); using {self.label_of(used)}."
        return (f"The link sets {name} = {quoted(raw)} ({self.label}), which {problem}; "
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


def Kept(key, label, default, parser, writer, current, use, **kw) -> Field:
    """A value of the link that the app keeps elsewhere (the pattern store, the uploaded query
    image, presenter mode): `parser(text)` -> (value, whole sentences on what of the text cannot
    be used), without side effects; `use(value)` puts it in use; `current()` is the value in
    use, `writer(value)` its text in the link (None: left out)."""
    return Field(key, label, default, "kept", "none", parser=parser, writer=writer,
                 current=current, use=use, **kw)
