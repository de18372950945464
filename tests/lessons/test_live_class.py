"""A live class in the database, on SQLite and on PostgreSQL (ui/live/class_store.py): joining,
one answer per student and step changeable until the reveal, the counts, the teacher key's
checks, the pace, the end and the idle expiry, the 500-student cap, the CSV, retention, and many
students answering at once."""
import csv
import io
import threading
import time

import pytest

from ui.lessons import codes, lesson_store
from ui.live import class_store as cs

BODY = {"version": 1, "title": "Memories as valleys", "steps": []}


@pytest.fixture
def lesson(db):
    code, _ = lesson_store.create(BODY, "Memories as valleys", db)
    return code


def test_a_class_starts_on_its_lessons_first_step_with_its_own_code_and_key(db, lesson):
    code, key = cs.start(lesson, db)
    assert codes.clean_code(code) == code and code != lesson and cs.key_opens(code, key, db)
    s = cs.state(code, db)
    assert (s.lesson, s.step, s.pace, s.joined, s.revealed, s.ended) == (lesson, 0, "follow", 0, {}, None)
    assert s.live() and not s.shown
    assert cs.state("ZZZZZZ", db) is None
    with pytest.raises(LookupError):
        cs.start("ZZZZZZ", db)


def test_joining_twice_is_joining_once_and_a_made_up_id_is_refused(db, lesson):
    code, _ = cs.start(lesson, db)
    a, b = codes.new_student(), codes.new_student()
    assert cs.join(code, a, db).joined == 1
    assert cs.join(code, a, db).joined == 1  # a reload, another process
    assert cs.join(code, b, db).joined == 2
    for bad in ("", "x" * 16 + "!", "robert'); DROP TABLE classes;--", None):
        with pytest.raises(ValueError):
            cs.join(code, bad, db)
    with pytest.raises(cs.Ended, match="no class"):
        cs.join("ZZZZZZ", a, db)


def test_one_answer_per_student_and_step_changeable_until_the_reveal(db, lesson):
    code, key = cs.start(lesson, db)
    students = [codes.new_student() for _ in range(5)]
    for s in students:
        cs.join(code, s, db)
    for s, option in zip(students, ["a", "a", "b", "c", "a"]):
        cs.answer(code, 0, s, option, "because", db)
    assert cs.tally(code, 0, db) == cs.Tally(5, 5, {"a": 3, "b": 1, "c": 1})
    cs.answer(code, 0, students[0], "b", "", db)  # changed its mind: still one answer
    assert cs.tally(code, 0, db) == cs.Tally(5, 5, {"a": 2, "b": 2, "c": 1})
    assert cs.answers_of(code, students[0], db)[0].option == "b"
    cs.reveal(code, key, 0, "b", db)
    assert cs.state(code, db).revealed == {0: "b"} and cs.state(code, db).shown
    with pytest.raises(cs.Closed):
        cs.answer(code, 0, students[1], "b", "", db)
    assert cs.tally(code, 0, db).counts == {"a": 2, "b": 2, "c": 1}  # the distribution at the reveal
    cs.reveal(code, key, 0, "c", db)  # a second reveal keeps the first right answer
    assert cs.state(code, db).revealed == {0: "b"}
    assert cs.tally(code, 1, db) == cs.Tally(5, 0, {})


def test_an_answer_needs_a_joined_student_a_choice_and_a_short_reason(db, lesson):
    code, _ = cs.start(lesson, db)
    s = codes.new_student()
    with pytest.raises(LookupError, match="Join"):
        cs.answer(code, 0, s, "a", "", db)
    cs.join(code, s, db)
    with pytest.raises(ValueError, match="at most 200"):
        cs.answer(code, 0, s, "a", "x" * 201, db)
    for option in ("", "o" * 65):
        with pytest.raises(ValueError):
            cs.answer(code, 0, s, option, "", db)
    assert cs.answer(code, 0, s, "a", "é, \"quoted\"\nand a line", db).reason.startswith("é")


def test_only_the_teachers_key_moves_reveals_paces_ends_and_reads(db, lesson):
    code, key = cs.start(lesson, db)
    other_code, other_key = cs.start(lesson, db)
    student = codes.new_student()
    cs.join(code, student, db)
    for wrong in (None, "", student, other_key, key.upper(), key[:-1] + ("0" if key[-1] != "0" else "1")):
        with pytest.raises(cs.WrongKey):
            cs.go(code, wrong, 1, db)
        with pytest.raises(cs.WrongKey):
            cs.reveal(code, wrong, 0, "a", db)
        with pytest.raises(cs.WrongKey):
            cs.set_pace(code, wrong, "free", db)
        with pytest.raises(cs.WrongKey):
            cs.end(code, wrong, db)
        with pytest.raises(cs.WrongKey):
            cs.answers(code, wrong, db)
    s = cs.state(code, db)
    assert (s.step, s.pace, s.revealed, s.ended) == (0, "follow", {}, None)  # nothing moved
    cs.go(code, key, 2, db)
    cs.set_pace(code, key, "free", db)
    assert (cs.state(code, db).step, cs.state(code, db).pace) == (2, "free")
    cs.set_pace(code, key, "follow", db)
    assert cs.state(code, db).pace == "follow"
    with pytest.raises(ValueError):
        cs.set_pace(code, key, "sprint", db)
    with pytest.raises(ValueError):
        cs.go(code, key, -1, db)


