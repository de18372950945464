"""The player from the keyboard: its shortcuts, the short "Keyboard" help beside it, and the
focus keeper, a Streamlit component (JavaScript in the page, no iframe) that puts the focus
back on a useful control when the player's focused button disappears or disables (Step at
the end of a run: the browser would drop the focus to the page's body and the student would
lose their place)."""
from __future__ import annotations

import streamlit as st

# The player's buttons (the last part of their keys, ui.player.play.player) and their shortcuts.
# Plain keys: Streamlit ignores them while the focus is in a text, number or select field, so
# they never take a letter that is being typed; "C" and "R" are Streamlit's own.
SHORTCUTS = {"reset": "0", "step": "S", "run_all": "E", "play": "P", "pause": "P"}
# what each key does, in the help's order (Play and Pause share theirs)
DOES = {"reset": "Reset: back to step 0", "step": "Step: one step forward",
        "run_all": "Run: to the last step", "play": "Play, or Pause while playing"}

TAB_ORDER = ("**Tab** goes through Reset, Step, Run, Play, this Keyboard help and the step "
             "slider, in that order (a button that is off is skipped); **Enter** or **Space** "
             "presses the focused button, the **arrow keys** move the slider.")
IN_FIELDS = "The keys do nothing while you type in a field."
AT_THE_END = ("When Step and Run turn off at the end of a run, the focus moves to Reset; "
              "Play and Pause hand the focus to each other.")


def help_text() -> str:
    keys = "\n".join(f"- **{SHORTCUTS[button]}**: {what}" for button, what in DOES.items())
    return f"{TAB_ORDER}\n\nKeys:\n{keys}\n\n{IN_FIELDS} {AT_THE_END}"


def help_popover(container, page: str) -> None:
    """A small "Keyboard" button beside the player that opens the help."""
    with container.popover("Keyboard", icon=":material/keyboard:", key=f"{page}_keys_help",
                           help="Keyboard keys of the player"):
        st.markdown(help_text())


# Which button takes the focus when the focused one (a key of ui.player.play.player) turns off or
# disappears: Step and Run to Reset, Play and Pause to each other (they swap on a press).
NEXT_FOCUS = {"step": "reset", "run_all": "reset", "play": "pause", "pause": "play"}

FOCUS_JS = """
const NEXT = __NEXT__;
const KEY = /^st-key-(.+)_(reset|step|run_all|play|pause)$/;

// the player button (page, role) that the element is in, or null
function which(el) {
  const box = el && el.closest ? el.closest("[class*='st-key-']") : null;
  if (!box) return null;
  for (const name of box.classList) {
    const m = KEY.exec(name);
    if (m) return { page: m[1], role: m[2] };
  }
  return null;
}

function button(page, role) {
  return document.querySelector(`.st-key-${CSS.escape(page + "_" + role)} button`);
}

function install() {
  const K = { last: null, tries: 0, timer: null };
  // remember the player button that had the focus; anything else focused or clicked forgets it
  document.addEventListener("focusin", (e) => { K.last = which(e.target); }, true);
  document.addEventListener("pointerdown", (e) => { K.last = which(e.target); }, true);
  const check = () => {
    K.timer = null;
    if (!K.last) return;
    const active = document.activeElement;
    if (active && active !== document.body) {
      if (which(active) === null) K.last = null;  // the focus is elsewhere: leave it
      return;
    }
    const had = button(K.last.page, K.last.role);
    if (had && !had.disabled) return;  // still usable: the focus left it on purpose
    const next = button(K.last.page, NEXT[K.last.role] || "reset");
    if (next && !next.disabled) {
      next.focus();
      return;
    }
    if (++K.tries < 20) K.timer = setTimeout(check, 100);  // its replacement is not drawn yet
  };
  new MutationObserver(() => {
    if (K.last && !K.timer) { K.tries = 0; K.timer = setTimeout(check, 30); }
  }).observe(document.body, { subtree: true, childList: true, attributes: true,
                              attributeFilter: ["disabled"] });
  return K;
}

export default function () {
  if (!window.__hopfieldFocusKeeper) window.__hopfieldFocusKeeper = install();
}
""".replace("__NEXT__", repr(NEXT_FOCUS).replace("'", '"'))

_focus_keeper = st.components.v2.component("hopfield_focus_keeper", js=FOCUS_JS)


def keep_focus(container, page: str) -> None:
    """Mount the focus keeper (one listener for the whole page, however many players)."""
    with container:
        _focus_keeper(key=f"{page}_focus_keeper", width="content", height="content")
