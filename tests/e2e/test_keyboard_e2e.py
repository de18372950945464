"""The app from the keyboard alone, in a real browser: Tab to Step and press Enter to the end of
the run (the focus lands on Reset, not on the page's body), the player's shortcut keys, and a
pattern drawn with the arrow keys and Space (ui/store/grid_editor.py), stored and carried by the link."""
from urllib.parse import parse_qs, urlparse

import numpy as np

from hopfield_core import drawing
from tests.support.browser import (
    APPLIED,
    DEEP_ACTIVE_LABEL,
    assert_healthy,
    goto,
    shot,
    wait_idle,
)

# the focused element, inside the grid's shadow root too; the st-key-* class of its box
ACTIVE_KEY = """() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === document.body) return "body";
  const box = a.closest("[class*='st-key-']");
  const key = box ? [...box.classList].find((c) => c.startsWith("st-key-")) : null;
  return key || a.getAttribute("aria-label") || a.tagName;
}"""
STEP_OFF = "() => document.querySelector('.st-key-classical_step button').disabled"


def open_classical(pg, server: str) -> None:
    """The classical page with its player drawn (Streamlit loads a widget's code on first use:
    until then a key press finds a placeholder, not the button)."""
    goto(pg, server, "classical")
    pg.locator(".st-key-classical_step button").wait_for()
    pg.locator(".st-key-classical_steps input").wait_for()


def wait_applied(pg) -> None:
    """The grids' edits reached the server and its rerun of the editor is drawn (a fragment's
    rerun does not always show in the app's run state, which wait_idle reads)."""
    pg.wait_for_function(APPLIED, polling=50)
    wait_idle(pg)
    pg.locator(".st-key-classical_draw_store").wait_for()  # one, not a stale copy beside it


def active(pg) -> str:
    return pg.evaluate(ACTIVE_KEY)


def tab_to(pg, key: str, limit: int = 150) -> int:
    """Press Tab until the focus is in the box st-key-<key>; the number of presses."""
    for n in range(1, limit + 1):
        pg.keyboard.press("Tab")
        if active(pg) == f"st-key-{key}":
            return n
    raise AssertionError(f"{limit} Tabs did not reach {key}")


