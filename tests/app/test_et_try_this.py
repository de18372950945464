"""The Energy Transformer page's first 'Try this' (ui/energy_transformer/dynamics.first_try): each hole it names
does what its words say with the shipped weights, and every number it states is recomputed here
from hopfield_core.et alone (issue 34, item 12: the old example's descent made the fill worse
while the words said it refined it)."""
import numpy as np
import pytest
from tests.app.conftest import open_app

from hopfield_core.et import load_pretrained
from hopfield_core.et.checkpoint import MODELS
from hopfield_core.et.descent import ROUNDING
from hopfield_core.et.masks import masked_patch_mse, mean_fill, rectangle_mask
from hopfield_core.presets import preset_image
from ui.energy_transformer import dynamics, sections
from ui.energy_transformer.settings import GRID, PATCH, SIZE

PHOTO = "coffee"


@pytest.fixture(scope="module")
def models():
    return {name: load_pretrained("cpu", MODELS[name]) for name in ("harmonic", "paper")}


def hole(rows, cols):
    """The mask the page's rectangle sliders make (ui/energy_transformer/controls.pick_mask)."""
    return rectangle_mask(GRID, rows[0], cols[0], rows[1] - rows[0], cols[1] - cols[0])


def run(model, rows, cols, steps=100):
    """(errors (T+1,), energies (T+1,), mean-fill error) of a completion of the photo."""
    img, mask = preset_image("photos", PHOTO, SIZE), hole(rows, cols)
    out = model.complete(img, mask, steps=steps)
    errors = np.array([masked_patch_mse(f, img, mask, PATCH) for f in out.frames])
    return errors, out.energies, masked_patch_mse(mean_fill(img, mask, PATCH), img, mask, PATCH)


def falls(energies) -> bool:
    """The energy never rises by more than float32 rounding (the page's own test)."""
    return bool(np.all(np.diff(energies) <= ROUNDING * np.abs(energies[:-1])))


def test_harmonic_start_the_descent_refines_the_fill_on_rows_0_4_columns_3_5(models):
    """'Rows to 0 - 4 and Columns to 3 - 5 ... error of 0.0256 ... After step 8 the error is
    0.0240, 6 % below the fill's, and with Steps T at 100 it stays there.'"""
    text = dynamics.first_try(models["harmonic"].cfg)
    assert "**Rows** to 0 – 4 and **Columns** to 3 – 5" in text
    e, energies, _ = run(models["harmonic"], (0, 4), (3, 5))
    assert f"{e[0]:.4f}" == "0.0256" and "error of 0.0256" in text
    assert f"{e[8]:.4f}" == "0.0240" and "the error is 0.0240" in text
    assert round(100 * (1 - e[8] / e[0])) == 6 and "6 % below the fill's" in text
    assert e[8] < e[0] and np.abs(e[8:] - e[8]).max() < 1e-4  # refined, and held there to step 100
    assert falls(energies)                                  # "while the energy falls"


def test_harmonic_start_the_descent_does_not_help_on_rows_2_6_columns_2_6(models):
    """'0.0477 at step 0, 0.0483 after step 8: a little worse, +1.4 % since step 0 ... The
    descent lowers the energy, not always the error.'"""
    text = dynamics.first_try(models["harmonic"].cfg)
    assert "**Rows** and **Columns** both to 2 – 6" in text
    e, energies, _ = run(models["harmonic"], (2, 6), (2, 6), steps=8)
    assert f"{e[0]:.4f}" == "0.0477" and f"{e[8]:.4f}" == "0.0483"
    assert "(0.0477 at step 0, 0.0483 after step 8" in text
    assert e[8] > e[0] and sections.since_start(e, 8) == "+1.4 % since step 0"
    assert "+1.4 % since step 0, in red" in text
    assert falls(energies) and energies[8] < energies[0]


def test_paper_start_the_descent_draws_the_hole_on_rows_2_6_columns_2_6(models):
    """'The masked-patch error falls at every step, from 0.1563 at step 0 ... to 0.0485 after
    step 8, below the mean fill's 0.0698; with Steps T at 100 the energy keeps falling and the
    error creeps back up to 0.0497.'"""
    text = dynamics.first_try(models["paper"].cfg)
    assert "set **Rows** and **Columns** to 2 – 6" in text
    e, energies, yardstick = run(models["paper"], (2, 6), (2, 6))
    assert np.all(np.diff(e[:9]) < 0)                       # "falls at every step"
    assert f"{e[0]:.4f}" == "0.1563" and "from 0.1563 at step 0" in text
    assert f"{e[8]:.4f}" == "0.0485" and "to 0.0485 after step 8" in text
    assert e[8] < yardstick and f"{yardstick:.4f}" == "0.0698" and "mean fill's 0.0698" in text
    assert falls(energies) and energies[100] < energies[8]  # "the energy keeps falling"
    assert e[100] > e[8] and f"{e[100]:.4f}" == "0.0497" and "back up to 0.0497" in text


@pytest.mark.parametrize("start, rows, cols, before, after, delta", [
    ("harmonic", "0,4", "3,5", "0.0256", "0.0240", "-6.1 % since step 0"),
    ("paper", "2,6", "2,6", "0.1563", "0.0485", "-69.0 % since step 0"),
])
def test_the_page_shows_the_numbers_try_this_names(start, rows, cols, before, after, delta):
    at = open_app("energy_transformer", query={"start": start, "mask": "rectangle",
                                               "rows": rows, "cols": cols})
    assert any(dynamics.first_try(load_pretrained("cpu", MODELS[start]).cfg) in m.value
               for m in at.markdown)
    shown = next(m for m in at.metric if m.label == "Masked-patch MSE, ET")
    assert shown.value == before
    at.button(key="et_run_all").click().run()
    shown = next(m for m in at.metric if m.label == "Masked-patch MSE, ET")
    assert shown.value == after and shown.delta == delta
