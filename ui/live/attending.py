"""This tab in a live class: the class's code, and the class's teacher key when the link carries
the right one (the teacher's tab), kept in session state and in the link (`class`, `ckey`), so a
reload, a lost connection or another process of the deploy finds the same class; the student's
random id is the lesson's (ui/lessons/flow.py: `student` in the link), their answers are in the
database (class_store).

A student joins from Home ("Join a class": the code typed, or the QR code's link, whose `join`
value is the code):
the class's lesson opens at the class's step under a new random id, and the student is counted in
the class. A teacher starts a class from a lesson being taken (`start`). Wrong codes are counted
per session with the lessons' (ui/lessons/codes_typed.py): past its limit a minute, the form asks
to wait.

Before each page (`before_page`) the class holds the step's question until the teacher reveals
it: a student's own answer does not open the outcome, the teacher's Reveal does, for everyone."""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from hopfield_core import questions
from ui.lessons import codes, codes_typed, database, flow
from ui.serving.text import quoted
from ui.settings import gate
from ui.settings.layer import Settings

from . import class_store

_STATE = "_class"
_ASKED = "_class_asked"
_SEEN = "_class_seen"          # (step, revealed steps) last drawn: the poll reruns the page on a change


@dataclass(frozen=True)
class Attending:
    code: str
    key: str | None = None  # the class's teacher key, when this tab is the teacher's

    @property
    def teacher(self) -> bool:
        return self.key is not None


def attending() -> Attending | None:
    return st.session_state.get(_STATE)


def leave() -> None:
    st.session_state.pop(_STATE, None)
    st.session_state.pop(_SEEN, None)


# ---------------------------------------------------------------- the link's class fields

def _read_code(text):
    code = codes.clean_code(text)
    return code, (None if code else f"The link's class code {quoted(text)} is not a class code "
                                    "(6 letters and digits).")


def _now(attr: str):
    def current():
        a = attending()
        return None if a is None else getattr(a, attr)
    return current


CLASS = Settings("class", [
    flow.link_field("class", "the live class", _read_code, _now("code"), _ASKED),
    flow.link_field("ckey", "the class's teacher key", lambda text: (text, None), _now("key"), _ASKED),
    flow.link_field("join", "a class to join", _read_code, lambda: None, _ASKED),  # the QR code's: used once
], prefix="")


_pages: list = []  # the page registry's part the lessons need (streamlit_app.py hands it over)


def pages() -> flow.Pages:
    return _pages[0]


def bind(pages: flow.Pages) -> None:
    """Every run, after the lesson's fields (flow.bind): the link's class, read once a session."""
    _pages[:] = [pages]
    CLASS.bind()
    asked = st.session_state.pop(_ASKED, None) or {}
    code = asked.get("join") or asked.get("class")
    a = attending()
    if code and (a is None or a.code != code):
        enter(code, pages, key=asked.get("ckey"))


# ---------------------------------------------------------------- joining, starting

def join_typed(text: str, pages: flow.Pages) -> str | None:
    """Home's form: join the class whose code was typed. None when joined, else a sentence."""
    wait = codes_typed.wait_s()  # one budget with the lessons' codes: a script walks neither
    if wait > 0:
        return f"Too many codes that open no class: wait {int(wait) + 1} seconds, then check the code on the board."
    code = codes.clean_code(text)
    if code is None:
        codes_typed.wrong()
        return (f"{quoted(text[:40])} is not a class code: it has 6 letters and digits, "
                "like K7M2QX (no 0, O, 1, I or L).")
    why = enter(code, pages)
    if why and why.startswith("There is no class"):
        codes_typed.wrong()
    return why


def enter(code: str, pages: flow.Pages, key: str | None = None) -> str | None:
    """This tab in class `code`: its lesson opened at the class's step (the link's lesson and
    student kept when they are the class's), the student counted in; the teacher's when `key`
    opens the class. None when in, else a sentence (also noted for the page's banner)."""
    try:
        state = class_store.state(code)
        if state is None:
            raise class_store.Ended(f"There is no class {code}: check the code on the board.")
        if not state.live():
            raise class_store.Ended(f"Class {code} has ended.")
        teacher = key if key and class_store.key_opens(code, key) else None
        if key and teacher is None:
            flow.note("This link's teacher key does not open this class; it opens as a student's.")
        t = flow.taking()
        if t is None or t.code != state.lesson:
            student = t.student if t is not None else None
            if not flow.start(state.lesson, pages.check_step, step=state.step, student=student):
                return "The class's lesson could not be opened."
            t = flow.taking()
        if teacher is None:
            class_store.join(code, t.student)
    except (class_store.Ended, class_store.Full, ValueError, database.Unavailable) as e:
        flow.note(str(e))
        return str(e)
    st.session_state[_STATE] = Attending(code, teacher)
    flow.now_and_then("classes", class_store.prune)  # classes and answers past the retention
    if t.step != state.step:
        flow.go(state.step)
    return None


def start() -> str | None:
    """The lesson this tab takes, as a new live class with this tab as its teacher."""
    t = flow.taking()
    if t is None or not t.code:
        return "Open a saved lesson first: a preview cannot be taken by a class."
    try:
        code, key = class_store.start(t.code)
    except (LookupError, database.Unavailable) as e:
        return str(e)
    st.session_state[_STATE] = Attending(code, key)
    try:
        class_store.go(code, key, t.step)
    except database.Unavailable as e:
        return str(e)
    return None


# ---------------------------------------------------------------- before the page

def sync() -> None:
    """Before flow.before_page: a student's tab on the class's step while the teacher leads; a
    class that ended left (the lesson stays open as the student's own)."""
    a, t = attending(), flow.taking()
    if a is None or t is None:
        return
    try:
        state = class_store.state(a.code)
    except database.Unavailable:
        return  # the poll says "Reconnecting"
    if state is None or not state.live():
        leave()
        flow.note(f"Class {a.code} has ended. The lesson stays open here as a lesson of your own.")
        return
    if not a.teacher and state.pace == "follow" and t.step != state.step:
        flow.go(state.step)


def before_page(page: str) -> None:
    """After flow.before_page: in a class, the step's question stays held until the teacher
    reveals it (a student's answer alone does not open the outcome); then it opens with the
    student's answer compared, and on the teacher's page with nothing compared."""
    a, t = attending(), flow.taking()
    if a is None or t is None:
        return
    step = t.current()
    if step is None or not step.question or step.page != page:
        return
    try:
        state = class_store.state(a.code)
        mine = None if a.teacher else class_store.answers_of(a.code, t.student).get(t.step)
    except database.Unavailable:
        gate.hold(page, step.question, None, by_teacher=True)  # the database is away: nothing opens
        return
    revealed = state is not None and t.step in state.revealed
    if revealed and a.teacher:  # the projector shows the outcome, compared with no one's prediction
        gate.release()
        return
    locked = (mine.option if mine else questions.NOT_SURE) if revealed else None
    gate.hold(page, step.question, locked, by_teacher=True)