def wait_focus(pg, key: str, timeout_ms: int = 5000) -> str:
    for _ in range(timeout_ms // 100):
        if active(pg) == f"st-key-{key}":
            break
        pg.wait_for_timeout(100)
    return active(pg)


def wait_played(pg) -> None:
    """Wait for Play to reach the end of the run (Play back in Pause's place, Step off)."""
    for _ in range(100):
        if pg.locator(".st-key-classical_play button").count() and pg.evaluate(STEP_OFF):
            break
        pg.wait_for_timeout(100)
    wait_idle(pg)
    assert pg.evaluate(STEP_OFF), "Play did not reach the end"


def step_text(pg) -> str:
    return pg.locator(".st-key-classical_step").locator("xpath=..").inner_text()


def test_enter_on_step_to_the_end_leaves_the_focus_on_reset(page, server):
    open_classical(page, server)
    tab_to(page, "classical_step")
    for _ in range(40):
        if page.evaluate(STEP_OFF):
            break
        page.keyboard.press("Enter")
        wait_idle(page, 300)
    assert page.evaluate(STEP_OFF), "the run did not end"
    assert wait_focus(page, "classical_reset") == "st-key-classical_reset"
    shot(page, "keyboard_end_of_run")
    # Enter on Reset goes back to step 0 and the focus stays there; Tab reaches Step again
    page.keyboard.press("Enter")
    wait_idle(page)
    assert "step 0 of" in step_text(page)
    assert active(page) == "st-key-classical_reset"
    # the Tab order the Keyboard help gives (ui/player/keyboard.py TAB_ORDER)
    for key in ["step", "run_all", "play", "keys_help", "scrub"]:
        page.keyboard.press("Tab")
        assert active(page) == f"st-key-classical_{key}"
    # Play from the keyboard: the focus follows Play -> Pause -> Play to the end of the run
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert active(page) == "st-key-classical_play"
    page.keyboard.press("Enter")
    wait_played(page)
    assert wait_focus(page, "classical_play") == "st-key-classical_play"
    assert_healthy(page)


def test_the_shortcuts_step_and_run_and_do_not_fire_in_a_field(page, server):
    open_classical(page, server)
    page.keyboard.press("s")
    wait_idle(page)
    assert "step 1 of" in step_text(page)
    # in the step limit's number field a letter is typing, not a shortcut
    field = page.locator(".st-key-classical_steps input")
    field.focus()
    page.keyboard.press("s")
    page.keyboard.press("p")
    wait_idle(page)
    assert "step 1 of" in step_text(page)
    assert active(page) == "st-key-classical_steps"
    page.locator("h1").first.click()  # out of the field: the keys work again
    page.keyboard.press("e")
    wait_idle(page)
    assert page.evaluate(STEP_OFF)
    assert_healthy(page)


def test_the_focus_is_not_taken_from_a_field_when_a_run_ends(page, server):
    """Play, then go to a field while it plays: the end of the run leaves the focus there."""
    open_classical(page, server)
    page.locator(".st-key-classical_play button").click()
    field = page.locator(".st-key-classical_steps input")
    field.focus()
    wait_played(page)
    page.wait_for_timeout(500)
    assert active(page) == "st-key-classical_steps"


def test_draw_a_pattern_with_the_arrow_keys_and_space_and_store_it(page, server):
    open_classical(page, server)
    page.locator(".st-key-classical_editor summary").click()
    wait_idle(page)
    page.locator(".st-key-classical_editor summary").focus()
    page.keyboard.press("Tab")  # the drawing grid is the first stop in the editor
    role, label = page.evaluate(DEEP_ACTIVE_LABEL)
    assert (role, label) == ("gridcell", "row 1, column 1, white")
    for key in ["ArrowDown", "ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight", "Space",
                "ArrowRight", "Space", "ArrowDown", "Enter"]:
        page.keyboard.press(key)
    wait_applied(page)
    assert page.evaluate(DEEP_ACTIVE_LABEL) == ["gridcell", "row 4, column 5, black"]
    black = page.locator('[role="gridcell"][aria-label^="row"][aria-label$="black"]')
    drawn = black.evaluate_all("els => els.filter(e => e.closest('[role=grid]')"
                               ".getAttribute('aria-label').startsWith('Drawing'))"
                               ".map(e => e.getAttribute('aria-label'))")
    assert sorted(drawn) == ["row 3, column 4, black", "row 3, column 5, black",
                             "row 4, column 5, black"]
    shot(page, "keyboard_drawn")
    # Tab on to Clear, Invert, Store it; Enter stores the drawing
    for _ in range(3):
        page.keyboard.press("Tab")
    assert active(page) == "st-key-classical_draw_store"
    page.keyboard.press("Enter")
    wait_idle(page)
    assert page.get_by_text("Pattern store (4/40)").count() == 1
    presets = parse_qs(urlparse(page.url).query)["presets"][0].split(",")
    grid = np.zeros((16, 16), dtype=bool)
    grid[2, 3] = grid[2, 4] = grid[3, 4] = True
    assert drawing.parse_key(presets[-1]).tolist() == grid.tolist()
    assert_healthy(page)


def test_flip_a_query_pixel_from_the_keyboard(page, server):
    open_classical(page, server)
    page.locator(".st-key-classical_editor summary").click()
    wait_idle(page)
    query = page.locator('[role="grid"][aria-label^="Query"]')
    before = query.locator('[role="gridcell"]').nth(17).get_attribute("aria-label")
    query.locator('[role="gridcell"][tabindex="0"]').focus()
    for key in ["ArrowDown", "ArrowRight", "Space"]:
        page.keyboard.press(key)
    wait_applied(page)
    assert parse_qs(urlparse(page.url).query)["q_flip"] == ["17"]
    after = query.locator('[role="gridcell"]').nth(17).get_attribute("aria-label")
    assert {before, after} == {"row 2, column 2, black", "row 2, column 2, white"}
    assert page.get_by_text("1 pixel(s) flipped by hand").count() == 1


def test_the_mouse_still_clicks_and_drags(page, server):
    """The grid replaced a clickable picture: a drag paints a rectangle, a click toggles a cell."""
    open_classical(page, server)
    page.locator(".st-key-classical_editor summary").click()
    wait_idle(page)
    grid = page.locator('[role="grid"][aria-label^="Drawing"]')
    box = grid.bounding_box()
    cell = box["width"] / 16

    def at(r, c):
        return box["x"] + (c + 0.5) * cell, box["y"] + (r + 0.5) * cell

    page.mouse.move(*at(1, 1))
    page.mouse.down()
    page.mouse.move(*at(2, 3), steps=5)
    page.mouse.up()
    page.mouse.click(*at(5, 5))
    wait_applied(page)
    black = grid.locator('[role="gridcell"][aria-label$="black"]').evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")
    assert sorted(black) == sorted([f"row {r + 1}, column {c + 1}, black"
                                    for r, c in [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (5, 5)]])
    # the server has the same drawing: Store it puts it in the link
    page.get_by_role("button", name="Store it").click()
    wait_idle(page)
    grid_ = np.zeros((16, 16), dtype=bool)
    grid_[1:3, 1:4] = True
    grid_[5, 5] = True
    presets = parse_qs(urlparse(page.url).query)["presets"][0].split(",")
    assert drawing.parse_key(presets[-1]).tolist() == grid_.tolist()
