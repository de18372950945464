"""The player in the browser (ui/player/browser.py), in Chromium: Step, Run, Reset, Play, Pause
and the scrubber send nothing to the server and change the shown step at once; Play plays a
100-step run in at most 12 s at the default speed, at a pace the speed control changes, while
the server's CPU time stays where it was; the live region is quiet during Play and says where it
stopped; a change of settings sends the next run and the player starts it at step 0."""
import re

import pytest

from tests.support.browser import assert_healthy, goto, shot, wait_idle
from ui.pages import PAGES

PLAYER = ".st-key-{page}_player"
LONG = "modern?gamma=0.1"  # H, O, X at beta 10, gamma 0.1: 94 steps (tests/app/test_modern_page.py)

# the in-page time from a click to the next painted frame, in ms, for each of `n` Steps
STEP_MS = """async ([sel, n]) => {
  const root = document.querySelector(sel + ' .hp-root');
  const step = root.querySelector('button[data-role=step]');
  const out = [];
  for (let i = 0; i < n; i++) {
    if (step.disabled) {  // at the run's end: back to its start (untimed), then on
      root.querySelector('button[data-role=reset]').click();
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
    }
    const before = root.dataset.step;
    const t0 = performance.now();
    step.click();
    await new Promise((r) => requestAnimationFrame(() => r()));
    if (root.dataset.step === before) return null;
    out.push(performance.now() - t0);
    // the charts catch up (a frame later) before the next click, so each click is timed alone
    const inView = (c) => { const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
    const t1 = performance.now();
    while (performance.now() - t1 < 3000 && ![...root.querySelectorAll('.hp-chart')].filter(inView)
           .every((c) => c.dataset.frame === root.dataset.frame)) {
      await new Promise((r) => requestAnimationFrame(() => r()));
    }
  }
  return out;
}"""


# ms in the page from a click on Step until every chart of the player in view shows the new frame
# (charts are drawn in the frame after the step changes: browser_player.js, drawCharts)
CHARTS_FOLLOW = """async (sel) => {
  const root = document.querySelector(sel + ' .hp-root');
  const inView = (c) => { const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
  const t0 = performance.now();
  root.querySelector('button[data-role=step]').click();
  const want = root.dataset.frame;
  while (performance.now() - t0 < 5000) {
    const charts = [...root.querySelectorAll('.hp-chart')].filter(inView);
    if (charts.every((c) => c.dataset.frame === want)) return performance.now() - t0;
    await new Promise((r) => requestAnimationFrame(() => r()));
  }
  return null;
}"""


def cpu_s(pid: int) -> float:
    """The process's user + system CPU time so far, in seconds (/proc/<pid>/stat)."""
    import os

    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_player(pg, server: str, address: str) -> str:
    goto(pg, server, address)
    page = address.split("?")[0]
    sel = PLAYER.format(page=page)
    pg.locator(f"{sel} button[data-role=step]").wait_for()
    pg.wait_for_function(f"() => document.querySelector('{sel} .hp-root').dataset.charts === 'ready'"
                         f" && document.querySelectorAll('{sel} .hp-chart .main-svg').length >= 2",
                         timeout=60_000)
    return sel


def sent_frames(pg) -> list:
    """Every websocket message the page sends from now on (the server hears nothing else)."""
    sent: list = []
    for ws in getattr(pg, "_hp_sockets", []):
        ws.on("framesent", lambda payload: sent.append(payload))
    return sent


def watch_sockets(pg) -> None:
    pg._hp_sockets = []
    pg.on("websocket", lambda ws: pg._hp_sockets.append(ws))


def root_attr(pg, sel: str, name: str) -> str:
    return pg.locator(f"{sel} .hp-root").get_attribute(name)


