"""Hostile link values built from a field's declaration (ui.settings.fields.Field): for each of
its parts (a range's two ends, a list's items, a number), a value below its range, above it,
reversed, empty, not a number, or written in digits that are not ASCII. The settings tests feed
them to every field of every page, so a new field is covered the day it is declared."""
from __future__ import annotations

CATEGORIES = ("below", "above", "reversed", "empty part", "not a number", "unicode digits", "fraction")
WORDS = {"not a number": "x", "unicode digits": "²", "empty part": ""}


def _number(f, category: str) -> str:
    """One number of field f (int, float, pick, a range's end, a list's item)."""
    lo = 0.0 if f.lo is None else float(f.lo)
    hi = (max(f.options) if f.options else 1.0) if f.hi is None else float(f.hi)
    if category == "below":
        return f"{lo - 1 - abs(lo):g}"
    if category == "above":
        return f"{hi + 1 + abs(hi):g}"
    if category == "fraction":
        return f"{(lo + hi) / 2 + 0.37:g}"
    if category in WORDS:
        return WORDS[category]
    return f"{hi:g}"


def hostile(f, category: str) -> str:
    """The link text of field f for this category (each part of it hostile the same way)."""
    if f.kind == "range":
        if category == "reversed":
            return f"{int(f.hi)},{int(f.lo)}"
        return f"{_number(f, category)},{_number(f, category) if category != 'empty part' else int(f.hi)}"
    if f.kind == "multi":
        if category == "reversed":
            return ",".join(f"{o:g}" for o in reversed(f.options[:3]))
        return ",".join([_number(f, category), f"{f.options[0]:g}", _number(f, category)])
    if f.kind in ("int", "float", "pick"):
        return _number(f, category) if category != "reversed" else f"-{_number(f, 'above')}"
    if f.kind == "custom" and category in ("below", "above", "fraction", "reversed"):
        sign = "-" if category in ("below", "reversed") else ""
        return ";".join(f"{sign}1e9,{sign}{_number(f, category)}" for _ in range(3))  # points, lists
    if f.kind == "custom" and category == "unicode digits":
        return "²,³;¹,⁴"
    if category in WORDS:
        return WORDS[category]
    return "x" * 3
