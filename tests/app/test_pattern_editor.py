"""Draw a pattern and store it, flip pixels of the query by clicking: on the classical and
dense pages, with edits as the browser's grid sends them (ui/store/grid_editor.py: a list of
[seq, r0, c0, r1, c1], every edit not yet applied)."""

import numpy as np
import pytest

import ui.store.patterns
from hopfield_core import ClassicalHopfield, drawing
from hopfield_core.images import corrupt, resize, to_bipolar
from hopfield_core.presets import preset_image
from tests.support.apptest import click, grid_sent, open_app
from tests.support.player import at_step
from ui.store import grid_editor


def drag(r0, c0, r1, c1, seq):
    return {"ops": [[seq, r0, c0, r1, c1]]}


def open_editor(page):
    at = open_app(page)
    at.session_state[f"{page}_editor"] = True  # the expander, opened
    at.run()
    assert not at.exception
    return at


def qp(at, key):
    v = at.query_params[key]
    return v[-1] if isinstance(v, list) else v


def letters(size=16):
    return np.stack([to_bipolar(resize(preset_image("letters", c, 64), (size, size))) for c in "HOX"])


@pytest.mark.parametrize("page", ["classical", "dense"])
def test_draw_store_and_share_a_pattern(page):
    at = open_editor(page)
    at.session_state[f"{page}_draw_16"] = drag(0, 0, 2, 5, 1)  # rows 0-2, columns 0-5
    at.run()
    at.session_state[f"{page}_draw_16"] = click(10, 10, 2)  # one more cell
    at.run()
    grid = np.zeros((16, 16), dtype=bool)
    grid[:3, :6] = True
    grid[10, 10] = True
    assert np.array_equal(at.session_state["_drawings"][16], grid)
    at.button(key=f"{page}_draw_store").click().run()
    assert any("Stored" in s.value for s in at.success)
    assert any("Pattern store (4/40)" in h.value for h in at.sidebar.header)
    assert qp(at, "presets").split(",")[-1] == drawing.key(grid)
    shared = open_app(page, query={"presets": qp(at, "presets")})  # another student's link
    assert any("Pattern store (4/40)" in h.value for h in shared.sidebar.header)
    # the networks see exactly the drawing, cell for cell: ink is -1
    ps = ui.store.patterns._pattern_set((drawing.key(grid),), ("d",), 16, False, "threshold", True,
                               (drawing.to_image(grid, 64),))
    assert np.array_equal(ps.X[0], np.where(grid, -1, 1).ravel())
    # storing the same drawing twice is explained, storing an empty grid too
    at.button(key=f"{page}_draw_store").click().run()
    assert any("already stored" in w.value for w in at.warning)
    at.button(key=f"{page}_draw_clear").click().run()
    at.button(key=f"{page}_draw_store").click().run()
    assert any("Draw something first" in w.value for w in at.warning)
    assert not at.exception


def test_a_clicked_pixel_of_the_query_flips_and_the_run_starts_there():
    at = open_editor("classical")
    X = letters()
    q0 = corrupt(X[0], (16, 16), "flip", 0.2, rng=0)
    at.session_state["classical_flip_16"] = click(7, 3, 1)  # row 7, column 3
    at.run()
    assert qp(at, "q_flip") == str(7 * 16 + 3)
    q = q0.copy()
    q[7 * 16 + 3] *= -1
    ref = ClassicalHopfield(X).run(q, mode="async", rng=0, max_steps=30)
    assert at_step(at, "classical", 0).value() == float(f"{ref.energies[0]:.6g}")
    assert any("1 pixel(s) flipped by hand" in c.value for c in at.caption)
    at.session_state["classical_flip_16"] = click(7, 3, 2)  # the same pixel
    at.run()
    assert "q_flip" not in at.query_params  # none flipped: left out
    at.session_state["classical_flip_16"] = click(0, 0, 3)
    at.run()
    at.button(key="classical_flip_clear").click().run()
    assert "q_flip" not in at.query_params and not at.exception  # none flipped: left out
    ref0 = ClassicalHopfield(X).run(q0, mode="async", rng=0, max_steps=30)
    assert at_step(at, "classical", 0).value() == float(f"{ref0.energies[0]:.6g}")


