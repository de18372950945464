"""ui/serving/housekeeping.py: a class's memory given back (docs/classroom.md, "Running the server for a class").

The bad inputs and states tried: a closed tab whose reconnection window has passed (shut
down: its media files are gone), a tab still within the window (kept), a non-glibc C library
(every malloc step a no-op), a tidy-up that raises (logged, the loop goes on).
"""
from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from ui.serving import housekeeping

ROOT = Path(__file__).resolve().parents[3]
GLIBC = housekeeping._glibc() is not None


@pytest.mark.skipif(not GLIBC, reason="glibc's malloc only")
@pytest.mark.parametrize("tuned, mapped", [(False, 0), (True, 1)])
def test_tuned_malloc_maps_a_large_block_even_after_a_larger_one_was_freed(tuned, mapped):
    # glibc raises its mmap threshold to the size of a mapped block that is freed: after an
    # 8 MB array, a 1 MB one lands in the heap and its pages stay with the process when it
    # is freed. Tuned, the threshold stays at 256 KiB.
    code = f"""
        import ctypes
        from ui.serving import housekeeping
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc.restype = ctypes.c_void_p
        libc.free.argtypes = [ctypes.c_void_p]
        class Info(ctypes.Structure):
            _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks",
                        "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
        libc.mallinfo2.restype = Info
        if {tuned}:
            assert housekeeping.tune_malloc() == {{"M_ARENA_MAX": 2, "M_MMAP_THRESHOLD": 262144}}
        libc.free(libc.malloc(8 << 20))
        before = libc.mallinfo2().hblks
        block = libc.malloc(1 << 20)
        print(libc.mallinfo2().hblks - before)
    """
    assert int(_in_fresh_python(code).split()[-1]) == mapped


def _in_fresh_python(code: str) -> str:
    """Run `code` in a new interpreter at the repository's root; its stdout."""
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.skipif(not GLIBC, reason="glibc's malloc only")
def test_the_trim_returns_freed_heap_pages_to_the_system():
    # 8 MB mapped and freed raises the threshold, so the 4 MB blocks come from the heap;
    # freed, their pages stay resident until the trim
    out = _in_fresh_python("""
        import ctypes
        from ui.serving import housekeeping
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc.restype = ctypes.c_void_p
        libc.free.argtypes = [ctypes.c_void_p]
        libc.free(libc.malloc(8 << 20))
        blocks = [libc.malloc(4 << 20) for _ in range(8)]
        for b in blocks:
            ctypes.memset(b, 1, 4 << 20)
        for b in blocks[:-1]:
            libc.free(b)
        rss = lambda: int(open("/proc/self/statm").read().split()[1]) * 4096 >> 20
        before = rss()
        print(housekeeping.trim_malloc(), before - rss())
    """)
    trimmed, freed_mb = out.split()
    assert trimmed == "True" and int(freed_mb) >= 20


def test_the_start_up_leaves_about_300_000_objects_to_freeze():
    # docs/classroom.md's number: what a full collection would scan without the freeze
    out = _in_fresh_python("""
        from ui.serving import boot, housekeeping
        boot.warm()
        print(housekeeping.freeze_start_up())
    """)
    assert 200_000 < int(out.split()[-1]) < 400_000


def test_every_malloc_step_is_a_no_op_off_glibc(monkeypatch):
    monkeypatch.setattr(housekeeping.platform, "libc_ver", lambda: ("musl", "1.2"))
    assert housekeeping._glibc() is None
    assert housekeeping.tune_malloc() == {}
    assert housekeeping.trim_malloc() is False


def test_the_start_up_is_frozen_out_of_collections_and_later_garbage_still_goes():
    class Node:
        pass

    try:
        early = [Node()]
        frozen = housekeeping.freeze_start_up()
        # a frozen object that reference counting frees from now on leaves the count (another
        # thread's, the test runner's): the count can only fall, never rise without a freeze
        assert frozen > 0 and 0 < gc.get_freeze_count() <= frozen
        assert not any(o is early for o in gc.get_objects())  # no pass looks at it any more
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle made after the freeze
        del a, b
        assert gc.collect() >= 2
    finally:
        gc.unfreeze()


def test_outside_a_server_the_tidy_up_reaps_nothing_and_still_collects():
    class Node:
        pass

    a = Node()
    a.me = a
    del a
    done = housekeeping.tidy()
    assert done.sessions == 0 and done.collected >= 1 and done.seconds > 0


@pytest.mark.parametrize("value, seconds", [(None, 30), ("1", 1), ("45", 45), ("0", 30),
                                            ("-5", 30), ("2.5", 30), ("soon", 30), ("", 30)])
def test_the_tidy_up_period_reads_a_positive_integer_or_falls_back_to_30_s(monkeypatch, value,
                                                                            seconds):
    if value is None:
        monkeypatch.delenv("HOPFIELD_TIDY_EVERY_S", raising=False)
    else:
        monkeypatch.setenv("HOPFIELD_TIDY_EVERY_S", value)
    assert housekeeping.tidy_every_s() == seconds


def _run(coroutine) -> BaseException | None:
    """asyncio.run in a thread of its own (an earlier test may leave this thread's loop
    running); returns what it raised."""
    raised = []

    def target():
        try:
            asyncio.run(coroutine)
        except BaseException as e:  # noqa: BLE001 - handed to the test
            raised.append(e)

    t = threading.Thread(target=target)
    t.start()
    t.join(30)
    return raised[0] if raised else None


def test_the_tidy_loop_logs_a_failure_and_goes_on(monkeypatch):
    calls, logged = [], []
    monkeypatch.setattr(housekeeping._log, "exception", logged.append)

    def failing():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("boom")
        raise asyncio.CancelledError  # ends the loop on the second round

    monkeypatch.setattr(housekeeping, "tidy", failing)
    assert isinstance(_run(housekeeping.tidy_every(0.01)), asyncio.CancelledError)
    assert len(calls) == 2 and logged == ["the memory tidy-up failed"]


def test_app_py_tunes_warms_freezes_then_tidies_until_the_server_stops(monkeypatch):
    import app

    order = []
    monkeypatch.setattr(app.housekeeping, "tune_malloc", lambda: order.append("tune"))
    monkeypatch.setattr(app.boot, "warm", lambda pages_warm_up: order.append("warm"))
    monkeypatch.setattr(app.housekeeping, "freeze_start_up", lambda: order.append("freeze"))

    async def tidy_every():
        order.append("tidying")
        try:
            await asyncio.sleep(3600)
        finally:
            order.append("stopped")

    monkeypatch.setattr(app.housekeeping, "tidy_every", tidy_every)

    async def serve():
        async with app.warm_first(None):
            await asyncio.sleep(0.05)
            order.append("served")

    assert _run(serve()) is None
    assert order == ["tune", "warm", "freeze", "tidying", "served", "stopped"]
