"""Lessons and predictions, kept in the database (ui/lessons/database.py).

A lesson is stored as its file's JSON (ui/lessons/lesson_file.py validates it before it gets
here), under a short code, with the SHA-256 of its teacher's key. A prediction is one student's
(a random id) option and optional reason for one step of one lesson: the first one locked is
the one kept (`predict` returns it), so a prediction cannot be changed once the outcome shows.
Predictions older than the retention (`RETENTION_DAYS`, $HOPFIELD_PREDICTION_DAYS) are deleted
by `prune`. Every function raises database.Unavailable when the database cannot be used."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ui.serving.boot import positive_number_env

from . import codes, database
from .tables import lessons, predictions

RETENTION_DAYS = 30
RETENTION_ENV = "HOPFIELD_PREDICTION_DAYS"
_CODE_TRIES = 20  # a new code that is taken is drawn again (at 1 million lessons, 1 in 900)


def retention_days() -> float:
    return positive_number_env(RETENTION_ENV, RETENTION_DAYS)


@dataclass(frozen=True)
class Stored:
    code: str
    title: str
    body: dict
    created: float
    updated: float


@dataclass(frozen=True)
class Prediction:
    step: int
    option: str
    reason: str
    at: float
    outcome: str | None = None   # what the model answered, compared with it (at the lock)
    correct: bool | None = None  # None: "Not sure yet"


_FIELDS = (predictions.c.step, predictions.c.option, predictions.c.reason, predictions.c.at,
           predictions.c.outcome, predictions.c.correct)


class WrongKey(PermissionError):
    """The key given is not this lesson's teacher key."""


def create(body: dict, title: str, address: str | None = None) -> tuple[str, str]:
    """Keep a new lesson; returns (its code, its teacher's key): the key is not kept, only its hash."""
    key, now = codes.new_key(), time.time()
    for _ in range(_CODE_TRIES):
        code = codes.new_code()
        try:
            with database.writing(address) as conn:
                conn.execute(insert(lessons).values(
                    code=code, title=title, body=json.dumps(body, ensure_ascii=False),
                    key_hash=codes.key_hash(key), created=now, updated=now))
            return code, key
        except IntegrityError:
            continue
    raise database.Unavailable("No free lesson code was found; try again.")


READY_KEY_HASH = "ready"  # no key's SHA-256: a ready lesson opens for no one's editing


def keep_ready(code: str, body: dict, title: str, address: str | None = None) -> None:
    """A ready lesson (assets/lessons/) under its fixed code: added, or brought up to its file."""
    text, now = json.dumps(body, ensure_ascii=False), time.time()
    with database.writing(address) as conn:
        row = conn.execute(select(lessons.c.id, lessons.c.body, lessons.c.key_hash)
                           .where(lessons.c.code == code)).first()
        if row is not None and row.key_hash != READY_KEY_HASH:  # a teacher's took the code first
            raise database.Unavailable(f"The code {code} of a ready lesson is taken by another lesson.")
        if row is None:
            conn.execute(insert(lessons).values(code=code, title=title, body=text, key_hash=READY_KEY_HASH,
                                                created=now, updated=now))
        elif row.body != text:
            conn.execute(update(lessons).where(lessons.c.id == row.id).values(title=title, body=text, updated=now))


def get(code: str, address: str | None = None) -> Stored | None:
    """The lesson of that code; None when there is none (never was, or deleted)."""
    with database.reading(address) as conn:
        row = conn.execute(select(lessons.c.code, lessons.c.title, lessons.c.body, lessons.c.created,
                                  lessons.c.updated).where(lessons.c.code == code)).first()
    if row is None:
        return None
    return Stored(row.code, row.title, json.loads(row.body), row.created, row.updated)


def _check(conn, code: str, key) -> int:
    row = conn.execute(select(lessons.c.id, lessons.c.key_hash).where(lessons.c.code == code)).first()
    if row is None:
        raise LookupError(f"There is no lesson {code}.")
    if not codes.key_matches(key, row.key_hash):
        raise WrongKey("This link's teacher key does not open this lesson for editing.")
    return row.id


