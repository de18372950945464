"""One live class (the ready lesson "Memories as valleys") across the deploy's two app processes (`deploy/classroom.py --processes 2`,
nginx in front, the lessons' database shared), driven by the protocol client
(tests/support/st_client.py): the teacher's session on the first process, the students' on the
second (each reached on its own port: the processes nginx routes to). Every answer is counted, the
teacher's counts on one process show the students of the other, the reveal opens their outcome,
Next reaches every student. Then the students' process is killed (SIGKILL) in the middle of the
class: its students reconnect through nginx with their links and keep their identity and their
answers; nothing counted is lost. A poll is what the browser's 2 s timer does (StClient.tick)."""
from __future__ import annotations

import os
import signal
from urllib.parse import parse_qs

import pytest

from tests.support.launcher import NGINX, Launcher
from tests.support.st_client import StClient
from ui.lessons import ready
from ui.live import class_store
from ui.pages import lesson_steps

STUDENTS = 6


@pytest.fixture(scope="module")
def room():
    if NGINX is None:
        pytest.skip("nginx is not installed: apt-get install -y nginx-light (or nginx)")
    launched = Launcher("--processes", "2", "--warm", "none")  # the watchdog allows 120 s in all
    try:
        launched.wait_for(r"ready: http://", timeout=90)
        yield launched
    finally:
        launched.close()


def client(url: str) -> StClient:
    c = StClient(url, timeout=60)
    c.connect()
    return c


def link(c: StClient) -> dict:
    return {k: v[0] for k, v in parse_qs(c.query_string).items()}


def metric(c: StClient, label: str) -> str | None:
    return next((el.proto.body for el in c.elements.values() if el.kind == "metric" and el.label == label), None)


def test_one_class_across_two_processes_survives_one_killed(room):
    (_, port_a), (pid_b, port_b) = room.app_pids_and_ports()
    url_a, url_b = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    ready.keep_all(lesson_steps.problems)  # a ready lesson, as a teacher would take it
    lesson = next(r.code for r in ready.read_all(lesson_steps.problems) if r.name == "1-memories-as-valleys")
    code, key = class_store.start(lesson)
    teacher = client(url_a)
    teacher.open("", f"lesson={lesson}&class={code}&ckey={key}")
    assert not teacher.exceptions() and teacher.has("class_reveal")

    students = []
    for i in range(STUDENTS):
        s = client(url_b)
        s.open("", f"join={code}")  # the QR code's link
        assert s.has("class_send"), s.texts()
        options = list(s.widget("class_option_0").proto.options)
        s.set_value("class_option_0", options[i % 3])
        s.click("class_send")
        assert not s.exceptions()
        students.append(s)
    assert class_store.tally(code, 0).answered == STUDENTS  # every answer counted, once

    teacher.tick()  # the teacher's poll, on the other process
    assert metric(teacher, "Joined") == str(STUDENTS) and metric(teacher, "Predicted") == str(STUDENTS)
    teacher.click("class_reveal")
    assert 0 in class_store.state(code).revealed
    for s in students[:3]:
        s.tick()  # the students' poll: the browser's 2 s timer
        assert any("Your teacher has shown the answer" in t for t in s.texts()), s.texts()

    ids = [link(s)["student"] for s in students]
    os.kill(pid_b, signal.SIGKILL)  # the students' process dies in the middle of the class
    teacher.click("class_next_t")
    assert class_store.state(code).step == 1
    for s, sid in zip(students, ids):  # each reconnects, to the living process, with its link
        again = client(room.url)  # through nginx, to a living process
        again.open("", s.query_string)
        assert link(again)["student"] == sid and link(again)["class"] == code
        assert link(again)["step"] == "2", again.query_string  # Next reached them
        assert not again.exceptions()
        again.close()
    assert class_store.tally(code, 0).answered == STUDENTS and class_store.state(code).joined == STUDENTS
    assert all(class_store.answers_of(code, sid)[0] for sid in ids)  # nothing counted is lost
    teacher.close()
