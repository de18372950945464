"""Draw a pattern and store it, flip pixels of the query by clicking: on the classical and
dense pages, with clicks as the browser sends them (streamlit-image-coordinates events)."""
import numpy as np
import pytest
from tests.app.conftest import open_app

from hopfield_core import ClassicalHopfield, drawing
from hopfield_core.images import corrupt, resize, to_bipolar
from hopfield_core.presets import preset_image
import ui.patterns

CELL = 20  # a 16 x 16 grid shown 320 px wide


def click(x, y, t):
    return {"x": x, "y": y, "width": 320, "height": 320, "unix_time": t}


def drag(x1, y1, x2, y2, t):
    return {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "width": 320, "height": 320, "unix_time": t}


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
    at.session_state[f"{page}_draw_16"] = drag(5, 5, 100, 50, 1)  # rows 0-2, columns 0-5
    at.run()
    at.session_state[f"{page}_draw_16"] = click(10 * CELL + 5, 10 * CELL + 5, 2)  # one more cell
    at.run()
    grid = np.zeros((16, 16), dtype=bool)
    grid[:3, :6] = True
    grid[10, 10] = True
    assert np.array_equal(at.session_state["_drawings"][16], grid)
    at.button(key=f"{page}_draw_store").click().run()
    assert any("Stored" in s.value for s in at.success)
    assert any("Pattern store (4/40)" in h.value for h in at.sidebar.subheader)
    assert qp(at, "presets").split(",")[-1] == drawing.key(grid)
    shared = open_app(page, query={"presets": qp(at, "presets")})  # another student's link
    assert any("Pattern store (4/40)" in h.value for h in shared.sidebar.subheader)
    # the networks see exactly the drawing, cell for cell: ink is -1
    ps = ui.patterns._pattern_set((drawing.key(grid),), ("d",), 16, False, "threshold", True,
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
    at.session_state["classical_flip_16"] = click(3 * CELL + 2, 7 * CELL + 2, 1)  # row 7, column 3
    at.run()
    assert qp(at, "q_flip") == str(7 * 16 + 3)
    q = q0.copy()
    q[7 * 16 + 3] *= -1
    ref = ClassicalHopfield(X).run(q, mode="async", rng=0, max_steps=30)
    assert float(at.metric[0].value) == float(f"{ref.energies[0]:.6g}")
    assert any("1 pixel(s) flipped by hand" in c.value for c in at.caption)
    at.session_state["classical_flip_16"] = click(3 * CELL + 9, 7 * CELL + 9, 2)  # the same pixel
    at.run()
    assert qp(at, "q_flip") == ""
    at.session_state["classical_flip_16"] = click(5, 5, 3)
    at.run()
    at.button(key="classical_flip_clear").click().run()
    assert qp(at, "q_flip") == "" and not at.exception
    ref0 = ClassicalHopfield(X).run(q0, mode="async", rng=0, max_steps=30)
    assert float(at.metric[0].value) == float(f"{ref0.energies[0]:.6g}")


def test_a_bad_drawing_in_the_link_is_named():
    at = open_app("classical", query={"presets": "letters/H,drawn/16/xyz,drawn/99/00"})
    notes = " ".join(w.value for w in at.warning)
    assert "cannot be read" in notes and "`drawn/16/xyz`" in notes
    assert any("Pattern store (1/40)" in h.value for h in at.sidebar.subheader)


def test_flips_from_a_link_apply_and_the_editor_costs_nothing_closed():
    at = open_app("classical", query={"q_flip": "0,17"})
    assert qp(at, "q_flip") == "0,17"
    assert not any("click a pixel" in m.value for m in at.markdown)  # the closed editor did not run
    X = letters()
    q = corrupt(X[0], (16, 16), "flip", 0.2, rng=0)
    q[[0, 17]] *= -1
    ref = ClassicalHopfield(X).run(q, mode="async", rng=0, max_steps=30)
    assert float(at.metric[0].value) == float(f"{ref.energies[0]:.6g}")