def test_a_bad_drawing_in_the_link_is_named():
    at = open_app("classical", query={"presets": "letters/H,drawn/16/xyz,drawn/99/00"})
    notes = " ".join(w.value for w in at.warning)
    assert "cannot be read" in notes and "`drawn/16/xyz`" in notes
    assert any("Pattern store (1/40)" in h.value for h in at.sidebar.header)


def test_flips_from_a_link_apply_and_the_editor_costs_nothing_closed():
    at = open_app("classical", query={"q_flip": "0,17"})
    assert qp(at, "q_flip") == "0,17"
    assert not any("click a pixel" in m.value for m in at.markdown)  # the closed editor did not run
    X = letters()
    q = corrupt(X[0], (16, 16), "flip", 0.2, rng=0)
    q[[0, 17]] *= -1
    ref = ClassicalHopfield(X).run(q, mode="async", rng=0, max_steps=30)
    assert at_step(at, "classical", 0).value() == float(f"{ref.energies[0]:.6g}")


def test_edits_the_server_has_not_answered_are_sent_again_and_applied_once():
    """The browser keeps every edit until the server says it applied it (`seen`): a list that
    repeats an applied edit applies only the new ones, in order, and the grid is told so."""
    at = open_editor("classical")
    at.session_state["classical_draw_16"] = click(0, 0, 1)
    at.run()
    assert grid_sent(at, "classical_draw_16")["seen"] == 1
    # Space pressed twice more before the browser heard back: edit 1 comes again with 2 and 3
    at.session_state["classical_draw_16"] = {"ops": [[1, 0, 0, 0, 0], [2, 1, 1, 1, 1],
                                                     [3, 1, 1, 3, 3]]}
    at.run()
    grid = np.zeros((16, 16), dtype=bool)
    grid[0, 0] = True             # toggled once, not twice
    grid[1:4, 1:4] = False        # edit 3: a drag from the ink of edit 2 erases its rectangle
    assert np.array_equal(at.session_state["_drawings"][16], grid)
    sent = grid_sent(at, "classical_draw_16")
    assert sent["seen"] == 3 and sent["size"] == 16 and sent["mode"] == "draw"
    # ink is sent black (0), paper white (f), one digit a cell, row by row
    assert sent["cells"] == "".join("0" if v else "f" for v in grid.ravel())
    assert not at.exception


def test_several_flips_in_one_message_apply_in_order():
    at = open_editor("classical")
    at.session_state["classical_flip_16"] = {"ops": [[1, 0, 1, 0, 1], [2, 2, 0, 2, 0],
                                                     [3, 0, 1, 0, 1]]}
    at.run()
    assert qp(at, "q_flip") == str(2 * 16)  # pixel 1 flipped twice, pixel 32 once
    sent = grid_sent(at, "classical_flip_16")
    assert sent["seen"] == 3 and sent["mode"] == "flip"
    X = letters()
    q = corrupt(X[0], (16, 16), "flip", 0.2, rng=0)
    q[32] *= -1
    assert sent["cells"] == grid_editor.levels(((q + 1) / 2).reshape(16, 16))
    assert sent["cells"][32] == ("f" if q[32] > 0 else "0")


def test_grey_levels_are_one_digit_a_cell():
    cells = np.array([[0.0, 1.0], [0.5, 0.04]])
    assert grid_editor.levels(cells) == "0f81"  # 0.5 -> 7.5 rounds to 8; 0.04 -> 0.6 to 1


def test_edits_that_are_not_cells_of_the_grid_are_ignored_or_clipped():
    """What the browser sends is not trusted: malformed edits are dropped, cells outside the
    grid are clipped to its edge."""
    at = open_editor("classical")
    at.session_state["classical_flip_16"] = {"ops": [[1, "x", 0, 0, 0], [2, 0, 0], None,
                                                     [3, 99, -5, 99, -5]]}
    at.run()
    assert qp(at, "q_flip") == str(15 * 16) and not at.exception  # row 15, column 0
    assert grid_sent(at, "classical_flip_16")["seen"] == 3
