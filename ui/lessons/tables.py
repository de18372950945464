"""The tables, as SQLAlchemy Core sees them (the migrations in migrations/versions/ create them;
tests/lessons/test_database.py holds the two equal). Times are UTC, in seconds since 1970 (a
float: the same on SQLite and PostgreSQL, and simple to compare for retention)."""
from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text, UniqueConstraint

metadata = MetaData()

lessons = Table(
    "lessons", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(6), nullable=False, unique=True),
    Column("title", String(80), nullable=False),
    Column("body", Text, nullable=False),          # the lesson file's JSON (ui/lessons/lesson_file.py)
    Column("key_hash", String(64), nullable=False),  # SHA-256 of the teacher's key
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)

predictions = Table(
    "predictions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("lesson_id", Integer, ForeignKey("lessons.id", ondelete="CASCADE"), nullable=False),
    Column("step", Integer, nullable=False),        # the step's index in the lesson, from 0
    Column("student", String(16), nullable=False),  # a random id from the student's link
    Column("option", String(64), nullable=False),   # the option's id (hopfield_core.questions)
    Column("reason", String(200), nullable=False, default=""),
    Column("at", Float, nullable=False, index=True),
    Column("outcome", String(800)),  # the sentence comparing it with the model's answer, at the lock
    Column("correct", Boolean),      # whether it was the model's answer (None: "Not sure yet")
    UniqueConstraint("lesson_id", "step", "student", name="one_prediction_per_step"),
)

views = Table(
    "views", metadata,
    Column("code", String(6), primary_key=True),
    Column("digest", String(64), nullable=False, unique=True),  # SHA-256 of the page and its query
    Column("page", String(40), nullable=False),  # the page's path ("" for Home)
    Column("query", Text, nullable=False),       # the link's settings, URL-encoded
    Column("created", Float, nullable=False),
    Column("opened", Float, nullable=False, index=True),  # last made or opened: kept VIEW_DAYS after
)


# live classes (ui/live/class_store.py; migration 0004)
classes = Table(
    "classes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(6), nullable=False, unique=True),   # what students type to join
    Column("lesson_id", Integer, ForeignKey("lessons.id", ondelete="CASCADE"), nullable=False),
    Column("key_hash", String(64), nullable=False),  # SHA-256 of the class's teacher key
    Column("step", Integer, nullable=False),         # the step the teacher shows, from 0
    Column("pace", String(8), nullable=False),       # "follow": students follow; "free": they explore
    Column("created", Float, nullable=False),
    Column("active", Float, nullable=False, index=True),  # the last join, answer or teacher's action
    Column("ended", Float),                          # the teacher ended it (None: not ended)
)

class_students = Table(
    "class_students", metadata,
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), primary_key=True),
    Column("student", String(16), primary_key=True),  # the random id in the student's link
    Column("joined", Float, nullable=False),
)

class_answers = Table(
    "class_answers", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    Column("step", Integer, nullable=False),
    Column("student", String(16), nullable=False),
    Column("option", String(64), nullable=False),   # the option's id (hopfield_core.questions)
    Column("reason", String(200), nullable=False),
    Column("at", Float, nullable=False, index=True),  # the last change
    UniqueConstraint("class_id", "step", "student", name="one_answer_per_step"),
)

class_reveals = Table(
    "class_reveals", metadata,
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), primary_key=True),
    Column("step", Integer, primary_key=True),
    Column("right", String(64)),   # the model's answer at the reveal (None: the step asks nothing)
    Column("labels", Text, nullable=False),  # JSON [[option, its words], ...] of that run, for the summary
    Column("at", Float, nullable=False),
)
