"""The benchmarks' shared helpers (benchmarks/common.py) and their documented commands.

The timers are checked on a fake clock (no timed assertion): what is timed, how often, and
which median comes back. Every benchmark must load as `python benchmarks/<name>.py` loads it,
with only benchmarks/ on sys.path and another working directory.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import common

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = sorted(p for p in (ROOT / "benchmarks").glob("*.py") if p.name != "common.py")


class FakeClock:
    """time.perf_counter / process_time that move only when a step is taken."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(common.time, "perf_counter", fake)
    monkeypatch.setattr(common.time, "process_time", fake)
    return fake


def test_median_time_times_fn_and_sync_but_not_warmup_or_setup(clock):
    durations = iter([100.0] * 2 + [3.0, 1.0, 2.0, 9.0, 5.0])  # 2 warm-ups, then 5 timed
    calls = []

    def fn():
        calls.append("fn")
        clock.now += next(durations)

    def setup():
        calls.append("setup")
        clock.now += 1000.0  # untimed

    def sync():
        calls.append("sync")
        clock.now += 0.5  # timed: the device's queued work

    assert common.median_time(fn, repeat=5, warmup=2, setup=setup, sync=sync) == 3.5
    assert calls == ["fn", "fn", "sync"] + ["setup", "fn", "sync"] * 5


def test_median_time_defaults_to_three_warmups_and_fifteen_runs(clock):
    calls = []

    def fn():
        calls.append("fn")
        clock.now += 2.0

    assert common.median_time(fn) == 2.0
    assert len(calls) == 18


def test_interleaved_alternates_the_two_and_returns_each_median(clock):
    order = []
    a_takes = iter([100.0] * 3 + [1.0, 7.0, 4.0])  # 3 untimed warm-ups, then 3 timed
    b_takes = iter([100.0] * 3 + [2.0, 3.0, 8.0])

    def a():
        order.append("a")
        clock.now += next(a_takes)

    def b():
        order.append("b")
        clock.now += next(b_takes)

    assert common.interleaved(a, b, rounds=3) == (4.0, 3.0)
    assert order == ["a", "b"] * 6


def test_cpu_time_returns_the_result_and_best_cpu_time_the_fewest_seconds(clock):
    seconds = iter([5.0, 3.0, 4.0])

    def fn():
        clock.now += next(seconds)
        return "result"

    assert common.cpu_time(fn) == (5.0, "result")
    assert common.best_cpu_time(fn, runs=2) == 3.0


def test_print_table_head_prints_a_markdown_header(capsys):
    common.print_table_head("run", "ours (ms)", "ratio")
    assert capsys.readouterr().out == "| run | ours (ms) | ratio |\n| --- | --- | --- |\n"


def test_every_benchmark_loads_as_its_documented_command_runs_it(tmp_path):
    """`python benchmarks/<name>.py` puts only benchmarks/ on sys.path: each benchmark's one
    `import common` must put the repository root there before anything else is imported."""
    code = ("import runpy, sys\n"
            f"root, start = {str(ROOT)!r}, [{str(ROOT / 'benchmarks')!r}] + sys.path[1:]\n"
            f"for path in {[str(p) for p in BENCHMARKS]!r}:\n"
            "    sys.path[:] = start  # each benchmark on its own: the project's modules unloaded\n"
            "    for name in [n for n, m in sys.modules.items()\n"
            "                 if (getattr(m, '__file__', None) or '').startswith(root)\n"
            "                 or n.split('.')[0] in ('benchmarks', 'tests', 'ui', 'hopfield_core')]:\n"
            "        del sys.modules[name]\n"
            "    assert 'main' in runpy.run_path(path, run_name='loaded'), path\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]


def test_the_benchmark_commands_in_the_docs_name_existing_files():
    docs = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "assets").rglob("*.md")]
    named = {m for doc in docs for m in re.findall(r"python (benchmarks/\w+\.py)", doc.read_text())}
    assert named and all((ROOT / n).is_file() for n in named), named
