"""No student can fill the shared server's memory: every heavy computation estimates its peak
bytes from its sizes before it runs (the core's estimators, combined in ui.serving.budget), and is
capped or refused within budget.RUN_BYTES with a sentence that names the limit.

1. Each estimate bounds the peak it describes, measured (tracemalloc for NumPy, torch's profiler
   for PyTorch), and is not absurdly large: measured <= estimate <= 3 x measured, at the
   sidebar's default size (16 x 16 grey, 3 patterns) and at the largest a link can ask for
   (32 x 32 in colour, d = 3072, a store of 40 patterns).
2. The caps: a run is cut to what fits, and a network that cannot fit is refused.
3. The pages: a link at the largest values stays within RUN_BYTES (the whole rerun, traced),
   or shows the refusal sentence.
benchmarks/bench_page_memory.py prints the heaviest case of each page beside its estimate.
"""
from __future__ import annotations

import numpy as np
import pytest

from hopfield_core import (
    ClassicalHopfield,
    classical,
)
from tests.support.memory_cases import (
    BIG,
    LINKS,
    TORCH_PAGES,
    bipolar,
    cases,
    fresh_caches,
    page_peak,
    same_value,
)
from ui.player import runs
from ui.serving import budget

# ---------------------------------------------------------------- measuring


# ---------------------------------------------------------------- the heavy computations


def _ids(size):
    return [f"{c.page}: {c.what}" for c in cases(size)]


@pytest.mark.parametrize("size", ["small", "large"])
def test_every_estimate_bounds_the_measured_peak(size):
    """measured <= estimate <= 3 x measured for every heavy computation at this size."""
    report = []
    for case in cases(size):
        measured = case.measure()
        ok = measured <= case.estimate <= 3 * measured
        report.append(f"{'ok ' if ok else 'BAD'} {case.page}: {case.what}: measured "
                      f"{measured / 1e6:.3f} MB, estimate {case.estimate / 1e6:.3f} MB")
    assert all(line.startswith("ok") for line in report), "\n".join(report)


def test_at_the_largest_size_every_case_fits_in_one_run():
    assert all(c.estimate <= budget.RUN_BYTES for c in cases("large")), \
        [(c.page, c.what, c.estimate) for c in cases("large") if c.estimate > budget.RUN_BYTES]


# ---------------------------------------------------------------- the caps

def test_memory_cuts_a_long_run_at_the_largest_size_and_says_which_limit():
    d, pixels = 3072, 1024  # 32 x 32 in colour
    steps, note = budget.run_cap("modern", "", d, 3, 4000, pixels=pixels)  # some 2000 steps fit
    assert steps < budget.max_steps("modern", "", d, 3)  # memory binds before the CPU here
    assert budget.run_bytes("modern", "", d, 3, steps, pixels=pixels) <= budget.RUN_BYTES
    assert budget.run_bytes("modern", "", d, 3, steps + 1, pixels=pixels) > budget.RUN_BYTES
    assert note.startswith(f"This run stopped at {steps} steps, not the 4000 you asked for")
    assert "150 MB of the class's shared server's memory" in note and "smaller image size" in note
    assert budget.run_cap("modern", "", d, 3, 4000, pixels=pixels) == (steps, note)  # deterministic
    assert budget.run_cap("modern", "", 256, 3, 2000, pixels=256)[1] is None  # the default size: all


def test_the_cpu_note_stays_where_the_cpu_binds_first():
    steps, note = budget.run_cap("classical", "async", 3072, 40, 200, pixels=1024)
    assert (steps, note) == budget.cap("classical", "async", 3072, 40, 200)


def test_a_network_too_large_for_the_memory_is_refused(monkeypatch):
    monkeypatch.setattr(budget, "RUN_BYTES", 50 * budget.MB)
    steps, note = budget.run_cap("classical", "sync", 3072, 40, 30, cfg={"learning_rule": "storkey"})
    assert steps == 0
    need = budget.megabytes(budget.run_bytes("classical", "sync", 3072, 40, 1,
                                             {"learning_rule": "storkey"}))
    assert note == (f"The classical network at d = 3072 neurons with 40 patterns would need about "
                    f"{need} of memory, more than the 50 MB of the class's shared server that one "
                    "computation may use. A smaller image size in the sidebar (or fewer stored "
                    "patterns) brings it back.")


