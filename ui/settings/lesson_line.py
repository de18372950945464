"""The "Settings for this lesson" line (part of the settings layer, ui.settings.layer).

A teacher's link can hide a control (`<key>_hide=1`): its value still applies, but a student
no longer sees it. This line names the hidden settings whose values differ from their
defaults ("Settings for this lesson: temperature T = 0.1, learning rule Storkey"), so that
what the page shows is explained. A page that lays its controls out with `Settings.row` gets
the line above that row, where the hidden controls would have been; any other hidden control
reached in a run is named at the top of the page (streamlit_app.py, `unsaid()`).

The values named here went through the fields' parsers (numbers, allowed choices, checked
texts); a free-form value (a custom field) is quoted inertly all the same.
"""
from __future__ import annotations

import streamlit as st

from ui.serving.text import quoted

PREFIX = "Settings for this lesson: "
_REACHED, _SAID = "_lesson_reached", "_lesson_said"


def lower_label(label: str) -> str:
    """"Temperature T" -> "temperature T"; "W" and "ET model" keep their capitals."""
    if len(label) > 1 and label[0].isupper() and not label[1].isupper():
        return label[0].lower() + label[1:]
    return label


def item(f, value) -> str:
    """One hidden field's value, as the line names it: "temperature T = 0.1" for numbers,
    "learning rule Storkey" for choices and switches."""
    label = lower_label(f.label)
    if f.kind == "custom":
        return f"{label} {quoted(f.shown(value)) if f.shown(value) else 'none'}"
    if f.kind in ("int", "float", "multi", "range", "pick") or (
            f.kind == "choice" and all(isinstance(o, (int, float)) for o in f.options)):
        return f"{label} = {f.label_of(value)}"
    return f"{label} {f.label_of(value)}"


def line(pairs) -> str | None:
    """The line for (field, value) pairs of hidden fields: only the values that differ from
    their defaults are named; None when none does."""
    items = [item(f, v) for f, v in pairs if f.shown(v) != f.shown(f.default)]
    return PREFIX + ", ".join(items) + "." if items else None


# ---------------------------------------------------------------- which hidden fields a run reached

def start_run() -> None:
    """Before the page runs (streamlit_app.py): no hidden control reached or named yet."""
    st.session_state[_REACHED] = {}
    st.session_state[_SAID] = set()


def reached(settings, key: str) -> None:
    """A hidden control's place was reached in this run (Settings.show)."""
    st.session_state.setdefault(_REACHED, {})[settings.state_key(key)] = (settings, key)


def said(settings, keys) -> None:
    """These fields are named on the page already (Settings.row)."""
    st.session_state.setdefault(_SAID, set()).update(settings.state_key(k) for k in keys)


def unsaid() -> str | None:
    """The line for the hidden controls this run reached that no row has named."""
    done = st.session_state.get(_SAID, set())
    pairs = [(s.fields[k], s.value(k)) for sk, (s, k) in st.session_state.get(_REACHED, {}).items()
             if sk not in done]
    return line(pairs)
