"""deploy/classroom.py as a subprocess for the deploy tests, and what they check with it.

`Launcher` starts it on loopback (a free nginx port, its own work dir), reads its output
line by line and kills it and every child after TIME_LIMIT_S whatever the test is doing.
`close()` copies its logs to artifacts/deploy/. `websocket_status` opens Streamlit's
websocket by hand with a chosen Host header and returns the HTTP status of the handshake.
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

import pytest

from tests.support.server import free_port

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "deploy"
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx")
                                       if Path(p).exists()), None)
TIME_LIMIT_S = 120  # the whole launcher is killed after this, whatever the test is doing

needs_nginx = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed: apt-get install -y nginx-light (or nginx)")


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purpose
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def websocket_status(port: int, host: str, timeout: float = 20) -> int:
    """The HTTP status Streamlit (or nginx before it) answers to a websocket handshake on
    /_stcore/stream of 127.0.0.1:port that carries `Host: host`: 101 accepted, 403 refused."""
    request = (f"GET /_stcore/stream HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: streamlit\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(request.encode())
        status_line = s.recv(4096).split(b"\r\n", 1)[0].decode()
    return int(status_line.split()[1])


class Launcher:
    """deploy/classroom.py as a subprocess, its stdout read line by line."""

    def __init__(self, *args: str):
        self.workdir = Path(tempfile.mkdtemp(prefix="classroom-test-"))
        self.port = free_port()
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
        """The first line (already printed, or printed within `timeout`) matching `pattern`."""
        for line in list(self.lines):
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
        """(pid, port) of each app process as first started."""
        return [(int(m.group(1)), int(m.group(2))) for line in self.lines
                if (m := re.search(r"app \d+: pid (\d+), http://127\.0\.0\.1:(\d+)", line))]

    def restarted_pids(self) -> list[int]:
        return [int(m.group(1)) for line in self.lines
                if (m := re.search(r": started again, pid (\d+)", line))]

    def nginx_pid(self) -> int:
        return int(self.wait_for(r"nginx: pid (\d+)", 1).group(1))

    def access_log(self) -> Path:
        return self.workdir / "nginx" / "logs" / "access.log"

    def kill_all(self) -> None:
        """The global time-out: the launcher and every child, at once."""
        pids = [p for p, _ in self.app_pids_and_ports()] + self.restarted_pids()
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
