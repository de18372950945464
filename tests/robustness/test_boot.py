"""The warm-up: heavy first imports and loads happen once per process, and 30 sessions that
arrive together on a fresh process all wait for it instead of racing their imports."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

RUSH = r"""
import json, sys, threading
import ui.boot as boot
light = not any(m in sys.modules for m in ("torch", "pandas", "plotly"))
barrier = threading.Barrier(30)
results, errors = [], []

def session():
    barrier.wait()  # all 30 start together, as a class that opens the link at once
    try:
        results.append(boot.warm())
        import pandas as pd
        pd.Series([1.0])           # the module is whole, not half-initialised
        from ui import et_cache
        model, error = et_cache.load_et("cpu")
        assert model is not None, error
    except Exception as e:
        errors.append(repr(e))

threads = [threading.Thread(target=session) for _ in range(30)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps({"light": light, "errors": errors, "warmed": boot.warmed(),
                  "did_the_work": sum(r > 0 for r in results), "n": len(results)}))
"""


def test_thirty_sessions_arriving_together_on_a_fresh_process_all_get_a_warm_one():
    out = subprocess.run([sys.executable, "-c", RUSH], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["light"]  # importing the boot module itself costs nothing
    assert r["errors"] == [] and r["n"] == 30 and r["warmed"]
    assert r["did_the_work"] == 1  # one thread warmed up, 29 waited and passed through
