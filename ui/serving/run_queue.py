"""A fair gate for the heavy runs of every session of this process. No Streamlit here.

One Streamlit process serves a class, each session's script in a thread of its own. Without
a gate, five students who press Run together share the cores five ways, and every run takes
about five times as long as alone (a tester measured an "about 8 s" phase diagram at 79-97 s).
With it, at most `slots` runs compute at once, one per core this process may use
(os.sched_getaffinity; $HOPFIELD_HEAVY_SLOTS, a positive integer, overrides it), and the others
wait in the order they asked (first in, first out), each in its own session's thread: a run
never holds another session's thread. A waiting run can ask how many runs are ahead of it.

Single flight: a run is named by a key (its parameters). While a run with the same key is
queued or computing, another session joins it instead of queueing a second copy, and gets
its result when it is done: five students who open the teacher's link at once compute it once.

Cancel: `Ticket.cancel()` (from any thread) sets a flag; a waiting run leaves the queue at
once, a computing one raises `Cancelled` at its next `Ticket.check()` (its progress callback).
A run that leaves (cancelled, interrupted by any exception that is not an error of the
computation, or whose thread has stopped) frees its slot; if other sessions had joined it,
the first of them computes it instead, in the same place. An error of the computation ends
the run for every session that joined it, and frees the slot.
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

from .boot import positive_int_env

SLOTS_ENV = "HOPFIELD_HEAVY_SLOTS"
POLL_SECONDS = 0.25  # a waiting run looks again (and its page updates) at least this often
COMPUTE, DONE = "compute", "done"


def default_slots() -> int:
    """$HOPFIELD_HEAVY_SLOTS when it is a positive integer, else the cores this process may
    use."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        cores = os.cpu_count() or 1
    return positive_int_env(SLOTS_ENV, max(1, cores))


class Cancelled(Exception):
    """The run was cancelled before it finished."""


@dataclass(frozen=True)
class Waiting:
    """Where a waiting run stands."""
    ahead: int                  # runs before it: computing now, then queued before it
    must_finish: int            # how many of them must finish before it starts
    seconds: tuple = ()         # their estimated seconds of computing, in that order
    shared: bool = False        # it waits for the same run, asked for by another session
    progress: tuple | None = None  # (done, total) of that run, when it is computing


@dataclass(eq=False)
class _Flight:
    key: object
    seconds: float
    state: str = "queued"       # queued, running, done, failed, dropped
    owner: Ticket | None = None  # the member who computes it
    members: list = field(default_factory=list)  # tickets, in the order they joined
    result: object = None
    error: BaseException | None = None
    progress: tuple | None = None


