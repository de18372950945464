"""The fair gate of heavy runs (ui/serving/run_queue.py), with real threads: first in first out, never
more than `slots` computing, the positions a waiting run is told, cancel (waiting, running),
single flight, an error that does not wedge the gate, a thread that stops while it holds a
place; and the sentences a waiting session reads (ui/serving/run_queue_view.py)."""
from __future__ import annotations

import os
import threading
import time

import pytest

from tests.support.waits import LIMIT, until
from ui.serving import run_queue
from ui.serving.run_queue import Cancelled, Gate, Waiting


class Worker(threading.Thread):
    """A session: joins the gate in its own thread, waits, computes or gets the result."""

    def __init__(self, gate: Gate, key, compute=None, seconds: float = 1.0):
        super().__init__(daemon=True)
        self.gate, self.key, self.seconds = gate, key, seconds
        self.compute = compute or (lambda ticket: key)
        self.waits: list[Waiting] = []
        self.joined, self.started_computing = threading.Event(), threading.Event()
        self.result = self.error = self.ticket = None

    def run(self):
        self.ticket = self.gate.join(self.key, self.seconds)
        self.joined.set()

        def compute(ticket):
            self.started_computing.set()
            return self.compute(ticket)
        try:
            self.result = self.ticket.run(compute, self.waits.append, poll=0.01)
        except BaseException as e:  # kept for the test to look at
            self.error = e

    def begin(self) -> Worker:
        self.start()
        assert self.joined.wait(LIMIT)
        return self

    def end(self) -> Worker:
        self.join(LIMIT)
        assert not self.is_alive(), f"{self.key} is stuck"
        return self


def held(release: threading.Event):
    """A computation that runs until `release` is set."""
    def compute(ticket):
        assert release.wait(LIMIT)
        return "held"
    return compute


def test_slots_are_the_cores_unless_the_environment_says(monkeypatch):
    monkeypatch.delenv(run_queue.SLOTS_ENV, raising=False)
    assert run_queue.default_slots() == len(os.sched_getaffinity(0))
    monkeypatch.setenv(run_queue.SLOTS_ENV, "3")
    assert run_queue.default_slots() == Gate().slots == 3
    for bad in ("0", "-2", "two", ""):
        monkeypatch.setenv(run_queue.SLOTS_ENV, bad)
        assert run_queue.default_slots() == len(os.sched_getaffinity(0))


def test_first_in_first_out_with_the_positions_each_is_told():
    gate, release, order = Gate(1), threading.Event(), []
    holder = Worker(gate, "holder", held(release), seconds=8.0).begin()
    assert holder.started_computing.wait(LIMIT)
    workers = []
    for i in range(1, 5):
        w = Worker(gate, f"w{i}", lambda t, i=i: order.append(i), seconds=float(i)).begin()
        until(lambda: w.waits)
        first = w.waits[0]
        assert (first.ahead, first.must_finish) == (i, i)  # the holder, then those before it
        assert first.seconds == (8.0,) + tuple(float(k) for k in range(1, i))
        assert not first.shared
        workers.append(w)
    assert gate.counts() == (1, 4)
    release.set()
    for w in [holder] + workers:
        w.end()
        assert w.error is None, w.error
    assert order == [1, 2, 3, 4]
    for w in workers:  # the queue a run is told never grows (later runs queue behind it)
        aheads = [x.ahead for x in w.waits]
        assert aheads == sorted(aheads, reverse=True), aheads
    assert gate.counts() == (0, 0)


def test_never_more_than_slots_compute_at_once():
    gate, lock, active, most = Gate(2), threading.Lock(), [0], [0]

    def compute(ticket):
        with lock:
            active[0] += 1
            most[0] = max(most[0], active[0])
        until(lambda: most[0] >= 2, timeout=2.0)  # the second slot gets used
        time.sleep(0.02)
        with lock:
            active[0] -= 1
    workers = [Worker(gate, i, compute) for i in range(6)]
    for w in workers:
        w.start()
    for w in workers:
        w.end()
        assert w.error is None, w.error
    assert most[0] == 2


def test_waiting_runs_sleep_until_something_changes():
    """Waiters must not wake each other: each look tidies the gate, and when a look woke every
    other waiter they spun on the lock and the computing run took 3-6 times as long
    (benchmarks/bench_queue_wait.py). Four waiters that poll every 5 s look a few times each."""
    gate, release, looks = Gate(1), threading.Event(), [0]
    tidy = gate._tidy

    def counted():
        looks[0] += 1
        tidy()
    gate._tidy = counted
    holder = Worker(gate, "holder", held(release)).begin()
    waiters = []
    for i in range(4):
        w = Worker(gate, i)
        w.run = (lambda w: lambda: setattr(w, "result", gate.run(w.key, w.compute, 1.0,
                                                                 w.waits.append, poll=5.0)))(w)
        w.start()
        waiters.append(w)
    until(lambda: all(w.waits for w in waiters))
    before = looks[0]
    time.sleep(0.5)
    assert looks[0] - before <= 4, f"{looks[0] - before} looks in 0.5 s by 4 sleeping waiters"
    release.set()
    holder.end()
    for w in waiters:
        w.end()
        assert w.result == w.key


def test_a_waiting_run_that_is_cancelled_leaves_its_place():
    gate, release, computed = Gate(1), threading.Event(), []
    holder = Worker(gate, "holder", held(release)).begin()
    assert holder.started_computing.wait(LIMIT)
    first = Worker(gate, "first", lambda t: computed.append("first")).begin()
    second = Worker(gate, "second", lambda t: computed.append("second")).begin()
    assert second.ticket.poll().ahead == 2
    first.ticket.cancel()
    assert isinstance(first.end().error, Cancelled)  # it stopped waiting at once
    assert second.ticket.poll().ahead == 1 and gate.counts() == (1, 1)
    release.set()
    second.end()
    assert computed == ["second"] and gate.counts() == (0, 0)


