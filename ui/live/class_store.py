"""A live class, kept in the lessons' database (ui/lessons/database.py: SQLite shared by the
deploy's processes, PostgreSQL across machines); nothing about a class lives in one process.

A class is a lesson (ui/lessons/lesson_store.py) taken together: it has its own code (what the
students type, the lessons' alphabet) and its own teacher key (128 random bits in the teacher's
link; only its SHA-256 is kept), the step the teacher shows and the pace ("follow": every
student's page follows the teacher; "free": they move as they like). Its students are the random
ids of their links, at most MAX_STUDENTS; each gives at most one answer per step, which they may
change until the teacher reveals that step (the reveal keeps the model's right answer). Only the
teacher's key reveals, moves the class, sets the pace, ends it or reads the answers.

A class ends when its teacher ends it, or after IDLE_HOURS without a join, an answer or a
teacher's action; its answers follow the lessons' retention (lesson_store.retention_days) and
go with it. No Streamlit here; every function raises database.Unavailable when the database
cannot be used."""
from __future__ import annotations

import csv
import io
import json
import time
from dataclasses import dataclass, field

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ui.lessons import codes, database, lesson_store
from ui.lessons.lesson_store import WrongKey
from ui.lessons.tables import class_answers, class_reveals, class_students, classes, lessons

MAX_STUDENTS = 500
IDLE_HOURS = 12
PACES = ("follow", "free")
REASON_CHARS = 200
OPTION_CHARS = 64
_CODE_TRIES = 20

__all__ = ["WrongKey"]


class Ended(LookupError):
    """The class has ended (its teacher ended it, or it was idle for IDLE_HOURS), or never was."""


class Full(RuntimeError):
    """The class has its MAX_STUDENTS students."""


class Closed(ValueError):
    """The step was revealed: its answers no longer change."""


@dataclass(frozen=True)
class ClassState:
    code: str
    lesson: str                 # the lesson's code
    step: int                   # the step the teacher shows, from 0
    pace: str                   # "follow" or "free"
    created: float
    active: float               # the last join, answer or teacher's action
    ended: float | None
    joined: int                 # students in the class
    revealed: dict = field(default_factory=dict)  # step -> the model's right option (None: no question)

    def live(self, now: float | None = None) -> bool:
        now = time.time() if now is None else now
        return self.ended is None and now - self.active < IDLE_HOURS * 3600

    @property
    def shown(self) -> bool:
        """Whether the teacher revealed the current step."""
        return self.step in self.revealed


@dataclass(frozen=True)
class Answer:
    step: int
    option: str
    reason: str
    at: float


@dataclass(frozen=True)
class Tally:
    joined: int
    answered: int
    counts: dict  # option -> how many chose it


# ---------------------------------------------------------------- reading a class

def _row(conn, code: str, lock: bool = False):
    query = select(classes, lessons.c.code.label("lesson_code")).join(lessons, lessons.c.id == classes.c.lesson_id) \
        .where(classes.c.code == code)
    if lock:
        query = query.with_for_update(of=classes)  # PostgreSQL: one writer of this class at a time
    return conn.execute(query).first()


def _state(conn, row) -> ClassState:
    joined = conn.execute(select(func.count()).select_from(class_students)
                          .where(class_students.c.class_id == row.id)).scalar()
    revealed = {r.step: r.right for r in conn.execute(
        select(class_reveals.c.step, class_reveals.c.right).where(class_reveals.c.class_id == row.id))}
    return ClassState(row.code, row.lesson_code, row.step, row.pace, row.created, row.active, row.ended,
                      joined, revealed)


def state(code: str, address: str | None = None) -> ClassState | None:
    """The class of that code (ended or not); None when there is none."""
    with database.reading(address) as conn:
        row = _row(conn, code)
        return None if row is None else _state(conn, row)


def _live_row(conn, code: str, now: float, lock: bool = False):
    row = _row(conn, code, lock)
    if row is None:
        raise Ended(f"There is no class {code}: check the code on the board.")
    if row.ended is not None or now - row.active >= IDLE_HOURS * 3600:
        raise Ended(f"Class {code} has ended.")
    return row


def _teacher_row(conn, code: str, key, now: float):
    row = _live_row(conn, code, now, lock=True)
    if not codes.key_matches(key, row.key_hash):
        raise WrongKey("Only the teacher's link can do this: this link has no teacher key for this class.")
    return row


def _touch(conn, class_id: int, now: float, **values) -> None:
    conn.execute(update(classes).where(classes.c.id == class_id).values(active=now, **values))


# ---------------------------------------------------------------- the teacher

def start(lesson_code: str, address: str | None = None) -> tuple[str, str]:
    """A new class taking lesson `lesson_code` from its first step, students following;
    returns (the class's code, its teacher key). LookupError: no such lesson."""
    key, now = codes.new_key(), time.time()
    for _ in range(_CODE_TRIES):
        code = codes.new_code()
        try:
            with database.writing(address) as conn:
                lesson_id = conn.execute(select(lessons.c.id).where(lessons.c.code == lesson_code)).scalar()
                if lesson_id is None:
                    raise LookupError(f"There is no lesson {lesson_code}.")
                conn.execute(insert(classes).values(code=code, lesson_id=lesson_id, key_hash=codes.key_hash(key),
                                                    step=0, pace="follow", created=now, active=now))
            return code, key
        except IntegrityError:
            continue
    raise database.Unavailable("No free class code was found; try again.")


