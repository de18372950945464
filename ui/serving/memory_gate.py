"""A process-wide reservation of memory for the heavy computations of every session. No
Streamlit here.

ui/serving/memory_plan.py allows PLAN_SLOTS (4) heavy computations of at most ui.serving.budget.RUN_BYTES
(150 MB) each at once. Every heavy computation estimates its peak bytes before it runs (the
*_bytes estimators of ui.serving.budget and of the core); `reserve(need)` holds those bytes from a pool
of PLAN_SLOTS x RUN_BYTES while it computes, so the plan holds whichever pages the class is on:
a run that does not fit waits, first come first served, until earlier runs release enough.

- A waiter sleeps until bytes are released: a release wakes only the first waiter, and only
  when its request now fits (each waiter waits on a condition of its own); a waiter that gets
  its bytes wakes the next one if that one fits too. Nobody polls or wakes the others for
  nothing (ui/serving/run_queue.py's Gate._admit says why that matters).
- The bytes are released when the block ends, whatever ends it: an error, or Streamlit's
  StopException / RerunException (BaseException subclasses) when a script is interrupted.
- Reentrant per thread: a computation inside another (a network built inside a run) runs
  within its caller's reservation and never waits again, so a thread cannot wait for itself.
- A request above the whole pool is clamped to the pool: it waits until it runs alone.
- Reserve inside the computation itself, after its cached inputs are loaded (a cache hit
  costs nothing), and never hold a reservation while waiting for something that a waiting
  thread may hold (ui.player.runs.model_for reserves before it asks the cache of networks).
"""
from __future__ import annotations

import threading
from collections import deque
from contextlib import contextmanager

from .budget import RUN_BYTES
from .memory_plan import PLAN_SLOTS


class _Waiter:
    def __init__(self, need: int, lock: threading.Lock):
        self.need, self.wake = need, threading.Condition(lock)


class Pool:
    """`size` bytes, handed out to computations first come, first served."""

    def __init__(self, size: int):
        self.size = int(size)
        self.looks = 0  # how often a waiter woke up to look (tests count them)
        self._lock = threading.Lock()
        self._reserved = 0
        self._queue: deque[_Waiter] = deque()  # the waiters, in the order they asked
        self._local = threading.local()        # this thread's depth of nested reservations

    def reserved(self) -> int:
        """Bytes held now."""
        return self._reserved

    def waiting(self) -> int:
        """Computations waiting for their bytes now."""
        return len(self._queue)

    def holds(self) -> bool:
        """Does this thread hold a reservation?"""
        return getattr(self._local, "depth", 0) > 0

    @contextmanager
    def reserve(self, nbytes: int):
        """Hold min(nbytes, size) bytes for the block, after waiting until they fit; nothing
        to wait for within a reservation this thread already holds, or for 0 bytes."""
        if self.holds() or nbytes <= 0:
            self._local.depth = getattr(self._local, "depth", 0) + 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        need = min(int(nbytes), self.size)
        self._acquire(need)
        self._local.depth = 1
        try:
            yield
        finally:
            self._local.depth = 0
            with self._lock:
                self._reserved -= need
                self._wake_first()

    def _acquire(self, need: int) -> None:
        with self._lock:
            if not self._queue and self._reserved + need <= self.size:
                self._reserved += need
                return
            me = _Waiter(need, self._lock)
            self._queue.append(me)
            try:
                while self._queue[0] is not me or self._reserved + need > self.size:
                    me.wake.wait()
                    self.looks += 1
            except BaseException:  # interrupted while waiting: give the place up
                self._queue.remove(me)
                self._wake_first()
                raise
            self._queue.popleft()
            self._reserved += need
            self._wake_first()  # the next one may fit too

    def _wake_first(self) -> None:
        """Wake the first waiter when its request fits now (the lock held)."""
        if self._queue and self._reserved + self._queue[0].need <= self.size:
            self._queue[0].wake.notify()


POOL = Pool(PLAN_SLOTS * RUN_BYTES)  # the process's pool: ui/serving/memory_plan.py's heavy runs


def reserve(nbytes: int):
    """POOL.reserve(nbytes): `with reserve(need): compute()`."""
    return POOL.reserve(nbytes)
