"""Every page on a classroom projector (1024 x 768) and on a 1920 x 1080 screen, plain and in
presenter mode (?presenter=1), in real Chromium.

Each combination is loaded once (a fresh browser context, so a fresh Streamlit session, on the
module's one server and one browser); what the tests assert is measured then and kept:

* the page renders with no exception and, except home, with a drawn Plotly chart;
* no text in the main area is cut off on the right: formulas, markdown, headings, metric values,
  captions and widget labels end inside the viewport, and formulas, metric values and markdown
  do not overflow their own box unless that box scrolls;
* on the projector, plain, the first chart starts on the first screen (a separate test, so its
  failures show apart from the others);
* reported apart, stricter: display formulas that only fit by scrolling their own box, chart
  titles cut off by the chart's edge, and metric values that presenter mode makes smaller.

Screenshots: artifacts/e2e/projector_<page>_<w>x<h>_<mode>.png (the whole page) and, at
1024 x 768, ..._viewport.png (what the projector shows before anyone scrolls). A summary of every
measurement goes to artifacts/e2e/projector_report.json.
"""
from __future__ import annotations

import json
import time

import pytest

from tests.support.browser import ARTIFACTS, assert_healthy, goto, shot, wait_idle
from ui.pages import figure_paths, url_paths

PAGES = url_paths()  # every page of the navigation ("" is Home): ui/pages/__init__.py
FIGURES = figure_paths()  # those with a live figure (not Home, not Lessons)
VIEWPORTS = [(1024, 768), (1920, 1080)]
MODES = ["plain", "presenter"]
PROJECTOR = (1024, 768)

# the landscape's other sections (the default one is in PAGES), on the projector
SECTIONS = ["landscape?view=plane", "landscape?view=slice", "landscape?view=states",
            "capacity_lab?view=basins", "capacity_lab?view=phase", "learning?view=images",
            "attention_family?view=cloud", "attention_family?view=descent"]
# 1024 x 768 plain and presenter (with high-contrast projector mode: a teacher's projector);
# 1920 x 1080 presenter only (plain at 1920 is a desk screen, measured by the devices tests)
COMBOS = [pytest.param(path, w, h, mode, id=f"{path or 'home'}-{w}x{h}-{mode}")
          for path in PAGES for (w, h) in VIEWPORTS for mode in MODES
          if (w, h) == PROJECTOR or mode == "presenter"]
SECTION_COMBOS = [pytest.param(path, *PROJECTOR, mode, id=f"{path}-projector-{mode}")
                  for path in SECTIONS for mode in MODES]

# ----------------------------------------------------------------- what the browser measures

