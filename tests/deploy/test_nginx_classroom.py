"""deploy/classroom.py on loopback: 2 app processes behind nginx, two students in Chromium.

Each student (a browser context of its own) opens the classical page, uploads a PNG and
steps the dynamics. nginx's access log then shows that every request of one student (page,
static files, the websocket, the upload PUT) went to one app process, and that the two
students were served by different processes. Then one app process is killed: the launcher
must stop nginx and the other process and exit non-zero. A second launcher is stopped with
SIGTERM: exit 0, nothing left running. Logs are copied to artifacts/deploy/.
"""
from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import importlib.util

import pytest

from tests.badfiles import encode, photo

ROOT = Path(__file__).resolve().parents[2]
# by path: a module named `deploy` may mean this folder or the repo's deploy/ to pytest
_spec = importlib.util.spec_from_file_location("classroom_launcher",
                                               ROOT / "deploy" / "classroom.py")
classroom_launcher = sys.modules.setdefault("classroom_launcher",
                                           importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(classroom_launcher)
render_nginx_conf = classroom_launcher.render_nginx_conf
ARTIFACTS = ROOT / "artifacts" / "deploy"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx")
                                       if Path(p).exists()), None)
TIME_LIMIT_S = 120  # the whole launcher is killed after this, whatever the test is doing
LOG_LINE = re.compile(r'"(?P<method>\S+) (?P<path>\S+) [^"]*" (?P<status>\d+) \d+ '
                      r'route=(?P<route>\S+) upstream=(?P<upstream>\S*)')

needs_nginx = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed: apt-get install -y nginx-light (or nginx)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purpose
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


class Launcher:
    """deploy/classroom.py as a subprocess, its stdout read line by line."""

    def __init__(self, *args: str):
        self.workdir = Path(tempfile.mkdtemp(prefix="classroom-test-"))
        self.port = _free_port()
        cmd = [sys.executable, str(ROOT / "deploy" / "classroom.py"), "--port", str(self.port),
               "--address", "127.0.0.1", "--workdir", str(self.workdir), "--nginx", NGINX, *args]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines: list[str] = []
        self._q: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._watchdog = threading.Timer(TIME_LIMIT_S, self.kill_all)
        self._watchdog.daemon = True
        self._watchdog.start()
        self.url = f"http://127.0.0.1:{self.port}"

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip())
            self._q.put(line.rstrip())
        self._q.put(None)

    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, pattern: str, timeout: float) -> re.Match:
        for line in self.lines:
            if m := re.search(pattern, line):
                return m
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._q.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                pytest.fail(f"launcher exited ({self.proc.wait()}) before {pattern!r}:\n"
                            + self.output())
            if m := re.search(pattern, line):
                return m
        pytest.fail(f"no {pattern!r} from the launcher in {timeout} s:\n" + self.output())

    def app_pids_and_ports(self) -> list[tuple[int, int]]:
        return [(int(m.group(1)), int(m.group(2))) for line in self.lines
                if (m := re.search(r"app \d+: pid (\d+), http://127\.0\.0\.1:(\d+)", line))]

    def nginx_pid(self) -> int:
        return int(self.wait_for(r"nginx: pid (\d+)", 1).group(1))

    def access_log(self) -> Path:
        return self.workdir / "nginx" / "logs" / "access.log"

    def kill_all(self) -> None:
        """The global time-out: the launcher and every child, at once."""
        pids = [p for p, _ in self.app_pids_and_ports()]
        if m := next((re.search(r"nginx: pid (\d+)", ln) for ln in self.lines
                      if "nginx: pid" in ln), None):
            pids.append(int(m.group(1)))
        for pid in [self.proc.pid, *pids]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def close(self) -> None:
        self._watchdog.cancel()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill_all()
                self.proc.wait()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = f"run-{self.port}"
        (ARTIFACTS / f"{name}-launcher.log").write_text(self.output() + "\n")
        if (self.workdir / "logs").exists():
            shutil.copytree(self.workdir / "logs", ARTIFACTS / f"{name}-apps", dirs_exist_ok=True)
        if (self.workdir / "nginx" / "logs").exists():
            shutil.copytree(self.workdir / "nginx" / "logs", ARTIFACTS / f"{name}-nginx",
                            dirs_exist_ok=True)
        shutil.rmtree(self.workdir, ignore_errors=True)


def test_nginx_config_renders():
    conf = render_nginx_conf(Path("/tmp/x"), "127.0.0.1:8501", ["127.0.0.1:1", "10.0.0.2:8601"],
                             20)
    assert '"127.0.0.1:1" app_0;' in conf and '"10.0.0.2:8601" app_1;' in conf
    assert "proxy_pass http://$backend;" in conf
    assert "server 10.0.0.2:8601 backup;" in conf and "server 127.0.0.1:1 backup;" in conf
    assert "client_max_body_size 21m;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Host $http_host;" in conf
    assert "ip_hash" not in conf.split("#")[0] and "{{" not in conf


@pytest.fixture
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: install it with `apt-get install -y chromium`")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def classroom(browser):
    if NGINX is None:
        pytest.skip("nginx is not installed: apt-get install -y nginx-light (or nginx)")
    room = Launcher("--processes", "2", "--warm", ",classical")
    try:
        room.wait_for(r"ready: http://", timeout=90)
        yield room
    finally:
        room.close()


