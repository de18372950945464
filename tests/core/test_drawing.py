"""Drawing by hand: clicks toggle a cell, drags paint a rectangle, drawings survive a link."""
import numpy as np
import pytest

from hopfield_core import drawing


def test_a_click_toggles_the_cell_under_it():
    grid = np.zeros((8, 8), dtype=bool)
    once = drawing.paint(grid, (50, 90), (50, 90), 320, 320)  # column 1, row 2 (40 px cells)
    assert once.sum() == 1 and once[2, 1]
    assert not drawing.paint(once, (41, 81), (79, 119), 320, 320).any()  # same cell: toggled back
    assert not grid.any()  # the input is never changed


def test_a_drag_paints_a_rectangle_and_one_that_starts_on_ink_erases():
    grid = np.zeros((16, 16), dtype=bool)
    painted = drawing.paint(grid, (5, 5), (100, 50), 320, 320)  # 20 px cells: columns 0-5, rows 0-2
    assert painted.sum() == 18 and painted[:3, :6].all()
    erased = drawing.paint(painted, (25, 25), (0, 0), 320, 320)  # drag up-left from ink
    assert erased.sum() == 18 - 4 and not erased[:2, :2].any()


def test_points_outside_the_picture_clip_to_the_edge():
    assert drawing.cell(-10, 500, 320, 320, 8) == (7, 0)
    assert drawing.cell(320, 0, 320, 320, 8) == (0, 7)


@pytest.mark.parametrize("size", drawing.SIZES)
def test_every_size_round_trips_through_text_and_key(size):
    grid = np.random.default_rng(size).random((size, size)) < 0.4
    assert np.array_equal(drawing.from_text(drawing.to_text(grid), size), grid)
    assert np.array_equal(drawing.parse_key(drawing.key(grid)), grid)


@pytest.mark.parametrize("bad", ["", "zz", "0" * 63, "0" * 65, "drawn/16/xyz", "drawn/15/" + "0" * 57,
                                 "drawn/16/" + "0" * 5000, "[x](http://evil.example)"])
def test_bad_drawings_are_refused_with_a_reason(bad):
    with pytest.raises(ValueError):
        drawing.parse_key(bad if bad.startswith("drawn/") else "drawn/16/" + bad)


def test_the_image_is_ink_black_on_white_in_whole_blocks():
    grid = np.zeros((16, 16), dtype=bool)
    grid[3, 4] = True
    img = drawing.to_image(grid, 64)
    assert img.shape == (64, 64, 3)
    assert (img[12:16, 16:20] == 0).all() and img.sum() == 3 * (64 * 64 - 16)