def test_a_class_ends_by_its_teacher_or_after_twelve_idle_hours(db, lesson, monkeypatch):
    code, key = cs.start(lesson, db)
    s = codes.new_student()
    cs.join(code, s, db)
    cs.answer(code, 0, s, "a", "", db)
    active = cs.state(code, db).active
    assert cs.state(code, db).live(active + 11.9 * 3600) and not cs.state(code, db).live(active + 12 * 3600)
    real = time.time
    monkeypatch.setattr(cs.time, "time", lambda: real() + 12 * 3600 + 5)  # twelve hours later
    with pytest.raises(cs.Ended, match="has ended"):
        cs.join(code, codes.new_student(), db)
    with pytest.raises(cs.Ended):
        cs.go(code, key, 1, db)
    monkeypatch.setattr(cs.time, "time", real)
    cs.end(code, key, db)
    assert cs.state(code, db).ended is not None and not cs.state(code, db).live()
    with pytest.raises(cs.Ended):
        cs.answer(code, 0, s, "b", "", db)
    assert [r["option"] for r in cs.answers(code, key, db)] == ["a"]  # the answers stay for the download


def test_a_class_takes_at_most_its_cap_of_students(db, lesson, monkeypatch):
    monkeypatch.setattr(cs, "MAX_STUDENTS", 3)
    code, _ = cs.start(lesson, db)
    ids = [codes.new_student() for _ in range(4)]
    for s in ids[:3]:
        cs.join(code, s, db)
    with pytest.raises(cs.Full, match="full"):
        cs.join(code, ids[3], db)
    assert cs.join(code, ids[0], db).joined == 3  # one already in may come back
    assert cs.MAX_STUDENTS == 3 and cs.state(code, db).joined == 3


def test_the_csv_holds_every_answer_one_cell_each_and_no_formula(db, lesson):
    code, key = cs.start(lesson, db)
    a, b = codes.new_student(), codes.new_student()
    for s in (a, b):
        cs.join(code, s, db)
    cs.answer(code, 0, a, "mirror", 'the "valley", then\na line', db)
    cs.answer(code, 0, b, "stored", "=HYPERLINK(\"http://x\")", db)
    cs.answer(code, 1, a, "not_sure", "", db)
    rows = cs.answers(code, key, db)
    assert [(r["step"], r["student"], r["option"]) for r in rows] == [(1, a, "mirror"), (1, b, "stored"), (2, a, "not_sure")]
    data = cs.csv_bytes(rows)
    assert data.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert table[0] == list(cs.CSV_COLUMNS) and len(table) == 4
    assert table[1][3] == 'the "valley", then\na line' and table[2][3] == "'=HYPERLINK(\"http://x\")"
    assert all(len(r) == 5 for r in table) and table[1][4][:2] == "20"


def test_answers_and_idle_classes_go_after_the_lessons_retention(db, lesson):
    code, key = cs.start(lesson, db)
    s = codes.new_student()
    cs.join(code, s, db)
    cs.answer(code, 0, s, "a", "", db)
    at = cs.answers_of(code, s, db)[0].at
    assert cs.prune(now=at + 29 * 86400, address=db) == 0 and cs.state(code, db) is not None
    assert cs.prune(now=at + 30 * 86400 + 1, address=db) == 1
    assert cs.state(code, db) is None  # idle as long: the class went with them


def test_many_students_answering_at_once_lose_nothing(db, lesson):
    code, key = cs.start(lesson, db)
    ids = [codes.new_student() for _ in range(40)]
    errors = []

    def student(s: str) -> None:
        try:
            cs.join(code, s, db)
            cs.answer(code, 0, s, "a" if ids.index(s) % 2 else "b", "", db)
            cs.answer(code, 0, s, "c", "", db) if ids.index(s) % 5 == 0 else None
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=student, args=(s,)) for s in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors[:3]
    t = cs.tally(code, 0, db)
    assert t.joined == 40 and t.answered == 40
    assert t.counts == {"c": 8, "a": 16, "b": 16}  # every 5th changed to c: 4 of the a's, 4 of the b's
    assert len(cs.answers(code, key, db)) == 40
