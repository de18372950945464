"""A lesson being taken in this tab: which lesson, which step, who (a random student id), and
whether the link is a teacher's (it carries the lesson's key). Kept in session state and in
the link (`lesson`, `step`, `student`, `key`: `LESSON`, bound by the settings layer), so that
a reload, a lost connection or another process of the deploy finds the same place and the same
answers (the answers themselves are in the database).

Entering a step applies its view: the page's settings and the sidebar's go back to their
defaults, then take the step's values, as a link would set them (ui.settings.layer); the pattern
store takes the step's patterns. `before_page` does it, switching to the step's page first if
needed, and holds the gate (ui.settings.gate) for the step's question until this student has
locked a prediction. The page registry is not this room's: streamlit_app.py hands over what is
needed (`Pages`)."""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable

import streamlit as st

from hopfield_core import questions
from ui.serving.text import quoted
from ui.settings import gate
from ui.settings.fields import Kept
from ui.settings.layer import Settings
from ui.store.shared_settings import LINK, SIDEBAR

from . import codes, database, lesson_file, lesson_store, short_links

_STATE = "_lesson"
PRUNE_EVERY_S = 3600.0  # predictions past their retention are deleted at most this often
_pruned: dict[str, float] = {}  # a clean-up's name -> when it last ran in this process
_prune_lock = threading.Lock()


@dataclass(frozen=True)
class Pages:
    """What the lessons need of the page registry (streamlit_app.py builds it)."""
    settings_of: Callable   # page name -> its Settings (None: Home)
    script_of: Callable     # page name -> its script, for st.switch_page
    title_of: Callable      # page name -> its title
    check_step: Callable    # (page, view, question) -> sentences on what the app no longer has


@dataclass
class Taking:
    code: str
    title: str
    steps: tuple            # lesson_file.Step
    student: str
    step: int = 0           # 0..n-1: a step; n: the summary
    key: str | None = None  # the teacher key, when the link carries the right one
    applied: int | None = None  # the step whose view was last applied
    answers: dict = field(default_factory=dict)  # step -> lesson_store.Prediction (this student's)

    @property
    def n(self) -> int:
        return len(self.steps)

    @property
    def teacher(self) -> bool:
        return self.key is not None

    def current(self):
        return self.steps[self.step] if self.step < self.n else None


def taking() -> Taking | None:
    return st.session_state.get(_STATE)


def note(text: str) -> None:
    """A sentence for the banner above the page (drawn once, then cleared)."""
    notes = st.session_state.setdefault("lesson_messages", [])
    if text not in notes:
        notes.append(text)


def messages() -> list[str]:
    return st.session_state.get("lesson_messages", [])


# ---------------------------------------------------------------- the link's lesson fields

_ASKED = "_lesson_asked"  # what the link asked for, read once: {"lesson", "step", "student", "key"}


def link_field(name: str, label: str, read: Callable, now: Callable, asked: str = _ASKED) -> Kept:
    """A value of the link read once a session: `read(text)` -> (value, a sentence on what cannot
    be used, or None); the value waits in session state under `asked` (a dict by name) for the
    run's bind to use it; `now()` is the value the link writes."""
    def parse(text: str):
        value, why = read(text)
        return value, ((why,) if why else ())

    def use(value):
        if value is not None:
            st.session_state.setdefault(asked, {})[name] = value
    return Kept(name, label, None, parse, lambda v: None if v is None else str(v), now, use)


def _read_code(text):
    code = codes.clean_code(text)
    return code, (None if code else f"The link's lesson code {quoted(text)} is not a lesson code "
                                    "(6 letters and digits).")


def _read_step(text):
    return (int(text), None) if text.isdigit() and 1 <= int(text) <= lesson_file.MAX_STEPS + 1 else \
        (1, f"The link's lesson step {quoted(text)} is not a step number; starting at step 1.")


def _read_student(text):
    return (text, None) if codes.is_student(text) else (None, None)  # a new id, silently


def _read_key(text):
    return text, None  # checked against the lesson's hash when it opens


def _now(attr: str):
    def current():
        t = taking()
        if t is None or not t.code:  # none, or a preview: nothing of it in the link
            return None
        if attr == "step":
            return t.step + 1
        return getattr(t, attr)
    return current


LESSON = Settings("lesson", [
    link_field("lesson", "the lesson", _read_code, lambda: (taking().code or None) if taking() else None),
    link_field("step", "the lesson's step", _read_step, _now("step")),
    link_field("student", "the student's id", _read_student, _now("student")),
    link_field("key", "the teacher's key", _read_key, _now("key")),
], prefix="")


def bind(pages: Pages) -> None:
    """Every run, after the shared settings: the link's lesson, read once per session, opened."""
    LESSON.bind()
    asked = st.session_state.pop(_ASKED, None)
    if asked and asked.get("lesson"):
        start(asked["lesson"], pages.check_step, step=int(asked.get("step") or 1) - 1,
              student=asked.get("student"), key=asked.get("key"))


# ---------------------------------------------------------------- opening and moving

def now_and_then(name: str, task: Callable[[float], object], now: float | None = None) -> None:
    """task(now), at most once in PRUNE_EVERY_S per process for each name (a clean-up of the
    database); tried again on the next call when the database could not be used."""
    now = time.time() if now is None else now
    with _prune_lock:
        if now - _pruned.get(name, 0.0) < PRUNE_EVERY_S:
            return
        _pruned[name] = now
    try:
        task(now)
    except database.Unavailable:
        _pruned[name] = 0.0


