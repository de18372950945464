"""Server-side speed of the app and its cold start, each beside a peer measured in the same run.

    python benchmarks/bench_app.py

1. A rerun of each page, and one Step click on each page that has a player: the median
   of repeated runs in Streamlit's AppTest (the script's server-side time), beside the
   rerun of a bare page (a title and a line of text) measured the same way.
   Goal: every interaction under 100 ms.
2. Cold start: from `streamlit run app.py` to the first painted page (the h1 visible) in
   headless Chromium, beside the same for a bare one-line app. Goal: under 5 s.
"""
from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import BARE_APP, ROOT, median_time, print_table_head  # noqa: E402
from tests.support import chromium  # noqa: E402
from tests.support.server import Server  # noqa: E402
from ui.pages import PAGES  # noqa: E402

REPEAT = 9


def _rerun(at) -> float:
    """Median seconds of `at.run()` over REPEAT runs."""
    return median_time(at.run, REPEAT, warmup=0)


def _step_click(at, step: str) -> float:
    """Median seconds of the rerun after a click on the player's Step (key `step`), each
    from step 0 (a click on its Reset, untimed)."""
    reset = step.removesuffix("_step") + "_reset"

    def setup():
        at.button(key=reset).click().run()
        at.button(key=step).click()
    return median_time(at.run, REPEAT, warmup=0, setup=setup)


def rerun_table() -> list[tuple]:
    from streamlit.testing.v1 import AppTest

    bare = AppTest.from_string(BARE_APP, default_timeout=60).run()
    t_bare = _rerun(bare)
    rows = []
    for info in PAGES:
        page = info.file
        at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=60).run()
        if not info.default:
            at.switch_page(info.script).run()
        at.run()  # warm the caches as a student's first look does
        t_rerun = _rerun(at)
        rows.append((f"{page}: rerun", t_rerun, t_bare))
        steps = [b.key for b in at.button if str(getattr(b, "key", "")).endswith("_step")]
        if steps:  # the page has a player (ui.player.play.player: its keys end in _step, _reset)
            rows.append((f"{page}: Step click", _step_click(at, steps[0]), t_bare))
        if at.exception:
            raise RuntimeError(f"{page} raised {at.exception}")
    return rows


def cold_start(script: Path, cwd: Path) -> float:
    """Seconds from launching `streamlit run` to the page's h1 painted in Chromium."""
    from playwright.sync_api import sync_playwright

    t0 = time.perf_counter()
    server = Server(app_dir=cwd, script=str(script))
    try:
        server.wait_healthy()
        with sync_playwright() as p:
            b = chromium.launch(p)
            pg = b.new_page()
            pg.goto(server.url)
            pg.wait_for_selector("h1", timeout=60_000)
            elapsed = time.perf_counter() - t0
            b.close()
        return elapsed
    finally:
        server.stop(timeout=10)


def main() -> None:
    print("## Server-side time of one interaction (median of", REPEAT, "runs, AppTest)\n")
    print_table_head("interaction", "ours (ms)", "bare page (ms)", "ratio", "goal")
    for what, t, peer in rerun_table():
        flag = "ok" if t < 0.1 else "SLOW"
        print(f"| {what} | {t * 1e3:.1f} | {peer * 1e3:.1f} | {t / peer:.1f} | < 100 ms: {flag} |")
    if chromium.missing():
        print(f"\n({chromium.missing()}: cold start not measured)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        bare = Path(tmp) / "bare.py"
        bare.write_text(BARE_APP)
        t_bare = statistics.median(cold_start(bare, Path(tmp)) for _ in range(3))
    t_app = statistics.median(cold_start(ROOT / "app.py", ROOT) for _ in range(3))
    print("\n## Cold start: `streamlit run` to the first painted page in Chromium (median of 3)\n")
    print_table_head("app", "seconds", "bare app (s)", "ratio", "goal")
    print(f"| app.py | {t_app:.2f} | {t_bare:.2f} | {t_app / t_bare:.2f} | < 5 s: "
          f"{'ok' if t_app < 5 else 'SLOW'} |")


if __name__ == "__main__":
    main()
