// The player in the browser (ui/player/browser.py): a run's frames come once, as one payload
// (ui/player/frames.py); Reset, Step, Run, Play, Pause, the speed and the scrubber then move a
// cursor over them here, with no message to the server. Charts are drawn with Plotly (loaded once
// from the app's static folder), pictures on canvases, the step's sentence in a live region.
const PLOTLY = "__PLOTLY__";
const HELP = __HELP__;        // the Keyboard help's lines (plain text)
const KEYS = __KEYS__;        // role -> key: reset 0, step S, run_all E, play P
const SPEEDS = __SPEEDS__;    // [factor, label]; the default is the one of factor 1
const CLICKER = __CLICKER__;  // presenter mode: role -> keys (step: ArrowRight, PageDown; back; reset)
const ICONS = { reset: "first_page", step: "step", run_all: "last_page", play: "play_arrow",
                pause: "pause" };
const LABELS = { reset: "Reset", step: "Step", run_all: "Run", play: "Play", pause: "Pause" };

let plotlyLoad = null;

// A page's player tells the followers (the same run's panels in another place of the page, e.g.
// a later section's charts) which frame it shows: by an event, and kept for a follower drawn later.
const HERE = (window.__hpFrames = window.__hpFrames || {});
function tell(page, where) {
  HERE[page] = where;
  window.dispatchEvent(new CustomEvent("hp-frame", { detail: { page, ...where } }));
}

// The app's root address: where Streamlit's own script came from, else the page's folder.
function appRoot() {
  const own = document.querySelector('script[src*="static/js/index"]');
  if (own) return own.src.replace(/static\/js\/[^/]*$/, "");
  return new URL("./", document.baseURI).href;
}

function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!plotlyLoad) {
    plotlyLoad = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = appRoot() + PLOTLY;
      s.async = true;
      s.onload = () => (window.Plotly ? resolve(window.Plotly) : reject(new Error("no Plotly")));
      s.onerror = () => { plotlyLoad = null; s.remove(); reject(new Error("Plotly did not load")); };
      document.head.appendChild(s);
    });
  }
  return plotlyLoad;
}

