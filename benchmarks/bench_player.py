"""The player in the browser (ui/player/browser.py) against a round trip to the server, in real
Chromium on a real server, measured in the same run.

    python benchmarks/bench_player.py [--plays 3]

Starts `streamlit run app.py` as the README does and, beside it, the bare peer app with one
st.button (the cheapest round trip Streamlit has: what every Step cost when the player ran on
the server, before its own page's work). Measured:

* Step: the time in the page from a click on Step to the next painted frame, median of 20
  clicks on the classical page and on the Energy Transformer page at 100 steps; the peer is a
  click on the bare app's button until its rerun has been painted (its script run finished).
* Play: the server process's CPU time while one student's Play runs the Energy Transformer's
  100 steps (user + system, /proc via psutil), beside the same server's CPU over as many
  seconds with nobody doing anything; and how long Play took.
* The payload: the bytes each page's run sends once (what every Step cost afresh before).
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import psutil

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import ROOT, print_table_head  # noqa: E402
from tests.support import chromium  # noqa: E402
from tests.support.browser import wait_idle  # noqa: E402
from tests.support.server import Server  # noqa: E402

BUTTON_APP = ("import streamlit as st\nst.title('bare')\nn = st.session_state.get('n', 0)\n"
              "if st.button('Step', key='step'):\n    n += 1\nst.session_state.n = n\n"
              "st.markdown(f'step {n}')\n")
STEP_MS = """async ([sel, n]) => {
  const root = document.querySelector(sel + ' .hp-root');
  const out = [];
  for (let i = 0; i < n; i++) {
    const reset = root.querySelector('button[data-role=reset]'), step = root.querySelector('button[data-role=step]');
    if (step.disabled) reset.click();
    await new Promise((r) => requestAnimationFrame(() => r()));
    const t0 = performance.now();
    step.click();
    await new Promise((r) => requestAnimationFrame(() => r()));
    out.push(performance.now() - t0);
  }
  return out;
}"""
PEER_MS = """async (n) => {
  const out = [];
  const text = () => [...document.querySelectorAll('[data-testid="stMarkdownContainer"] p')]
    .map((p) => p.textContent).find((t) => t.startsWith('step ')) || '';
  for (let i = 0; i < n; i++) {
    const before = text();
    const t0 = performance.now();
    document.querySelector('.st-key-step button').click();
    while (text() === before) await new Promise((r) => requestAnimationFrame(() => r()));
    out.push(performance.now() - t0);
  }
  return out;
}"""


def cpu(proc: psutil.Process) -> float:
    t = proc.cpu_times()
    return t.user + t.system


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--plays", type=int, default=3)
    args = args.parse_args()
    if chromium.missing():
        sys.exit(chromium.missing())
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp())
    (tmp / "app.py").write_text(BUTTON_APP)
    (tmp / ".streamlit").mkdir()
    shutil.copy(ROOT / ".streamlit" / "config.toml", tmp / ".streamlit")
    app, peer = Server(), Server(app_dir=tmp)
    try:
        app.wait_healthy()
        peer.wait_healthy()
        proc = psutil.Process(app.proc.pid)
        with sync_playwright() as p:
            b = chromium.launch(p)
            pg = b.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            pg.set_default_timeout(120_000)
            rows = []
            for path, page in (("classical", "classical"), ("energy_transformer?steps=100", "energy_transformer")):
                sel = f".st-key-{page}_player"
                pg.goto(f"{app.url}/{path}")
                wait_idle(pg)
                pg.wait_for_function(f"() => document.querySelector('{sel} .hp-root')?.dataset.charts === 'ready'")
                ms = pg.evaluate(STEP_MS, [sel, 20])
                size = pg.evaluate(f"() => document.querySelector('{sel} .hp-root').__hp.raw.length")
                rows.append((page, statistics.median(ms), max(ms), size))
            pg.goto(peer.url)
            wait_idle(pg)
            peer_ms = pg.evaluate(PEER_MS, 20)

            sel = ".st-key-energy_transformer_player"
            pg.goto(f"{app.url}/energy_transformer?steps=100")
            wait_idle(pg)
            pg.wait_for_function(f"() => document.querySelector('{sel} .hp-root')?.dataset.charts === 'ready'")
            plays = []
            for _ in range(args.plays):
                pg.locator(f"{sel} button[data-role=reset]").click()
                time.sleep(1.0)
                c0, t0 = cpu(proc), time.perf_counter()
                pg.locator(f"{sel} button[data-role=play]").click()
                pg.wait_for_function(f"() => document.querySelector('{sel} .hp-root').dataset.playing === '0'"
                                     f" && document.querySelector('{sel} .hp-root').dataset.step === '100'")
                took = time.perf_counter() - t0
                used = cpu(proc) - c0
                i0 = cpu(proc)
                time.sleep(took)  # the same server, as long, with nobody doing anything
                plays.append((took, used, cpu(proc) - i0))
            b.close()
    finally:
        app.stop(timeout=10)
        peer.stop(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)

    print("## Step in the browser against a round trip (median of 20 clicks, Chromium)\n")
    print_table_head("page", "Step, click to painted (ms)", "slowest (ms)", "round trip on a bare app (ms)",
                     "ratio", "the run's payload (kB)")
    for page, med, worst, size in rows:
        print(f"| {page} | {med:.1f} | {worst:.1f} | {statistics.median(peer_ms):.1f} | "
              f"{med / statistics.median(peer_ms):.2f} | {size / 1000:.0f} |")
    print("\n## The server while one student plays the Energy Transformer's 100 steps\n")
    print_table_head("play", "Play took (s)", "server CPU during Play (s)", "server CPU idle as long (s)",
                     "CPU share of a core during Play")
    for i, (took, used, idle) in enumerate(plays, 1):
        print(f"| {i} | {took:.2f} | {used:.2f} | {idle:.2f} | {100 * used / took:.1f} % |")


if __name__ == "__main__":
    main()
