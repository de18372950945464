"""The real server's memory while sessions run at once: a sampler of its resident bytes and
one driver of N session threads, shared by the load tests that bound a class's memory."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

MB = 2 ** 20


class Sampler(threading.Thread):
    """The server's resident bytes every 0.1 s, the peak kept, until stopped."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.ps, self.pid, self.peak, self.halt = psutil.Process(pid), pid, 0, threading.Event()

    def rss(self) -> int:
        return self.ps.memory_info().rss

    def high_water(self) -> int:
        """The kernel's peak resident size of the process (VmHWM), or 0 where unknown."""
        status = Path(f"/proc/{self.pid}/status")
        if not status.exists():
            return 0
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        return 0

    def run(self) -> None:
        while not self.halt.wait(0.1):
            try:
                self.peak = max(self.peak, self.rss())
            except psutil.Error:
                return


@dataclass
class Measured:
    idle: int          # resident bytes before the sessions
    peak: int          # the largest resident bytes seen (sampled, or the kernel's high-water mark)
    seconds: float
    problems: dict     # session name -> what went wrong in it (empty lists when all went well)
    stuck: int         # sessions still running at the deadline

    def report(self) -> str:
        return (f"idle {self.idle / MB:.0f} MB, peak {self.peak / MB:.0f} MB, rise "
                f"{(self.peak - self.idle) / MB:.0f} MB, {self.seconds:.0f} s for "
                f"{len(self.problems)} sessions")

    def failures(self) -> dict:
        return {k: v for k, v in self.problems.items() if v}


def sessions_at_once(server, session, names, deadline_s: float) -> Measured:
    """session(url, name, barrier, problems) in a thread per name, started together (they
    meet at `barrier`), the server's memory sampled throughout; waits at most deadline_s."""
    sampler = Sampler(server.proc.pid)
    time.sleep(1.0)  # the warm-up ran before /_stcore/health answered
    idle = sampler.rss()
    sampler.start()
    barrier = threading.Barrier(len(names))
    out = {name: [] for name in names}
    threads = [threading.Thread(target=session, daemon=True, args=(server.url, name, barrier, p))
               for name, p in out.items()]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(max(1.0, deadline_s - (time.monotonic() - t0)))
    sampler.halt.set()
    sampler.join(5)
    return Measured(idle, max(sampler.peak, sampler.high_water()), time.monotonic() - t0, out,
                    sum(t.is_alive() for t in threads))
