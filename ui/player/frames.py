"""A run's frames for the browser player (ui/player/browser.py): everything a page shows per step,
computed once when the run is, in one JSON payload. No Streamlit here.

A payload holds panels, each a list over the steps 0..T:
* `chart(figs)`: a Plotly figure per step, as the page built it for that step. Each distinct trace
  and layout is sent once (as JSON text) and every step names its own by number, so a curve
  whose layout never changes costs one layout, and a converged run's repeated bars cost nothing.
* `picture(u8, alts)`: an image per step (H, W, 3) uint8 as its raw pixels, distinct images
  once; the browser draws them on a canvas, enlarged with square pixels; each step's alt text.
* `live(texts)`: the sentence a screen reader says at each step (a polite live region).
* `metric(...)`: a value and its change per step, as st.metric shows them.
* `notes(...)`: the boxes under the figures per step (a status, a verdict, a warning).

`layout` places the panels in rows of weighted columns, a column one panel id or a list of ids
stacked in it; the id "controls" is the player's bar.
A run longer than MOST_FRAMES steps is shown at every k-th step (`frame_steps`; the payload's
"steps" then names each frame's step). `withheld(payload, shown)` keeps frames 0..shown only: a lesson can ask for a prediction before
the outcome reaches the browser.
"""
from __future__ import annotations

import base64
import json

import numpy as np
import plotly.io as pio

from ui.serving.text import ordinal

START = "step 0: the start"  # a metric's change line at step 0: grey, its room kept (nothing moves at Play)
CONTROLS = "controls"  # the layout's name for the player's buttons, count, speed and scrubber
TONES = ("good", "bad", "off")  # a metric's change: green (a fall of what should fall), red, grey
KINDS = ("info", "success", "warning", "error")  # a note's box, as st.info .. st.error


def _interned(texts: list[str]) -> tuple[list[str], list[int]]:
    """(the distinct texts in order of first use, each item's index among them)."""
    seen: dict[str, int] = {}
    index = [seen.setdefault(s, len(seen)) for s in texts]
    return list(seen), index


def _json(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True, allow_nan=False)


_DTYPES = {"f8": "<f8", "f4": "<f4", "i1": "i1", "u1": "u1", "i2": "<i2", "u2": "<u2", "i4": "<i4",
           "u4": "<u4"}  # Plotly's typed-array names (little-endian, as the browser reads them)


def values(v) -> np.ndarray | None:
    """A trace's array as numbers: Plotly's typed array {dtype, bdata} or a list of numbers;
    None for anything else (text, nested lists)."""
    if isinstance(v, dict) and "bdata" in v and "shape" not in v and v.get("dtype") in _DTYPES:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=_DTYPES[v["dtype"]]).astype(float)
    if isinstance(v, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v):
        return np.asarray(v, dtype=float)
    return None


def _cut_of(trace: dict, full: dict) -> int | None:
    """n where `trace` is `full` with x and y cut to their first n points (a curve drawn up
    to the step), else None."""
    if set(trace) != set(full) or "x" not in trace or "y" not in trace:
        return None
    if any(trace[k] != full[k] for k in trace if k not in ("x", "y")):
        return None
    xs, ys = values(trace["x"]), values(trace["y"])
    fx, fy = values(full["x"]), values(full["y"])
    if any(a is None for a in (xs, ys, fx, fy)) or len(xs) != len(ys) or len(fx) != len(fy):
        return None
    n = len(xs)
    if n >= len(fx) or not (np.array_equal(xs, fx[:n]) and np.array_equal(ys, fy[:n], equal_nan=True)):
        return None
    return n