def key_opens(code: str, key, address: str | None = None) -> bool:
    """Whether `key` is the teacher key of class `code` (ended or not)."""
    with database.reading(address) as conn:
        row = _row(conn, code)
    return row is not None and codes.key_matches(key, row.key_hash)


def reveal(code: str, key, step: int, right: str | None, address: str | None = None,
           labels: list | None = None) -> None:
    """The teacher shows step's outcome: its answers are closed, `right` (the model's answer,
    computed by the page) and the options' words (`labels`: [(option, words), ...] of that run)
    kept beside them. A second reveal of the step keeps the first."""
    now = time.time()
    with database.writing(address) as conn:
        row = _teacher_row(conn, code, key, now)
        done = conn.execute(select(class_reveals.c.step).where(
            class_reveals.c.class_id == row.id, class_reveals.c.step == step)).first()
        if done is None:
            words = [[str(k)[:OPTION_CHARS], str(v)[:200]] for k, v in (labels or [])][:40]
            conn.execute(insert(class_reveals).values(class_id=row.id, step=step,
                                                      right=None if right is None else str(right)[:OPTION_CHARS],
                                                      labels=json.dumps(words, ensure_ascii=False), at=now))
        _touch(conn, row.id, now)


def go(code: str, key, step: int, address: str | None = None) -> None:
    """The teacher moves the class to `step` (0-based; the lesson's length: its summary)."""
    if not isinstance(step, int) or step < 0:
        raise ValueError("A step is a whole number from 0.")
    now = time.time()
    with database.writing(address) as conn:
        row = _teacher_row(conn, code, key, now)
        _touch(conn, row.id, now, step=step)


def set_pace(code: str, key, pace: str, address: str | None = None) -> None:
    """ "follow": every student's page follows the teacher's step; "free": they explore."""
    if pace not in PACES:
        raise ValueError(f"The pace is one of {', '.join(PACES)}.")
    now = time.time()
    with database.writing(address) as conn:
        row = _teacher_row(conn, code, key, now)
        _touch(conn, row.id, now, pace=pace)


def end(code: str, key, address: str | None = None) -> None:
    """The teacher ends the class: no more joins or answers; its answers stay for the download
    until the retention."""
    now = time.time()
    with database.writing(address) as conn:
        row = _teacher_row(conn, code, key, now)
        conn.execute(update(classes).where(classes.c.id == row.id).values(ended=now))


def tally(code: str, step: int, address: str | None = None) -> Tally:
    """How many joined, how many answered `step`, and how many chose each option (never who)."""
    with database.reading(address) as conn:
        row = _row(conn, code)
        if row is None:
            raise Ended(f"There is no class {code}.")
        joined = conn.execute(select(func.count()).select_from(class_students)
                              .where(class_students.c.class_id == row.id)).scalar()
        counts = dict(conn.execute(select(class_answers.c.option, func.count()).where(
            class_answers.c.class_id == row.id, class_answers.c.step == step).group_by(class_answers.c.option)).all())
    return Tally(joined, sum(counts.values()), counts)


def _read_row(conn, code: str, key, what: str):
    """The class's row for its teacher's download (ended or not); Ended, WrongKey."""
    row = _row(conn, code)
    if row is None:
        raise Ended(f"There is no class {code}.")
    if not codes.key_matches(key, row.key_hash):
        raise WrongKey(f"Only the teacher's link can download the class's {what}.")
    return row


def results(code: str, key, address: str | None = None) -> dict[int, dict]:
    """For the teacher's summary: each revealed step's answers as counted (they close at the
    reveal), the model's answer and the options' words: step -> {counts, right, labels}."""
    with database.reading(address) as conn:
        row = _read_row(conn, code, key, "summary")
        reveals = conn.execute(select(class_reveals.c.step, class_reveals.c.right, class_reveals.c.labels)
                               .where(class_reveals.c.class_id == row.id).order_by(class_reveals.c.step)).all()
        out = {}
        for r in reveals:
            counts = dict(conn.execute(select(class_answers.c.option, func.count()).where(
                class_answers.c.class_id == row.id, class_answers.c.step == r.step)
                .group_by(class_answers.c.option)).all())
            out[r.step] = dict(counts=counts, right=r.right, labels=[tuple(p) for p in json.loads(r.labels)])
    return out


def answers(code: str, key, address: str | None = None) -> list[dict]:
    """Every answer of the class, for its teacher: step (from 1), the student's anonymous id,
    option, reason, time (UTC seconds), in the order given."""
    with database.reading(address) as conn:
        row = _read_row(conn, code, key, "answers")
        rows = conn.execute(select(class_answers.c.step, class_answers.c.student, class_answers.c.option,
                                   class_answers.c.reason, class_answers.c.at)
                            .where(class_answers.c.class_id == row.id)
                            .order_by(class_answers.c.step, class_answers.c.at, class_answers.c.id)).all()
    return [dict(step=r.step + 1, student=r.student, option=r.option, reason=r.reason, at=r.at) for r in rows]