CHARTS_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] :is([data-testid="stPlotlyChart"], .hp-chart)')]
  .map(c => {
    const r = c.getBoundingClientRect();
    const svg = c.querySelector('svg.main-svg');
    const s = svg ? svg.getBoundingClientRect() : null;
    const canvases = [...c.querySelectorAll('canvas')].filter(k => k.width > 0 && k.height > 0);
    // chart titles and annotations (subplot titles) that run past the chart's own svg: cut off
    const cut = [];
    // (the visible box: the svg within the element Streamlit gives the chart)
    if (s) for (const t of c.querySelectorAll('.infolayer text.gtitle, .infolayer .annotation text')) {
      const tr = t.getBoundingClientRect();
      if (tr.width === 0) continue;
      const past = Math.max(tr.right - Math.min(s.right, r.right), Math.max(s.left, r.left) - tr.left,
                            Math.max(s.top, r.top) - tr.top);  // a title's first line above the chart
      if (past > 1) cut.push({text: (t.textContent || '').trim().slice(0, 60), px: Math.round(past)});
    }
    return {
      cut_titles: cut,
      top: r.top, left: r.left, width: r.width, height: r.height,
      visible: c.getClientRects().length > 0 && r.width > 0 && r.height > 0,
      svg_width: s ? s.width : 0, svg_height: s ? s.height : 0,
      traces: c.querySelectorAll('g.trace').length,
      images: c.querySelectorAll('.mlayer image, .imagelayer image').length,
      canvases: canvases.length,
    };
  })"""

# One evaluate: every text element of the main area that ends right of the viewport, or whose
# content overflows its own box (formulas, metric values, markdown) without the box scrolling.
OFFENDERS_JS = """() => {
  const vw = window.innerWidth;
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main) return [{tag: 'NONE', testid: 'stMain', cls: '', text: 'no main area', right: 0,
                      scrollWidth: 0, clientWidth: 0, viewport: vw, reasons: ['no main area']}];
  const textSel = ['.katex-display', '[data-testid="stMarkdownContainer"]',
                   'h1', 'h2', 'h3', 'h4', 'h5', 'h6', '[data-testid="stMetricValue"]',
                   '[data-testid="stCaptionContainer"]', '[data-testid="stWidgetLabel"]',
                   '[data-testid="stAlert"]', '.hp-note', 'button'].join(',');
  const boxSel = '.katex-display, [data-testid="stMetricValue"], [data-testid="stMarkdownContainer"]';
  const out = [];
  for (const el of new Set(main.querySelectorAll(textSel))) {
    if (el.getClientRects().length === 0) continue;          // not rendered (display: none)
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden') continue;
    const reasons = [];
    if (r.right > vw + 1) reasons.push(`right edge ${(r.right - vw).toFixed(1)} px past the viewport`);
    if (el.matches(boxSel) && el.clientWidth > 0) {
      const scrolls = cs.overflowX === 'auto' || cs.overflowX === 'scroll';
      const over = el.scrollWidth - el.clientWidth;
      if (over > 2 && !scrolls)
        reasons.push(`content ${over} px wider than its box (overflow-x: ${cs.overflowX})`);
    }
    // a box that scrolls sideways (a formula) loses its scroll bar's height: the formulas' test
    const clipsY = ['hidden', 'clip'].includes(cs.overflowY) && !['auto', 'scroll'].includes(cs.overflowX);
    if (clipsY && el.clientHeight > 0 && el.scrollHeight - el.clientHeight > 2)  // text cut at the bottom
      reasons.push(`content ${el.scrollHeight - el.clientHeight} px taller than its box (overflow-y: ${cs.overflowY})`);
    if (!reasons.length) continue;
    const tex = el.querySelector('annotation[encoding="application/x-tex"]');
    const text = (el.matches('.katex-display') && tex ? tex.textContent : el.innerText || el.textContent || '')
      .replace(/\\s+/g, ' ').trim().slice(0, 60);
    out.push({tag: el.tagName, testid: el.getAttribute('data-testid') || '',
              cls: (el.getAttribute('class') || '').slice(0, 80), text,
              right: Math.round(r.right * 10) / 10, scrollWidth: el.scrollWidth,
              clientWidth: el.clientWidth, overflowX: cs.overflowX, viewport: vw, reasons});
  }
  return out;
}"""

# Display formulas whose box scrolls (Streamlit gives .katex-display overflow-x: auto) but whose
# formula is wider than the box: on a projector nobody scrolls a formula, its right part is unseen.
SCROLLED_FORMULAS_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] .katex-display')]
  .filter(k => k.getClientRects().length > 0 && k.clientWidth > 0)
  .filter(k => ['auto', 'scroll'].includes(getComputedStyle(k).overflowX)
               && k.scrollWidth - k.clientWidth > 2)
  .map(k => {
    const tex = k.querySelector('annotation[encoding="application/x-tex"]');
    return {text: (tex ? tex.textContent : k.textContent).replace(/\\s+/g, ' ').trim().slice(0, 60),
            scrollWidth: k.scrollWidth, clientWidth: k.clientWidth,
            hidden: k.scrollWidth - k.clientWidth, right: Math.round(k.getBoundingClientRect().right)};
  })"""

