"""Every page on a phone (390 x 844), a tablet (820 x 1180, the sidebar open) and a classroom
projector (1024 x 768, presenter mode: ?presenter=1), in real Chromium (issue 30):

* the page's main control (its player's Step, or its first control where it has no player)
  and its live figure (the chart or picture the page updates) lie within the first screens:
  two on a phone or a tablet, one on the projector (where a page without a player shows no
  controls: presenter mode hides them);
* nothing in the main area is wider than the screen (the document never scrolls sideways),
  and no display formula is cut at the right of its box;
* every button and input of the main area is at least 24 x 24 px (WCAG 2.5.8); for an input
  drawn by another element (a radio's or a checkbox's label, a slider's track) that element
  is measured;
* the Energy Transformer on a 1920 x 1080 projector: the input and the result are each at
  least 40 % of the screen's width.

Each page and device is loaded once (a fresh browser context); what the tests assert is
measured then and kept. Screenshots of the first screens: artifacts/e2e/device_<page>_<device>.png
(look at them); every measurement: artifacts/e2e/device_report.json.
"""
from __future__ import annotations

import json

import pytest

from tests.support.browser import ARTIFACTS, assert_healthy, goto, wait_idle
from ui.pages import url_paths

# name: (width, height, presenter mode, screens the control and the figure must lie within)
DEVICES = {"phone": (390, 844, False, 2), "tablet": (820, 1180, False, 2),
           "projector": (1024, 768, True, 1)}
TARGET_PX = 24  # WCAG 2.5.8: the smallest touch target
ET_SHARE = 0.4  # the ET's input and result, each, of a 1920 px wide projector screen

# per page (ui.pages): its main control and its live figure, as CSS selectors in the
# main area (None: it has none). A control in the page's controls_ box is hidden in presenter
# mode, so there only a player's Step is asked for (PLAYERS).
MAIN = {
    "": ('[data-testid="stPageLink"]', None),
    "lessons": (".st-key-lessons_code input", None),
    "classical": (".st-key-classical_player [data-role=step]", ".st-key-classical_player [data-panel=energy]"),
    "dense": (".st-key-dense_player [data-role=step]", ".st-key-dense_player [data-panel=energy]"),
    "modern": (".st-key-modern_player [data-role=step]", ".st-key-modern_player [data-panel=energy]"),
    "landscape": (".st-key-landscape_qx", ".st-key-landscape_world_chart"),
    "side_by_side": (".st-key-side_by_side_mode", ".st-key-side_by_side_finals"),
    "attention": (".st-key-attention_proj", ".st-key-attention_heatmap"),
    "energy_transformer": (".st-key-energy_transformer_player [data-role=step]",
                           ".st-key-energy_transformer_player [data-panel=frame]"),
    "capacity_lab": ('[class*="st-key-capacity_"]', '[data-testid="stPlotlyChart"]'),
    "learning": (".st-key-learning_player [data-role=step]", ".st-key-learning_player [data-panel=plane]"),
    "attention_family": ('[class*="st-key-attention_family_"]', ".st-key-attention_family_weights"),
    "transformer_heads": (".st-key-transformer_heads_fixed", ".st-key-transformer_heads_map"),
}
PLAYERS = {"classical", "dense", "modern", "energy_transformer", "learning"}
assert set(MAIN) == set(url_paths()), "a page was added or renamed: name its control and figure"

# Cases that fail, measured (1024 x 768 presenter, 390 x 844 phone), and whose files would
# change: (page, device, check) -> reason. xfail(strict=True): each flips to a failure once
# fixed, and must then leave this table.
KNOWN = {
}

CHECKS = ["control", "figure", "width", "formulas", "targets"]

# ----------------------------------------------------------------- what the browser measures

MEASURE_JS = """([control, figure]) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const shown = e => e && e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0;
  const box = e => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
  const first = sel => sel ? [...main.querySelectorAll(sel)].find(shown) || null : null;
  // the control: its button or input where it has one; the figure: its chart or picture
  const c = first(control), f = first(figure);
  const inner = (e, sel) => e ? ([...e.querySelectorAll(sel)].find(shown) || e) : null;
  const ctl = inner(c, 'button, input, [role="radiogroup"], [data-baseweb="select"]');
  const fig = inner(f, '[data-testid="stPlotlyChart"] .main-svg, .hp-chart .main-svg, img, canvas');
  // the element a finger hits: a visually hidden input is drawn by its label (radio,
  // checkbox) or by the slider's track
  const hidden = e => { for (let a = e.parentElement; a && a !== main; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.clipPath === 'inset(50%)' || (a.offsetWidth <= 1 && cs.overflow === 'hidden')) return a; }
    return null; };
  const target = e => {
    const wrap = hidden(e);
    if (!wrap) return e;
    if (e.type === 'range') return wrap.parentElement.parentElement;  // the track
    return e.closest('label') || wrap.parentElement;
  };
  const small = [];
  for (const e of main.querySelectorAll('button, input, select, textarea, [role="slider"], [role="switch"]')) {
    if (!shown(e) || e.closest('[data-testid="stPlotlyChart"], .modebar, [data-testid="stDataFrameResizable"] canvas')) continue;
    const t = target(e), r = t.getBoundingClientRect();
    if (r.width + 0.5 < TARGET_PX || r.height + 0.5 < TARGET_PX)
      small.push({name: (e.getAttribute('aria-label') || e.innerText || e.type || e.tagName).trim().slice(0, 40),
                  width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10});
  }
  const formulas = [...main.querySelectorAll('.katex-display')].filter(shown)
    .filter(k => k.scrollWidth - k.clientWidth > 2)
    .map(k => { const tex = k.querySelector('annotation[encoding="application/x-tex"]');
      return {text: (tex ? tex.textContent : k.textContent).replace(/\\s+/g, ' ').trim().slice(0, 50),
              hidden: k.scrollWidth - k.clientWidth}; });
  const d = document.documentElement;
  return {control: ctl ? box(ctl) : null, figure: fig ? box(fig) : null,
          doc: [d.scrollWidth, d.clientWidth], main: [main.scrollWidth, main.clientWidth],
          main_height: main.scrollHeight, small, formulas};
}""".replace("TARGET_PX", str(TARGET_PX))

