"""The player from the keyboard: its shortcuts and the words of its "Keyboard" help (the browser
player, ui/player/browser.py, acts on them and shows the help beside its buttons)."""
from __future__ import annotations

# The player's buttons (their roles in browser_player.js) and their shortcuts. Plain keys: the
# player ignores them while the focus is in a text, number or select field, so they never take a
# letter that is being typed; "C" and "R" are Streamlit's own.
SHORTCUTS = {"reset": "0", "step": "S", "run_all": "E", "play": "P", "pause": "P"}
# what each key does, in the help's order (Play and Pause share theirs)
DOES = {"reset": "Reset: back to step 0", "step": "Step: one step forward",
        "run_all": "Run: to the last step", "play": "Play, or Pause while playing"}

IN_FIELDS = "The keys do nothing while you type in a field."
AT_THE_END = ("When Step and Run turn off at the end of a run, the focus moves to Reset; "
              "Play and Pause hand the focus to each other.")

# A presentation clicker sends Page Down / Page Up (or the arrow keys): in presenter mode they step
# the page's first player too (browser_player.js), and at the end of a run in a lesson the next
# forward press opens the lesson's next step. role -> the keys (KeyboardEvent.key names).
CLICKER = {"step": ["ArrowRight", "PageDown"], "back": ["ArrowLeft", "PageUp"], "reset": ["Home"]}
CLICKER_HELP = ("In presenter mode a clicker works too: Right arrow or Page Down steps forward, "
                "Left arrow or Page Up steps back, Home goes back to step 0; in a lesson, a forward "
                "press at the end of the run opens the lesson's next step.")
