"""A grid of cells to click, drag across or walk with the keyboard: the pattern editor's drawing
and the query's pixels (ui/store/pattern_editor.py). A Streamlit component that runs in the page (no
iframe): a focusable grid (role "grid", one tab stop, a cursor cell moved by the arrow keys,
Space or Enter toggles it), each cell named for a screen reader ("row 3, column 5, black").

What the browser sends back is a list of edits, each [seq, r0, c0, r1, c1]: a click or a key
press is one cell (r0 = r1, c0 = c1), a drag the rectangle between two cells. `seq` counts the
edits of one grid; the server tells the grid the last one it applied (`seen`), so an edit made
while the server was busy with the previous one is sent again rather than lost, and the grid
shows every edit at once, before the server has answered.

Cells are at most MAX_CELL_PX wide, narrower where the column is narrower; when they are under
MIN_TARGET_PX (a 32 x 32 grid on a phone), arrow and toggle buttons of MIN_TARGET_PX or more
appear under the grid (WCAG 2.5.8's equivalent control).

Options for a grid over a picture (the Energy Transformer's patches to hide): `picture`, a PNG
data URL drawn under the cells (which are then see-through; a cell changed but not yet
answered by the server is tinted), `words` for the cells' names in place of black, grey and
white (e.g. hidden, shown), and `cell_px` for the cells' largest width. Without them the grid
is as above."""
from __future__ import annotations

import base64

import numpy as np
import streamlit as st

MAX_CELL_PX = 30
MIN_TARGET_PX = 24
LEVELS = 15  # grey levels sent per cell: one hexadecimal digit, 0 black .. f white

HTML = """
<div class="hf-root">
  <div class="hf-grid" role="grid"></div>
  <div class="hf-pad" role="group" aria-label="Move the cursor and toggle its cell">
    <button type="button" data-move="0,-1" aria-label="Cursor left">&larr;</button>
    <button type="button" data-move="-1,0" aria-label="Cursor up">&uarr;</button>
    <button type="button" data-move="1,0" aria-label="Cursor down">&darr;</button>
    <button type="button" data-move="0,1" aria-label="Cursor right">&rarr;</button>
    <button type="button" data-toggle="1" class="hf-toggle"
            aria-label="Toggle the cursor's cell">Toggle</button>
  </div>
  <p class="hf-live" aria-live="polite"></p>
</div>
"""

CSS = """
.hf-root { font-family: var(--st-font, sans-serif); color: var(--st-text-color, #111); }
.hf-grid { --n: 16; width: min(100%, calc(var(--n) * var(--cell, __MAX__px))); aspect-ratio: 1 / 1;
  display: flex; flex-direction: column; gap: 1px; background: #8c8c8c; border: 1px solid #8c8c8c;
  box-sizing: border-box; touch-action: none; user-select: none; cursor: crosshair; }
.hf-grid.flip { cursor: pointer; }
.hf-grid.picture { background-size: 100% 100%; background-repeat: no-repeat; image-rendering: pixelated; }
.hf-grid.picture .hf-cell { box-shadow: inset 0 0 0 1px rgba(255, 255, 255, 0.3); }
.hf-grid.picture .hf-cell.changed::after { content: ""; position: absolute; inset: 0;
  background: rgba(212, 20, 90, 0.45); }
.hf-row { display: flex; flex: 1 1 0; gap: 1px; min-height: 0; }
.hf-cell { flex: 1 1 0; min-width: 0; position: relative; outline: none; }
.hf-cell.cursor:focus, .hf-root.small .hf-cell.cursor {
  z-index: 2; outline: 2px solid #fff; box-shadow: 0 0 0 4px #d4145a; }
.hf-cell.cursor:focus-visible { outline: 2px solid #fff; }
.hf-cell.preview::after { content: ""; position: absolute; inset: 0;
  background: rgba(212, 20, 90, 0.45); }
.hf-pad { display: none; gap: 6px; margin-top: 8px; flex-wrap: wrap; }
.hf-root.small .hf-pad { display: flex; }
.hf-pad button { min-width: 44px; min-height: 44px; font-size: 1.2rem; border-radius: 8px;
  border: 1px solid #8c8c8c; background: var(--st-secondary-background-color, #f0f2f6);
  color: inherit; cursor: pointer; }
.hf-pad .hf-toggle { font-size: 1rem; padding: 0 12px; }
.hf-pad button:focus-visible { outline: 3px solid #d4145a; outline-offset: 2px; }
.hf-live { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  margin: 0; white-space: nowrap; }
""".replace("__MAX__", str(MAX_CELL_PX))