def _wait_idle(pg) -> None:
    from tests.e2e.conftest import wait_idle
    wait_idle(pg)


def _parse_log(path: Path) -> list[dict]:
    return [m.groupdict() for line in path.read_text().splitlines() if (m := LOG_LINE.search(line))]


@needs_nginx
def test_two_students_sticky_and_spread(classroom, browser, tmp_path):
    img = tmp_path / "holiday.png"
    img.write_bytes(encode(photo(), "PNG"))
    app_ports = {port for _, port in classroom.app_pids_and_ports()}
    assert len(app_ports) == 2

    # open students until two of them sit on different processes (new browsers are dealt
    # out in turn, so the second one should already be on the other process)
    students = {}  # upstream -> (context, page, route)
    extra = []
    for _ in range(8):
        ctx = browser.new_context(viewport={"width": 1500, "height": 2000})
        pg = ctx.new_page()
        pg.set_default_timeout(30_000)
        resp = pg.goto(classroom.url + "/classical")
        upstream = resp.headers.get("x-upstream")
        assert upstream and int(upstream.rsplit(":", 1)[1]) in app_ports, resp.headers
        route = next(c["value"] for c in ctx.cookies() if c["name"] == "hopfield_route")
        if upstream in students:
            extra.append(ctx)
        else:
            students[upstream] = (ctx, pg, route)
        if len(students) == 2:
            break
    for ctx in extra:
        ctx.close()
    assert len(students) == 2, "8 browser sessions in a row all landed on one process"

    for upstream, (ctx, pg, route) in students.items():
        _wait_idle(pg)
        assert "classical Hopfield network" in pg.locator("h1").first.inner_text()
        assert pg.locator('[data-testid="stException"]').count() == 0
        pg.locator('[data-testid="stSidebar"] [data-testid="stFileUploaderDropzoneInput"]') \
            .first.set_input_files(str(img))
        pg.wait_for_function("() => document.body.innerText.includes('Pattern store (4/40)')")
        pg.get_by_role("button", name=re.compile("^(step )?Step$", re.I)).first.click()
        pg.wait_for_function("() => /step 1 of \\d+/.test(document.body.innerText)")
        _wait_idle(pg)
        assert pg.locator('[data-testid="stException"]').count() == 0, \
            pg.locator('[data-testid="stException"]').first.inner_text()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / f"student-on-{upstream.rsplit(':', 1)[1]}.png"))
    for ctx, _, _ in students.values():
        ctx.close()  # the websocket's log line is written when it closes

    routes = {route: upstream for upstream, (_, _, route) in students.items()}
    deadline = time.monotonic() + 10
    while True:
        entries = _parse_log(classroom.access_log())
        streams = {e["route"] for e in entries if e["path"].startswith("/_stcore/stream")}
        if set(routes) <= streams or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    by_route: dict[str, set[str]] = {}
    for e in entries:
        if e["route"] != "-":  # "-": a first request, before the browser had the cookie
            by_route.setdefault(e["route"], set()).add(e["upstream"])
    # sticky: every request that carried the cookie went to the process the cookie names
    assert all(ups == {route} for route, ups in by_route.items()), by_route
    for route, upstream in routes.items():
        assert route == upstream, (route, upstream)
        mine = [e for e in entries if e["route"] == route]
        kinds = {(e["method"], e["path"].split("?")[0]) for e in mine}
        assert ("GET", "/_stcore/stream") in kinds, sorted(kinds)
        assert any(m == "PUT" and p.startswith("/_stcore/upload_file/") for m, p in kinds), \
            sorted(kinds)
        # (the frontend first looks for the server under the page's path: /classical/_stcore/
        # health and host-config answer 404, as they do without nginx)
        failed = [(e["method"], e["path"], e["status"]) for e in mine if int(e["status"]) >= 400
                  and not (e["status"] == "404" and e["path"].startswith("/classical/_stcore/"))]
        assert not failed, failed
    # spread: the two students were served by the two different processes
    assert len(set(routes.values())) == 2

    # one app process dies: the launcher stops everything else and exits non-zero
    pids_ports = classroom.app_pids_and_ports()
    nginx_pid = classroom.nginx_pid()
    os.kill(pids_ports[0][0], signal.SIGKILL)
    assert classroom.proc.wait(timeout=30) == 1, classroom.output()
    assert not _pid_alive(nginx_pid) and not _port_open(classroom.port)
    for pid, port in pids_ports[1:]:
        assert not _pid_alive(pid) and not _port_open(port)


@needs_nginx
def test_sigterm_stops_nginx_and_every_app_process():
    room = Launcher("--processes", "1", "--warm", "none")
    try:
        room.wait_for(r"ready: http://", timeout=60)
        pids_ports = room.app_pids_and_ports()
        nginx_pid = room.nginx_pid()
        assert _port_open(room.port)
        room.proc.send_signal(signal.SIGTERM)
        assert room.proc.wait(timeout=30) == 0, room.output()
        assert not _pid_alive(nginx_pid) and not _port_open(room.port)
        for pid, port in pids_ports:
            assert not _pid_alive(pid) and not _port_open(port)
    finally:
        room.close()