def test_step_run_reset_and_the_scrubber_need_no_server(page, server):
    watch_sockets(page)
    sel = open_player(page, server, "classical?T=0.5&steps=40")  # hot: the run goes to 40 steps
    wait_idle(page)
    sent = sent_frames(page)
    ms = page.evaluate(STEP_MS, [sel, 5])
    assert ms is not None, "Step did not change the step"
    assert sorted(ms)[2] < 100, ms  # the median Step: shown within 100 ms of the click, in the page
    assert root_attr(page, sel, "data-step") == "5"
    assert "step 5 of 40" in page.locator(f"{sel} .hp-count").inner_text()
    assert page.locator(f"{sel} .hp-heading").inner_text() == "State at step 5"
    assert page.locator(f"{sel} canvas").get_attribute("aria-label").startswith("State at step 5 of 40")
    page.locator(f"{sel} button[data-role=run_all]").click()
    assert root_attr(page, sel, "data-step") == "40"
    assert page.locator(f"{sel} button[data-role=step]").is_disabled()
    scrub = page.locator(f"{sel} .hp-scrub")
    scrub.focus()
    page.keyboard.press("Home")
    assert root_attr(page, sel, "data-step") == "0"
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert root_attr(page, sel, "data-step") == "3" and scrub.get_attribute("aria-valuetext") == "step 3 of 40"
    page.locator(f"{sel} button[data-role=reset]").click()
    assert root_attr(page, sel, "data-step") == "0"
    page.wait_for_timeout(500)
    assert sent == [], f"{len(sent)} messages to the server"
    assert_healthy(page)


PLAYER_PAGES = [f"{p.file}?{p.player}" if p.player else p.file for p in PAGES if p.player is not None]


@pytest.mark.parametrize("address", PLAYER_PAGES, ids=[a.split("?")[0] for a in PLAYER_PAGES])
def test_on_every_player_page_step_shows_the_next_step_at_once_and_tells_no_server(page, server, address):
    watch_sockets(page)
    sel = open_player(page, server, address)
    wait_idle(page)
    sent = sent_frames(page)
    ms = page.evaluate(STEP_MS, [sel, 5])  # a short run (dense: 2 steps) goes back to 0 between
    assert ms is not None, "Step did not change the step"
    assert sorted(ms)[2] < 100, ms  # the median of 5 Steps to the next painted frame, in the page
    page.locator(f"{sel} button[data-role=reset]").click()
    follow = page.evaluate(CHARTS_FOLLOW, sel)  # and the charts follow, together, within a second
    assert follow is not None and follow < 1000, follow
    page.locator(f"{sel} button[data-role=run_all]").click()
    assert page.locator(f"{sel} button[data-role=step]").is_disabled()
    page.wait_for_timeout(300)
    assert sent == [], f"{len(sent)} messages to the server"
    assert_healthy(page)


def test_play_plays_100_steps_in_12_s_and_the_server_does_nothing(page, server, server_pid):
    watch_sockets(page)
    sel = open_player(page, server, LONG)
    wait_idle(page, settle_ms=1000)
    T = int(re.search(r"of (\d+)", page.locator(f"{sel} .hp-count").inner_text()).group(1))
    assert T == 94
    sent = sent_frames(page)
    live = page.locator(f"{sel} .hp-live")
    cpu0 = cpu_s(server_pid)
    start = page.evaluate("() => performance.now()")
    page.locator(f"{sel} button[data-role=play]").click()
    assert live.get_attribute("aria-live") == "off"  # quiet while playing
    page.wait_for_function(f"() => document.querySelector('{sel} .hp-root').dataset.step === '20'")
    assert page.locator(f"{sel} .hp-note p").first.inner_text().startswith("Playing the 94 steps")
    page.wait_for_function(f"() => document.querySelector('{sel} .hp-root').dataset.playing === '0'",
                           timeout=30_000)
    took = page.evaluate("() => performance.now()") - start
    cpu = cpu_s(server_pid) - cpu0
    assert root_attr(page, sel, "data-step") == str(T)
    assert took <= 12_000, f"Play took {took:.0f} ms"
    assert took >= 0.8 * T * 80, f"Play took {took:.0f} ms: faster than its pace"  # 80 ms a step
    assert sent == [], f"{len(sent)} messages to the server during Play"
    # the server's CPU time while Play ran: what an idle server spends (its own timers), not a
    # rerun per frame (one rerun of this page costs it tens of ms; 94 would be seconds)
    assert cpu < 0.5, f"the server spent {cpu:.2f} s of CPU while Play ran"
    assert live.get_attribute("aria-live") == "polite"
    page.wait_for_timeout(300)
    assert live.inner_text().startswith(f"Step {T} of {T}") and live.inner_text().endswith("Retrieved pattern H.")
    # the verdict, and the modern page's finding with it (ui/pages/modern/sections.finding)
    assert page.locator(f"{sel} .hp-success p").inner_text().startswith("Retrieved pattern H. Fixed point: single")
    shot(page, "player_played")