JS = """
const MIN_TARGET = __MIN__;

const WORDS = ["black", "grey", "white"];

function init(root) {
  const S = { n: 0, cells: [], values: [], server: [], pending: [], seq: 0, seen: 0,
              cur: [0, 0], drag: null, mode: "draw", send: null, words: WORDS, picture: false };
  const word = (level) => S.words[level <= 4 ? 0 : level >= 11 ? 2 : 1];
  const grid = root.querySelector(".hf-grid");
  const live = root.querySelector(".hf-live");
  S.grid = grid;

  S.build = (n) => {
    grid.textContent = "";
    S.n = n; S.cells = []; S.values = new Array(n * n).fill(-1);
    grid.style.setProperty("--n", String(n));
    for (let r = 0; r < n; r++) {
      const row = document.createElement("div");
      row.className = "hf-row"; row.setAttribute("role", "row");
      for (let c = 0; c < n; c++) {
        const cell = document.createElement("div");
        cell.className = "hf-cell"; cell.setAttribute("role", "gridcell");
        cell.tabIndex = -1; cell.dataset.r = r; cell.dataset.c = c;
        row.appendChild(cell); S.cells.push(cell);
      }
      grid.appendChild(row);
    }
    S.cur = [Math.min(S.cur[0], n - 1), Math.min(S.cur[1], n - 1)];
    S.cells[S.cur[0] * n + S.cur[1]].tabIndex = 0;
    S.cells[S.cur[0] * n + S.cur[1]].classList.add("cursor");
  };

  // the server's cells with the edits it has not applied yet, as the server will apply them
  S.render = () => {
    const n = S.n, v = S.server.slice();
    for (const [, r0, c0, r1, c1] of S.pending) {
      if (S.mode === "flip") { v[r0 * n + c0] = __LEVELS__ - v[r0 * n + c0]; continue; }
      const paint = v[r0 * n + c0] <= 7 ? __LEVELS__ : 0;  // opposite of the first cell
      for (let r = Math.min(r0, r1); r <= Math.max(r0, r1); r++)
        for (let c = Math.min(c0, c1); c <= Math.max(c0, c1); c++) v[r * n + c] = paint;
    }
    for (let i = 0; i < n * n; i++) {
      if (S.picture) S.cells[i].classList.toggle("changed", v[i] !== S.server[i]);
      if (v[i] === S.values[i]) continue;
      S.values[i] = v[i];
      const g = Math.round(v[i] * 255 / __LEVELS__), cell = S.cells[i];
      if (!S.picture) cell.style.background = `rgb(${g},${g},${g})`;
      cell.setAttribute("aria-label",
        `row ${Math.floor(i / n) + 1}, column ${(i % n) + 1}, ${word(v[i])}`);
    }
  };

  S.moveTo = (r, c, focus) => {
    const n = S.n;
    r = Math.max(0, Math.min(n - 1, r)); c = Math.max(0, Math.min(n - 1, c));
    const old = S.cells[S.cur[0] * n + S.cur[1]], cell = S.cells[r * n + c];
    old.tabIndex = -1; old.classList.remove("cursor");
    cell.tabIndex = 0; cell.classList.add("cursor");
    S.cur = [r, c];
    if (focus) cell.focus({ preventScroll: false });
  };

  S.edit = (r0, c0, r1, c1) => {
    S.seq += 1;
    S.pending.push([S.seq, r0, c0, r1, c1]);
    S.render();
    live.textContent = `row ${r0 + 1}, column ${c0 + 1}: ${word(S.values[r0 * S.n + c0])}`;
    if (S.send) S.send("ops", S.pending.slice());
  };

  const at = (e) => {
    const box = grid.getBoundingClientRect();
    const c = Math.floor((e.clientX - box.left) / box.width * S.n);
    const r = Math.floor((e.clientY - box.top) / box.height * S.n);
    return [Math.max(0, Math.min(S.n - 1, r)), Math.max(0, Math.min(S.n - 1, c))];
  };
  const preview = (on) => {
    for (const cell of grid.querySelectorAll(".preview")) cell.classList.remove("preview");
    if (!on || !S.drag || S.mode === "flip") return;
    const [r0, c0, r1, c1] = S.drag;
    if (r0 === r1 && c0 === c1) return;
    for (let r = Math.min(r0, r1); r <= Math.max(r0, r1); r++)
      for (let c = Math.min(c0, c1); c <= Math.max(c0, c1); c++)
        S.cells[r * S.n + c].classList.add("preview");
  };

  grid.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const [r, c] = at(e);
    S.drag = [r, c, r, c];
    grid.setPointerCapture(e.pointerId);
    S.moveTo(r, c, true);
    e.preventDefault();
  });
  grid.addEventListener("pointermove", (e) => {
    if (!S.drag) return;
    const [r, c] = at(e);
    if (r === S.drag[2] && c === S.drag[3]) return;
    S.drag[2] = r; S.drag[3] = c; preview(true);
  });
  grid.addEventListener("pointerup", (e) => {
    if (!S.drag) return;
    const [r0, c0, r1, c1] = S.drag;
    S.drag = null; preview(false);
    if (S.mode === "flip") S.edit(r0, c0, r0, c0); else S.edit(r0, c0, r1, c1);
  });
  grid.addEventListener("pointercancel", () => { S.drag = null; preview(false); });

  const MOVES = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  grid.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const [r, c] = S.cur;
    if (MOVES[e.key]) S.moveTo(r + MOVES[e.key][0], c + MOVES[e.key][1], true);
    else if (e.key === "Home") S.moveTo(r, 0, true);
    else if (e.key === "End") S.moveTo(r, S.n - 1, true);
    else if (e.key === "PageUp") S.moveTo(0, c, true);
    else if (e.key === "PageDown") S.moveTo(S.n - 1, c, true);
    else if (e.key === " " || e.key === "Enter") { if (!e.repeat) S.edit(r, c, r, c); }
    else return;
    e.preventDefault();
    e.stopPropagation();
  });

  root.querySelector(".hf-pad").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    if (b.dataset.move) {
      const [dr, dc] = b.dataset.move.split(",").map(Number);
      S.moveTo(S.cur[0] + dr, S.cur[1] + dc, false);
    } else S.edit(S.cur[0], S.cur[1], S.cur[0], S.cur[1]);
  });

  new ResizeObserver(() => {
    if (S.n) root.classList.toggle("small", grid.clientWidth / S.n < MIN_TARGET);
  }).observe(grid);
  return S;
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const root = parentElement.querySelector(".hf-root");
  if (!root || !data) return;
  const S = root.__hf || (root.__hf = init(root));
  S.send = setStateValue;
  S.mode = data.mode;
  S.grid.classList.toggle("flip", data.mode === "flip");
  S.grid.setAttribute("aria-label", data.label);
  S.words = data.words || WORDS;
  S.picture = !!data.picture;
  S.grid.classList.toggle("picture", S.picture);
  S.grid.style.backgroundImage = S.picture ? `url("${data.picture}")` : "";
  if (data.cell_px) S.grid.style.setProperty("--cell", `${data.cell_px}px`);
  if (data.size !== S.n) S.build(data.size);
  S.server = Array.from(data.cells, (ch) => parseInt(ch, 16));
  S.seen = data.seen;
  S.pending = S.pending.filter((op) => op[0] > data.seen);
  S.seq = Math.max(S.seq, data.seen);
  S.render();
  root.classList.toggle("small", S.grid.clientWidth / S.n < MIN_TARGET);
}
""".replace("__MIN__", str(MIN_TARGET_PX)).replace("__LEVELS__", str(LEVELS))

