"""The lesson a teacher is building in this tab (the draft): "Add this view to a lesson" on any
page takes the page's view (its settings, the sidebar's, the stored patterns and the query
image, as the link writes them); the Lessons page edits, reorders, checks and saves it. A draft
lives in session state until it is saved (lesson_store) or exported (lesson_file); a teacher's
link opens a saved lesson back into a draft for editing.

Limits: at most lesson_file.MAX_STEPS steps; at most CREATE_PER_HOUR new lessons an hour from
one session (a class's server is shared: a script cannot fill its database)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import streamlit as st

from ui.settings.layer import Settings
from ui.store.shared_settings import LINK, SIDEBAR

from . import lesson_file

_DRAFT = "_lesson_draft"
_MADE = "_lessons_made"
CREATE_PER_HOUR = 20
VIEW_LINK_FIELDS = ("presets", "q_image")  # of the link's own: the store and the query image


@dataclass
class Draft:
    title: str = ""
    steps: list = field(default_factory=list)  # dicts: page, view, title, instruction, question, note
    code: str | None = None  # a saved lesson's, when editing it (with its key)
    key: str | None = None


def draft() -> Draft:
    return st.session_state.setdefault(_DRAFT, Draft())


def replace_with(new: Draft) -> None:
    st.session_state[_DRAFT] = new


def view_of(page_settings: Settings | None) -> dict[str, str]:
    """The view in use: the page's settings, the sidebar's, the store and the query image."""
    view = dict(SIDEBAR.link())
    view.update({k: v for k, v in LINK.link().items() if k in VIEW_LINK_FIELDS})
    if page_settings is not None:
        view.update(page_settings.link())
    return view


def add(page: str, title: str, page_settings: Settings | None) -> str:
    """Append the page's current view to the draft; the sentence that says what happened."""
    d = draft()
    if len(d.steps) >= lesson_file.MAX_STEPS:
        return f"The draft has {lesson_file.MAX_STEPS} steps, as many as a lesson can have: remove one first."
    d.steps.append({"page": page, "view": view_of(page_settings), "title": title[:lesson_file.CAPS["title"]],
                    "instruction": "", "question": None, "note": ""})
    return f"Added as step {len(d.steps)} of your draft lesson: edit it on the Lessons page."


def move(i: int, by: int) -> None:
    steps = draft().steps
    j = i + by
    if 0 <= i < len(steps) and 0 <= j < len(steps):
        steps[i], steps[j] = steps[j], steps[i]


def remove(i: int) -> None:
    steps = draft().steps
    if 0 <= i < len(steps):
        steps.pop(i)


def as_file(d: Draft) -> dict:
    """The draft as a lesson file's data (for lesson_file.read: the schema and the pages' check)."""
    return {"format": lesson_file.FORMAT, "version": lesson_file.VERSION, "title": d.title,
            "steps": [{k: v for k, v in s.items() if not (k == "question" and v is None)} for s in d.steps]}


def from_lesson(lesson: lesson_file.Lesson, code: str | None = None, key: str | None = None) -> Draft:
    body = lesson_file.body(lesson)
    return Draft(body["title"], [dict(s) for s in body["steps"]], code, key)


def may_create(now: float | None = None) -> str | None:
    """None when this session may save one more new lesson, else why not (CREATE_PER_HOUR)."""
    now = time.time() if now is None else now
    made = [t for t in st.session_state.get(_MADE, []) if now - t < 3600]
    st.session_state[_MADE] = made
    if len(made) >= CREATE_PER_HOUR:
        wait = int(3600 - (now - made[0])) // 60 + 1
        return (f"This tab has saved {CREATE_PER_HOUR} new lessons in the last hour, the most it may; "
                f"try again in {wait} minutes (editing a saved lesson still works).")
    return None


def created(now: float | None = None) -> None:
    st.session_state.setdefault(_MADE, []).append(time.time() if now is None else now)