def key_opens(code: str, key, address: str | None = None) -> bool:
    """Whether `key` is the teacher key of lesson `code` (False for an unknown lesson)."""
    with database.reading(address) as conn:
        try:
            _check(conn, code, key)
        except (LookupError, WrongKey):
            return False
    return True


def replace(code: str, key, body: dict, title: str, address: str | None = None) -> None:
    """The lesson's steps and title replaced (its code and key stay); WrongKey, LookupError."""
    with database.writing(address) as conn:
        lesson_id = _check(conn, code, key)
        conn.execute(update(lessons).where(lessons.c.id == lesson_id).values(
            title=title, body=json.dumps(body, ensure_ascii=False), updated=time.time()))


def remove(code: str, key, address: str | None = None) -> None:
    """The lesson and every prediction made in it deleted; WrongKey, LookupError."""
    with database.writing(address) as conn:
        lesson_id = _check(conn, code, key)
        conn.execute(delete(predictions).where(predictions.c.lesson_id == lesson_id))
        conn.execute(delete(lessons).where(lessons.c.id == lesson_id))


def predict(code: str, step: int, student: str, option: str, reason: str = "",
            address: str | None = None, outcome: str | None = None, correct: bool | None = None) -> Prediction:
    """Lock a student's prediction for a step; the one already locked wins. LookupError for an
    unknown lesson; ValueError for an id or a reason that cannot be kept."""
    if not codes.is_student(student):
        raise ValueError("This link's student id is not one the app made.")
    if len(reason) > 200 or len(option) > 64:
        raise ValueError("A reason is at most 200 characters.")
    now = time.time()
    try:
        with database.writing(address) as conn:
            lesson_id = conn.execute(select(lessons.c.id).where(lessons.c.code == code)).scalar()
            if lesson_id is None:
                raise LookupError(f"There is no lesson {code}.")
            kept = _kept(conn, lesson_id, step, student)
            if kept is None:  # SQLite holds the write lock here (BEGIN IMMEDIATE)
                conn.execute(insert(predictions).values(lesson_id=lesson_id, step=step, student=student,
                                                        option=option, reason=reason, at=now,
                                                        outcome=(outcome or "")[:800] or None, correct=correct))
                return Prediction(step, option, reason, now, outcome, correct)
            return kept
    except IntegrityError:  # PostgreSQL: the same student's other tab locked one first
        with database.reading(address) as conn:
            return _kept(conn, lesson_id, step, student)


def _kept(conn, lesson_id: int, step: int, student: str) -> Prediction | None:
    row = conn.execute(select(*_FIELDS).where(
        predictions.c.lesson_id == lesson_id, predictions.c.step == step,
        predictions.c.student == student)).first()
    return None if row is None else Prediction(*row)


def predictions_of(code: str, student: str, address: str | None = None) -> dict[int, Prediction]:
    """A student's locked predictions in a lesson, by step."""
    with database.reading(address) as conn:
        rows = conn.execute(select(*_FIELDS).join(lessons, lessons.c.id == predictions.c.lesson_id)
                            .where(lessons.c.code == code, predictions.c.student == student)).all()
    return {r.step: Prediction(*r) for r in rows}


def count(address: str | None = None) -> tuple[int, int]:
    """(lessons, predictions) kept."""
    with database.reading(address) as conn:
        return (conn.execute(select(func.count()).select_from(lessons)).scalar(),
                conn.execute(select(func.count()).select_from(predictions)).scalar())


def prune(now: float | None = None, days: float | None = None, address: str | None = None) -> int:
    """Delete the predictions older than the retention; returns how many went."""
    cutoff = (time.time() if now is None else now) - 86400 * (retention_days() if days is None else days)
    with database.writing(address) as conn:
        return conn.execute(delete(predictions).where(predictions.c.at < cutoff)).rowcount