DRAWN_JS = """(figure) => {
  const f = [...document.querySelectorAll('[data-testid="stMain"] ' + figure)]
    .find(e => e.getClientRects().length > 0);
  if (!f) return false;
  const img = f.matches('img') ? f : f.querySelector('img');
  return !!f.querySelector('.main-svg') || !!f.querySelector('canvas')  // the browser player's picture
    || (!!img && img.complete && img.naturalWidth > 0);
}"""


def _load(browser, server: str, path: str, w: int, h: int, presenter: bool, name: str) -> dict:
    context = browser.new_context(viewport={"width": w, "height": h})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    control, figure = MAIN[path]
    try:
        goto(pg, server, path + ("?presenter=1" if presenter else ""))
        show = pg.locator('[class*="_show_result"] button')
        if presenter and show.count():  # presenter mode holds a page's result until the teacher shows it
            show.first.click()
            wait_idle(pg)
        if figure:
            pg.wait_for_function(DRAWN_JS, arg=figure, timeout=90_000)
        pg.wait_for_selector(f'[data-testid="stMain"] {control}', state="attached")
        wait_idle(pg, settle_ms=800)
        pg.evaluate("() => document.fonts.ready.then(() => true)")
        pg.wait_for_timeout(400)
        assert_healthy(pg)
        shown_control = control if (not presenter or path in PLAYERS) else None
        r = pg.evaluate(MEASURE_JS, [shown_control, figure])
        r["asked"] = {"control": shown_control, "figure": figure}
        pg.screenshot(path=str(ARTIFACTS / f"device_{name}.png"))
        return r
    finally:
        context.close()


_RESULTS: dict[str, dict] = {}


@pytest.fixture(scope="module")
def measured(browser, server):
    def get(path: str, device: str) -> dict:
        name = f"{path or 'home'}_{device}"
        if name not in _RESULTS:
            w, h, presenter, _ = DEVICES[device]
            _RESULTS[name] = _load(browser, server, path, w, h, presenter, name)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            (ARTIFACTS / "device_report.json").write_text(json.dumps(_RESULTS, indent=1))
        return _RESULTS[name]
    return get


def _cases():
    for path in url_paths():
        for device in DEVICES:
            for check in CHECKS:
                why = KNOWN.get((path, device, check))
                marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
                yield pytest.param(path, device, check, marks=marks,
                                   id=f"{path or 'home'}-{device}-{check}")


def _within(box: dict | None, what: str, selector, screens: int, h: int) -> None:
    if selector is None:
        return
    assert box is not None, f"no {what} ({selector}) is shown"
    assert box["bottom"] <= screens * h + 1, (
        f"the {what} ({selector}) ends at {box['bottom']:.0f} px, below the first {screens} "
        f"screen(s) of {h} px (it starts at {box['top']:.0f} px)")


@pytest.mark.parametrize("path,device,check", list(_cases()))
def test_device(measured, path, device, check):
    w, h, presenter, screens = DEVICES[device]
    r = measured(path, device)
    if check in ("control", "figure"):
        _within(r[check], f"main {check}" if check == "control" else "live figure",
                r["asked"][check], screens, h)
    elif check == "width":
        assert r["doc"][0] <= r["doc"][1] and r["main"][0] <= r["main"][1], (
            f"something is wider than the {w} px screen: the document is {r['doc'][0]} px wide "
            f"(shows {r['doc'][1]}), the main area {r['main'][0]} px (shows {r['main'][1]})")
    elif check == "formulas":
        assert not r["formulas"], f"formulas cut at the right of their box: {r['formulas']}"
    else:
        assert not r["small"], (f"{len(r['small'])} target(s) under {TARGET_PX} x {TARGET_PX} px: "
                                + "; ".join(f"{s['name']!r} {s['width']} x {s['height']}"
                                            for s in r["small"][:12]))


def test_energy_transformer_pictures_fill_a_wide_projector(browser, server):
    """At 1920 x 1080 in presenter mode the input and the result are each at least 40 % of the
    screen's width."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    try:
        goto(pg, server, "energy_transformer?presenter=1")
        widths = {}
        pg.locator(".st-key-energy_transformer_player [data-panel=frame] canvas").wait_for(timeout=90_000)
        wait_idle(pg, settle_ms=800)
        for key in ("masked", "frame"):
            widths[key] = pg.evaluate(
                "(k) => document.querySelector(`.st-key-energy_transformer_player [data-panel=${k}] canvas`)"
                ".getBoundingClientRect().width", key)
        pg.screenshot(path=str(ARTIFACTS / "device_energy_transformer_1920x1080_presenter.png"))
    finally:
        context.close()
    for key, width in widths.items():
        assert width >= ET_SHARE * 1920, f"{key} is {width:.0f} px wide, under 40 % of 1920 px"
