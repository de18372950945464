"""Server-side speed of the app and its cold start, each beside a peer measured in the same run.

    python benchmarks/bench_app.py

1. A rerun of each page, and a change of its first slider (the first change computes a new run,
   one measurement; then back and forth between two cached runs, the median): what reaches the
   server now that Step and Play run in the browser (benchmarks/bench_player.py). Measured in
   Streamlit's AppTest (the script's server-side time), beside the rerun of a bare page (a
   title and a line of text) measured the same way. Goal: a cached interaction under 100 ms.
2. The frame policy's middleware (every HTTP answer's Content-Security-Policy), per request,
   beside the bare ASGI app it wraps.
3. Cold start: from `streamlit run app.py` to the first painted page (the h1 visible) in
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


def _settings_change(at, page: str) -> tuple[float, float] | None:
    """(seconds of the first change of the page's first slider, a run not computed before; the
    median of REPEAT changes back and forth between two values whose runs are cached), or None
    for a page with no slider of its own. What a student's change of a setting costs the server
    now that Step and Play cost it nothing (the player runs in the browser)."""
    found = [x for x in at.slider if str(x.key or "").startswith(f"{page}_") and not isinstance(x.value, tuple)
             and not x.disabled]
    if not found:
        return None
    key, first = found[0].key, found[0].value
    other = found[0].min if first != found[0].min else found[0].max
    t0 = time.perf_counter()
    at.slider(key=key).set_value(other).run()
    cold = time.perf_counter() - t0
    values = [first, other]

    def change():
        values.reverse()
        at.slider(key=key).set_value(values[0]).run()
    return cold, median_time(change, REPEAT, warmup=2)


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
        changed = _settings_change(at, page)
        if changed:
            rows.append((f"{page}: a setting changed, new run", changed[0], t_bare))
            rows.append((f"{page}: a setting changed, cached run", changed[1], t_bare))
        if at.exception:
            raise RuntimeError(f"{page} raised {at.exception}")
    return rows


def middleware_cost(n: int = 20_000) -> tuple[float, float]:
    """Seconds per HTTP request through the frame-policy middleware (ui/serving/frame_policy.py,
    app.py) around a bare ASGI app that answers at once, and through the bare app alone: what
    the policy adds to every request the server answers."""
    import asyncio

    from ui.serving.frame_policy import FrameAncestors

    async def bare(scope, receive, send):
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/plain"), (b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    async def nothing():
        return {"type": "http.request", "body": b""}

    async def sink(message):
        return None

    scope = {"type": "http", "method": "GET", "path": "/", "headers": []}

    async def per_request(app) -> float:
        t0 = time.perf_counter()
        for _ in range(n):
            await app(scope, nothing, sink)
        return (time.perf_counter() - t0) / n

    wrapped = FrameAncestors(bare, ["https://lms.school.org"])
    return (statistics.median(asyncio.run(per_request(wrapped)) for _ in range(5)),
            statistics.median(asyncio.run(per_request(bare)) for _ in range(5)))


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
        goal = "(computes a run)" if what.endswith("new run") else f"< 100 ms: {'ok' if t < 0.1 else 'SLOW'}"
        print(f"| {what} | {t * 1e3:.1f} | {peer * 1e3:.1f} | {t / peer:.1f} | {goal} |")
    policy, bare = middleware_cost()
    print("\n## The frame policy's middleware, per HTTP request (median of 5 x 20,000)\n")
    print_table_head("path", "µs", "bare ASGI app (µs)", "added (µs)")
    print(f"| FrameAncestors around the bare app | {policy * 1e6:.2f} | {bare * 1e6:.2f} | {(policy - bare) * 1e6:.2f} |")
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
