"""Every figure fits at a glance, in real Chromium at 1400 x 1000 and 1024 x 768, on every page
(ui/pages/__init__.py) and on the classical page's weight matrix (and, at 1024 x 768, on the other
sections that hold charts or tables):

* no chart, table or image is wider than the column that holds it (bounding boxes of the drawn
  svg / image against the column; a table's grid does not scroll sideways);
* no legend overlaps a plot area (Plotly's g.legend against each subplot's drag rectangle) or
  the chart's title;
* tick labels of one axis do not overlap each other, and a step axis shows whole numbers;
* the weight matrix's axes run over its indices (no negative tick), their titles are words.

Then, with an uploaded image of a long name: the overlap bars' labels stay apart and the
sidebar gallery's captions keep their remove buttons in line.
Screenshots: artifacts/e2e/fit_<page>_<width>.png (the first screen).
"""
from __future__ import annotations

import pytest

from tests.support.badfiles import encode, photo
from tests.support.browser import (
    ARTIFACTS,
    assert_healthy,
    goto,
    store_uploader,
    wait_idle,
)
from ui.pages import figure_paths, url_paths

SIZES = [(1400, 1000), (1024, 768)]
PATHS = url_paths() + ["classical?W=1"]
# the other sections with charts or tables, at the narrower size only (bounded time)
SECTIONS = ["dense?view=capacity", "modern?view=bound", "modern?view=step", "landscape?view=slice",
            "landscape?view=states", "attention_family?view=cloud", "transformer_heads?view=model"]
COMBOS = [pytest.param(p, w, h, id=f"{p or 'home'}-{w}") for p in PATHS for (w, h) in SIZES] + \
    [pytest.param(p, 1024, 768, id=f"{p}-1024") for p in SECTIONS]

MEASURE_JS = r"""() => {
  const box = el => el.getBoundingClientRect();
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
                            Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const holder = el => el.closest('.hp-col') || el.closest('[data-testid="stColumn"]') || el.closest('[data-testid="stVerticalBlock"]');
  const out = {charts: 0, wide: [], tables: [], legends: [], ticks: [], fractional: [], negative: [],
               titles: []};
  const main = document.querySelector('[data-testid="stMain"]');
  // the browser player's charts (.hp-chart) are Plotly charts too
  for (const el of main.querySelectorAll('[data-testid="stPlotlyChart"], .hp-chart, [data-testid="stDataFrame"], [data-testid="stImage"]')) {
    if (el.getClientRects().length === 0) continue;
    const kind = el.classList.contains('hp-chart') ? 'stPlotlyChart' : el.getAttribute('data-testid');
    const inner = kind === 'stPlotlyChart' ? el.querySelector('svg.main-svg') :
                  kind === 'stImage' ? el.querySelector('img') : el;
    if (!inner) continue;
    const c = box(holder(el.parentElement)), r = box(inner);
    const past = Math.max(r.right - c.right, c.left - r.left);
    if (past > 1) out.wide.push({kind, past: Math.round(past), width: Math.round(r.width), column: Math.round(c.width)});
    if (kind === 'stDataFrame') {
      const sc = el.querySelector('.dvn-scroller');
      if (sc && sc.scrollWidth > sc.clientWidth + 1) out.tables.push({content: sc.scrollWidth, shown: sc.clientWidth});
      continue;
    }
    if (kind !== 'stPlotlyChart') continue;
    out.charts += 1;
    const title = (el.querySelector('.gtitle') || {}).textContent || '';
    const legend = el.querySelector('g.legend');
    if (legend && box(legend).width > 0) {
      const L = box(legend);
      for (const plot of el.querySelectorAll('.nsewdrag'))
        if (overlap(L, box(plot))) out.legends.push({title, with: 'plot'});
      const t = el.querySelector('.gtitle');
      if (t && overlap(L, box(t))) out.legends.push({title, with: 'title'});
    }
    for (const axis of el.querySelectorAll('g.xaxislayer-above, g.yaxislayer-above')) {
      const labels = [...axis.querySelectorAll('g.xtick text, g.ytick text')].filter(t => box(t).width > 0);
      for (let i = 1; i < labels.length; i++)
        if (overlap(box(labels[i - 1]), box(labels[i])))
          out.ticks.push({title, a: labels[i - 1].textContent, b: labels[i].textContent});
    }
    const xtitle = (el.querySelector('.xtitle') || {}).textContent || '';
    if (/^step/.test(xtitle))
      for (const t of el.querySelectorAll('g.xtick text'))
        if (!/^[0-9]+$/.test(t.textContent.trim())) out.fractional.push({title, tick: t.textContent});
    if (/^W/.test(title)) {
      for (const t of el.querySelectorAll('g.xtick text, g.ytick text'))
        if (/^[−-]/.test(t.textContent.trim())) out.negative.push(t.textContent);
      out.titles.push(...[...el.querySelectorAll('.xtitle, .ytitle')].map(t => t.textContent));
    }
  }
  return out;
}"""


