"""The player from the keyboard (ui/player/keyboard.py): on every page with a player, each button
carries its shortcut, the "Keyboard" help beside it lists exactly those keys, and none of
them is one Streamlit keeps for itself or a key that types into a field."""
import json
import re

import pytest

from tests.support.apptest import open_app, open_tab
from tests.support.player import element
from ui.player import browser, keyboard

# the pages whose player runs in the browser (ui/player/browser.py)
BROWSER_PLAYERS = ("classical", "dense", "modern", "energy_transformer", "attention_family")
# the pages with a server-side player (ui.player.play.player(page, ...): its keys start with the page's name)
PLAYERS = ("learning",)


@pytest.mark.parametrize("page", BROWSER_PLAYERS)
def test_the_browser_player_carries_the_keys_its_help_lists(page):
    """The keys its script acts on are keyboard.SHORTCUTS, and its Keyboard help says each once."""
    at = open_app(page)
    if page == "attention_family":
        open_tab(at, "attention_family_view", "cloud")  # its player is in the token-cloud section
    js = element(at, page).proto.js_content
    assert 'const KEYS = {"reset": "0", "step": "S", "run_all": "E", "play": "P", "pause": "P"};' in js
    lines = browser.help_lines()
    assert all(json.dumps(line) in js for line in lines)
    keys = lines[1]
    for button, does in keyboard.DOES.items():
        assert keys.count(f"{keyboard.SHORTCUTS[button]}: {does}") == 1
    assert "Tab goes through Reset, Step, Run, Play" in lines[0] and "focus moves to Reset" in lines[3]


def shortcut(at, key):
    return at.button(key=key).proto.shortcut


def help_keys(at, page):
    """The keys the page's "Keyboard" help lists, and the help's whole text."""
    boxes = [b for b in at.get("popover") if b.proto.popover.label == "Keyboard"]
    assert len(boxes) == 1, f"{page}: one Keyboard help beside the player"
    text = "\n".join(c.value for c in boxes[0].children.values())
    return {k.lower() for k in re.findall(r"^- \*\*(\w+)\*\*:", text, re.M)}, text


@pytest.mark.parametrize("page", PLAYERS)
def test_the_player_carries_the_keys_its_help_lists(page):
    at = open_app(page)
    if page == "attention_family":
        open_tab(at, "attention_family_view", "cloud")  # its player is in the token-cloud section
    keys = {name: shortcut(at, f"{page}_{name}") for name in ("reset", "step", "run_all", "play")}
    assert keys == {"reset": "0", "step": "s", "run_all": "e", "play": "p"}
    listed, text = help_keys(at, page)
    assert listed == set(keys.values())
    assert "Tab" in text and "Reset" in text and "focus moves to Reset" in text
    # Streamlit keeps C and R (clear cache, rerun); the player's keys are single plain keys,
    # which Streamlit does not fire while the focus is in a text, number or select field
    assert not listed & {"c", "r"} and all(len(k) == 1 for k in listed)


def test_pause_takes_plays_key():
    at = open_app("learning")
    at.button(key="learning_play").click().run()
    assert shortcut(at, "learning_pause") == "p"
    listed, _ = help_keys(at, "learning")
    assert "p" in listed


def test_the_help_lists_every_button_once():
    text = keyboard.help_text()
    for does in keyboard.DOES.values():
        assert text.count(does) == 1
    # Play and Pause share a key, listed once
    assert len(re.findall(r"^- \*\*", text, re.M)) == len(set(keyboard.SHORTCUTS.values()))


def test_every_player_mounts_the_focus_keeper():
    """The keeper is the page's JavaScript that moves the focus to Reset at the end of a run
    (its behaviour is tested in a browser: tests/e2e/test_keyboard_e2e.py)."""
    at = open_app("learning")
    names = [e.proto.component_name for e in at.get("bidi_component")]
    assert names.count("hopfield_focus_keeper") == 1
    assert "st-key-" in keyboard.FOCUS_JS and '"step": "reset"' in keyboard.FOCUS_JS
