"""The one way the tests and benchmarks start the app: `streamlit run app.py` on a free port.

The server runs from the repository (so its .streamlit/config.toml applies), headless, on
127.0.0.1 and a free port (or a given one), with the test session's environment (tests/
conftest.py puts HOPFIELD_UPLOAD_DIR in a throw-away folder). Its stdout and stderr go to a
log file that a test can read (`log()`), e.g. to assert that no traceback was printed.
`wait_healthy()` polls /_stcore/health; `skip_unless_healthy()` turns a server that cannot
start into a pytest skip with the reason. Another script (a benchmark's bare peer app) or
folder runs the same way (`script`, `app_dir`).
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, port: int | None = None, env: dict | None = None, extra: list[str] = (),
                 app_dir: Path = ROOT, script: str = "app.py", log_path: Path | None = None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        if log_path is None:
            fd, name = tempfile.mkstemp(prefix="st-server-", suffix=".log")
            self.log_path = Path(name)
        else:
            self.log_path = Path(log_path)
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        cmd = [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true",
               "--server.address", "127.0.0.1", "--server.port", str(self.port),
               "--browser.gatherUsageStats", "false", *extra]
        try:
            self.proc = subprocess.Popen(cmd, cwd=app_dir, env=dict(env or os.environ),
                                         stdout=fd, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL)
        finally:
            os.close(fd)

    def healthy(self) -> bool:
        try:
            with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(
                    self.url + "/_stcore/health", timeout=2) as r:
                return r.status == 200
        except OSError:
            return False

    def wait_healthy(self, timeout: float = 60) -> None:
        """Poll /_stcore/health every 0.1 s; raises RuntimeError (exited) or TimeoutError."""
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with code {self.proc.returncode}:\n"
                                   f"{self.log()[-2000:]}")
            if self.healthy():
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"streamlit did not answer /_stcore/health within "
                                   f"{timeout:.0f} s:\n{self.log()[-2000:]}")
            time.sleep(0.1)

    def skip_unless_healthy(self, timeout: float = 45) -> None:
        try:
            self.wait_healthy(timeout)
        except (RuntimeError, TimeoutError) as e:
            self.stop()
            pytest.skip(f"the streamlit server could not start: {e}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def tail(self, n: int = 4000) -> str:
        return self.log()[-n:]

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15) -> int | None:
        """Send `sig` (SIGTERM: Streamlit's own clean shutdown) and wait; kill if it hangs."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        return self.proc.returncode


def tracebacks(log: str) -> list[str]:
    """The tracebacks in a server log, each with the lines that follow it (up to 25)."""
    lines = log.splitlines()
    return ["\n".join(lines[i:i + 25]) for i, line in enumerate(lines)
            if "Traceback (most recent call last)" in line]