def test_a_running_run_that_is_cancelled_frees_its_slot():
    gate, steps = Gate(1), []

    def long(ticket):
        for k in range(int(LIMIT / 0.01)):
            ticket.check(k, 1000)  # the progress callback: raises once cancelled
            steps.append(k)
            time.sleep(0.01)
        return "never cancelled"
    running = Worker(gate, "long", long).begin()
    assert running.started_computing.wait(LIMIT)
    nxt = Worker(gate, "next").begin()
    until(lambda: nxt.waits)
    running.ticket.cancel()
    assert isinstance(running.end().error, Cancelled)
    assert nxt.end().result == "next"
    assert len(steps) < LIMIT / 0.01 and gate.counts() == (0, 0)


def test_single_flight_computes_once_and_both_get_the_result():
    gate, release, calls = Gate(1), threading.Event(), []
    value = object()

    def compute(ticket):
        calls.append(threading.current_thread().name)
        ticket.check(1, 4)  # the others see how far it is
        assert release.wait(LIMIT)
        return value
    first = Worker(gate, ("curves", 100), compute).begin()
    assert first.started_computing.wait(LIMIT)
    second = Worker(gate, ("curves", 100), compute).begin()
    until(lambda: second.waits)
    assert second.waits[0] == Waiting(0, 0, (), True, (1, 4))
    assert gate.counts() == (1, 0)  # one run, shared
    release.set()
    assert first.end().result is value and second.end().result is value
    assert calls == [first.name] and not second.started_computing.is_set()


def test_a_session_joins_the_same_run_while_it_is_queued():
    gate, release = Gate(1), threading.Event()
    holder = Worker(gate, "holder", held(release), seconds=5.0).begin()
    assert holder.started_computing.wait(LIMIT)
    first = Worker(gate, "same", seconds=2.0).begin()
    second = Worker(gate, "same", seconds=2.0).begin()
    until(lambda: second.waits)
    assert second.waits[0] == Waiting(1, 1, (5.0,), True)
    assert gate.counts() == (1, 1)
    release.set()
    assert first.end().result == second.end().result == "same"
    assert not second.started_computing.is_set()


def test_when_the_session_computing_a_shared_run_cancels_the_next_one_computes_it():
    gate, calls = Gate(1), []

    def compute(ticket):
        calls.append(threading.current_thread().name)
        if len(calls) == 1:
            until(lambda: ticket.cancelled)
            ticket.check()
        return "result"
    first = Worker(gate, "k", compute).begin()
    assert first.started_computing.wait(LIMIT)
    second = Worker(gate, "k", compute).begin()
    until(lambda: second.waits)
    first.ticket.cancel()
    assert isinstance(first.end().error, Cancelled)
    assert second.end().result == "result" and calls == [first.name, second.name]
    assert gate.counts() == (0, 0)


def test_an_error_in_one_run_does_not_wedge_the_gate():
    gate, release = Gate(1), threading.Event()

    def broken(ticket):
        assert release.wait(LIMIT)
        raise ValueError("a bug in the computation")
    first = Worker(gate, "broken", broken).begin()
    assert first.started_computing.wait(LIMIT)
    shared = Worker(gate, "broken", broken).begin()
    other = Worker(gate, "other").begin()
    until(lambda: other.waits)
    release.set()
    assert isinstance(first.end().error, ValueError)
    assert isinstance(shared.end().error, ValueError)  # the same run: the same error
    assert not shared.started_computing.is_set()
    assert other.end().result == "other" and gate.counts() == (0, 0)


@pytest.mark.parametrize("where", ["waiting", "computing"])
def test_a_thread_that_stops_while_it_holds_a_place_gives_it_up(where):
    """A session that went away (its script thread ended) without leaving the gate."""
    gate, release = Gate(1), threading.Event()
    if where == "waiting":
        holder = Worker(gate, "holder", held(release)).begin()
        assert holder.started_computing.wait(LIMIT)
    gone = threading.Thread(target=gate.join, args=("gone",), daemon=True)
    gone.start()
    gone.join(LIMIT)
    # its slot (computing) or its place in the queue (waiting) was given up
    assert gate.counts() == ((0, 0) if where == "computing" else (1, 0))
    nxt = Worker(gate, "next").begin()
    release.set()
    assert nxt.end().result == "next" and gate.counts() == (0, 0)


def test_the_waiting_sentences():
    from ui.serving.run_queue_view import about, waiting_text

    assert waiting_text(Waiting(1, 1, (8.2,))) == (
        "1 run ahead of yours; yours starts when it finishes (about 8 s of computing on a "
        "quiet server).")
    assert waiting_text(Waiting(2, 1, (8.0, 3.4)), waited=12.4) == (
        "2 runs ahead of yours; yours starts when one finishes (about 3 to 8 s of computing "
        "each on a quiet server). Waiting for 12 s.")
    assert waiting_text(Waiting(4, 3, (1.0,) * 4)) == (
        "4 runs ahead of yours; yours starts when 3 of them have finished (about 1 s of "
        "computing each on a quiet server).")
    assert waiting_text(Waiting(1, 1, (5.0,), shared=True)) == (
        "Another session asked for this same run (the same settings): you will both get its "
        "result. 1 run ahead of it; it starts when it finishes (about 5 s of computing on a "
        "quiet server).")
    assert waiting_text(Waiting(0, 0, (), True, (3, 8))) == (
        "Another session is computing this same run (the same settings) right now: 3 of 8 "
        "done. Its result shows here as soon as it is done.")
    assert about(0.2) == "about 1 s" and about(7.6) == "about 8 s"
