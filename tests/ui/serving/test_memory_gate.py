"""The process-wide reservation of memory (ui/serving/memory_gate.py), with real threads: never more
than the pool held at once, first come first served, released on errors and on Streamlit's
interruptions, reentrant per thread, a request above the pool clamped, waiters that sleep; a
dynamics run (ui.player.runs.run) and a capacity lab run (ui.serving.run_queue_view.run) that wait for their
bytes; and that every computation checked against the budget in ui/ also reserves its bytes."""
from __future__ import annotations

import ast
import pathlib
import random
import threading
import time

import numpy as np
import pytest
from streamlit.runtime.scriptrunner_utils.exceptions import (
    RerunException,
    StopException,
)

from tests.support.waits import LIMIT, until  # the gate's tests' waits
from ui.player import runs
from ui.serving import memory_gate, memory_plan, run_queue_view
from ui.serving.budget import RUN_BYTES
from ui.serving.memory_gate import Pool
from ui.store.patterns import PatternSet


class Holder(threading.Thread):
    """Reserves `nbytes` in its own thread and holds them until release is set."""

    def __init__(self, pool: Pool, nbytes: int, name: str = "", log: list | None = None):
        super().__init__(daemon=True)
        self.pool, self.nbytes, self.tag, self.log = pool, nbytes, name, log
        self.inside, self.release = threading.Event(), threading.Event()

    def run(self):
        with self.pool.reserve(self.nbytes):
            if self.log is not None:
                self.log.append(self.tag)
            self.inside.set()
            self.release.wait(LIMIT)

    def begin(self) -> Holder:
        self.start()
        return self

    def end(self) -> None:
        self.release.set()
        self.join(LIMIT)
        assert not self.is_alive()


def test_the_process_pool_is_the_plans_heavy_runs():
    assert memory_gate.POOL.size == memory_plan.PLAN_SLOTS * RUN_BYTES == 600 * 2 ** 20


def test_never_more_than_the_pool_is_held_at_once():
    pool, lock, held, most = Pool(100), threading.Lock(), [0], [0]
    rng = random.Random(0)
    sizes = [rng.randint(1, 60) for _ in range(40)]

    def work(n):
        with pool.reserve(n):
            with lock:
                held[0] += n
                most[0] = max(most[0], held[0])
                assert pool.reserved() <= pool.size
            time.sleep(0.002)
            with lock:
                held[0] -= n
    threads = [threading.Thread(target=work, args=(n,), daemon=True) for n in sizes]
    for t in threads:
        t.start()
    for t in threads:
        t.join(LIMIT)
    assert not any(t.is_alive() for t in threads)
    assert 60 < most[0] <= 100  # several held at once, never beyond the pool
    assert pool.reserved() == 0 and pool.waiting() == 0


def test_first_come_first_served_even_when_a_later_one_would_fit():
    pool, log = Pool(100), []
    holder = Holder(pool, 70, "holder", log).begin()
    assert holder.inside.wait(LIMIT)
    big = Holder(pool, 60, "big", log).begin()  # does not fit: waits
    until(lambda: pool.waiting() == 1)
    small = Holder(pool, 10, "small", log).begin()  # would fit now, but comes after big
    until(lambda: pool.waiting() == 2)
    time.sleep(0.05)
    assert log == ["holder"] and pool.reserved() == 70
    holder.end()
    assert big.inside.wait(LIMIT) and small.inside.wait(LIMIT)  # 60 + 10 fit together
    assert log == ["holder", "big", "small"] and pool.reserved() == 70
    big.end()
    small.end()
    assert pool.reserved() == 0


@pytest.mark.parametrize("error", [ValueError("the computation failed"), StopException(),
                                   RerunException(None)], ids=["error", "stop", "rerun"])
def test_the_bytes_are_released_on_errors_and_interruptions(error):
    pool = Pool(100)
    with pytest.raises(type(error)):
        with pool.reserve(80):
            assert pool.reserved() == 80
            raise error
    assert pool.reserved() == 0 and not pool.holds()
    with pool.reserve(100):  # the whole pool is free again
        assert pool.reserved() == 100