CSV_COLUMNS = ("step", "student", "option", "reason", "answered_utc")


def csv_bytes(rows: list[dict]) -> bytes:
    """The answers as CSV (UTF-8 with a byte-order mark, for spreadsheets): a reason is one cell
    whatever its commas, quotes or line breaks, and a cell that a spreadsheet would read as a
    formula (=, +, -, @ first) is written with a leading apostrophe."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(CSV_COLUMNS)
    for r in rows:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(r["at"]))
        w.writerow([r["step"], r["student"], _cell(r["option"]), _cell(r["reason"]), stamp])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _cell(text: str) -> str:
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# ---------------------------------------------------------------- the students

def join(code: str, student: str, address: str | None = None) -> ClassState:
    """The student (the random id of their link) in the class; joining again is a no-op, so a
    reload or another process finds them in. Ended, Full; ValueError for an id the app did not make."""
    if not codes.is_student(student):
        raise ValueError("This link's student id is not one the app made.")
    now = time.time()
    with database.writing(address) as conn:
        row = _live_row(conn, code, now, lock=True)
        there = conn.execute(select(class_students.c.student).where(
            class_students.c.class_id == row.id, class_students.c.student == student)).first()
        if there is None:
            n = conn.execute(select(func.count()).select_from(class_students)
                             .where(class_students.c.class_id == row.id)).scalar()
            if n >= MAX_STUDENTS:
                raise Full(f"Class {code} is full: it has its {MAX_STUDENTS} students.")
            conn.execute(insert(class_students).values(class_id=row.id, student=student, joined=now))
            _touch(conn, row.id, now)
        return _state(conn, row)


def answer(code: str, step: int, student: str, option: str, reason: str = "",
           address: str | None = None) -> Answer:
    """The student's answer for `step`, given or changed: one per student and step, until the
    step is revealed (Closed). Ended; LookupError when the student has not joined; ValueError
    for an option or a reason too long."""
    if not codes.is_student(student):
        raise ValueError("This link's student id is not one the app made.")
    if not isinstance(option, str) or not option or len(option) > OPTION_CHARS:
        raise ValueError("Choose one of the options.")
    if len(reason) > REASON_CHARS:
        raise ValueError(f"A reason is at most {REASON_CHARS} characters; yours has {len(reason)}.")
    now = time.time()
    for attempt in range(2):
        try:
            with database.writing(address) as conn:
                row = _live_row(conn, code, now, lock=True)
                if conn.execute(select(class_students.c.student).where(
                        class_students.c.class_id == row.id, class_students.c.student == student)).first() is None:
                    raise LookupError("Join the class first.")
                if conn.execute(select(class_reveals.c.step).where(
                        class_reveals.c.class_id == row.id, class_reveals.c.step == step)).first() is not None:
                    raise Closed("Your teacher has shown this step's answer: answers no longer change.")
                where = (class_answers.c.class_id == row.id, class_answers.c.step == step,
                         class_answers.c.student == student)
                if conn.execute(update(class_answers).where(*where)
                                .values(option=option, reason=reason, at=now)).rowcount == 0:
                    conn.execute(insert(class_answers).values(class_id=row.id, step=step, student=student,
                                                              option=option, reason=reason, at=now))
                _touch(conn, row.id, now)
            return Answer(step, option, reason, now)
        except IntegrityError:  # the same student's other tab inserted it first: update it
            if attempt:
                raise
    raise AssertionError("unreachable")


def answers_of(code: str, student: str, address: str | None = None) -> dict[int, Answer]:
    """A student's answers in the class, by step (their own only)."""
    with database.reading(address) as conn:
        rows = conn.execute(select(class_answers.c.step, class_answers.c.option, class_answers.c.reason,
                                   class_answers.c.at).join(classes, classes.c.id == class_answers.c.class_id)
                            .where(classes.c.code == code, class_answers.c.student == student)).all()
    return {r.step: Answer(*r) for r in rows}


# ---------------------------------------------------------------- retention

def prune(now: float | None = None, days: float | None = None, address: str | None = None) -> int:
    """Delete the answers older than the lessons' retention, and the classes idle that long (their
    students, answers and reveals with them); returns how many answers went."""
    cutoff = (time.time() if now is None else now) - 86400 * (lesson_store.retention_days() if days is None else days)
    with database.writing(address) as conn:
        gone = conn.execute(delete(class_answers).where(class_answers.c.at < cutoff)).rowcount
        old = select(classes.c.id).where(classes.c.active < cutoff).scalar_subquery()
        for table in (class_answers, class_students, class_reveals):  # not every SQLite build cascades
            conn.execute(delete(table).where(table.c.class_id.in_(old)))
        conn.execute(delete(classes).where(classes.c.active < cutoff))
    return gone
