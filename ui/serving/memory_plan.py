"""What one app process may hold at worst, so that a class of 30 stays within CLASS_BYTES (2 GB).

A run is bounded while it computes (ui.serving.budget.RUN_BYTES, 150 MB at its peak); what the
process keeps afterwards is bounded here. Each cache whose entries can be large is a
ByteCache (ui/serving/byte_cache.py) with a limit in bytes; the others keep a bounded number of
entries, each small at the largest values a link can ask for (32 x 32 in colour, d = 3072, a
store of 40 patterns). The worst case adds up (MB = 2^20 bytes):

    the process idle: Python, Streamlit, NumPy, PyTorch, Plotly   IDLE_BYTES        460
    heavy runs computing at once, one a core                      4 x RUN_BYTES     600
    built networks (ui.player.runs.model_for)                            budget.MODELS_BYTES 300
    caches bounded by bytes, BYTE_CACHES:
      trajectories (ui.player.runs.RUNS; the largest run, 36 MB)         RUNS_BYTES        128
      the player's frames and overlaps (ui.player.player_cache; 5 MB)    PLAYER_BYTES       48
      figures and verdicts (ui.serving.shared_cache; 0.7 MB)              SHARED_BYTES       64
      beta sweeps (ui.pages.modern.cache; 0.8 MB)                       SWEEPS_BYTES       16
      ET completions (ui.pages.energy_transformer.cache; 4.6 MB)        COMPLETIONS_BYTES  32
      every state of a binary network (ui.pages.landscape; 9 MB)        BINARY_BYTES       32
      a Transformer's heads on an input (ui.pages.transformer_heads;
      2.3 MB at 128 tokens)                                       HEADS_BYTES         8
    caches bounded by entries, ENTRY_BOUNDED: entries x the
    largest entry a link can create (the largest: the MiniLM's
    weights, 87 MB, 64 pattern sets of 0.94 MB, 3 projections of
    18 MB)                                                        entry_bounded()   333
                                                                          worst()  2021

worst() <= CLASS_BYTES: tests/ui/serving/test_memory_plan.py adds the limits up, checks that
every ByteCache and every st.cache_data / st.cache_resource of ui/ is listed here with its
limit or its entry count, and measures the largest entries; tests/load/test_class_memory.py
measures a real server (ten sessions at the largest size at once: 404 MB idle, 868 MB peak).

PLAN_SLOTS: every heavy computation of every page (the dynamics pages' runs of ui.player.runs.run,
the landscapes, the beta sweeps, learning, the attention checks, the ET completions, the
capacity lab's runs) holds its estimated peak from ui/serving/memory_gate.py's pool of
PLAN_SLOTS x RUN_BYTES (600 MB) while it computes; a computation that does not fit waits, first
come first served, until earlier ones release their bytes. So the 4 x RUN_BYTES above holds
however many sessions compute at once, on any number of cores (ui/serving/run_queue.py's gate, one
capacity run a core, only decides which of the capacity lab's runs compute; their bytes come
from the same pool). tests/ui/serving/test_memory_gate.py checks that every computation that
checks the budget also reserves. No Streamlit here.
"""
from __future__ import annotations

from .budget import MODELS_BYTES, RUN_BYTES

MB, KB = 2 ** 20, 2 ** 10
CLASS_BYTES = 2048 * MB   # a class of 30 on one app process
IDLE_BYTES = 460 * MB     # the process idle after its warm-up: 404 MB measured by
                          # tests/load/test_class_memory.py, ~420 MB by benchmarks/load_classroom.py
PLAN_SLOTS = 4            # heavy runs computing at once that the plan allows for

RUNS_BYTES = 128 * MB      # 3 of the largest run (was 192 MB: room for the MiniLM)
PLAYER_BYTES = 48 * MB
SHARED_BYTES = 64 * MB
SWEEPS_BYTES = 16 * MB
COMPLETIONS_BYTES = 32 * MB
BINARY_BYTES = 32 * MB
HEADS_BYTES = 8 * MB

