"""The warm-up: heavy first imports and loads happen once per process, and 30 sessions that
arrive together on a fresh process all wait for it instead of racing their imports."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ui.serving.boot as boot

ROOT = Path(__file__).resolve().parents[3]
THREAD_VARS = ("HOPFIELD_MATH_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")

RUSH = r"""
import json, sys, threading
import ui.serving.boot as boot
light = not any(m in sys.modules for m in ("torch", "pandas", "plotly"))
barrier = threading.Barrier(30)
results, errors = [], []

def session():
    barrier.wait()  # all 30 start together, as a class that opens the link at once
    try:
        results.append(boot.warm())
        import pandas as pd
        pd.Series([1.0])           # the module is whole, not half-initialised
        from ui.pages.energy_transformer import cache as et_cache
        model, error = et_cache.load_et("cpu")
        assert model is not None, error
    except Exception as e:
        errors.append(repr(e))

threads = [threading.Thread(target=session) for _ in range(30)]
for t in threads: t.start()
for t in threads: t.join()
import torch
from threadpoolctl import threadpool_info
later = []  # a thread started after the warm-up, as Streamlit starts one per script run
t = threading.Thread(target=lambda: later.append(torch.get_num_threads()))
t.start(); t.join()
print(json.dumps({"light": light, "errors": errors, "warmed": boot.warmed(),
                  "did_the_work": sum(r > 0 for r in results), "n": len(results),
                  "torch_threads": later[0],
                  "blas_threads": [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]}))
"""


def test_thirty_sessions_arriving_together_on_a_fresh_process_all_get_a_warm_one():
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARS}
    out = subprocess.run([sys.executable, "-c", RUSH], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["light"]  # importing the boot module itself costs nothing
    assert r["errors"] == [] and r["n"] == 30 and r["warmed"]
    assert r["did_the_work"] == 1  # one thread warmed up, 29 waited and passed through
    # one math thread per call: the sessions are the parallelism (this machine has 2 cores,
    # so torch and OpenBLAS would start 2 each)
    assert r["torch_threads"] == 1 and r["blas_threads"] and set(r["blas_threads"]) == {1}


@pytest.mark.parametrize("value, threads", [("", 1), ("1", 1), ("3", 3), ("0", 1), ("-2", 1),
                                            ("two", 1), ("1.5", 1), (" 2", 1)])
def test_math_threads_reads_a_positive_integer_or_falls_back_to_one(monkeypatch, value, threads):
    monkeypatch.setenv("HOPFIELD_MATH_THREADS", value)
    assert boot.math_threads() == threads


def test_the_limit_holds_for_torch_and_numpy_in_a_fresh_process():
    code = ("import ui.serving.boot as b, torch, numpy as np; from threadpoolctl import threadpool_info; "
            "b.limit_math_threads(3); print(torch.get_num_threads(), "
            "[p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas'])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[0] == "3" and "[3]" in out.stdout


def test_the_warm_up_runs_each_model_once(monkeypatch):
    """A completion and a spectrum per shipped model, so that no student's first ET page pays
    for torch's first use of them."""
    from hopfield_core.et import descent
    from hopfield_core.et.checkpoint import MODELS
    from ui import pages
    from ui.pages.energy_transformer import cache as et_cache

    seen = []
    monkeypatch.setattr(descent, "spectrum", lambda model, x: seen.append((model, x.shape)))
    monkeypatch.setattr(boot, "_seconds", None)
    assert boot.warm(pages.warm_up) > 0
    models = [et_cache.load_et(et_cache.devices()[0], name)[0] for name in MODELS]
    assert [m for m, _ in seen] == [m.model for m in models]
    assert all(shape == (m.cfg.grid ** 2, m.cfg.dim) for (_, shape), m in zip(seen, models))


EVERY_PAGE = r"""
import json, pathlib, sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file("streamlit_app.py", default_timeout=120).run()
failed = [str(at.exception)] if at.exception else []
for page in sorted(p.name for p in pathlib.Path("app_pages").glob("*.py")):
    at.switch_page(f"app_pages/{page}").run()
    if at.exception:
        failed.append(f"{page}: {at.exception}")
print(json.dumps({"failed": failed, "dynamo": "torch._dynamo" in sys.modules}))
"""


def test_no_page_imports_torch_dynamo():
    """torch.func (vmap, jacrev) imports torch._dynamo on first use: 0.7 s and 70 MB in every
    server process, and an import the warm-up's lock does not cover. The ET's metric uses plain
    autograd instead; this opens every page in a fresh process and checks it stayed out."""
    out = subprocess.run([sys.executable, "-c", EVERY_PAGE], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["failed"] == [] and r["dynamo"] is False


ENTRY = r"""
import asyncio, importlib.util, json
import streamlit as st
import ui.serving.boot as boot
calls = []
boot.warm = lambda pages_warm_up=None: calls.append("warm") or 1.0
spec = importlib.util.spec_from_file_location("entry", "app.py")
entry = importlib.util.module_from_spec(spec)
spec.loader.exec_module(entry)
seen = {"app": isinstance(entry.app, st.App), "script": entry.SCRIPT, "before": list(calls)}

async def start():
    async with entry.warm_first(entry.app):
        seen["while_serving"] = list(calls)

asyncio.run(start())

def broken(pages_warm_up=None):
    raise RuntimeError("the warm-up failed")

boot.warm = broken
async def start_anyway():
    async with entry.warm_first(entry.app):
        seen["served_after_a_failed_warm_up"] = True

asyncio.run(start_anyway())
print(json.dumps(seen))
"""


def test_streamlit_run_app_py_warms_the_process_before_it_serves():
    """app.py is an st.App (so `streamlit run app.py` serves it through uvicorn) whose start-up
    runs the warm-up once, before the first connection is served, and serves the script the
    tests open (streamlit_app.py). A warm-up that fails does not stop the server: it is
    logged, and the first session retries it (streamlit_app.py calls warm() too)."""
    from streamlit.web.server.app_discovery import discover_asgi_app

    assert discover_asgi_app(ROOT / "app.py").is_asgi_app  # what `streamlit run` checks
    out = subprocess.run([sys.executable, "-c", ENTRY], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r == {"app": True, "script": "streamlit_app.py", "before": [], "while_serving": ["warm"],
                 "served_after_a_failed_warm_up": True}
    assert "the start-up warm-up failed" in out.stderr  # said on the teacher's terminal
    from tests.support.apptest import APP
    assert Path(APP) == ROOT / r["script"]
