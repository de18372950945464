"""Charts that change on every frame of Play without blinking out.

Streamlit gives a Plotly chart a new identity whenever its figure changes (the element id is
a hash of the figure), so the browser throws the old chart away and draws the new one from
nothing: until Plotly has drawn it the chart is blank, on a busy machine for a second or more
(issue 34; upstream: streamlit/streamlit#8782). `live` keeps two places for a chart, stacked
on one spot: the new figure goes into one, and the figure shown before stays in the other,
unchanged (same key, same figure: Streamlit leaves that chart as it is), underneath. The new
chart covers it once drawn; until then the last frame shows through, never an empty box.
Out of Play only one chart is sent (the other place holds an empty element). Sending the
figure underneath again costs little: Streamlit sends a repeated message of 10 kB or more as
a reference to the copy the browser holds. Two frames that come hard on each other's heels
(timer reruns queued on a busy server) would replace both places before the browser drew
either, so the second of them replaces the first and the chart underneath stays. A Streamlit
that keeps a keyed chart's identity across figures (open upstream: streamlit/streamlit#16052)
would make the stack unnecessary.

A picture that changes on every frame (`live_image`) travels inside the page's message as a
data URL: Streamlit keeps the element and swaps the picture in place. As a media file it is
fetched after the message, and on a busy browser the fetch came after the next frame had
deleted the file: a broken image until the next frame. Its alt text says what it shows.

`live_text` is the words under a live figure for screen readers: a live region kept on the page
across frames (see _LIVE_JS), quiet during Play."""
from __future__ import annotations

import base64
import time

import streamlit as st

from ui.charts import charts
from ui.settings.modes import presenter

from . import play

PREFIX = "live_"         # the stack's container key: class st-key-live_<key>
STATE = "_live_charts"   # session state: per chart, the place on top and the figures shown
BURST = 0.75             # a new frame sooner than this many Play intervals after the last: a burst


def slot_key(key: str, slot: int) -> str:
    """The element key of place `slot` (0 or 1) of the chart `key`."""
    return key if slot == 0 else f"{key}_b"


def slot_keys(key: str) -> tuple[str, str]:
    return slot_key(key, 0), slot_key(key, 1)


def stack_css(key: str, top: int) -> str:
    """The style of chart `key`'s stack: its elements on one grid cell, place `top` on top."""
    box = f".st-key-{PREFIX}{key}"
    return (f"<style>{box} {{ display: grid !important; grid-template-columns: minmax(0, 1fr);"
            f" gap: 0 !important; }} {box} > * {{ grid-area: 1 / 1; min-width: 0; }}"
            f" {box} > .st-key-{slot_key(key, top)} {{ z-index: 1; }}</style>")


def live(where, fig, key: str, page: str, **kw) -> None:
    """charts.plot(where, fig, key=..., **kw) for a chart that shows the frame of `page`'s
    player (ui.player.play.player): a new frame is a new figure, the same frame the same figure."""
    frame = (*play.frame(page), presenter())
    playing, now = play.playing(page), time.monotonic()
    shown = st.session_state.setdefault(STATE, {})
    before = shown.get(key)
    if before is None:
        top, under, sent = 0, None, now
    elif before["frame"] == frame or not playing:  # one chart, in the same place
        top, under = before["top"], before["under"] if playing else None
        sent = before["sent"] if before["frame"] == frame else now
    elif before["under"] is not None and now - before["sent"] < BURST * play.PLAY_INTERVAL_S:
        # a frame hard on the heels of the last (timer reruns queued on a busy server): the
        # browser may not have drawn the last yet, so it is replaced and the one under stays
        top, under, sent = before["top"], before["under"], now
    else:  # the last frame goes under, the new one on top
        top, under, sent = 1 - before["top"], before["fig"], now
    box = where.container(key=PREFIX + key)
    # the style goes with the stack in one st.html element (a <style> alone would be sent
    # elsewhere); Streamlit updates that element in place
    box.html(stack_css(key, top) + "<span></span>")
    for slot in (0, 1):
        if slot == top:
            charts.plot(box, fig, key=slot_key(key, slot), **kw)
        elif under is not None:
            charts.plot(box, under, key=slot_key(key, slot), **kw)
        else:
            box.empty()
    shown[key] = {"top": top, "frame": frame, "fig": fig, "under": under, "sent": sent}


def live_image(where, png: bytes, alt: str, **kw) -> None:
    """where.image of PNG bytes that change on every frame of Play, as a data URL, with its
    alt text (what the picture shows, for screen readers; React sets it as an attribute, so
    a name in it stays text); **kw: st.image's, e.g. width."""
    where.image("data:image/png;base64," + base64.b64encode(png).decode("ascii"), alt=alt, **kw)


# A screen reader announces a change of text inside a live region that was on the page before
# the change. st.html cannot hold one: it replaces its inner HTML on every update, so its region
# would be new each time. This component's HTML is mounted once and kept; the script sets the
# region's text (as text: a pattern's name in it is never HTML). The first text is written
# silently (the page is being read anyway); during Play the region is set aria-live="off", so a
# reader hears no sentence per frame, and the step Play ended on is said once it stops.
_LIVE_JS = """
export default function ({ data, parentElement }) {
  const el = parentElement.querySelector(".hop-live");
  const before = el.getAttribute("aria-live");
  const first = !el.dataset.ready;
  el.dataset.ready = "1";
  el.setAttribute("aria-live", data.playing || first ? "off" : "polite");
  if (el.textContent !== data.text) {
    el.textContent = data.text;
  } else if (before === "off" && !data.playing && !first) {
    el.textContent = "";
    setTimeout(() => { el.textContent = data.text; }, 150);
  }
  if (first && !data.playing) setTimeout(() => el.setAttribute("aria-live", "polite"), 0);
}
"""
_LIVE = st.components.v2.component(
    "hopfield_live_text", html='<p class="hop-live" role="status" aria-live="off"></p>',
    css=".hop-live { margin: 0 0 0.5rem; font-size: 0.95rem; line-height: 1.5; }", js=_LIVE_JS)


def live_text(where, text: str, key: str, page: str | None = None) -> None:
    """A live region under a dynamic figure: `text` (plain text, e.g. from ui.charts.describe), shown
    and, when it changes, said politely by a screen reader; silent while `page`'s player
    plays (ui.player.play.playing)."""
    with where.container():
        _LIVE(data={"text": str(text), "playing": bool(page and play.playing(page))},
              key=key, width="stretch")
