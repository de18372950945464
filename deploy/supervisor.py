"""Keep the classroom's processes running: start one, notice that it ended, start it again.

A `Child` is one command (an app process, nginx). `check()` is called every few tenths of
a second by the launcher's loop: when the process has ended it is started again with the
same command (so an app process comes back on its port and nginx's upstream stays valid),
at once the first time, then after a back-off that doubles while it keeps dying soon
after each start. Every exit and restart is logged. Only `stop()` ends it for good.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Backoff:
    """Seconds to wait before the next start, from how long the last run lived."""
    first_s: float = 1.0      # the wait after the second quick exit in a row
    longest_s: float = 60.0
    settled_s: float = 60.0   # a run at least this long was healthy: the next start is at once
    quick_exits: int = 0      # exits in a row, each within settled_s of its start

    def next_delay(self, lived_s: float) -> float:
        if lived_s >= self.settled_s:
            self.quick_exits = 0
        delay = 0.0 if self.quick_exits == 0 else \
            min(self.longest_s, self.first_s * 2 ** (self.quick_exits - 1))
        self.quick_exits += 1
        return delay


DIE_WITH_PARENT = Path(__file__).with_name("die_with_parent.py")


def with_parent(cmd: list[str]) -> list[str]:
    """`cmd` started through die_with_parent.py: SIGTERM to it if the launcher itself dies."""
    return [sys.executable, str(DIE_WITH_PARENT), str(os.getpid()), *cmd]


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


class Child:
    """One supervised process, in a process group of its own (Ctrl-C reaches only the
    launcher, which stops its children in order; and the group takes along what a child
    leaves behind: nginx's workers outlive a killed master and would keep its port)."""

    def __init__(self, name: str, cmd: list[str], log_path: Path, log: Callable[[str], None],
                 cwd: Path | None = None, env: dict[str, str] | None = None,
                 backoff: Backoff | None = None,
                 on_restart: Callable[[Child], None] | None = None):
        self.name, self.cmd, self.log_path, self.log = name, cmd, log_path, log
        self.cwd, self.env = cwd, env
        self.backoff = backoff or Backoff()
        self.on_restart = on_restart
        self.proc: subprocess.Popen | None = None
        self.started_at = 0.0
        self.restart_at: float | None = None   # when an ended process is due to start again
        self.restarts = 0

    def start(self) -> subprocess.Popen:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as out:
            self.proc = subprocess.Popen(with_parent(self.cmd), cwd=self.cwd, env=self.env,
                                         stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        self.started_at = time.monotonic()
        return self.proc

    def check(self, now: float | None = None) -> None:
        """Restart the process if it has ended (after its back-off)."""
        now = time.monotonic() if now is None else now
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.restart_at = None
                self.start()
                self.restarts += 1
                self.log(f"{self.name}: started again, pid {self.proc.pid} "
                         f"(restart {self.restarts})")
                if self.on_restart:
                    self.on_restart(self)
            return
        if self.proc is None or self.proc.poll() is None:
            return
        self._kill_group()
        lived = now - self.started_at
        delay = self.backoff.next_delay(lived)
        quick = self.backoff.quick_exits
        self.log(f"{self.name} {describe_exit(self.proc.returncode)} after {lived:.1f} s; "
                 + (f"starting it again in {delay:.0f} s ({quick} quick exits in a row); "
                    if delay else "starting it again; ")
                 + f"see {self.log_path}")
        self.restart_at = now + delay

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int) -> None:
        if self.alive():
            try:
                self.proc.send_signal(sig)
            except ProcessLookupError:
                pass

    def wait(self, deadline: float) -> None:
        """Wait until `deadline` (monotonic); then kill the process and its group."""
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._kill_group()

    def _kill_group(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
