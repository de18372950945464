"""What the server keeps after a run is bounded by bytes, so that a class stays within 2 GB.

1. ui/serving/byte_cache.py: least recently used out first by bytes, an entry larger than the limit
   returned but not kept, safe across threads, one computation for sessions that ask at once.
2. What the caches hold is lean: the player's frames are bytes (exactly the pictures shown),
   the beta sweep keeps copies of each run's end (not every trajectory).
3. The pages: after many distinct large runs the caches stay within their limits.
The limits adding up to 2 GB are in test_memory_plan.py, the GIF written frame by frame in
test_gif_stream.py, the real server in tests/load/test_class_memory.py.
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import numpy as np
import pytest

from hopfield_core import ModernHopfield, metastable
from tests.support.apptest import open_app
from tests.support.memory_cases import BIG, bipolar, unit_rows
from tests.support.memory_probe import traced
from ui.charts import exports
from ui.serving import budget, byte_cache, memory_plan
from ui.serving.byte_cache import ByteCache


@pytest.fixture
def cache(request):
    c = ByteCache(f"test {request.node.name}", 100, size_of=lambda v: v.nbytes)
    yield c
    byte_cache._CACHES.pop(c.name)


def block(n: int, fill: int = 0) -> np.ndarray:
    return np.full(n, fill, dtype=np.uint8)  # n bytes


# ---------------------------------------------------------------- 1. the cache

def test_the_least_recently_used_go_first_until_the_bytes_fit(cache):
    for k in "abc":
        cache.get(k, lambda: block(40))
    assert list(cache._items) == ["b", "c"] and cache.bytes == 80  # a went: 120 > 100
    cache.get("b", lambda: pytest.fail("b is kept"))               # b is now the most recent
    cache.get("d", lambda: block(30))
    assert list(cache._items) == ["b", "d"] and cache.bytes == 70  # c went, not b
    cache.get("e", lambda: block(30))
    assert list(cache._items) == ["b", "d", "e"] and cache.bytes == 100  # exactly the limit fits


def test_an_entry_larger_than_the_limit_is_returned_but_not_kept(cache):
    cache.get("small", lambda: block(60))
    big = cache.get("big", lambda: block(101, 7))
    assert big.nbytes == 101 and big[0] == 7
    assert "big" not in cache and "small" in cache and cache.bytes == 60  # nothing pushed out
    calls = []
    cache.get("big", lambda: calls.append(1) or block(101))
    assert calls == [1]  # computed again: it was not kept


def test_kept_values_are_shared_read_only(cache):
    a = cache.get("a", lambda: block(10))
    assert cache.get("a", lambda: block(10, 1)) is a
    with pytest.raises(ValueError):
        a[0] = 1
    nested = ByteCache("test nested", 10 ** 6)
    try:
        traj = ModernHopfield(unit_rows(3, 16), 2.0).run(unit_rows(1, 16)[0], max_steps=5)
        kept = nested.get("t", lambda: (traj, [np.zeros(3)], {"w": np.ones(2)}))
        assert not kept[0].states.flags.writeable and not kept[0].weights.flags.writeable
        assert not kept[1][0].flags.writeable and not kept[2]["w"].flags.writeable
    finally:
        byte_cache._CACHES.pop(nested.name)


def test_an_error_is_not_kept_and_the_next_request_computes_again(cache):
    with pytest.raises(ZeroDivisionError):
        cache.get("x", lambda: 1 / 0)
    assert "x" not in cache and cache.get("x", lambda: block(5)).nbytes == 5


def test_sessions_asking_at_once_compute_once_and_share_the_value(cache):
    started, release, calls, got = threading.Event(), threading.Event(), [], []

    def make():
        calls.append(1)
        started.set()
        release.wait(10)
        return block(10, 3)

    first = threading.Thread(target=lambda: got.append(cache.get("k", make)))
    first.start()
    assert started.wait(10)
    others = [threading.Thread(target=lambda: got.append(cache.get("k", make))) for _ in range(7)]
    for t in others:
        t.start()
    release.set()
    for t in [first, *others]:
        t.join(10)
    assert len(calls) == 1 and len(got) == 8 and all(v is got[0] for v in got)


def test_sessions_waiting_for_a_failed_computation_get_its_error(cache):
    started, release, errors = threading.Event(), threading.Event(), []

    def make():
        started.set()
        release.wait(10)
        raise ValueError("the computation failed")

    def ask():
        try:
            cache.get("k", make)
        except ValueError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=ask)]
    threads[0].start()
    assert started.wait(10)
    threads += [threading.Thread(target=ask) for _ in range(3)]
    for t in threads[1:]:
        t.start()
    release.set()
    for t in threads:
        t.join(10)
    assert errors == ["the computation failed"] * 4 and "k" not in cache


def test_a_computation_that_needs_its_own_key_fails_instead_of_waiting_forever(cache):
    with pytest.raises(RecursionError):
        cache.get("k", lambda: cache.get("k", lambda: block(1)))
    assert cache.get("k", lambda: block(2)).nbytes == 2  # nothing left in flight


def test_many_threads_keep_the_bytes_exact_and_within_the_limit(cache):
    rng = np.random.default_rng(0)
    keys = [(int(k), int(n)) for k, n in zip(rng.integers(0, 8, 4000), rng.integers(1, 60, 4000))]
    problems = []

    def work(part):
        for k, n in part:
            v = cache.get((k, n), lambda n=n: block(n))
            if v.nbytes != n:
                problems.append((k, n, v.nbytes))
            if cache.bytes > cache.limit:
                problems.append(("over", cache.bytes))

    threads = [threading.Thread(target=work, args=(keys[i::8],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not problems
    assert cache.bytes == sum(size for _, size in cache._items.values()) <= cache.limit


def test_nbytes_counts_every_array_once_and_a_view_by_its_whole_base():
    a = np.zeros((100, 1000))  # 800 kB
    assert 800_000 <= byte_cache.nbytes(a) < 800_200
    assert byte_cache.nbytes(a[-1]) >= 800_000          # a row keeps the whole block alive
    assert byte_cache.nbytes((a, a[3], [a])) < 801_000  # one block, however often it is named
    traj = ModernHopfield(unit_rows(4, 64), 2.0).run(unit_rows(1, 64)[0], max_steps=20)
    arrays = traj.states.nbytes + traj.energies.nbytes + traj.weights.nbytes
    assert arrays < byte_cache.nbytes(traj) < arrays + 4096


# ---------------------------------------------------------------- 2. lean entries

@dataclass(frozen=True)
class _PS:  # the parts of a PatternSet the pictures need
    X: np.ndarray
    shape: tuple
    binary: bool
    names: tuple = ()


@pytest.mark.parametrize("binary, shape", [(True, (16, 16)), (False, (8, 8, 3))])
def test_player_frames_are_bytes_and_exactly_the_pictures_shown(binary, shape):
    from ui.player import dynamics_view, player_cache

    d = int(np.prod(shape))
    X = bipolar(3, d) if binary else unit_rows(3, d)
    states = np.vstack([X, X[:1] * 0.3, bipolar(4, d, 1) * 0.01])
    traj = type("T", (), {"states": states})()
    ps = _PS(X, shape, binary)
    frames = player_cache.frames_u8(traj, ps)
    pictures = dynamics_view.frames_of(traj, ps)
    assert frames.dtype == np.uint8 and frames.shape == pictures.shape
    np.testing.assert_array_equal(frames, np.round(pictures * 255))
    for t in range(len(states)):  # the PNG the player shows is the same, byte for byte
        assert exports.png_bytes(frames[t] / 255.0) == exports.png_bytes(pictures[t])
        assert exports.png_bytes(frames[t]) == exports.png_bytes(pictures[t])


def test_the_beta_sweep_keeps_copies_of_each_runs_end_not_its_trajectory():
    X = unit_rows(40, 3072)
    q = X[0] + 0.3 / math.sqrt(3072)
    betas = [float(b) for b in metastable.log_grid(0.1, 1e4)]
    steps = 40  # tol = 0 and a small gamma: every run takes all its steps
    peak, sweep = traced(lambda: metastable.beta_sweep(X, q, betas, max_steps=steps, tol=0.0,
                                                       gamma=0.001))
    one_run = 8 * 3072 * (steps + 1)  # the states of one trajectory
    assert peak <= budget.sweep_bytes(3072, 40, len(betas), steps) <= 3 * peak
    assert peak < 6 * one_run  # was: every run's trajectory, 31 of them
    assert byte_cache.nbytes(sweep) < 2 * len(betas) * 8 * (3072 + 40)
    ref = ModernHopfield(X, betas[7]).run(q, max_steps=steps, tol=0.0, gamma=0.001)
    np.testing.assert_array_equal(sweep.fixed_points[7], ref.final)
    np.testing.assert_array_equal(sweep.weights[7], ref.weights[-1])


def test_the_sweep_is_capped_by_its_cpu_now_that_memory_holds_one_run():
    d, N, runs = 3072, 40, 31
    steps = budget.sweep_steps(d, N, runs, 2000)
    assert steps == budget.max_steps("modern", "", d, N, share=1.0 / runs)
    assert budget.sweep_bytes(d, N, runs, steps) <= budget.RUN_BYTES
    # one run's trajectory at a time: a sweep of 31 runs costs about one run, not 31
    assert budget.sweep_bytes(d, N, runs, 500) < 2 * budget.modern_run_bytes(N, d, 500)


# ---------------------------------------------------------------- 3. the pages

def test_many_distinct_large_runs_keep_every_cache_within_its_limit(monkeypatch):
    """The modern page at 32 x 32 in colour with 40 patterns: every beta a new run of up to
    1516 steps (36 MB). With the trajectory limit lowered to two of them (80 MB) and the
    player's to 8 MB, six runs push the oldest out; no cache ever holds more than its limit."""
    from ui.player import player_cache, runs

    byte_cache.clear_all()
    monkeypatch.setattr(runs.RUNS, "limit", 80 * memory_plan.MB)
    monkeypatch.setattr(player_cache.PLAYER, "limit", 8 * memory_plan.MB)
    link = {**BIG, "steps": "2000", "gamma": "0.01", "view": "bound"}
    seen = []
    for beta in ("1", "1.5", "2", "3", "5", "7"):
        at = open_app("modern", {**link, "beta": beta})
        assert not at.exception
        seen.append((runs.RUNS.bytes, player_cache.PLAYER.bytes))
        for c in byte_cache.caches():
            assert c.bytes <= c.limit, (c.name, c.bytes, c.limit)
    assert max(seen)[0] > 60 * memory_plan.MB                      # the runs are large ...
    assert len(runs.RUNS) == 2 and len(player_cache.PLAYER) <= 3  # ... and the oldest went
    notes = [c.value for c in at.caption if c.value.startswith("A GIF holds")]
    steps = dict((m.label, m.value) for m in at.metric)["Steps taken"]
    assert notes == [exports.gif_note(int(steps) + 1)] and int(steps) + 1 > exports.MAX_GIF_FRAMES
    byte_cache.clear_all()