function decode(data) {
  if (data == null) return null;
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
  return JSON.stringify(data);
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function icon(name) {
  const i = el("span", "hp-icon", name);
  i.setAttribute("aria-hidden", "true");
  return i;
}

const TYPED = { f8: Float64Array, f4: Float32Array, i1: Int8Array, u1: Uint8Array, i2: Int16Array,
                u2: Uint16Array, i4: Int32Array, u4: Uint32Array };

// the first n numbers of a trace's array (a list, or Plotly's typed array {dtype, bdata})
function head(v, n) {
  if (Array.isArray(v)) return v.slice(0, n);
  const raw = atob(v.bdata);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return Array.from(new TYPED[v.dtype](bytes.buffer).subarray(0, n));
}

// a frame's trace: a number (the trace as sent) or [number, n] (its curve cut to n points)
function trace(spec, ref) {
  if (!Array.isArray(ref)) return JSON.parse(spec.traces[ref]);
  const tr = JSON.parse(spec.traces[ref[0]]);
  tr.x = head(tr.x, ref[1]);
  tr.y = head(tr.y, ref[1]);
  return tr;
}

// --- panels: each is { el, draw(t, S) } -------------------------------------------------------

// Charts off screen are not redrawn (a long page plays only what can be seen); one that comes
// into view is drawn at the frame shown then.
const seen = typeof IntersectionObserver === "undefined" ? null : new IntersectionObserver((entries) => {
  for (const e of entries) {
    const panel = e.target.__hpPanel;
    if (!panel) continue;
    panel.visible = e.isIntersecting;
    if (panel.visible && panel.wanted !== panel.shown) panel.draw(panel.wanted);
  }
}, { rootMargin: "200px" });

// A chart whose spec names a trace to pick (`pick`): a click on one of its points tells the server
// where (the learning page's "my points"), as a one-time event with an id of its own.
function picked(spec, S, box) {
  box.on("plotly_click", (e) => {
    const pt = (e && e.points || []).find((q) => q.data && q.data.name === spec.pick);
    if (!pt || !S.send) return;
    S.picks = (S.picks || 0) + 1;
    S.send("picked", { x: pt.x, y: pt.y, id: `${Date.now()}-${S.picks}` });
  });
}

// Charts are drawn in the frame after the step changed: the step's count, pictures, numbers and
// words paint at once, and every chart that changed follows together one frame later (Plotly's
// redraw of a contour or a cloud takes tens of ms; the charts never show different steps).
const dirty = new Set();
let drawing = 0;
function drawCharts() {
  drawing = 0;
  const now = [...dirty];
  dirty.clear();
  for (const panel of now) panel.paint();
}
function later(panel) {
  dirty.add(panel);
  if (!drawing) drawing = requestAnimationFrame(() => { drawing = requestAnimationFrame(drawCharts); });
}

// A chart follows its column's width: Plotly's `responsive` hears only the window's resizes, and a
// column settles after the first draw (a neighbour's text, fonts): the learning page's plane was
// drawn at 329 px in a 563 px column.
const sized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver((entries) => {
  for (const e of entries) {
    const box = e.target;
    const w = Math.round(e.contentRect.width);
    if (!box._fullLayout || !box.isConnected || w === box.__hpWidth) continue;
    box.__hpWidth = w;
    if (Math.abs(box._fullLayout.width - w) > 2) window.Plotly.Plots.resize(box);
  }
});

function chartPanel(spec, S) {
  const box = el("div", "hp-chart");
  const first = JSON.parse(spec.layouts[spec.frames[0][0]]);
  box.style.minHeight = `${first.height || 300}px`;
  const panel = {
    el: box,
    visible: true,
    wanted: 0,
    shown: -1,
    draw(t) {
      panel.wanted = t;
      if (!window.Plotly || t === panel.shown || (!panel.visible && panel.shown >= 0)) return;
      later(panel);
    },
    paint() {
      const t = panel.wanted;
      if (!window.Plotly || t === panel.shown || !box.isConnected) return;
      const [li, ti] = spec.frames[t];
      const layout = JSON.parse(spec.layouts[li]);
      layout.autosize = true;
      delete layout.width;
      for (const name of Object.keys(layout)) {  // tick labels push the margin, as in st.plotly_chart
        if (/^[xy]axis\d*$/.test(name) && layout[name].automargin === undefined) layout[name].automargin = true;
      }
      const data = ti.map((ref) => trace(spec, ref));
      window.Plotly.react(box, data, layout, { displayModeBar: false, responsive: true });
      if (spec.pick && !panel.picking) { panel.picking = true; picked(spec, S, box); }
      panel.shown = t;
      box.dataset.frame = String(t);  // the frame this chart shows (tests wait for it)
    },
  };
  box.__hpPanel = panel;
  if (seen) seen.observe(box);
  if (sized) sized.observe(box);
  return panel;
}

function picturePanel(spec) {
  const box = el("div", "hp-picture");
  const heading = el("p", "hp-heading");
  const canvas = el("canvas", "hp-canvas");
  canvas.width = spec.w;
  canvas.height = spec.h;
  canvas.style.maxWidth = `${spec.width_px}px`;
  canvas.setAttribute("role", "img");
  box.append(heading, canvas);
  if (spec.caption) box.append(el("p", "hp-caption", spec.caption));
  const ctx = canvas.getContext("2d");
  const images = new Map();
  const image = (k) => {
    if (!images.has(k)) {
      const raw = atob(spec.pixels[k]);
      const img = ctx.createImageData(spec.w, spec.h);
      for (let i = 0, j = 0; i < raw.length; i += 3, j += 4) {
        img.data[j] = raw.charCodeAt(i);
        img.data[j + 1] = raw.charCodeAt(i + 1);
        img.data[j + 2] = raw.charCodeAt(i + 2);
        img.data[j + 3] = 255;
      }
      images.set(k, img);
    }
    return images.get(k);
  };
  let shown = -1;
  return {
    el: box,
    draw(t) {
      heading.textContent = spec.heading[t] || "";
      heading.hidden = !spec.heading[t];
      canvas.setAttribute("aria-label", spec.alt[t]);
      if (spec.index[t] !== shown) {
        shown = spec.index[t];
        ctx.putImageData(image(shown), 0, 0);
      }
    },
  };
}

function livePanel(spec) {
  const p = el("p", "hp-live");
  p.setAttribute("role", "status");
  p.setAttribute("aria-live", "off");  // the first sentence is written silently
  let first = true;
  let quiet = false;
  return {
    el: p,
    draw(t, S) {
      const text = spec.text[t];
      p.setAttribute("aria-live", S.playing || first ? "off" : "polite");
      if (p.textContent !== text) {
        p.textContent = text;
      } else if (quiet && !S.playing && !first) {  // Play stopped: say where it stopped, once
        p.textContent = "";
        setTimeout(() => { p.textContent = text; }, 150);
      }
      quiet = S.playing;
      if (first) { first = false; setTimeout(() => p.setAttribute("aria-live", "polite"), 0); }
    },
  };
}

function metricPanel(spec) {
  const box = el("div", "hp-metric");
  const label = el("p", "hp-metric-label");
  const words = el("span", "", typeof spec.label === "string" ? spec.label : "");
  label.append(words);
  if (spec.help) {  // what the number is, on hover and to a screen reader (as st.metric's help)
    const help = icon("help");
    help.classList.add("hp-help");
    help.removeAttribute("aria-hidden");
    help.setAttribute("role", "img");
    help.setAttribute("aria-label", spec.help);
    help.title = spec.help;
    help.tabIndex = 0;
    label.append(" ", help);
  }
  const value = el("p", "hp-metric-value");
  const delta = el("p", "hp-metric-delta");
  box.append(label, value, delta);
  return {
    el: box,
    draw(t) {
      if (typeof spec.label !== "string") words.textContent = spec.label[t];
      value.textContent = spec.value[t];
      const tone = spec.tone[t];
      delta.className = `hp-metric-delta hp-${tone}`;
      delta.replaceChildren();
      const text = spec.delta[t];
      delta.style.visibility = text ? "" : "hidden";  // step 0: no change, its room kept (nothing moves)
      if (tone !== "off") delta.append(icon(text.trim().startsWith("-") ? "arrow_downward" : "arrow_upward"));
      delta.append(el("span", "", text));
    },
  };
}

function notesPanel(spec) {
  const box = el("div", "hp-notes");
  let drawn = "";
  return {
    el: box,
    draw(t, S) {
      const items = spec.items[t].map((n) => [n.kind, n.icon, S.playing && n.playing ? n.playing : n.text]);
      const now = JSON.stringify(items);
      if (now === drawn) return;  // a status region keeps its words: said once, not per frame
      drawn = now;
      box.replaceChildren(...items.map(([kind, name, text]) => {
        const note = el("div", `hp-note hp-${kind}`);
        note.setAttribute("role", kind === "error" || kind === "warning" ? "alert" : "status");
        note.append(icon(name), el("p", "", text));
        return note;
      }));
    },
  };
}

const PANELS = { chart: chartPanel, picture: picturePanel, live: livePanel, metric: metricPanel,
                 notes: notesPanel };

// --- the player's bar ---------------------------------------------------------------------------

function button(role, primary) {
  const b = el("button", primary ? "hp-button hp-primary" : "hp-button");
  b.type = "button";
  b.dataset.role = role;
  b.append(icon(ICONS[role]), el("span", "hp-label", LABELS[role]));
  b.setAttribute("aria-keyshortcuts", KEYS[role] || KEYS.play);
  return b;
}

function controls(S) {
  const bar = el("div", "hp-bar");
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", "Player");
  const B = { reset: button("reset"), step: button("step", true), run_all: button("run_all"),
              play: button("play") };
  const count = el("p", "hp-count");
  const speed = el("select", "hp-speed");
  speed.setAttribute("aria-label", "Play speed");
  for (const [factor, label] of SPEEDS) {
    const o = el("option", "", label);
    o.value = String(factor);
    speed.append(o);
  }
  speed.value = String(S.speed);
  const speedBox = el("label", "hp-speed-box");
  speedBox.append(el("span", "hp-speed-label", "Speed"), speed);
  const keys = el("details", "hp-keys");
  const summary = el("summary", "hp-button");
  summary.append(icon("keyboard"), el("span", "hp-label", "Keyboard"));
  keys.append(summary, ...HELP.map((line) => el("p", "", line)));
  const note = el("p", "hp-held");
  note.hidden = true;
  const answer = el("p", "hp-answer");  // a lesson's comparison, when the run ends
  answer.setAttribute("role", "status");
  answer.hidden = true;
  bar.append(B.reset, B.step, B.run_all, B.play, count, speedBox, keys);
  const scrub = el("input", "hp-scrub");
  scrub.type = "range";
  scrub.min = "0";
  scrub.step = "1";
  scrub.setAttribute("aria-label", "Scrub through the steps");
  const box = el("div", "hp-controls");
  box.append(bar, scrub, note, answer);
  B.reset.onclick = () => S.go(0);
  B.step.onclick = () => S.go(S.t + 1);
  B.run_all.onclick = () => S.go(S.p.shown);
  B.play.onclick = () => (S.playing ? S.pause() : S.play());
  scrub.oninput = () => S.go(Number(scrub.value));
  speed.onchange = () => {  // kept in the link (the server writes it there on the rerun it causes)
    S.speed = Number(speed.value);
    window.__hpSpeed = S.speed;
    if (S.send) S.send("speed", S.speed);
  };
  return { el: box, B, count, scrub, note, answer, speed };
}

// The link's value of a setting the page keeps there (the Play speed, presenter mode).
function linkValue(name) {
  return new URLSearchParams(window.location.search).get(name);
}

// The speed a player starts at: the one last chosen in this tab (the app's pages share the
// document), else the link's.
function startSpeed() {
  const factor = window.__hpSpeed || Number(linkValue("speed"));
  return SPEEDS.some(([f]) => f === factor) ? factor : 1;
}

// A key event aimed at something that uses the key itself: a field, the step slider, a radio
// group, a tab list, a menu.
function ownsKeys(target) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return true;
  return Boolean(target.closest && target.closest(
    '[role="tab"],[role="tablist"],[role="radio"],[role="radiogroup"],[role="slider"],' +
    '[role="listbox"],[role="option"],[role="menu"],[role="menuitem"],[role="combobox"]'));
}