@pytest.fixture
def sized(browser, server):
    contexts = []

    def open_at(w: int, h: int):
        ctx = browser.new_context(viewport={"width": w, "height": h})
        contexts.append(ctx)
        pg = ctx.new_page()
        pg.set_default_timeout(60_000)
        return pg

    yield open_at
    for ctx in contexts:
        ctx.close()


@pytest.mark.parametrize("path, w, h", COMBOS)
def test_figures_fit_their_columns_and_legends_keep_off_the_data(sized, server, path, w, h):
    pg = sized(w, h)
    goto(pg, server, path)
    figured = path.split("?")[0] in figure_paths()
    if figured:
        pg.wait_for_selector('[data-testid="stMain"] :is([data-testid="stPlotlyChart"], .hp-chart) svg.main-svg')
        wait_idle(pg, 800)
    assert_healthy(pg)
    m = pg.evaluate(MEASURE_JS)
    pg.screenshot(path=str(ARTIFACTS / f"fit_{(path or 'home').replace('?', '_').replace('=', '-')}_{w}.png"))
    assert m["charts"] > 0 or not figured
    assert not m["wide"], m["wide"]
    assert not m["tables"], m["tables"]
    assert not m["legends"], m["legends"]
    assert not m["ticks"], m["ticks"]
    assert not m["fractional"], m["fractional"]
    if path == "classical?W=1":
        assert m["titles"] and not m["negative"], m
        assert all(len(t) > 1 for t in m["titles"]), m["titles"]  # words, not a lone "i"


def test_long_names_keep_their_labels_apart(sized, server, tmp_path):
    pg = sized(1024, 768)
    goto(pg, server, "classical")
    upload = tmp_path / "astronaut phone 4000x3000.png"
    upload.write_bytes(encode(photo(), "PNG"))
    store_uploader(pg).set_input_files(str(upload))
    try:
        pg.wait_for_function("() => document.body.innerText.includes('Pattern store (4/40)')",
                             timeout=120_000)  # a busy machine: the upload is decoded and stored
    except Exception:
        pg.screenshot(path=str(ARTIFACTS / "fit_long_names_failed.png"))
        raise AssertionError(pg.locator('[data-testid="stSidebar"]').inner_text()[:2000])
    wait_idle(pg, 800)
    m = pg.evaluate(MEASURE_JS)
    assert not m["ticks"] and not m["wide"] and not m["legends"], m
    bars = pg.locator(':is([data-testid="stPlotlyChart"], .hp-chart)').filter(has_text="Overlap")
    # four names that do not fit under 200 px of bars: the bars turn, each name beside its row
    labels = bars.first.locator("g.ytick text").evaluate_all("ts => ts.map(t => t.textContent)")
    assert len(labels) == 4 and labels[3].startswith("4. astronaut"), labels
    gallery = pg.evaluate("""() => {
      const side = document.querySelector('[data-testid="stSidebar"]');
      return [...side.querySelectorAll('[data-testid="stHorizontalBlock"]')]
        .filter(row => row.querySelector('[data-testid="stImage"]'))
        .map(row => ({
          buttons: [...row.querySelectorAll('[data-testid="stButton"] button')]
            .filter(b => b.getBoundingClientRect().height > 0).map(b => Math.round(b.getBoundingClientRect().top)),
          captions: [...row.querySelectorAll('[data-testid="stImageCaption"]')].map(c => ({
            height: Math.round(c.getBoundingClientRect().height), over: c.scrollWidth - c.clientWidth}))}));
    }""")
    assert gallery, "no gallery rows in the sidebar"
    for row in gallery:
        assert len(set(row["buttons"])) == 1, row  # the remove buttons of a row line up
        assert len({c["height"] for c in row["captions"]}) == 1, row
        assert all(c["over"] <= 1 for c in row["captions"]), row  # no word sticks out
    pg.screenshot(path=str(ARTIFACTS / "fit_long_names_1024.png"))
