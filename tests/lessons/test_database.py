"""The lessons' database on SQLite and on PostgreSQL: migrations from empty, lessons kept and
guarded by the teacher's key, one prediction per student and step, two processes writing at
once, a process killed mid-write, retention, a database that cannot be reached."""
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from ui.lessons import codes, database, lesson_store
from ui.lessons.tables import metadata

ROOT = Path(__file__).resolve().parents[2]
BODY = {"version": 1, "title": "Memories as valleys", "steps": []}


def test_migrations_make_the_tables_from_empty_and_match_the_code(db):
    database.engine(db)
    seen = inspect(create_engine(db))
    assert set(seen.get_table_names()) == {"alembic_version", "lessons", "predictions", "views", "classes",
                                           "class_students", "class_answers", "class_reveals"}
    for table in metadata.sorted_tables:
        assert {c["name"] for c in seen.get_columns(table.name)} == set(table.columns.keys())
    assert {tuple(u["column_names"]) for u in seen.get_unique_constraints("predictions")} == \
        {("lesson_id", "step", "student")}
    with create_engine(db).connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0004"
    database.forget(db)
    database.engine(db)  # a second process start: nothing to do, nothing lost
    assert lesson_store.count(db) == (0, 0)


def test_a_lesson_is_kept_under_its_code_and_only_its_key_edits_it(db):
    code, key = lesson_store.create(BODY, "Memories as valleys", db)
    assert codes.clean_code(code) == code and re.fullmatch(r"[0-9a-f]{32}", key)
    got = lesson_store.get(code, db)
    assert got.title == "Memories as valleys" and got.body == BODY
    with create_engine(db).connect() as conn:  # the key itself is nowhere in the database
        row = conn.execute(text("SELECT * FROM lessons")).one()
    assert key not in repr(tuple(row)) and row.key_hash == codes.key_hash(key)
    assert lesson_store.key_opens(code, key, db)
    assert not lesson_store.key_opens(code, codes.new_key(), db)
    assert not lesson_store.key_opens("ZZZZZZ", key, db)
    with pytest.raises(lesson_store.WrongKey):
        lesson_store.replace(code, codes.new_key(), BODY, "Taken over", db)
    lesson_store.replace(code, key, {**BODY, "title": "New"}, "New", db)
    assert lesson_store.get(code, db).title == "New"
    with pytest.raises(LookupError):
        lesson_store.replace("ZZZZZZ", key, BODY, "x", db)
    with pytest.raises(lesson_store.WrongKey):
        lesson_store.remove(code, None, db)
    lesson_store.predict(code, 0, codes.new_student(), "pattern:0", "", db)
    lesson_store.remove(code, key, db)
    assert lesson_store.get(code, db) is None and lesson_store.count(db) == (0, 0)


def test_the_first_locked_prediction_is_the_one_kept(db):
    code, _ = lesson_store.create(BODY, "t", db)
    me, other = codes.new_student(), codes.new_student()
    first = lesson_store.predict(code, 2, me, "mirror", "the query is mostly flipped", db)
    again = lesson_store.predict(code, 2, me, "pattern:1", "changed my mind", db)
    assert again == first and again.option == "mirror"
    lesson_store.predict(code, 3, me, "not_sure", "", db)
    lesson_store.predict(code, 2, other, "pattern:1", "", db)
    mine = lesson_store.predictions_of(code, me, db)
    assert {s: p.option for s, p in mine.items()} == {2: "mirror", 3: "not_sure"}
    assert lesson_store.predictions_of(code, codes.new_student(), db) == {}


@pytest.mark.parametrize("student, option, reason", [
    ("not-an-id", "mirror", ""), ("", "mirror", ""), ("a" * 16, "mirror", "x" * 201),
])
def test_a_prediction_that_cannot_be_kept_is_refused(db, student, option, reason):
    code, _ = lesson_store.create(BODY, "t", db)
    with pytest.raises(ValueError):
        lesson_store.predict(code, 0, student, option, reason, db)
    assert lesson_store.count(db) == (1, 0)


def test_a_prediction_for_an_unknown_lesson_is_refused(db):
    with pytest.raises(LookupError):
        lesson_store.predict("ZZZZZZ", 0, codes.new_student(), "mirror", "", db)


WRITER = """
import sys, time
from ui.lessons import codes, lesson_store
db, code, n, start = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
while time.time() < float(start):
    time.sleep(0.005)
for i in range(n):
    student = codes.new_student()
    lesson_store.predict(code, i % 5, student, "pattern:%d" % (i % 3), "", db)
    print(student, flush=True)  # acknowledged: the write has committed
"""


