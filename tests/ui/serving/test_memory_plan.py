"""The caches' limits add up to less than a class's 2 GB (ui/serving/memory_plan.py): with the idle
process, one heavy run a core and the built networks, every ByteCache's limit and every cache
bounded by entries (entries x the largest entry a link can create). Every cache of ui/ must be
counted: a new one, or a larger max_entries, fails here until the plan says what it costs.
"""
from __future__ import annotations

import ast
import pickle
from pathlib import Path

import numpy as np

from hopfield_core import compare, metastable
from tests.support.memory_cases import bipolar, unit_rows
from ui.charts import exports
from ui.serving import budget, byte_cache, memory_plan

UI = Path(__file__).resolve().parents[3] / "ui"


def _byte_caches() -> dict:
    """Every ByteCache of the app: its modules imported."""
    import ui.pages.energy_transformer.cache  # noqa: F401
    import ui.pages.landscape.cache  # noqa: F401
    import ui.pages.modern.cache  # noqa: F401
    import ui.pages.transformer_heads.cache  # noqa: F401
    import ui.player.player_cache  # noqa: F401
    import ui.player.runs  # noqa: F401
    import ui.serving.shared_cache  # noqa: F401
    return {c.name: c.limit for c in byte_cache.caches() if not c.name.startswith("test ")}


def test_the_limits_add_up_to_less_than_a_class_budget():
    from ui.serving.run_queue import SLOTS_ENV  # the gate whose slots the plan counts

    assert SLOTS_ENV == "HOPFIELD_HEAVY_SLOTS"
    parts = (memory_plan.IDLE_BYTES + memory_plan.PLAN_SLOTS * budget.RUN_BYTES
             + sum(_byte_caches().values()) + memory_plan.entry_bounded())
    assert memory_plan.BYTE_CACHES["models"] == budget.MODELS_BYTES  # the built networks
    assert parts == memory_plan.worst() <= memory_plan.CLASS_BYTES == 2 * 2 ** 30
    assert memory_plan.worst(memory_plan.PLAN_SLOTS + 1) > memory_plan.CLASS_BYTES  # 4 is the most
    doc = memory_plan.__doc__
    assert f"worst()  {memory_plan.worst() // memory_plan.MB}" in doc  # the sum written down
    assert f"entry_bounded()   {memory_plan.entry_bounded() // memory_plan.MB}" in doc


def test_every_byte_cache_of_the_app_has_its_limit_in_the_plan():
    assert _byte_caches() == memory_plan.BYTE_CACHES


def _declared_caches() -> dict:
    """module.function -> max_entries (None: unbounded) of every st.cache_data /
    st.cache_resource in ui/, and module.NAME -> size of every LRU(size)."""
    out = {}
    for path in sorted(UI.rglob("*.py")):
        module = ".".join(path.relative_to(UI.parent).with_suffix("").parts)
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for dec in node.decorator_list:
                    if isinstance(dec, ast.Call) and "cache_" in ast.unparse(dec.func):
                        entries = {k.arg: ast.literal_eval(k.value) for k in dec.keywords}
                        out[f"{module}.{node.name}"] = entries.get("max_entries")
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and ast.unparse(node.value.func) == "LRU"):
                out[f"{module}.{node.targets[0].id}"] = ast.literal_eval(node.value.args[0])
    return out


def test_every_cache_bounded_by_entries_is_counted_with_its_entries():
    declared = _declared_caches()
    assert set(declared) == set(memory_plan.ENTRY_BOUNDED), \
        set(declared) ^ set(memory_plan.ENTRY_BOUNDED)
    for name, entries in declared.items():
        planned = memory_plan.ENTRY_BOUNDED[name][0]
        if entries is None:  # unbounded by Streamlit: the ET, per device and model
            from hopfield_core.et.checkpoint import MODELS
            assert name == "ui.pages.energy_transformer.cache._load" and planned == 3 * len(MODELS)
        else:
            assert planned == entries, name


def test_the_largest_entries_are_what_the_plan_says():
    """The largest entries a link can create, measured (the rest are far below 1 MB in all)."""
    from ui.store import store

    plan = memory_plan.ENTRY_BOUNDED
    X = bipolar(40, 3072)
    assert byte_cache.nbytes(X) <= plan["ui.store.patterns._pattern_set"][1]
    proj = compare.random_projections(3072, 64, heads=4, seed=0)  # attention.cache.projections
    assert byte_cache.nbytes(proj) <= plan["ui.pages.attention.cache.projections"][1]
    noise = np.random.default_rng(0).random((32, 32, 3))
    assert len(exports.png_bytes(noise, 920)) <= plan["ui.charts.pictures._png"][1]
    assert len(pickle.dumps(np.zeros((64, 64, 3), np.uint8))) <= plan["ui.store.store._stored_pixels"][1]
    X = unit_rows(40, 3072)
    sweep = metastable.beta_sweep(X, X[0], [float(b) for b in metastable.log_grid(0.1, 1e4)],
                                  max_steps=5)
    assert byte_cache.nbytes(sweep) < memory_plan.SWEEPS_BYTES / 16  # 16 of the largest fit
    assert store.SOURCE_SIZE == 64


def test_the_transformer_heads_entries_are_what_the_plan_says():
    """The MiniLM's weights held once per process, and one input's analysis at the longest
    sentence (128 tokens): three fit in the page's ByteCache."""
    import pytest
    import torch

    from hopfield_core.heads import analysis, minilm
    from ui.pages.transformer_heads import cache

    try:
        model = minilm.load()
    except minilm.MiniLMUnavailable as e:
        pytest.skip(str(e))
    weights = sum(t.numel() * t.element_size() for t in model.bert.w.values())
    assert 80 * memory_plan.MB < weights <= memory_plan.ENTRY_BOUNDED["ui.pages.transformer_heads.cache._minilm"][1]
    L, H, d, N = model.cfg.num_hidden_layers, model.cfg.num_attention_heads, model.cfg.d_head, 128
    g = torch.Generator().manual_seed(0)
    layers = [tuple(torch.randn(H, N, d, generator=g).numpy() for _ in "QK") for _ in range(L)]
    inp = cache.Input("minilm", tuple(["tok"] * N), tuple(layers),
                      tuple(analysis.analyse_model(layers)), "minilm x")
    assert 3 * byte_cache.nbytes(inp) <= memory_plan.HEADS_BYTES