def chart(figs: list, whole_run: bool = False) -> dict:
    """The panel of a chart that changes per step: figs[t] is the step's Plotly figure (a
    go.Figure, or its JSON as a dict: arrays as Plotly's typed arrays, as the browser gets them).
    whole_run: each frame shows something of the whole run (a curve over every step with the
    step marked, an axis fitted to every step's values): a lesson's gate (`withheld`) leaves
    such a panel out until the whole run may be seen.

    A frame names its layout and traces by number; a trace that is the last frame's trace of
    the same place cut short (a curve drawn up to the step) is [number, points], so a curve
    over T steps costs its points once, not T times."""
    specs = [fig if isinstance(fig, dict) else json.loads(pio.to_json(fig, validate=False, engine="json"))
             for fig in figs]
    last = specs[-1].get("data", [])
    table: dict[str, int] = {}
    layouts: dict[str, int] = {}
    frames = []
    for spec in specs:
        refs = []
        for i, trace in enumerate(spec.get("data", [])):
            n = _cut_of(trace, last[i]) if i < len(last) else None
            text = _json(last[i] if n is not None else trace)
            k = table.setdefault(text, len(table))
            refs.append([k, n] if n is not None else k)
        frames.append([layouts.setdefault(_json(spec.get("layout", {})), len(layouts)), refs])
    panel = {"kind": "chart", "traces": list(table), "layouts": list(layouts), "frames": frames}
    if whole_run:
        panel["whole_run"] = True
    return panel


def _cut(trace: dict, n: int) -> dict:
    out = dict(trace)
    for k in ("x", "y"):
        out[k] = values(trace[k])[:n].tolist()
    return out


def figure_at(panel: dict, t: int) -> dict:
    """The figure (its JSON, as plotly.io.to_json writes it; a cut curve's x and y as lists)
    a chart panel shows at step t: what the browser draws."""
    layout, refs = panel["frames"][t]
    data = []
    for ref in refs:
        if isinstance(ref, list):
            data.append(_cut(json.loads(panel["traces"][ref[0]]), ref[1]))
        else:
            data.append(json.loads(panel["traces"][ref]))
    return {"data": data, "layout": json.loads(panel["layouts"][layout])}


def still(u8: np.ndarray, alt: str, heading: str, frames: int, width_px: int = 600) -> dict:
    """A picture that stays the same at every frame: sent once."""
    u8 = np.ascontiguousarray(u8, dtype=np.uint8)
    return {"kind": "picture", "h": int(u8.shape[0]), "w": int(u8.shape[1]),
            "pixels": [base64.b64encode(u8.tobytes()).decode("ascii")], "index": [0] * frames,
            "alt": [str(alt)] * frames, "heading": [heading] * frames, "width_px": int(width_px)}


def to_u8(img: np.ndarray) -> np.ndarray:
    """A picture (H, W, 3) or pictures (..., H, W, 3) in [0, 1] as bytes, round(255 x value)."""
    return np.round(np.clip(np.asarray(img, dtype=np.float64), 0, 1) * 255).astype(np.uint8)


def picture(u8: np.ndarray, alts: list[str], heading: list[str] | str = "", width_px: int = 600) -> dict:
    """The panel of a picture per step: u8 (T+1, H, W, 3) uint8, alts[t] its alt text (what it
    shows, for screen readers), heading the words above it (one, or one per step). The canvas is
    at most width_px wide."""
    u8 = np.ascontiguousarray(u8, dtype=np.uint8)
    if u8.ndim != 4 or u8.shape[3] != 3 or len(alts) != len(u8):
        raise ValueError(f"a picture per step is (T+1, H, W, 3) with an alt each, not {u8.shape} "
                         f"and {len(alts)} alts")
    pixels, index = _interned([base64.b64encode(frame.tobytes()).decode("ascii") for frame in u8])
    headings = [heading] * len(u8) if isinstance(heading, str) else list(heading)
    return {"kind": "picture", "h": int(u8.shape[1]), "w": int(u8.shape[2]), "pixels": pixels,
            "index": index, "alt": [str(a) for a in alts], "heading": headings, "width_px": int(width_px)}


def pixels_at(panel: dict, t: int) -> np.ndarray:
    """The (H, W, 3) uint8 image a picture panel shows at step t."""
    raw = base64.b64decode(panel["pixels"][panel["index"][t]])
    return np.frombuffer(raw, dtype=np.uint8).reshape(panel["h"], panel["w"], 3)


def live(texts: list[str]) -> dict:
    """The words under the figures at each step, said politely by a screen reader when the step
    changes (not while playing: the step Play stops on is said once)."""
    return {"kind": "live", "text": [str(s) for s in texts]}