# The rendered font size (px) of each visible metric value: the element holding its text.
METRIC_FONTS_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stMetricValue"]')]
  .filter(m => m.getClientRects().length > 0)
  .map(m => {
    let holder = m;
    for (const e of m.querySelectorAll('*'))
      if ([...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) holder = e;
    return {text: m.innerText.trim().slice(0, 30),
            px: parseFloat(getComputedStyle(holder).fontSize)};
  })"""

MAIN_HEIGHT_JS = """() => {
  const m = document.querySelector('[data-testid="stMain"]');
  return m ? m.scrollHeight : document.documentElement.scrollHeight;
}"""

IMAGES_TOP_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stImage"] img,'
  + '[data-testid="stMain"] .hp-canvas')]
  .map(i => i.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0).map(r => r.top)"""
DRAWN_CHART_JS = f"""() => ({CHARTS_JS})().some(c => c.visible && c.svg_width > 0
    && (c.traces + c.images + c.canvases) > 0)"""


def _drawn(chart: dict) -> bool:
    return (chart["visible"] and chart["svg_width"] > 0 and chart["svg_height"] > 0
            and chart["traces"] + chart["images"] + chart["canvases"] > 0)


def _load_and_measure(browser, server: str, path: str, w: int, h: int, mode: str) -> dict:
    name = (path or "home").replace("?", "_").replace("=", "-")
    result = {"page": name, "viewport": f"{w}x{h}", "mode": mode, "error": None,
              "exception": None, "charts": [], "offenders": [], "first_chart_top": None,
              "scrolled_formulas": [], "metric_fonts": []}
    context = browser.new_context(viewport={"width": w, "height": h})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    t0 = time.time()
    try:
        joiner = "&" if "?" in path else "?"
        flags = "presenter=1&projector=1" if (w, h) == PROJECTOR else "presenter=1"
        goto(pg, server, path + (joiner + flags if mode == "presenter" else ""))
        if path.split("?")[0] in FIGURES:
            try:
                pg.wait_for_function(DRAWN_CHART_JS, timeout=90_000)
            except Exception as e:  # recorded; the render test says so
                result["error"] = f"no drawn chart within 90 s: {type(e).__name__}"
        wait_idle(pg, settle_ms=800)
        pg.evaluate("() => document.fonts.ready.then(() => true)")
        pg.wait_for_timeout(300)
        try:
            assert_healthy(pg)
        except AssertionError as e:
            result["exception"] = str(e)[:2000]
        charts = pg.evaluate(CHARTS_JS)
        result["charts"] = charts
        visible = [c["top"] for c in charts if c["visible"]] + pg.evaluate(IMAGES_TOP_JS)
        if visible:  # a live figure is a chart or a picture (the ET's are pictures)
            result["first_chart_top"] = round(min(visible), 1)
        result["offenders"] = pg.evaluate(OFFENDERS_JS)
        result["scrolled_formulas"] = pg.evaluate(SCROLLED_FORMULAS_JS)
        result["metric_fonts"] = pg.evaluate(METRIC_FONTS_JS)
        result["main_height"] = pg.evaluate(MAIN_HEIGHT_JS)
        if mode == "presenter":
            result["presenter"] = pg.evaluate(PRESENTER_JS)
        if (w, h) == PROJECTOR:  # what the projector shows before anyone scrolls
            pg.screenshot(path=str(ARTIFACTS / f"projector_{name}_{w}x{h}_{mode}_viewport.png"))
        # the app scrolls inside stMain, not the document: grow the window to the content's
        # height (same width, so the same layout) for a screenshot of the whole page
        full = max(h, int(result["main_height"]) + 20)
        pg.set_viewport_size({"width": w, "height": min(full, 16_000)})
        pg.wait_for_timeout(700)
        shot(pg, f"projector_{name}_{w}x{h}_{mode}")
    except Exception as e:
        result["error"] = (result["error"] + "; " if result["error"] else "") + \
            f"{type(e).__name__}: {str(e)[:500]}"
    finally:
        result["seconds"] = round(time.time() - t0, 1)
        context.close()
    print(f"[projector] {name:20s} {w}x{h} {mode:9s} first chart top="
          f"{result['first_chart_top']} charts={len(result['charts'])} "
          f"offenders={len(result['offenders'])} "
          f"scrolled formulas={len(result['scrolled_formulas'])} ({result['seconds']} s)")
    return result


_RESULTS: dict[tuple, dict] = {}

# presenter mode's first screen: the values line, the memory strip (on a page that uses the store,
# whose panel is in the hidden sidebar) and where each ends
PRESENTER_JS = """() => {
  const box = (sel) => { const e = document.querySelector(sel); if (!e) return null;
    const b = e.getBoundingClientRect(); return b.height ? [Math.round(b.top), Math.round(b.bottom)] : null; };
  const heads = [...document.querySelectorAll('[data-testid=stSidebar] h2')].map(h => h.textContent);
  const width = (sel) => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().width : null; };
  return {values: box('.st-key-presenter_values'), memories: box('.st-key-presenter_memories'),
          store: heads.some(t => t.startsWith('Pattern store')),
          // the back row's figures: the landscape's plot, the attention iterates' strip (one image)
          landscape_plot: width('.st-key-landscape_world_chart rect.nsewdrag'),
          learning_plot: width('.st-key-learning_player [data-panel=plane] rect.nsewdrag'),
          strip: width('.st-key-attention_strip image')};
}"""


def _write_report() -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    rows = [_RESULTS[k] for k in sorted(_RESULTS)]
    (ARTIFACTS / "projector_report.json").write_text(json.dumps(rows, indent=1))


@pytest.fixture(scope="module")
def measured(browser, server):
    """measured(path, w, h, mode): the combination's measurements, loaded once per module."""
    def get(path: str, w: int, h: int, mode: str) -> dict:
        key = (path, w, h, mode)
        if key not in _RESULTS:
            _RESULTS[key] = _load_and_measure(browser, server, path, w, h, mode)
            _write_report()
        return _RESULTS[key]
    yield get
    _write_report()


def _describe(offenders: list[dict]) -> str:
    return "\n".join(
        f"  <{o['tag'].lower()} testid={o['testid'] or '-'} class={o['cls'][:40] or '-'}> "
        f"{o['text']!r}: right={o['right']} (viewport {o['viewport']}), "
        f"scrollWidth={o['scrollWidth']} clientWidth={o['clientWidth']} "
        f"overflow-x={o['overflowX']}: {'; '.join(o['reasons'])}" for o in offenders)


# ----------------------------------------------------------------- the tests

@pytest.mark.parametrize("path,w,h,mode", COMBOS)
def test_page_renders_with_a_live_chart(measured, path, w, h, mode):
    r = measured(path, w, h, mode)
    assert r["exception"] is None, f"exception on the page: {r['exception']}"
    if path not in FIGURES:  # Home, Lessons
        assert r["error"] is None, r["error"]
        return
    drawn = [c for c in r["charts"] if _drawn(c)]
    assert drawn, (f"no drawn Plotly chart ({r['error'] or 'no error'}); charts seen: "
                   f"{r['charts']}")
    assert r["error"] is None, r["error"]


@pytest.mark.parametrize("path,w,h,mode", COMBOS + SECTION_COMBOS)
def test_no_text_is_clipped(measured, path, w, h, mode):
    r = measured(path, w, h, mode)
    assert r["error"] is None, r["error"]
    assert not r["offenders"], (f"{len(r['offenders'])} text element(s) cut off (right or bottom) at "
                                f"{w}x{h} {mode}:\n{_describe(r['offenders'])}")


@pytest.mark.parametrize("path", [p for p in PAGES if p in FIGURES])
def test_live_figure_is_on_the_first_screen(measured, path):
    """On the projector, plain: the first chart starts before the bottom of the first screen."""
    w, h = PROJECTOR
    r = measured(path, w, h, "plain")
    top = r["first_chart_top"]
    print(f"[projector] {path}: first chart top at 1024x768 plain = {top} px")
    assert top is not None, f"no visible chart on {path} ({r['error']})"
    assert top < h, (f"{path}: the first chart starts at {top:.0f} px, below the first screen "
                     f"({h} px): the class sees no figure until someone scrolls")


@pytest.mark.parametrize("path", [p for p in PAGES if p in FIGURES] + SECTIONS)
def test_presenter_first_screen_shows_the_values_the_memories_and_the_figure(measured, path):
    """On the projector in presenter mode, before anyone scrolls: the line of the values being
    demonstrated, the stored patterns (on a page that uses the store) and the live figure."""
    w, h = PROJECTOR
    r = measured(path, w, h, "presenter")
    assert r["error"] is None, r["error"]
    seen = r["presenter"]
    assert seen["values"] and seen["values"][1] <= h, f"{path}: no values line on the first screen: {seen}"
    if seen["store"]:
        assert seen["memories"] and seen["memories"][1] <= h, f"{path}: no memory strip on the first screen: {seen}"
    top = r["first_chart_top"]
    assert top is not None and top < h, f"{path}: the live figure starts at {top} px in presenter mode"


# ----------------------------------------------------------------- stricter, reported apart
# Beyond the checks above: the same kind of clipping where the element's own box scrolls (a
# formula) or where the text is drawn inside a chart (titles), and presenter mode's promise to
# enlarge what the back row reads. Separate tests, so their failures show on their own.

@pytest.mark.parametrize("path,w,h,mode", COMBOS + SECTION_COMBOS)
def test_formulas_fit_without_horizontal_scrolling(measured, path, w, h, mode):
    r = measured(path, w, h, mode)
    assert r["error"] is None, r["error"]
    bad = r["scrolled_formulas"]
    assert not bad, (f"{len(bad)} display formula(s) wider than their box at {w}x{h} {mode} (the "
                     "rest is behind a horizontal scroll):\n" + "\n".join(
                         f"  {f['text']!r}: {f['hidden']} px hidden (scrollWidth "
                         f"{f['scrollWidth']}, clientWidth {f['clientWidth']})" for f in bad))


@pytest.mark.parametrize("path,w,h,mode", [c for c in COMBOS if c.values[0] in FIGURES] + SECTION_COMBOS)
def test_chart_titles_fit_their_chart(measured, path, w, h, mode):
    r = measured(path, w, h, mode)
    assert r["error"] is None, r["error"]
    cut = [t for c in r["charts"] if c["visible"] for t in c["cut_titles"]]
    assert not cut, (f"{len(cut)} chart title(s) cut off by the chart's edge at {w}x{h} {mode}: "
                     + "; ".join(f"{t['text']!r} by {t['px']} px" for t in cut))


def test_the_back_row_reads_the_landscape_and_the_attention_iterates(measured, browser, server):
    """Presenter mode at 1024 x 768: the landscape's map and the learning page's plane are at
    least 40 % of the screen's width,
    each of the attention iterates at least 120 px (ui/pages/attention/cache.py: six to a row)."""
    w, h = PROJECTOR
    plot = measured("landscape", w, h, "presenter")["presenter"]["landscape_plot"]
    assert plot and plot >= 0.4 * w, f"the landscape's plot is {plot} px wide at {w} px"
    plane = measured("learning", w, h, "presenter")["presenter"]["learning_plot"]  # the player's chart,
    assert plane and plane >= 0.4 * w, f"the learning plane is {plane} px wide at {w} px"  # resized to its column
    context = browser.new_context(viewport={"width": w, "height": h})  # the strip is the result:
    pg = context.new_page()                                            # held until it is asked for
    pg.set_default_timeout(60_000)
    try:
        goto(pg, server, "attention?presenter=1&projector=1")
        pg.locator(".st-key-attention_show_result button").click()
        pg.locator(".st-key-attention_strip image").wait_for()
        wait_idle(pg)
        strip = pg.evaluate(PRESENTER_JS)["strip"]
    finally:
        context.close()
    side, gap = 16, 4  # a 16 x 16 pattern's tile and the strip's gap (figures.image_strip)
    tile = strip * side / (6 * (side + gap) - gap) if strip else None
    assert tile and tile >= 120, f"an iterate is {tile} px wide ({strip} px for a row of 6)"


@pytest.mark.parametrize("path", [p for p in PAGES if p])
@pytest.mark.parametrize("w,h", [PROJECTOR])
def test_presenter_mode_does_not_shrink_metric_values(measured, path, w, h):
    plain, presenter = measured(path, w, h, "plain"), measured(path, w, h, "presenter")
    if not plain["metric_fonts"] or not presenter["metric_fonts"]:
        pytest.skip("no metric on this page")
    small = max(m["px"] for m in plain["metric_fonts"])
    big = min(m["px"] for m in presenter["metric_fonts"])
    assert big >= small, (f"{path} at {w}x{h}: metric values are {small:.1f} px plain but "
                          f"{big:.1f} px in presenter mode "
                          f"(e.g. {presenter['metric_fonts'][0]['text']!r})")
