"""What lessons cost.

1. A page's rerun inside a lesson (the lesson bar, its question, the gate holding the run at step
   0) against the same page and view without a lesson, alternately in one run (AppTest, the
   classical page: a rerun with nothing changed, as a widget of the bar or the sidebar causes).
2. The database: saving a prediction (one write transaction, synced) and loading a lesson (one
   read), on SQLite (WAL, synchronous=FULL, a file in a temporary folder) against a throw-away
   PostgreSQL server on this machine (tests/support/postgres.py; skipped where none is installed).

    python benchmarks/bench_lessons.py

Goals: the rerun ratio under 1.3 (the lesson adds a bar, not a second page); both databases well
under a round trip a student notices (100 ms).
"""
from __future__ import annotations

import os
import tempfile

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
os.environ.setdefault("HOPFIELD_DATA_DIR", tempfile.mkdtemp(prefix="bench-lessons-"))
os.environ.setdefault("HOPFIELD_UPLOAD_DIR", tempfile.mkdtemp(prefix="bench-lessons-uploads-"))
from benchmarks.common import interleaved, print_table_head  # noqa: E402
from tests.support import postgres  # noqa: E402
from tests.support.apptest import open_app  # noqa: E402
from ui.lessons import codes, database, lesson_store  # noqa: E402

VIEW = {"mode": "async", "presets": "letters/H,letters/O,letters/X", "q_amount": "0.2"}
BODY = {"format": "hopfield-lesson", "version": 1, "title": "Bench", "steps": [
    {"page": "classical", "view": VIEW, "title": "Predict", "question": "destination"}]}
ROUNDS = 15


def reruns() -> None:
    code, _ = lesson_store.create(BODY, "Bench")
    inside = open_app(query={"lesson": code})
    plain = open_app("classical", VIEW)
    assert "lesson_option" in [r.key for r in inside.radio] and not inside.exception
    t_lesson, t_plain = interleaved(inside.run, plain.run, rounds=ROUNDS)
    print_table_head("classical page rerun", "in a lesson, question pending (ms)", "without a lesson (ms)",
                     "ratio")
    print(f"| median of {ROUNDS} | {t_lesson * 1e3:.0f} | {t_plain * 1e3:.0f} | {t_lesson / t_plain:.2f} |")


def database_ops(address: str) -> tuple[float, float]:
    code, _ = lesson_store.create(BODY, "Bench", address)
    students = iter([codes.new_student() for _ in range(ROUNDS + 10)])
    save, _ = interleaved(lambda: lesson_store.predict(code, 0, next(students), "pattern:0", "", address),
                          lambda: None, rounds=ROUNDS)
    load, _ = interleaved(lambda: lesson_store.get(code, address), lambda: None, rounds=ROUNDS)
    database.forget(address)
    return save, load


def databases() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        lite = database_ops(f"sqlite:///{tmp}/lessons.sqlite3")
    why = postgres.missing()
    print()
    print_table_head("database", "save a prediction (ms)", "load a lesson (ms)")
    print(f"| SQLite (WAL, synchronous=FULL) | {lite[0] * 1e3:.2f} | {lite[1] * 1e3:.2f} |")
    if why:
        print(f"| PostgreSQL | skipped: {why} | |")
        return
    cluster = postgres.Cluster()
    try:
        pg = database_ops(cluster.database())
    finally:
        cluster.stop()
    print(f"| PostgreSQL (local socket, fsync on) | {pg[0] * 1e3:.2f} | {pg[1] * 1e3:.2f} |")
    print(f"| ratio PostgreSQL / SQLite | {pg[0] / lite[0]:.2f} | {pg[1] / lite[1]:.2f} |")


def main() -> None:
    reruns()
    databases()


if __name__ == "__main__":
    main()