def test_a_thread_within_its_own_reservation_never_waits_again():
    pool, done = Pool(100), threading.Event()

    def nested():
        with pool.reserve(100):       # the whole pool
            with pool.reserve(50):    # a computation inside it: within the caller's bytes
                with pool.reserve(100):
                    assert pool.reserved() == 100 and pool.holds()
            assert pool.holds()
        assert not pool.holds() and pool.reserved() == 0
        done.set()
    t = threading.Thread(target=nested, daemon=True)
    t.start()
    assert done.wait(LIMIT), "a thread waited for its own reservation"


def test_a_request_above_the_pool_waits_until_it_runs_alone():
    pool, log = Pool(100), []
    holder = Holder(pool, 1, "holder", log).begin()
    assert holder.inside.wait(LIMIT)
    huge = Holder(pool, 10 ** 9, "huge", log).begin()
    until(lambda: pool.waiting() == 1)
    time.sleep(0.05)
    assert log == ["holder"]
    holder.end()
    assert huge.inside.wait(LIMIT) and pool.reserved() == 100  # clamped to the pool
    huge.end()
    assert pool.reserved() == 0


def test_nothing_to_reserve_never_waits():
    pool = Pool(100)
    holder = Holder(pool, 100).begin()
    assert holder.inside.wait(LIMIT)
    with pool.reserve(0):
        assert pool.reserved() == 100
    holder.end()


def test_waiters_sleep_until_bytes_are_released():
    """A waiter is woken only when a release makes its request fit: four waiters behind a held
    pool do not look at all while it is held, and once each when their turn comes."""
    pool = Pool(100)
    holder = Holder(pool, 100).begin()
    assert holder.inside.wait(LIMIT)
    waiters = [Holder(pool, 25, str(i)).begin() for i in range(4)]
    until(lambda: pool.waiting() == 4)
    time.sleep(0.5)
    assert pool.looks == 0, f"{pool.looks} looks by 4 waiters while nothing was released"
    holder.end()
    for w in waiters:
        assert w.inside.wait(LIMIT)
    assert pool.looks <= 4
    for w in waiters:
        w.end()
    assert pool.reserved() == 0


# ---------------------------------------------------------------- the pages' computations

@pytest.fixture
def tiny_pool(monkeypatch):
    pool = Pool(1000)  # bytes: any real run needs more, so it waits for the whole pool
    monkeypatch.setattr(memory_gate, "POOL", pool)
    return pool


def test_a_dynamics_run_waits_while_the_pool_is_held_and_completes_after(tiny_pool):
    X = np.random.default_rng(5).standard_normal((3, 64))  # 3 patterns, d = 64
    ps = PatternSet(X, (8, 8), ("a", "b", "c"), False, "memory-gate-test")
    q = X[0] + 0.1
    runs.RUNS.clear()
    holder = Holder(tiny_pool, 1).begin()  # another session computing
    assert holder.inside.wait(LIMIT)
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("traj", runs.run(
        "modern", {"beta": 4.0}, ps, q, max_steps=20)), daemon=True)
    t.start()
    until(lambda: tiny_pool.waiting() == 1)
    time.sleep(0.1)
    assert "traj" not in out  # it waits for its bytes
    holder.end()
    t.join(LIMIT)
    assert out["traj"].final.shape == (64,) and tiny_pool.reserved() == 0
    holder = Holder(tiny_pool, 1000).begin()  # the pool full again: a cache hit costs nothing
    assert holder.inside.wait(LIMIT)
    assert runs.run("modern", {"beta": 4.0}, ps, q, max_steps=20) is out["traj"]
    assert tiny_pool.waiting() == 0
    holder.end()
    runs.RUNS.clear()


