"""What the benchmarks share: the repository root on sys.path, the timers, the bare Streamlit
app that is the peer of the app's own runs, and the head of a Markdown table.

A benchmark runs as `python benchmarks/<name>.py`, and then only this folder is on sys.path:
so each benchmark starts with

    if not __package__:  # run as a script: only benchmarks/ is on sys.path
        import common  # noqa: F401 - puts the repository root on sys.path
    from benchmarks.common import ...

(the import by the plain name runs this module once to put the root there; a test that
imports a benchmark, or `python -m benchmarks.<name>`, has the root on sys.path already).
Times: wall time with time.perf_counter, or the process's CPU time with time.process_time
where other work on the machine must not count.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BARE_APP = "import streamlit as st\nst.title('bare')\nst.write('hello')\n"  # the peer app


def median_time(fn, repeat: int = 15, warmup: int = 3, setup=None, sync=None) -> float:
    """Median wall seconds of fn() over `repeat` runs, after `warmup` untimed ones. setup()
    runs untimed before each timed run; sync() (e.g. torch.cuda.synchronize) runs inside the
    timing after each, so that work a device has queued counts."""
    for _ in range(warmup):
        fn()
    if sync:
        sync()
    times = []
    for _ in range(repeat):
        if setup:
            setup()
        t0 = time.perf_counter()
        fn()
        if sync:
            sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def interleaved(fn_a, fn_b, rounds: int = 15) -> tuple[float, float]:
    """Median times of two functions measured alternately, so drift hits both alike."""
    for _ in range(3):
        fn_a(), fn_b()
    a, b = [], []
    for _ in range(rounds):
        for fn, out in ((fn_a, a), (fn_b, b)):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
    return statistics.median(a), statistics.median(b)


def cpu_time(fn) -> tuple[float, object]:
    """(the process's CPU seconds of fn(), what it returned)."""
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def best_cpu_time(fn, runs: int = 2) -> float:
    """The fewest CPU seconds fn() took in `runs` runs."""
    return min(cpu_time(fn)[0] for _ in range(runs))


def print_table_head(*columns: str) -> None:
    """A Markdown table's header row and the row of dashes under it."""
    print("| " + " | ".join(columns) + " |")
    print("| " + " | ".join("---" for _ in columns) + " |")