function init(root) {
  const S = { p: null, raw: "", t: 0, playing: false, speed: startSpeed(), raf: 0, last: 0, panels: {},
              bar: null };

  S.render = () => {
    if (S.p.follow) {  // a follower: its panels at the leader's frame, no controls of its own
      for (const panel of Object.values(S.panels)) panel.draw(S.t, S);
      root.dataset.frame = String(S.t);
      return;
    }
    const { T, shown, last } = S.p;
    const focused = root.contains(document.activeElement) ? document.activeElement : null;
    const { B, count, scrub, note, answer } = S.bar;
    const step = S.p.steps ? S.p.steps[S.t] : S.t;  // a long run's frames are every k-th step
    const ofT = S.p.held ? "" : ` of ${T}`;  // a held run's length is not sent
    count.textContent = `${S.p.unit || "step"} ${step}${ofT}`;
    B.step.disabled = S.t >= shown;
    B.run_all.disabled = S.t >= shown;
    B.play.disabled = shown === 0;
    const role = S.playing ? "pause" : "play";
    if (B.play.dataset.role !== role) {
      B.play.dataset.role = role;
      B.play.replaceChildren(icon(ICONS[role]), el("span", "hp-label", LABELS[role]));
    }
    scrub.max = String(shown);
    scrub.value = String(S.t);
    scrub.disabled = shown === 0;
    scrub.setAttribute("aria-valuetext", `${S.p.unit || "step"} ${step}${ofT}`);
    const says = S.p.held || S.p.note || "";
    note.hidden = !says;
    note.textContent = says;
    const compared = S.p.answer && S.t === last ? S.p.answer : "";
    if (answer.textContent !== compared) answer.textContent = compared;
    answer.hidden = !compared;
    for (const panel of Object.values(S.panels)) panel.draw(S.t, S);
    root.dataset.step = String(step);
    root.dataset.frame = String(S.t);
    tell(S.p.page, { run: S.p.run, frame: S.t, playing: S.playing });  // to its followers
    root.dataset.playing = S.playing ? "1" : "0";
    // presenter mode shows the run's result when the run reaches it: the server hears of the end once
    if (S.t === last && !S.p.held && S.send && S.ended !== S.p.run && linkValue("presenter") === "1") {
      S.ended = S.p.run;
      S.send("ended", S.p.run);
    }
    // Step and Run turn off at the end: the focus goes to Reset, not to the page
    if (focused && focused.disabled) B.reset.focus();
  };

  S.go = (t) => {
    S.t = Math.max(0, Math.min(t, S.p.shown));
    if (S.playing) S.stop();
    S.render();
  };

  const frame = (now) => {
    if (!S.playing) return;
    const every = S.p.pace_ms / S.speed;
    if (now - S.last >= every) {
      S.last = now - Math.min(now - S.last - every, every);  // keep the pace, never a burst
      S.t += 1;
      if (S.t >= S.p.shown) { S.t = S.p.shown; S.playing = false; }
      S.render();
    }
    if (S.playing) S.raf = requestAnimationFrame(frame);
  };

  S.play = () => {
    if (S.t >= S.p.shown) S.t = 0;
    S.playing = true;
    S.last = performance.now();
    S.render();
    S.raf = requestAnimationFrame(frame);
  };
  S.stop = () => { S.playing = false; cancelAnimationFrame(S.raf); };
  S.pause = () => { S.stop(); S.render(); };

  S.build = () => {
    for (const old of root.querySelectorAll(".hp-chart")) {  // the charts drawn before: let Plotly go
      if (seen) seen.unobserve(old);
      if (sized) sized.unobserve(old);
      if (window.Plotly) window.Plotly.purge(old);
    }
    S.panels = {};
    const rows = S.p.layout.map((row) => {
      const r = el("div", "hp-row");
      for (const [ids, weight] of row) {  // a column: one panel, or a stack of them
        const col = el("div", "hp-col");
        col.style.flexGrow = String(weight);
        for (const pid of Array.isArray(ids) ? ids : [ids]) {
          if (pid === "controls") {
            col.append(S.bar.el);
          } else {
            const spec = S.p.panels[pid];
            const panel = PANELS[spec.kind](spec, S);
            panel.el.dataset.panel = pid;
            S.panels[pid] = panel;
            col.append(panel.el);
          }
        }
        r.append(col);
      }
      const pics = row.filter(([pid]) => S.p.panels[pid] && S.p.panels[pid].kind === "picture").length;
      if (pics >= 2 && pics === row.length) r.classList.add("hp-pics");  // pictures: two to a row on a phone
      return r;
    });
    root.replaceChildren(...rows);
    const charts = Object.values(S.p.panels).some((spec) => spec.kind === "chart");
    if (charts) {
      loadPlotly().then(() => { root.dataset.charts = "ready"; S.render(); }).catch(() => {
        root.dataset.charts = "failed";
        for (const panel of root.querySelectorAll(".hp-chart")) {
          panel.replaceChildren(el("p", "hp-note hp-warning",
            "The chart could not be drawn: its script did not load. Reload the page."));
        }
      });
    }
  };

  S.follow = (e) => {
    const w = e.detail;
    if (!S.p || !S.p.follow || w.page !== S.p.page || w.run !== S.p.run) return;
    S.t = Math.min(w.frame, S.p.shown);
    S.playing = w.playing;
    S.render();
  };
  window.addEventListener("hp-frame", S.follow);

  S.keydown = (e) => {
    if (!S.p || S.p.follow) return;
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.querySelector('.hp-root:not([data-follow="1"])') !== root) return;  // the page's first player
    const target = e.target;
    const field = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
    const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
    const role = Object.keys(KEYS).find((r) => KEYS[r] === key);
    if (role) {  // the player's own letters: not while typing (the step slider lets them through)
      if (field && !(target.tagName === "INPUT" && target.type === "range")) return;
      const B = S.bar.B;
      const b = role === "pause" || role === "play" ? B.play : B[role];
      if (b.disabled) return;
      e.preventDefault();
      b.click();
      return;
    }
    const click = Object.keys(CLICKER).find((r) => CLICKER[r].includes(e.key));
    if (!click || linkValue("presenter") !== "1" || ownsKeys(target)) return;
    e.preventDefault();  // a clicker's press steps the demonstration, it does not scroll the page
    if (click === "reset") S.go(0);
    else if (click === "back") S.go(S.t - 1);
    else if (S.t < S.p.shown) S.go(S.t + 1);
    else if (!S.p.held) {  // the run's end: in a lesson, the next press opens the lesson's next step
      const next = document.querySelector(".st-key-lesson_next button");
      if (next && !next.disabled) next.click();
    }
  };
  document.addEventListener("keydown", S.keydown);
  return S;
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const root = parentElement.querySelector(".hp-root");
  const raw = decode(data);
  if (!root || !raw) return undefined;
  const S = root.__hp || (root.__hp = init(root));
  S.send = setTriggerValue;
  if (raw !== S.raw) {
    const p = JSON.parse(raw);
    const sameRun = S.p && S.p.run === p.run;
    S.raw = raw;
    S.p = p;
    root.dataset.mode = p.mode || "";
    root.dataset.follow = p.follow ? "1" : "";
    root.dataset.page = p.page;
    if (!sameRun) {
      S.stop();
      S.t = p.start;
    }
    const led = p.follow ? HERE[p.page] : null;  // a follower starts where its player is
    if (led && led.run === p.run) S.t = led.frame;
    S.t = Math.min(S.t, p.shown);
    if (!S.bar) S.bar = controls(S);
    S.build();
    S.render();
  }
  return () => {
    S.stop();
    document.removeEventListener("keydown", S.keydown);
    window.removeEventListener("hp-frame", S.follow);
    delete root.__hp;
  };
}
