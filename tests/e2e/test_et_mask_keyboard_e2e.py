"""The Energy Transformer's patches to hide, from the keyboard alone (issue 30): the picture of
the mask is a grid (ui/grid_editor.py, "flip" mode) with a cursor patch; Tab to it, the arrow
keys move the cursor, Space hides or shows its patch, and the mouse still clicks one."""
import re
from urllib.parse import parse_qs, urlparse

import numpy as np

from tests.e2e.conftest import assert_healthy, goto, shot, wait_idle
from tests.e2e.test_keyboard_e2e import APPLIED, DEEP_ACTIVE_LABEL
from ui.energy_transformer.settings import GRID, mask_text

GRID_SEL = '[role="grid"][aria-label^="Patches to hide"]'


def hidden_count(pg) -> int:
    return int(re.search(rf"Hidden: (\d+) of {GRID * GRID}", pg.inner_text("body")).group(1))


def applied(pg) -> None:
    pg.wait_for_function(APPLIED, polling=50)
    wait_idle(pg)


def test_hide_a_patch_with_the_arrow_keys_and_space(page, server):
    goto(page, server, "energy_transformer")
    page.get_by_role("radiogroup", name="Mask").get_by_text("click patches", exact=True).click()
    wait_idle(page)
    page.get_by_role("button", name="Hide none").click()
    wait_idle(page)
    grid = page.locator(GRID_SEL)
    grid.wait_for()
    assert hidden_count(page) == 0
    # keyboard only: one Tab from the mask's radio buttons reaches the grid's cursor patch
    page.get_by_role("radio", name="click patches").focus()
    page.keyboard.press("Tab")
    assert page.evaluate(DEEP_ACTIVE_LABEL) == ["gridcell", "row 1, column 1, shown"]
    for key in ["ArrowDown", "ArrowRight", "ArrowRight", "Space"]:
        page.keyboard.press(key)
    applied(page)
    want = np.zeros((GRID, GRID), dtype=bool)
    want[1, 2] = True
    assert parse_qs(urlparse(page.url).query)["hide"] == [mask_text(want)]
    assert hidden_count(page) == 1
    cell = grid.locator('[role="gridcell"]').nth(GRID + 2)
    assert cell.get_attribute("aria-label") == "row 2, column 3, hidden"
    assert page.evaluate(DEEP_ACTIVE_LABEL) == ["gridcell", "row 2, column 3, hidden"]
    shot(page, "energy_transformer_mask_keyboard")
    # Space again shows it; the mouse still clicks a patch
    page.keyboard.press("Space")
    applied(page)
    assert hidden_count(page) == 0
    box = grid.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 7.5 / GRID, box["y"] + box["height"] * 0.5 / GRID)
    applied(page)
    want[:] = False
    want[0, 7] = True
    assert parse_qs(urlparse(page.url).query)["hide"] == [mask_text(want)]
    assert grid.locator('[role="gridcell"]').nth(7).get_attribute("aria-label") \
        == "row 1, column 8, hidden"
    assert_healthy(page)