def _writer(db: str, code: str, n: int, start: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", WRITER, db, code, str(n), str(start)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_two_processes_writing_at_once_lose_nothing(db):
    code, _ = lesson_store.create(BODY, "t", db)
    start = time.time() + 3  # both have imported and opened the database by then
    procs = [_writer(db, code, 40, start) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outs]
    acked = [s for out, _ in outs for s in out.split()]
    assert len(acked) == 80
    assert lesson_store.count(db) == (1, 80)
    for s in acked[:5] + acked[-5:]:
        assert len(lesson_store.predictions_of(code, s, db)) == 1


def test_a_process_killed_mid_write_loses_nothing_it_acknowledged(db):
    code, _ = lesson_store.create(BODY, "t", db)
    proc = _writer(db, code, 100_000, time.time())
    acked = []
    deadline = time.time() + 60
    while len(acked) < 30 and time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acked.append(line.strip())
    proc.send_signal(signal.SIGKILL)  # in the middle of its next writes
    proc.wait(timeout=30)
    assert len(acked) >= 30, proc.stderr.read()
    database.forget(db)  # a restarted app: a new engine
    kept = {s for s in acked if lesson_store.predictions_of(code, s, db)}
    assert kept == set(acked)
    assert lesson_store.predict(code, 0, codes.new_student(), "mirror", "", db)  # still writable


def test_predictions_older_than_the_retention_are_deleted(db, monkeypatch):
    code, _ = lesson_store.create(BODY, "t", db)
    old, new = codes.new_student(), codes.new_student()
    lesson_store.predict(code, 0, old, "mirror", "", db)
    time.sleep(0.05)
    lesson_store.predict(code, 0, new, "mirror", "", db)
    at_new = lesson_store.predictions_of(code, new, db)[0].at
    assert lesson_store.prune(now=at_new + 29 * 86400, address=db) == 0
    # 30 days after the first: only the first goes
    at_old = lesson_store.predictions_of(code, old, db)[0].at
    assert lesson_store.prune(now=at_old + 30 * 86400 + 0.01, address=db) == 1
    assert lesson_store.predictions_of(code, old, db) == {} and lesson_store.predictions_of(code, new, db)
    monkeypatch.setenv(lesson_store.RETENTION_ENV, "0.5")  # half a day, set by the server's owner
    assert lesson_store.retention_days() == 0.5
    assert lesson_store.prune(now=at_new + 43_201, address=db) == 1
    assert lesson_store.count(db) == (1, 0)


def test_a_database_that_cannot_be_reached_gives_one_sentence(tmp_path):
    for address in (f"postgresql+psycopg://nobody@/none?host={tmp_path}",
                    f"sqlite:///{tmp_path}/a-folder/"):
        if address.startswith("sqlite"):
            (tmp_path / "a-folder").mkdir()
        with pytest.raises(database.Unavailable) as e:
            lesson_store.get("ABC234", address)
        assert str(e.value).endswith("the page works as usual.")
        assert "\n" not in str(e.value) and "Traceback" not in str(e.value)


def test_the_url_names_postgresql_through_psycopg_and_sqlite_in_the_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(database.URL_ENV, raising=False)
    monkeypatch.setenv(database.DATA_ENV, str(tmp_path))
    assert database.url() == f"sqlite:///{tmp_path}/lessons.sqlite3"
    monkeypatch.setenv(database.URL_ENV, "postgres://u:p@db.school/lessons")
    assert database.url() == "postgresql+psycopg://u:p@db.school/lessons"
    monkeypatch.setenv(database.URL_ENV, "postgresql://u@h/x")
    assert database.url() == "postgresql+psycopg://u@h/x"


def test_the_sqlite_file_is_in_wal_mode_with_full_sync(tmp_path):
    address = f"sqlite:///{tmp_path / 'l.sqlite3'}"
    with database.reading(address) as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    database.forget(address)


def test_an_older_database_is_upgraded_with_its_predictions_kept(db):
    from alembic import command
    from alembic.config import Config

    old = database.make_engine(db)
    config = Config()
    config.set_main_option("script_location", str(database.MIGRATIONS))
    with old.begin() as conn:  # the database as the first release made it
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
        conn.execute(text("INSERT INTO lessons (code, title, body, key_hash, created, updated) "
                          "VALUES ('ABC234', 't', '{}', 'x', 0, 0)"))
        conn.execute(text("INSERT INTO predictions (lesson_id, step, student, option, reason, at) "
                          "VALUES (1, 0, 'aaaaaaaaaaaaaaaa', 'mirror', 'r', 1)"))
    old.dispose()
    kept = lesson_store.predictions_of("ABC234", "a" * 16, db)  # opens, so migrates to the newest
    assert kept[0].option == "mirror" and kept[0].outcome is None and kept[0].correct is None
    me = codes.new_student()
    said = "You predicted the inverse of a stored pattern. The query settled on pattern H. The answer: pattern H."
    lesson_store.predict("ABC234", 1, me, "mirror", "", db, outcome=said, correct=False)
    got = lesson_store.predictions_of("ABC234", me, db)[1]
    assert got.outcome == said and got.correct is False


def test_a_sqlite_file_locked_by_another_writer_gives_the_busy_sentence(tmp_path, monkeypatch):
    import sqlite3

    monkeypatch.setattr(database, "BUSY_S", 0.3)  # how long a writer waits, shortened for the test
    address = f"sqlite:///{tmp_path / 'l.sqlite3'}"
    code, _ = lesson_store.create(BODY, "t", address)
    other = sqlite3.connect(tmp_path / "l.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        with pytest.raises(database.Unavailable) as e:
            lesson_store.predict(code, 0, codes.new_student(), "mirror", "", address)
        assert str(e.value) == "The lessons' database is busy just now; try again in a moment."
        assert lesson_store.get(code, address).title == "t"  # reading still works (WAL)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert lesson_store.predict(code, 0, codes.new_student(), "mirror", "", address).option == "mirror"
    database.forget(address)
