"""A classroom survives a dead process (deploy/supervisor.py, deploy/classroom.py).

The back-off and the restart on their own, with the clock handed in; then the launcher on
loopback with 2 app processes behind nginx: one is killed with SIGKILL while two students
work, one on each process. The other student keeps working, the killed one's student
reconnects through nginx with their cookie and their link (an upload in it) and is served,
the killed process comes back on its port; nginx killed too comes back; SIGTERM then stops
everything (exit 0). Bounded: the launcher is killed after TIME_LIMIT_S whatever happens.
"""
from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs

from deploy.supervisor import Backoff, Child
from tests.support.launcher import (
    Launcher,
    needs_nginx,
    pid_alive,
    port_open,
    websocket_status,
)
from tests.support.st_client import OK, StClient
from tests.support.student import png


def test_backoff_restarts_at_once_then_doubles_while_it_keeps_dying():
    b = Backoff(first_s=1, longest_s=8, settled_s=60)
    assert [b.next_delay(lived_s=2) for _ in range(6)] == [0, 1, 2, 4, 8, 8]
    assert b.next_delay(lived_s=600) == 0  # it ran fine for a while: at once again
    assert b.next_delay(lived_s=1) == 1


def _child(tmp_path: Path, script: str, messages: list[str]) -> Child:
    return Child("worker", [sys.executable, "-c", script], tmp_path / "worker.log",
                 messages.append, backoff=Backoff(first_s=1, longest_s=4, settled_s=60))


def test_a_child_that_exits_is_started_again_after_its_backoff(tmp_path):
    messages: list[str] = []
    restarted: list[int] = []
    child = _child(tmp_path, "import sys; print('ran', flush=True); sys.exit(3)", messages)
    child.on_restart = lambda c: restarted.append(c.proc.pid)
    first = child.start()
    first.wait(timeout=30)
    t = child.started_at + 0.5
    child.check(now=t)  # first exit: due again at once
    assert messages[-1].startswith("worker exited with code 3 after 0.5 s; starting it again;")
    child.check(now=t)
    assert child.proc is not first and child.restarts == 1 and restarted == [child.proc.pid]
    assert "started again" in messages[-1]
    child.proc.wait(timeout=30)
    t = child.started_at + 0.5
    child.check(now=t)  # a second quick exit: 1 s later
    assert "starting it again in 1 s (2 quick exits in a row)" in messages[-1]
    child.check(now=t + 0.5)
    assert child.restarts == 1, "started before its back-off was over"
    child.check(now=t + 1.0)
    assert child.restarts == 2
    child.proc.wait(timeout=30)
    assert (tmp_path / "worker.log").read_text().count("ran") == 3


LAUNCHER = r"""
import sys, time
from pathlib import Path
from deploy.supervisor import Child
child = Child("sleeper", [sys.executable, "-c",
                         "import time; print('started', flush=True); time.sleep(120)"],
              Path(sys.argv[1]), print)
print(child.start().pid, flush=True)
time.sleep(120)
"""


def test_a_child_ends_when_its_launcher_is_killed(tmp_path):
    """SIGKILL to the launcher (no chance to stop its children): each child gets SIGTERM from
    the kernel (PR_SET_PDEATHSIG, set in the child by deploy/die_with_parent.py), and it is the
    command itself, in a session of its own (its pid is the group's)."""
    import subprocess

    launcher = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(tmp_path / "s.log")],
                                stdout=subprocess.PIPE, text=True,
                                cwd=Path(__file__).resolve().parents[2])
    pid = None
    try:
        pid = int(launcher.stdout.readline())
        log, deadline = tmp_path / "s.log", time.monotonic() + 20
        while not log.exists() or "started" not in log.read_text():  # the command is running
            assert time.monotonic() < deadline, "the child never started its command"
            time.sleep(0.05)
        assert "time.sleep(120)" in Path(f"/proc/{pid}/cmdline").read_bytes().decode()
        assert os.getpgid(pid) == pid and os.getsid(pid) == pid
        launcher.kill()
        launcher.wait(timeout=10)
        deadline = time.monotonic() + 10
        while pid_alive(pid):
            assert time.monotonic() < deadline, "the child outlived its launcher"
            time.sleep(0.05)
    finally:
        launcher.kill()
        launcher.wait(timeout=10)
        if pid is not None and pid_alive(pid):  # the test failed: end what it started
            os.kill(pid, signal.SIGKILL)


def test_what_a_dead_child_leaves_in_its_group_goes_with_it(tmp_path):
    """nginx's workers outlive a master killed with SIGKILL and keep its port: the
    supervisor ends the process group before it starts the master again."""
    pid_file = tmp_path / "left.pid"
    script = ("import subprocess, sys; p = subprocess.Popen([sys.executable, '-c', "
              "'import time; time.sleep(60)']); "
              f"open({str(pid_file)!r}, 'w').write(str(p.pid)); sys.exit(0)")
    messages: list[str] = []
    child = _child(tmp_path, script, messages)
    child.start().wait(timeout=30)
    left = int(pid_file.read_text())
    assert pid_alive(left)
    child.check()
    deadline = time.monotonic() + 10
    while pid_alive(left) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pid_alive(left), "a process the dead child left behind is still running"
    child.signal(signal.SIGTERM)
    child.check(now=time.monotonic() + 60)  # (started again: stop it)
    child.signal(signal.SIGTERM)
    child.wait(time.monotonic() + 10)