# ByteCache name -> its limit in bytes
BYTE_CACHES = {"runs": RUNS_BYTES, "player": PLAYER_BYTES, "shared": SHARED_BYTES,
               "sweeps": SWEEPS_BYTES, "completions": COMPLETIONS_BYTES,
               "binary landscapes": BINARY_BYTES, "models": MODELS_BYTES,
               "transformer heads": HEADS_BYTES}

# cache (module.function, or module.NAME of an LRU) -> (entries, the largest entry a link can
# create, in bytes: pickled for st.cache_data, which keeps its entries pickled)
ENTRY_BOUNDED = {
    "ui.store.store._stored_pixels": (512, 49 * KB),       # an upload, 64 x 64 x 3 bytes
    "ui.store.patterns._pattern_set": (64, 961 * KB),      # 40 patterns of d = 3072, float64
    "ui.charts.pictures._png": (2048, 12 * KB),             # a picture's PNG, 920 px a side
    "ui.pages.attention.cache.projections": (3, 18 * MB + 512 * KB),  # d = 3072, 4 heads of 64
    "ui.pages.energy_transformer.cache._load": (6, 512 * KB),  # 2 models x 3 devices (CUDA, MPS, CPU)
    "ui.pages.energy_transformer.cache.spectrum": (256, 2 * KB),  # the eigenvalues of M at one step
    "ui.pages.energy_transformer.cache.attention": (512, 3 * KB),  # 4 heads x 64 patches, float64
    "ui.pages.energy_transformer.cache.memories": (128, 16 * KB),  # uses of 256 memories, 24 patches
    "ui.pages.learning.cache.plane_run": (64, 64 * KB),         # 16 patterns in the plane, 61 frames
    "ui.pages.learning.cache.image_run": (32, 1 * MB),          # 40 patterns of d = 3072 learned
    "ui.pages.attention_family.cache.cloud_layers": (64, 200 * KB),  # 200 tokens, 20 layers, twice
    "ui.pages.attention_family.cache.descent": (64, 2 * KB),
    "ui.pages.landscape.cache.world": (64, 128 * KB),      # 121 x 121 energies and a run
    "ui.pages.landscape.cache.plane_for": (32, 80 * KB),   # a plane through d = 3072
    "ui.pages.landscape.cache.plane_grid": (64, 32 * KB),  # 61 x 61 energies
    "ui.pages.landscape.cache.line_slice": (64, 16 * KB),  # 4 betas x 301 points
    "ui.pages.dense.cache.stable_counts": (64, 1 * KB),
    "ui.pages.dense.cache.final_verdict": (256, 2 * KB),
    "ui.pages.dense.cache.stable_figure": (64, 64 * KB),
    "ui.pages.dense.cache.shape_figure": (64, 64 * KB),
    "ui.pages.modern.cache.bound_table": (128, 2 * KB),    # N = 40
    "ui.pages.capacity_lab.cache.POINTS": (4000, 256),         # one point of a success curve
    "ui.pages.capacity_lab.cache.PHASES": (16, 64 * KB),       # a phase diagram's grid
    "ui.pages.capacity_lab.cache.BOUNDARIES": (8, 2 * KB),     # 50 loads and temperatures
    "ui.pages.transformer_heads.cache._minilm": (1, 88 * MB),  # 22.7 M float32 weights, one copy
    "ui.pages.transformer_heads.cache._vit": (1, 1 * MB),      # 136 k weights and 360 digits
    "ui.pages.transformer_heads.cache.heldout_table": (2, 4 * KB),  # a kinds table per model
    "ui.pages.transformer_heads.cache.landing": (64, 2 * KB),  # two (N,) int64, N <= 128
}


def entry_bounded() -> int:
    """Bytes the caches bounded by entries may hold at worst, together."""
    return sum(n * size for n, size in ENTRY_BOUNDED.values())


def worst(slots: int = PLAN_SLOTS) -> int:
    """Bytes the process may hold at worst with `slots` heavy runs computing at once."""
    return (IDLE_BYTES + slots * RUN_BYTES + sum(BYTE_CACHES.values())
            + entry_bounded())