def prune_now_and_then(now: float | None = None) -> None:
    """Delete old predictions and short links, at most once in PRUNE_EVERY_S per process."""
    now_and_then("lessons", lambda t: (lesson_store.prune(t), short_links.prune(t)), now)


def load(code: str, check_step: Callable | None = None) -> lesson_file.Lesson | None:
    """The lesson of that code, read from the database (None: none; database.Unavailable),
    through the schema and `check_step` again (LessonFileError: the app changed since)."""
    stored = lesson_store.get(code)
    if stored is None:
        return None
    return lesson_file.read(json.dumps(stored.body), check_step)


def start(code: str, check_step: Callable, step: int = 0, student: str | None = None,
          key: str | None = None) -> bool:
    """Take the lesson `code` in this tab from `step` (0-based) as `student` (a new id when
    None); key: a teacher's key (kept only when it opens this lesson). False, with a message,
    when it cannot be opened."""
    try:
        lesson = load(code, check_step)
        if lesson is None:
            note(f"There is no lesson {code}: check the code, or ask your teacher for the link.")
            return False
        teacher = key if key and lesson_store.key_opens(code, key) else None
        if key and teacher is None:
            note("This link's teacher key does not open this lesson for editing; it opens as a student's.")
        student = student or codes.new_student()
        answers = lesson_store.predictions_of(code, student)
    except database.Unavailable as e:
        note(str(e))
        return False
    except lesson_file.LessonFileError as e:
        note(f"Lesson {code} can no longer be shown: {e}")
        return False
    prune_now_and_then()
    step = min(max(step, 0), len(lesson.steps))
    st.session_state[_STATE] = Taking(code, lesson.title, lesson.steps, student, step, teacher, None, answers)
    return True


def preview(lesson: lesson_file.Lesson) -> None:
    """Take an unsaved lesson as a student would (its code "": the predictions stay in this tab)."""
    st.session_state[_STATE] = Taking("", lesson.title, lesson.steps, codes.new_student(), 0)


def leave() -> None:
    st.session_state.pop(_STATE, None)
    gate.release()


def go(step: int) -> None:
    """Move to a step (0..n-1) or the summary (n); the view is applied when the page runs next."""
    t = taking()
    if t is not None:
        st.session_state[_STATE] = replace(t, step=min(max(step, 0), t.n), applied=None)


def apply_view(settings: list[Settings], view: dict) -> None:
    """The view's values in place of the settings' (each back to its default first), as a
    link sets them; the link's other fields (the pattern store, the query image) take the
    view's values where it names them."""
    values = st.session_state.setdefault("_settings", {})
    hidden = st.session_state.setdefault("_hidden", set())
    for s in settings:
        for key, f in s.fields.items():
            if f.kind == "kept":
                continue
            sk = s.state_key(key)
            values[sk] = f.default
            st.session_state.pop(sk, None)
            hidden.discard(sk)
        s.read(view)
        if s.prefix:
            st.session_state.setdefault("_settings_read", set()).add(s.page)
    LINK.read({k: v for k, v in view.items() if k in ("presets", "q_image")})
    if "q_image" not in view:
        LINK.fields["q_image"].use(None)


def before_page(page: str, pages: Pages) -> None:
    """Before the page runs: enter the step's view if it was not entered yet (switching to its
    page first), and hold the gate for its question while this student has no prediction."""
    t = taking()
    if t is None:
        gate.release()
        return
    step = t.current()
    if step is None:  # the summary
        gate.release()
        return
    if t.applied != t.step:
        if step.page != page:
            st.switch_page(pages.script_of(step.page))  # its run writes the link (publish)
        apply_view([s for s in (pages.settings_of(step.page), SIDEBAR) if s is not None], dict(step.view))
        st.session_state[_STATE] = t = replace(t, applied=t.step)
    if step.question and step.page == page:
        kept = t.answers.get(t.step)
        gate.hold(page, step.question, kept.option if kept else None)
    else:
        gate.release()


def lock(option: str, reason: str) -> str | None:
    """Lock this student's prediction for the current step, with the model's answer (from the
    gate's offer): None when kept, else a sentence saying why not."""
    t, offer, h = taking(), gate.offered(), gate.held()
    if t is None or offer is None or h is None:
        return "This step has no question to answer here."
    cap = lesson_file.CAPS["reason"]
    if len(reason) > cap:
        return f"Your reason is {len(reason)} characters long; at most {cap} are allowed. Shorten it and lock again."
    if option not in {o.key for o in offer.options}:
        return "Choose one of the options first."
    outcome = offer.outcome()
    said = questions.compare(option, offer.options, outcome)
    correct = None if option == questions.NOT_SURE else option == outcome.right
    try:
        if t.code:
            kept = lesson_store.predict(t.code, t.step, t.student, option, reason, outcome=said, correct=correct)
        else:  # a preview: kept in this tab only
            kept = lesson_store.Prediction(t.step, option, reason, time.time(), said, correct)
    except database.Unavailable as e:
        return f"Your prediction was not saved: {e}"
    except (LookupError, ValueError) as e:
        return f"Your prediction was not saved: {e}"
    st.session_state[_STATE] = replace(t, answers={**t.answers, t.step: kept})
    gate.hold(h.page, h.kind, kept.option)
    return None