_component = st.components.v2.component("hopfield_cell_grid", html=HTML, css=CSS, js=JS)


def levels(cells: np.ndarray) -> str:
    """A (size, size) grid of values in [0, 1] (0 black) as one hexadecimal digit per cell."""
    grey = np.round(np.clip(cells, 0, 1) * LEVELS).astype(int).ravel()
    return "".join("0123456789abcdef"[g] for g in grey)


def _edit(op, size: int) -> tuple[int, tuple[int, int, int, int]] | None:
    """(seq, (r0, c0, r1, c1)) of one edit as the browser sent it, cells clipped to the grid;
    None for anything else (a page can be sent anything)."""
    try:
        seq, *cells = (int(v) for v in op)
    except (TypeError, ValueError, OverflowError):
        return None
    if len(cells) != 4:
        return None
    return seq, tuple(min(max(v, 0), size - 1) for v in cells)


def new_edits(key: str, size: int) -> list[tuple[int, int, int, int]]:
    """The edits (r0, c0, r1, c1) made on the size x size grid `key` since the last call, in
    the order they were made."""
    sent = st.session_state.get(key)
    ops = sent.get("ops") if isinstance(sent, dict) else None
    seen = st.session_state.get(f"_{key}_seen", 0)
    edits = [e for e in (_edit(op, size) for op in (ops if isinstance(ops, list) else ()))
             if e and e[0] > seen]
    if edits:
        st.session_state[f"_{key}_seen"] = max(seq for seq, _ in edits)
    return [cells for _, cells in sorted(edits)]


def cell_grid(key: str, cells: np.ndarray, mode: str, label: str, *, picture: bytes | None = None,
              words: tuple[str, str, str] | None = None, cell_px: int | None = None) -> None:
    """Show the grid `cells` ((size, size) values in [0, 1], 0 black) to edit; mode "draw"
    sends drags as rectangles, "flip" only single cells. Read the edits with new_edits(key, size)
    before the grid is shown again. picture: PNG bytes drawn under see-through cells; words:
    the names of a black, a grey and a white cell for a screen reader; cell_px: the cells'
    largest width (MAX_CELL_PX without it)."""
    data = {"size": int(cells.shape[0]), "cells": levels(cells), "mode": mode, "label": label,
            "seen": st.session_state.get(f"_{key}_seen", 0)}
    if picture is not None:
        data["picture"] = "data:image/png;base64," + base64.b64encode(picture).decode("ascii")
    if words is not None:
        data["words"] = list(words)
    if cell_px is not None:
        data["cell_px"] = int(cell_px)
    _component(key=key, data=data)