def metric(label: str | list[str], values: list[str], deltas: list[str], tones: list[str]) -> dict:
    """st.metric per step: its label (one, or one per step), value, change line and the change's
    tone (TONES)."""
    if not len(values) == len(deltas) == len(tones) or not set(tones) <= set(TONES):
        raise ValueError("a metric has a value, a change and a tone (good, bad, off) per step")
    if not isinstance(label, str) and len(label) != len(values):
        raise ValueError("a metric's label is one, or one per step")
    return {"kind": "metric", "label": str(label) if isinstance(label, str) else [str(s) for s in label],
            "value": [str(v) for v in values], "delta": [str(d) for d in deltas], "tone": list(tones)}


def note(kind: str, icon: str, text: str, playing: str | None = None) -> dict:
    """One box: its kind (KINDS), a Material Symbols icon name, its text, and the text it shows
    instead while the player plays (None: the same)."""
    if kind not in KINDS:
        raise ValueError(f"a note is one of {KINDS}, not {kind!r}")
    box = {"kind": kind, "icon": icon, "text": str(text)}
    if playing is not None:
        box["playing"] = str(playing)
    return box


def notes(per_step: list[list[dict]]) -> dict:
    """The boxes each step shows, in order (each from `note`)."""
    return {"kind": "notes", "items": [list(step) for step in per_step]}


MOST_FRAMES = 301  # a longer run is shown at every k-th step (and its last), at most this many frames


