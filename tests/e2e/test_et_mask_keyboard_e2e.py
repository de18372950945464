"""The Energy Transformer's patches to hide, from the keyboard alone (issue 30): the picture of
the mask is a grid (ui/store/grid_editor.py, "flip" mode) with a cursor patch; Tab to it, the arrow
keys move the cursor, Space hides or shows its patch, and the mouse still clicks one."""
import re
from urllib.parse import parse_qs, urlparse

import numpy as np

from tests.support.browser import (
    APPLIED,
    DEEP_ACTIVE_LABEL,
    assert_healthy,
    goto,
    shot,
    wait_idle,
)
from ui.pages.energy_transformer.settings import GRID, mask_text

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


QUERY_SEL = '[role="grid"][aria-label^="Patch to look from"]'


def test_look_from_a_patch_clicked_or_chosen_from_the_keyboard(page, server):
    """Inside the model: a click on the picture's patch chooses where the attention chart looks
    from; the chart's title, the sentences and the link follow; Space on the cursor does too."""
    goto(page, server, "energy_transformer")
    grid = page.locator(QUERY_SEL)
    grid.scroll_into_view_if_needed()
    assert grid.get_attribute("aria-label").endswith("row 4, column 4")
    box = grid.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 6.5 / GRID, box["y"] + box["height"] * 1.5 / GRID)
    applied(page)
    page.wait_for_function("() => document.body.innerText.includes('Patch row 2, column 7')")
    assert parse_qs(urlparse(page.url).query)["query"] == [str(GRID + 6)]
    assert page.locator(QUERY_SEL).get_attribute("aria-label").endswith("row 2, column 7")
    page.wait_for_function("() => [...document.querySelectorAll('.gtitle')].some(t => "
                           "t.textContent.includes('column 7) looks'))", timeout=10_000)
    # keyboard: the cursor sits on the cell clicked; one step left and Space chooses it
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Space")
    applied(page)
    page.wait_for_function("() => document.body.innerText.includes('Patch row 2, column 6')")
    assert parse_qs(urlparse(page.url).query)["query"] == [str(GRID + 5)]
    shot(page, "energy_transformer_look_from")
    assert_healthy(page)