def test_a_capacity_run_computes_within_its_reservation(tiny_pool):
    seen = []

    def compute(check):
        seen.append((tiny_pool.holds(), tiny_pool.reserved()))
        return "done"
    assert run_queue_view.run("memory gate test", ("gate-test",), 0.0, compute,
                              nbytes=400) == "done"
    assert seen == [(True, 400)] and tiny_pool.reserved() == 0
    assert run_queue_view.run("memory gate test", ("gate-test",), 0.0, compute, cached=True,
                              nbytes=400) == "done"
    assert seen[-1] == (False, 0)  # every result cached: nothing reserved


# ---------------------------------------------------------------- no computation forgotten

UI = pathlib.Path(__file__).resolve().parents[3] / "ui"
NOT_CALLERS = {"budget.py", "memory_gate.py", "memory_plan.py"}  # define the checks
# a check that is not a call of budget.over -> the estimator its computation must reserve
CAPS = {"run_cap": "run_bytes", "memory_cap": "run_bytes", "sweep_steps": "sweep_bytes",
        "curves_refusal": "curves_bytes", "phase_refusal": "phase_bytes",
        "learn_cap": None}  # CPU only: image_run reserves image_bytes, checked by image_note


def _name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")


def _called(node) -> set[str]:
    return {_name(n) for n in ast.walk(node) if isinstance(n, ast.Call)}


def _reserved(tree) -> set[str]:
    """The estimators (and variables) whose bytes are reserved: memory_gate.reserve's argument
    and queue_view.run's nbytes."""
    out = set()
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        args = n.args if _name(n) == "reserve" else [k.value for k in n.keywords
                                                       if k.arg == "nbytes"]
        for a in args:
            out |= _called(a) | {x.id for x in ast.walk(a) if isinstance(x, ast.Name)}
    return out


def _trees() -> dict:
    return {p: ast.parse(p.read_text()) for p in UI.rglob("*.py") if p.name not in NOT_CALLERS}


def _missing(trees: dict) -> list[str]:
    """Each budget check of these modules whose estimate is never reserved in its package (or
    its function, for a variable): file, function, the estimators it needs that are not."""
    folders = {pathlib.Path(p).parent for p in trees}  # the estimates reserved, per package
    by_folder = {f: set().union(*(_reserved(t) for p, t in trees.items()
                                  if pathlib.Path(p).parent == f)) for f in folders}
    out, found = [], 0
    for path, tree in trees.items():
        reserved = by_folder[pathlib.Path(path).parent]
        for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
                name, have = _name(call), reserved
                if name == "over" and isinstance(call.func, ast.Attribute):
                    arg = call.args[0]
                    if isinstance(arg, ast.Name):  # a variable: reserved in the same function
                        need, have = {arg.id}, _reserved(fn)
                    else:
                        need = {c for c in _called(arg) if c.endswith("_bytes")} or {
                            ast.unparse(arg)}
                elif CAPS.get(name):
                    need = {CAPS[name]}
                else:
                    continue
                found += 1
                if not need <= have:
                    out.append(f"{pathlib.Path(path).name}:{fn.name}: {sorted(need - have)}")
    assert found >= 12, found  # the pages' checks were found
    return out


def test_every_computation_checked_against_the_budget_reserves_its_bytes():
    """A budget check (budget.over, run_cap, sweep_steps, the capacity lab's refusals) names an
    estimate; that estimate must be reserved around the computation it describes (in the same
    function when it is a variable). A new heavy computation checked but not reserved fails."""
    missing = _missing(_trees())
    assert not missing, "budget checks whose estimate is never reserved:\n" + "\n".join(missing)


def test_the_check_catches_a_computation_without_its_reservation():
    new = ast.parse("def section(d, N):\n"
                    "    if budget.over(new_thing_bytes(d, N), 'It', 'Lower d.'):\n"
                    "        return None\n"
                    "    return compute(d, N)\n"
                    "def other(d, N):\n"
                    "    need = old_bytes(d, N)\n"
                    "    if budget.over(need, 'It', 'Lower d.'):\n"
                    "        return None\n"
                    "    return compute(d, N)\n")
    assert _missing({**_trees(), UI / "new_page.py": new}) == [
        "new_page.py:section: ['new_thing_bytes']", "new_page.py:other: ['need']"]