def frame_steps(T: int, most: int = MOST_FRAMES) -> list[int]:
    """The steps the player shows of a run of T steps: every step up to `most` frames; past that
    every k-th step (k the smallest that fits) and the last, so a 2000-step run is 286 frames."""
    if T + 1 <= most:
        return list(range(T + 1))
    k = -(-T // (most - 1))
    return sorted(set(range(0, T + 1, k)) | {T})


def pace_ms(frames: int) -> int:
    """The default time a frame stays on screen while playing `frames` frames after the first:
    a run takes about 2 s at least (a class can follow it), a frame at least 80 ms (100 steps in
    8 s, well within 12 s on a slow laptop), at most 1 s."""
    return int(min(1000, max(80, round(2000 / max(frames, 1)))))


def payload(page: str, run: str, T: int, panels: dict[str, dict], layout: list[list],
            start: int = 0, steps: list[int] | None = None) -> dict:
    """The player's whole payload. run: the run's key (a new run sends the cursor to `start`,
    a frame's index); layout: rows of [panel id, weight] columns (CONTROLS: the player's bar);
    steps: the step each frame shows (frame_steps; None: every step 0..T)."""
    steps = list(range(T + 1)) if steps is None else [int(s) for s in steps]
    if steps[0] != 0 or steps[-1] != T or any(b <= a for a, b in zip(steps, steps[1:])):
        raise ValueError("a run's frames show step 0, then later steps in order, and its last step")
    for pid, panel in panels.items():
        n = _steps(panel)
        if n != len(steps):
            raise ValueError(f"panel {pid!r} has {n} frames, the run {len(steps)}")
    named = {pid for row in layout for col, _ in row for pid in _ids(col)}
    if named - set(panels) - {CONTROLS}:
        raise ValueError(f"the layout names panels that are not there: {sorted(named - set(panels))}")
    last = len(steps) - 1
    p = {"v": 1, "page": page, "run": run, "T": int(T), "last": last, "shown": last,
         "start": int(min(max(start, 0), last)), "pace_ms": pace_ms(last), "panels": panels, "layout": layout}
    if last != T:
        p["steps"] = steps
        p["note"] = (f"A long run: the player shows every {ordinal(steps[1])} step and the last ({len(steps)} "
                     f"of the {T + 1} steps); the numbers below list every step.")
    return p


def _ids(col) -> list[str]:
    """The panel ids of a layout's column: one, or a stack of them."""
    return [col] if isinstance(col, str) else list(col)


def follower(p: dict, ids: list[str], layout: list[list]) -> tuple[dict, dict]:
    """(the player's payload without the panels `ids`, a follower's payload with only them): the
    follower shows them elsewhere on the page (a later section), always at the player's frame,
    with no controls of its own (browser_player.js: the player tells it its frame)."""
    missing = set(ids) - set(p["panels"])
    if missing or any(pid == CONTROLS for row in layout for col, _ in row for pid in _ids(col)):
        raise ValueError(f"a follower shows some of the player's panels, not {sorted(missing) or 'its controls'}")
    lead = {**p, "panels": {k: v for k, v in p["panels"].items() if k not in ids},
            "layout": _without(p["layout"], set(ids))}
    follow = {**p, "panels": {k: p["panels"][k] for k in ids}, "layout": layout, "follow": True}
    return lead, follow


def _steps(panel: dict) -> int:
    kind = panel["kind"]
    return len({"chart": panel.get("frames"), "picture": panel.get("index"), "live": panel.get("text"),
                "metric": panel.get("value"), "notes": panel.get("items")}[kind])


def _first(panel: dict, n: int) -> dict:
    """A panel cut to its first n steps (what those steps name of the distinct parts is kept)."""
    kind, cut = panel["kind"], dict(panel)
    if kind == "chart":
        frames = panel["frames"][:n]
        base = lambda ref: ref[0] if isinstance(ref, list) else ref  # noqa: E731
        used_t = sorted({base(r) for _, refs in frames for r in refs})
        used_l = sorted({layout for layout, _ in frames})
        t_at, l_at = {i: k for k, i in enumerate(used_t)}, {i: k for k, i in enumerate(used_l)}
        # a curve cut short keeps only the points its steps show: the rest is not sent
        traces = [json.loads(panel["traces"][i]) for i in used_t]
        longest = {}
        for _, refs in frames:
            for r in refs:
                if isinstance(r, list):
                    if longest.get(t_at[r[0]], 0) is not None:
                        longest[t_at[r[0]]] = max(longest.get(t_at[r[0]], 0), r[1])
                else:
                    longest[t_at[r]] = None
        for k, n in longest.items():
            if n is not None:
                traces[k] = _cut(traces[k], n)
        cut.update(traces=[_json(tr) for tr in traces], layouts=[panel["layouts"][i] for i in used_l],
                   frames=[[l_at[layout], [[t_at[r[0]], r[1]] if isinstance(r, list) else t_at[r] for r in refs]]
                           for layout, refs in frames])
    elif kind == "picture":
        used = sorted(set(panel["index"][:n]))
        at = {i: k for k, i in enumerate(used)}
        cut.update(pixels=[panel["pixels"][i] for i in used], index=[at[i] for i in panel["index"][:n]],
                   alt=panel["alt"][:n], heading=panel["heading"][:n])
    elif kind == "live":
        cut["text"] = panel["text"][:n]
    elif kind == "metric":
        cut.update(value=panel["value"][:n], delta=panel["delta"][:n], tone=panel["tone"][:n])
        if not isinstance(panel["label"], str):
            cut["label"] = panel["label"][:n]
    else:
        cut["items"] = panel["items"][:n]
    return cut


def withheld(p: dict, shown: int, held: str = "") -> dict:
    """The payload with only frames 0..shown in it (the rest not sent at all): the browser shows
    those and holds Step, Run, Play and the scrubber there, saying `held`, until the whole run
    comes. Nothing of the run's length is sent either (T, the frame count, a long run's note, the
    pace are those of the frames sent), and a panel that shows the whole run at every frame
    (chart(..., whole_run=True)) is left out."""
    shown = int(min(max(shown, 0), p["last"]))
    gone = {pid for pid, panel in p["panels"].items() if panel.get("whole_run")}
    steps = p.get("steps", list(range(p["last"] + 1)))[: shown + 1]
    cut = {k: v for k, v in p.items() if k not in ("steps", "note")}
    return {**cut, "T": int(steps[-1]), "last": shown, "shown": shown, "start": min(p["start"], shown),
            "pace_ms": pace_ms(max(shown, 1)), "held": held, "layout": _without(p["layout"], gone),
            "panels": {pid: _first(panel, shown + 1) for pid, panel in p["panels"].items() if pid not in gone},
            **({"steps": steps} if "steps" in p else {})}


def _without(layout: list[list], ids: set) -> list[list]:
    """A layout without the panels `ids` (a column or a row left empty goes too)."""
    kept = [[[[pid for pid in _ids(col) if pid not in ids], w] for col, w in row] for row in layout]
    kept = [[[col[0] if len(col) == 1 else col, w] for col, w in row if col] for row in kept]
    return [row for row in kept if row]


def encoded(p: dict) -> bytes:
    """The payload as the bytes the component receives (compact JSON, UTF-8)."""
    return _json(p).encode("utf-8")