class Ticket:
    """One session's place in the gate: its own run, or a share in another session's."""

    def __init__(self, gate: Gate, flight: _Flight):
        self.gate, self.flight = gate, flight
        self.thread = threading.current_thread()  # a stopped thread's place is given up
        self._cancel = threading.Event()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Leave the gate: from the queue at once; a computing run stops at its next check."""
        self._cancel.set()
        self.gate._leave(self)

    def check(self, done: int | None = None, total: int | None = None) -> None:
        """The computation's progress callback calls this: raises Cancelled once the run is
        cancelled; (done, total) is shown to the sessions that share the run."""
        if self._cancel.is_set():
            raise Cancelled()
        if done is not None:
            self.flight.progress = (done, total)

    def poll(self, timeout: float = 0.0):
        """COMPUTE when this session is to compute now, DONE when the run has a result (or an
        error), else a Waiting, after at most `timeout` seconds of waiting for a change."""
        return self.gate._poll(self, timeout)

    def run(self, compute, on_wait=None, poll: float = POLL_SECONDS):
        """Wait for the turn of this run, then compute(self) in this thread and return its
        result; or return (raise) the result (error) that another session computed.
        on_wait(Waiting) is called at once and at least every `poll` seconds while waiting;
        whatever it raises makes this session leave. Raises Cancelled when cancelled."""
        try:
            turn = self.poll()
            while isinstance(turn, Waiting):
                if on_wait is not None:
                    on_wait(turn)
                turn = self.poll(poll)
            if turn == DONE:
                return self.gate._outcome(self)
            try:
                result = compute(self)
            except Cancelled:
                raise
            except Exception as e:  # the computation's own error: every member gets it
                self.gate._finish(self, error=e)
                raise
            self.gate._finish(self, result=result)
            return result
        finally:
            self.gate._leave(self)  # nothing when it has finished


class Gate:
    """At most `slots` runs compute at once; the others wait, first in, first out."""

    def __init__(self, slots: int | None = None):
        self.slots = int(slots) if slots else default_slots()
        self._cond = threading.Condition()
        self._queued: list[_Flight] = []
        self._running: list[_Flight] = []
        self._by_key: dict = {}  # key -> its queued or running flight

    def join(self, key, seconds: float = 0.0) -> Ticket:
        """This thread's place for the run `key` (estimated to compute for `seconds`): the
        end of the queue, or a share in the same run already queued or computing."""
        with self._cond:
            self._tidy()
            flight = self._by_key.get(key)
            if flight is None:
                flight = self._by_key[key] = _Flight(key, float(seconds))
                self._queued.append(flight)
            ticket = Ticket(self, flight)
            flight.members.append(ticket)
            if flight.owner is None:
                flight.owner = ticket
            self._admit()
            return ticket

    def run(self, key, compute, seconds: float = 0.0, on_wait=None, poll: float = POLL_SECONDS):
        """join(key, seconds).run(compute, on_wait, poll)."""
        return self.join(key, seconds).run(compute, on_wait, poll)

    def counts(self) -> tuple[int, int]:
        """(runs computing, runs waiting), runs shared by several sessions counted once."""
        with self._cond:
            self._tidy()
            return len(self._running), len(self._queued)

    # ---------------------------------------------------------------- under the lock
    def _poll(self, ticket: Ticket, timeout: float):
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                self._tidy()
                if ticket.cancelled:
                    raise Cancelled()
                flight = ticket.flight
                if flight.state in ("done", "failed"):
                    return DONE
                if flight.state == "running" and flight.owner is ticket:
                    return COMPUTE
                left = deadline - time.monotonic()
                if left <= 0:
                    return self._where(ticket)
                self._cond.wait(left)

    def _where(self, ticket: Ticket) -> Waiting:
        flight = ticket.flight
        shared = flight.owner is not ticket
        if flight.state == "running":  # another member is computing it
            return Waiting(0, 0, (), shared, flight.progress)
        before = self._running + self._queued[:self._queued.index(flight)]
        return Waiting(len(before), max(1, len(before) - self.slots + 1),
                       tuple(f.seconds for f in before), shared)

    def _outcome(self, ticket: Ticket):
        flight = ticket.flight
        if flight.state == "failed":
            raise flight.error
        return flight.result

    def _finish(self, ticket: Ticket, result=None, error: BaseException | None = None) -> None:
        with self._cond:
            flight = ticket.flight
            flight.result, flight.error = result, error
            flight.state = "failed" if error is not None else "done"
            self._drop(flight)

    def _leave(self, ticket: Ticket) -> None:
        with self._cond:
            self._leave_locked(ticket)
            self._admit()
            self._cond.notify_all()  # a cancelled waiter wakes to leave; the others move up

    def _leave_locked(self, ticket: Ticket) -> None:
        flight = ticket.flight
        if ticket not in flight.members:
            return
        flight.members.remove(ticket)
        if flight.owner is not ticket or flight.state in ("done", "failed"):
            return
        live = [t for t in flight.members if not t.cancelled]
        if live:  # the next member computes it, in the same place (and the same slot)
            flight.owner, flight.progress = live[0], None
            self._cond.notify_all()
        else:
            flight.owner, flight.state = None, "dropped"
            self._drop(flight)

    def _drop(self, flight: _Flight) -> None:
        for where in (self._queued, self._running):
            if flight in where:
                where.remove(flight)
        if self._by_key.get(flight.key) is flight:
            del self._by_key[flight.key]
        self._admit()
        self._cond.notify_all()  # its members have their result; the queue moved up

    def _tidy(self) -> None:
        """Give up the places of members whose thread has stopped (a session that went away
        while it waited or computed), then admit."""
        for flight in self._running + self._queued:
            for t in [t for t in flight.members if not t.thread.is_alive()]:
                self._leave_locked(t)
        self._admit()

    def _admit(self) -> None:
        """Start queued runs while a slot is free. Waiters are woken only when something
        changed: a waiter that woke the others each time it looked (every _poll tidies)
        kept them all spinning on the lock, and the computing run slowed 3-6 fold."""
        admitted = False
        while self._queued and len(self._running) < self.slots:
            flight = self._queued.pop(0)
            flight.state = "running"
            self._running.append(flight)
            admitted = True
        if admitted:
            self._cond.notify_all()


GATE = Gate()  # the process's gate: every session's heavy runs go through it
