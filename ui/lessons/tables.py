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