def test_the_kept_networks_stay_within_their_bytes():
    """ui.player.runs keeps built networks while they hold at most MODELS_BYTES together; the one
    just built always stays."""
    runs.MODELS.clear()
    X = bipolar(40, 3072)
    for i in range(9):  # nine 39 MB Hebbian networks of d = 3072: 350 MB in all
        Xi = X.copy()
        Xi[0, i] *= -1
        runs.model_for("classical", (("learning_rule", "hebbian"),), f"fp{i}", Xi)
        assert runs.MODELS.bytes <= budget.MODELS_BYTES
        assert ("classical", (("learning_rule", "hebbian"),), f"fp{i}") in runs.MODELS
    kept_keys = runs.MODELS.keys()
    assert 1 < len(kept_keys) < 9 and "fp0" not in {k[2] for k in kept_keys}
    kept = kept_keys[0]
    network = runs.model_for("classical", kept[1], kept[2], None)  # a hit: nothing built
    with runs._build_lock:  # another session is building: a kept network still comes at once
        assert runs.model_for("classical", kept[1], kept[2], None) is network
    assert runs.MODELS.keys()[-1] == kept  # now the most recently used
    runs.MODELS.clear()


def test_hebbian_weights_in_float32_run_exactly_as_in_float64():
    """The classical network keeps Hebbian C in float32 where it is exact: every field, step
    and energy is what the float64 network gives."""
    X = bipolar(40, 3072, 3)
    lean, full = ClassicalHopfield(X), ClassicalHopfield(X)
    full._C = full._C_cols = full._C.astype(np.float64)
    assert lean._C.dtype == np.float32 and lean.nbytes < full.nbytes / 1.9
    S = bipolar(4, 3072, 4)
    np.testing.assert_array_equal(lean.field(S), full.field(S))
    for mode in ("sync", "async"):
        a = lean.run(S[0], mode=mode, max_steps=3, rng=1, temperature=0.5)
        b = full.run(S[0], mode=mode, max_steps=3, rng=1, temperature=0.5)
        np.testing.assert_array_equal(a.states, b.states)
        np.testing.assert_array_equal(a.energies, b.energies)
    np.testing.assert_array_equal(lean.weights_block(64), full.weights[:64, :64])
    assert classical.coupling_dtype(40, 3072) == np.float32
    assert classical.coupling_dtype(6000, 3072) == np.float64  # N d beyond 2^24: float64


# ---------------------------------------------------------------- the pages


@pytest.mark.parametrize("page, query", LINKS, ids=[f"{p}-{i}" for i, (p, _) in enumerate(LINKS)])
def test_a_link_at_the_largest_values_stays_within_one_run(page, query):
    at, peak = page_peak(page, query)
    assert not at.exception
    used = dict(at.query_params)  # the page runs what the link asks for (else it says so)
    assert all(same_value(used.get(k), v) for k, v in query.items()), (query, used)
    beside = TORCH_PAGES.get(page, lambda: 0)()
    assert peak + beside <= budget.RUN_BYTES, f"{page}: {peak / 2 ** 20:.0f} MB traced"
    fresh_caches()


def test_the_modern_page_says_where_memory_cut_its_run(monkeypatch):
    monkeypatch.setattr(budget, "RUN_BYTES", 100 * budget.MB)  # at 150 MB the CPU binds first
    at, _ = page_peak("modern", LINKS[3][1])
    steps = budget.run_cap("modern", "", 3072, 40, 2000, pixels=1024)[0]
    notes = [c.value for c in at.caption if "memory" in c.value]
    assert notes and notes[0].startswith(f"This run stopped at {steps} steps, not the 2000")
    assert dict((m.label, m.value) for m in at.metric)["Steps taken"] == str(steps)
    fresh_caches()


def test_a_page_refuses_what_cannot_fit(monkeypatch):
    """With a smaller limit the largest classical network is refused with the sentence, and the
    landscape's plane and the learning page say which limit stops them."""
    monkeypatch.setattr(budget, "RUN_BYTES", 60 * budget.MB)
    at, _ = page_peak("classical", {**BIG, "rule": "storkey"})
    assert [e.value for e in at.error] == [budget.run_cap(
        "classical", "async", 3072, 40, 30, cfg={"learning_rule": "storkey"}, pixels=1024)[1]]
    assert "would need about" in at.error[0].value and "60 MB" in at.error[0].value
    monkeypatch.setattr(budget, "RUN_BYTES", 4 * budget.MB)
    at, _ = page_peak("landscape", {**BIG, "view": "plane"})
    assert any(w.value.startswith("The energy on this plane would need about")
               and "4 MB" in w.value for w in at.warning)
    at, _ = page_peak("learning", {**BIG, "view": "images", "img_N": "40"})
    assert any(w.value.startswith("Learning 40 patterns from 40 images of d = 3072 values")
               for w in at.warning)
    fresh_caches()
