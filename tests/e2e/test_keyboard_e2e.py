"""The app from the keyboard alone, in a real browser: Tab to Step and press Enter to the end of
the run (the focus lands on Reset, not on the page's body), the player's shortcut keys (the
browser player, ui/player/browser_player.js), and a
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

PLAYER = ".st-key-classical_player"
STEP_OFF = f"() => document.querySelector('{PLAYER} button[data-role=step]').disabled"
# the player's focused control (its data-role, "speed", "keys" or "scrub"), else the focus's st-key-* box
ACTIVE_ROLE = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return "body";
  if (a.closest('.hp-root')) {
    return a.dataset.role || (a.matches('.hp-speed') ? 'speed' : a.matches('.hp-scrub') ? 'scrub'
      : a.closest('.hp-keys') ? 'keys' : a.tagName);
  }
  const box = a.closest("[class*='st-key-']");
  return box ? [...box.classList].find((c) => c.startsWith("st-key-")) : a.tagName;
}"""


def open_classical(pg, server: str) -> None:
    """The classical page with its player drawn (the browser player's buttons, and the step
    limit's field, which Streamlit draws once its code has loaded)."""
    goto(pg, server, "classical")
    pg.locator(f"{PLAYER} button[data-role=step]").wait_for()
    pg.locator(".st-key-classical_steps input").wait_for()


def focus_role(pg) -> str:
    return pg.evaluate(ACTIVE_ROLE)


def wait_applied(pg) -> None:
    """The grids' edits reached the server and its rerun of the editor is drawn (a fragment's
    rerun does not always show in the app's run state, which wait_idle reads)."""
    pg.wait_for_function(APPLIED, polling=50)
    wait_idle(pg)
    pg.locator(".st-key-classical_draw_store").wait_for()  # one, not a stale copy beside it


def wait_played(pg) -> None:
    """Wait for Play to reach the end of the run (Step off, the player not playing)."""
    pg.wait_for_function(f"() => {STEP_OFF[6:]} && document.querySelector('{PLAYER} .hp-root')"
                         ".dataset.playing === '0'", timeout=30_000)


def step_text(pg) -> str:
    return pg.locator(f"{PLAYER} .hp-count").inner_text()


def test_enter_on_step_to_the_end_leaves_the_focus_on_reset(page, server):
    open_classical(page, server)
    for _ in range(150):  # Tab to Step
        page.keyboard.press("Tab")
        if focus_role(page) == "step":
            break
    assert focus_role(page) == "step"
    for _ in range(40):
        if page.evaluate(STEP_OFF):
            break
        page.keyboard.press("Enter")
    assert page.evaluate(STEP_OFF), "the run did not end"
    assert focus_role(page) == "reset"
    shot(page, "keyboard_end_of_run")
    # Enter on Reset goes back to step 0 and the focus stays there; Tab reaches Step again
    page.keyboard.press("Enter")
    assert "step 0 of" in step_text(page)
    assert focus_role(page) == "reset"
    # the Tab order the Keyboard help gives (ui/player/browser.py TAB_ORDER)
    for want in ["step", "run_all", "play", "speed", "keys", "scrub"]:
        page.keyboard.press("Tab")
        assert focus_role(page) == want
    # Play from the keyboard: the focus stays on Play (Pause while playing) to the end of the run
    for _ in range(3):
        page.keyboard.press("Shift+Tab")
    assert focus_role(page) == "play"
    page.keyboard.press("Enter")
    assert focus_role(page) == "pause"
    wait_played(page)
    assert focus_role(page) == "play"
    assert_healthy(page)


def test_the_shortcuts_step_and_run_and_do_not_fire_in_a_field(page, server):
    open_classical(page, server)
    page.keyboard.press("s")
    assert "step 1 of" in step_text(page)
    # in the step limit's number field a letter is typing, not a shortcut
    field = page.locator(".st-key-classical_steps input")
    field.focus()
    page.keyboard.press("s")
    page.keyboard.press("p")
    assert "step 1 of" in step_text(page)
    assert focus_role(page) == "st-key-classical_steps"
    page.locator("h1").first.click()  # out of the field: the keys work again
    page.keyboard.press("e")
    assert page.evaluate(STEP_OFF)
    page.keyboard.press("0")
    assert "step 0 of" in step_text(page)
    page.keyboard.press("p")
    assert page.locator(f"{PLAYER} .hp-root").get_attribute("data-playing") == "1"
    page.keyboard.press("p")
    assert page.locator(f"{PLAYER} .hp-root").get_attribute("data-playing") == "0"
    assert_healthy(page)


def test_the_focus_is_not_taken_from_a_field_when_a_run_ends(page, server):
    """Play, then go to a field while it plays: the end of the run leaves the focus there."""
    open_classical(page, server)
    page.locator(f"{PLAYER} button[data-role=play]").click()
    field = page.locator(".st-key-classical_steps input")
    field.focus()
    wait_played(page)
    page.wait_for_timeout(300)
    assert focus_role(page) == "st-key-classical_steps"


def open_editor(pg) -> None:
    """The pattern editor opened, its two grids drawn. Each grid is a component whose script
    loads on its own: a busy machine draws its cells after the rerun is over, and a Tab, a drag
    or a key before that goes past them."""
    pg.locator(".st-key-classical_editor summary").click()
    wait_idle(pg)
    for name in ("Drawing", "Query"):
        pg.locator(f'[role="grid"][aria-label^="{name}"] [role="gridcell"][tabindex="0"]').first.wait_for()


def test_draw_a_pattern_with_the_arrow_keys_and_space_and_store_it(page, server):
    open_classical(page, server)
    open_editor(page)
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
    assert focus_role(page) == "st-key-classical_draw_store"
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
    open_editor(page)
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
    open_editor(page)
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