def test_the_speed_control_changes_the_pace(page, server):
    sel = open_player(page, server, LONG)

    def play_ms(speed: str, steps: int = 12) -> float:
        page.locator(f"{sel} button[data-role=reset]").click()
        page.locator(f"{sel} .hp-speed").select_option(label=speed)
        t0 = page.evaluate("() => performance.now()")
        page.locator(f"{sel} button[data-role=play]").click()
        page.wait_for_function(f"() => +document.querySelector('{sel} .hp-root').dataset.step >= {steps}",
                               timeout=30_000)
        took = page.evaluate("() => performance.now()") - t0
        page.locator(f"{sel} button[data-role=pause]").click()
        assert root_attr(page, sel, "data-playing") == "0"
        return took

    slow, fast = play_ms("Slow"), play_ms("Fast")
    # 0.5 x against 2 x the default pace: 4 x where drawing a frame takes less than a fast step
    # (a busy machine draws a frame in tens of ms, which bounds the fast pace)
    assert slow / fast > 1.8, (slow, fast)


def test_a_change_of_settings_sends_the_next_run_from_step_0(page, server):
    sel = open_player(page, server, "classical")
    page.locator(f"{sel} button[data-role=run_all]").click()
    T = int(re.search(r"of (\d+)", page.locator(f"{sel} .hp-count").inner_text()).group(1))
    assert root_attr(page, sel, "data-step") == str(T)
    field = page.locator(".st-key-q_seed input")  # the query's noise seed: a new query, a new run
    field.fill("3")
    field.press("Enter")
    page.wait_for_function(f"() => document.querySelector('{sel} .hp-root').dataset.step === '0'",
                           timeout=30_000)
    wait_idle(page)
    assert root_attr(page, sel, "data-step") == "0" and "q_seed=3" in page.url
    page.locator(f"{sel} button[data-role=step]").click()
    assert root_attr(page, sel, "data-step") == "1"
    assert_healthy(page)


# each chart's title: its top and bottom against its chart's top (px), and its text
TITLES = """(sel) => [...document.querySelectorAll(sel + ' .hp-chart')].map((c) => {
  const svg = c.querySelector('.main-svg').getBoundingClientRect();
  const t = c.querySelector('.gtitle');
  if (!t) return null;
  const r = t.getBoundingClientRect();
  return [Math.round(r.top - svg.top), Math.round(r.bottom - svg.top), t.textContent];
}).filter(Boolean)"""


def test_a_title_of_two_lines_is_not_cut_at_the_top(page, server):
    """The heads page's bars and energy titles take two lines; Plotly drew such a title half a
    line too high, its first line cut by the chart's top (ui/charts/style.title_pad)."""
    sel = open_player(page, server, "transformer_heads")
    titles = page.evaluate(TITLES, sel)
    two = [t for t in titles if t[1] - t[0] > 30]  # two lines of a 16 px title
    assert len(two) == 2, titles
    assert all(top >= 2 for top, _, _ in titles), titles