def _store_heading(c: StClient) -> str:
    return next((t for t in c.texts() if t.startswith("Pattern store")), "")


def _student_on(url: str, wanted: set[str], tries: int = 6) -> dict[str, StClient]:
    """New students (each a client with its own cookies) until one sits on each process of
    `wanted` (nginx deals new browsers out in turn); the others are closed."""
    by_route: dict[str, StClient] = {}
    for _ in range(tries):
        c = StClient(url, timeout=60)
        c.connect()
        route = c._cookie("hopfield_route")
        if route in wanted and route not in by_route:
            by_route[route] = c
        else:
            c.close()
        if set(by_route) == wanted:
            break
    assert set(by_route) == wanted, f"students landed on {sorted(by_route)} only"
    return by_route


@needs_nginx
def test_a_killed_process_comes_back_and_its_students_are_served_meanwhile():
    room = Launcher("--processes", "2", "--warm", "none",
                    "--frame-ancestors", "https://lms.example.org")
    try:
        room.wait_for(r"ready: http://", timeout=90)
        nginx_pid = room.nginx_pid()
        pids = {f"127.0.0.1:{port}": pid for pid, port in room.app_pids_and_ports()}
        students = _student_on(room.url, set(pids))
        (victim, gone), (survivor, stays) = students.items()

        # the student on the process about to die builds a link with an upload in it
        run = gone.open("classical")
        assert run.status in OK and not run.errors, run
        run = gone.upload("uploader", "mine.png", png(2718))
        assert not run.errors and _store_heading(gone).startswith("Pattern store (4/"), run
        link = gone.query_string
        assert re.search(r"(^|,)upload/[0-9a-f]{24}($|,)",
                         parse_qs(link)["presets"][0]), link
        run = stays.open("classical")
        assert run.status in OK and not run.errors, run

        os.kill(pids[victim], signal.SIGKILL)
        # at once: a request whose cookie names the dead process is served by the other
        # one, and the answer names that one in a new cookie
        status, headers = _get_headers(room.url + "/", {"Cookie": f"hopfield_route={victim}"})
        assert status == 200
        served_by = headers["X-Upstream"].split(",")[-1].strip()
        if served_by != victim:  # (not if the new process already took the connection)
            assert f"hopfield_route={survivor};" in headers.get("Set-Cookie", ""), headers
        # the other process's student keeps working on the same websocket
        run = stays.set_value("q_seed", 5)  # a change of settings: a new run, sent to the player
        assert run.status in OK and not run.errors, run
        status, headers = _get_headers(room.url + "/_stcore/health",
                                       {"Cookie": f"hopfield_route={survivor}"})
        assert status == 200 and headers["X-Upstream"] == survivor, headers

        # the dead one's student reconnects, with the browser's cookies and the link
        again = StClient(room.url, timeout=60)
        for cookie in gone.jar:
            again.jar.set_cookie(cookie)
        again.connect()
        run = again.open("classical", link)
        assert run.status in OK and not run.errors, run
        assert _store_heading(again) == "Pattern store (4/40)", _store_heading(again)
        assert not [t for t in again.texts("alert") if "does not have" in t]
        for c in (gone, stays, again):
            c.close()

        # the killed process comes back, on its port, and the launcher never stopped
        room.wait_for(rf"app \d \(port {victim.rsplit(':', 1)[1]}\) was killed by SIGKILL", 10)
        room.wait_for(rf"app \d \(port {victim.rsplit(':', 1)[1]}\) is back", 60)
        assert _get_headers(f"http://{victim}/_stcore/health")[0] == 200
        assert room.proc.poll() is None and pid_alive(nginx_pid)
        assert pid_alive(pids[survivor]), "the process that was not killed was restarted"

        # the foreign Host is refused through nginx too (the apps see the browser's Host)
        assert websocket_status(room.port, "evil.example") == 403
        assert websocket_status(room.port, f"127.0.0.1:{room.port}") == 101
        # nginx's own frame policy, one header
        status, headers = _get_headers(room.url + "/")
        assert headers.get_all("Content-Security-Policy") == [
            "frame-ancestors 'self' https://lms.example.org"], headers
        assert "X-Frame-Options" not in headers

        # nginx killed: started again, the class reconnects to the same address
        os.kill(nginx_pid, signal.SIGKILL)
        room.wait_for(r"nginx is back", 30)
        assert _get_headers(room.url + "/_stcore/health")[0] == 200

        # only SIGTERM stops everything
        every_pid = [*pids.values(), *room.restarted_pids()]
        room.proc.send_signal(signal.SIGTERM)
        assert room.proc.wait(timeout=30) == 0, room.output()
        assert not port_open(room.port)
        assert not [p for p in every_pid if pid_alive(p)]
        assert not [a for a in pids if port_open(int(a.rsplit(":", 1)[1]))]
    finally:
        room.close()


def _get_headers(url: str, headers: dict | None = None):
    import urllib.error
    import urllib.request
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
            r.read()
            return r.status, r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.headers

