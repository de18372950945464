"""The player from the keyboard (ui/player/keyboard.py): on every page with a player, the browser
player acts on the shortcuts and its "Keyboard" help lists exactly those keys, none of them one
Streamlit keeps for itself (tests/e2e/test_keyboard_e2e.py presses them in Chromium)."""
import json

import pytest

from tests.support.apptest import open_app
from tests.support.player import element, players
from ui.pages import PAGES
from ui.player import browser, keyboard

# the pages with a player (the registry says which, and the link that shows it): it runs in the
# browser (ui/player/browser.py)
WITH_PLAYER = {p.file: p.player for p in PAGES if p.player is not None}
BROWSER_PLAYERS = sorted(WITH_PLAYER)


def open_player(page: str):
    """The page at the view its player is in."""
    query = dict(kv.split("=") for kv in WITH_PLAYER[page].split("&") if kv)
    return open_app(page, query=query)


@pytest.mark.parametrize("page", BROWSER_PLAYERS)
def test_the_browser_player_carries_the_keys_its_help_lists(page):
    """The keys its script acts on are keyboard.SHORTCUTS, and its Keyboard help says each once."""
    at = open_player(page)
    js = element(at, page).proto.js_content
    assert 'const KEYS = {"reset": "0", "step": "S", "run_all": "E", "play": "P", "pause": "P"};' in js
    lines = browser.help_lines()
    assert all(json.dumps(line) in js for line in lines)
    keys = lines[1]
    for button, does in keyboard.DOES.items():
        assert keys.count(f"{keyboard.SHORTCUTS[button]}: {does}") == 1
    assert "Tab goes through Reset, Step, Run, Play" in lines[0] and "focus moves to Reset" in lines[3]


def test_the_keys_are_single_plain_keys_streamlit_leaves_alone():
    """Streamlit keeps C and R (clear cache, rerun); the player's keys are single plain keys
    (the player ignores them while the focus is in a field), Play and Pause one key."""
    keys = set(keyboard.SHORTCUTS.values())
    assert not {k.lower() for k in keys} & {"c", "r"} and all(len(k) == 1 for k in keys)
    assert keyboard.SHORTCUTS["play"] == keyboard.SHORTCUTS["pause"]
    assert len(keyboard.DOES) == len(keys)  # the help lists each key once


def test_no_page_carries_a_server_side_player():
    """Every player runs in the browser: no page draws Streamlit buttons for Step or Play."""
    for page in BROWSER_PLAYERS:
        at = open_player(page)
        assert page in players(at)
        assert not [b for b in at.button if b.key and b.key.endswith(("_step", "_play", "_run_all"))], page
