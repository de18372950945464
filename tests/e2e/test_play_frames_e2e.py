"""No blank chart during Play (issues 34, 45): Chromium's own painted frames, sampled while the
player plays, show every chart and picture drawn.

When Play ran on the server, Streamlit drew a changed Plotly figure as a new chart from nothing,
and on a busy browser that left an empty box for part of a second. The browser player
(ui/player/browser.py) redraws its charts in place with Plotly.react and its pictures on
canvases. The frames come from Chromium's screencast (what it actually painted, at the moments it
painted); each chart's box is cut out of each frame and its ink (pixels that are not the white
background) counted: a box with almost none is blank. It runs beside other tests (no longer alone).
"""
import base64
import io
import re
import time

import numpy as np
import pytest

from tests.support.browser import (
    ARTIFACTS,
    assert_healthy,
    goto,
    player_button,
    wait_idle,
)

FRAMES = 24         # painted frames sampled during Play, at least
ADVANCE = 3         # ... over which the player moves on by at least this many steps
INK = 30            # a pixel is ink when its R + G + B differ from white by more than this
BLANK = 0.2         # a chart with under this share of its ink at rest (before Play) is blank
MIN_INK = 0.002     # ... and a chart with almost no ink at all (0.2 % of its box) always is
WINDOW_S = 60       # the longest the sampling may take (a busy CI machine plays slowly)
HEIGHT = 2400       # the window: the ET page's 8 charts and pictures all in it

# every chart or picture of the main area (the browser player's and Streamlit's own)
CHART_BOXES = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stPlotlyChart"],'
  + '[data-testid="stMain"] [data-testid="stImage"], [data-testid="stMain"] .hp-chart,'
  + '[data-testid="stMain"] .hp-canvas')]
  .map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })
  .filter(([x, y, w, h]) => w > 40 && h > 40 && y + h <= window.innerHeight)"""
STEP = re.compile(r"step (\d+) of (\d+)")

PLAYS = [  # (address, charts at least: pictures and Plotly charts)
    ("learning", 3),                        # the plane, the NLL curves, the samples
    ("energy_transformer?steps=100", 8),    # 4 pictures, energy, error, its two parts, the rate
    ("classical?T=0.5&steps=40", 3),        # the state, the energy, the overlaps (T > 0: 40 steps)
]


def ink(rgb: np.ndarray) -> float:
    """The share of pixels of an (H, W, 3) image that are not the white background."""
    return float((np.abs(rgb.astype(int) - 255).sum(axis=2) > INK).mean())


def inks(png: bytes, boxes, width: int) -> list[float]:
    """The ink of each box (page px) in a screenshot of a page `width` px wide."""
    from PIL import Image

    a = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    s = a.shape[1] / width
    return [ink(a[int(y * s):int((y + h) * s), int(x * s):int((x + w) * s)]) for x, y, w, h in boxes]


def step(pg) -> int:
    return int(STEP.search(pg.inner_text('[data-testid="stMain"]')).group(1))


def painted_frames(pg, boxes, width: int) -> tuple[list[list[float]], int, list[bytes]]:
    """Chromium's painted frames while the player plays: each frame's ink per box, the steps
    the player moved on meanwhile, and the frames themselves."""
    cdp = pg.context.new_cdp_session(pg)
    frames: list[bytes] = []

    def got(f):
        frames.append(base64.b64decode(f["data"]))
        try:
            cdp.send("Page.screencastFrameAck", {"sessionId": f["sessionId"]})
        except Exception:  # the screencast stopped meanwhile
            pass

    cdp.on("Page.screencastFrame", got)
    first = step(pg)
    cdp.send("Page.startScreencast", {"format": "png", "everyNthFrame": 1})
    deadline = time.time() + WINDOW_S
    while time.time() < deadline and (len(frames) < FRAMES or step(pg) - first < ADVANCE):
        pg.wait_for_timeout(200)
    cdp.send("Page.stopScreencast")
    moved = step(pg) - first
    cdp.detach()
    return [inks(f, boxes, width) for f in frames], moved, frames


@pytest.mark.parametrize("address, at_least", PLAYS, ids=[a.split("?")[0] for a, _ in PLAYS])
def test_play_shows_every_chart_in_every_frame(page, server, address, at_least):
    page.set_viewport_size({"width": 1500, "height": HEIGHT})
    goto(page, server, address)
    page.wait_for_selector('[data-testid="stMain"] :is([data-testid="stPlotlyChart"], .hp-chart) .main-svg',
                           timeout=60_000)
    wait_idle(page, settle_ms=1000)
    width = page.viewport_size["width"]
    boxes = page.evaluate(CHART_BOXES)
    assert len(boxes) >= at_least, boxes
    rest = inks(page.screenshot(), boxes, width)  # every chart drawn, nothing playing
    assert min(rest) > MIN_INK, rest
    player_button(page, "Play").click()
    # after Play's first steps (a delta line, the progress bar in the slider's place)
    page.wait_for_function("() => { const m = document.body.innerText.match(/step (\\d+) of/);"
                           " return m && +m[1] >= 2; }", timeout=60_000)
    playing = page.evaluate(CHART_BOXES)
    assert len(playing) == len(boxes), (boxes, playing)
    # starting Play moves nothing: every chart where it was at rest (within a pixel)
    moved_px = [round(b[1] - a[1]) for a, b in zip(boxes, playing) if abs(b[1] - a[1]) > 1]
    assert not moved_px, (moved_px, boxes, playing)
    sampled, moved, frames = painted_frames(page, playing, width)
    assert len(sampled) >= FRAMES and moved >= ADVANCE, (len(sampled), moved)
    blank = [(i, j, round(v, 4)) for i, row in enumerate(sampled) for j, v in enumerate(row)
             if v < max(MIN_INK, BLANK * rest[j])]
    if blank:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / f"blank_{address.split('?')[0]}.png").write_bytes(frames[blank[0][0]])
    assert not blank, (f"{len(blank)} blank charts in {len(sampled)} frames (frame, chart, ink):"
                       f" {blank[:10]}; at rest: {[round(v, 4) for v in rest]}")
    assert_healthy(page)
