"""The Energy Transformer page's first 'Try this' (ui/pages/energy_transformer/explain.first_try): each hole it names
does what its words say with the shipped weights, and every number it states is recomputed here
from hopfield_core.et alone (issue 34, item 12: the old example's descent made the fill worse
while the words said it refined it)."""
import numpy as np
import pytest

from hopfield_core.et import load_pretrained
from hopfield_core.et.checkpoint import MODELS
from hopfield_core.et.descent import ROUNDING
from hopfield_core.et.masks import (
    masked_patch_mse,
    mean_fill,
    random_mask,
    rectangle_mask,
)
from hopfield_core.presets import preset_image
from tests.support.apptest import open_app
from tests.support.player import at_step
from ui.pages.energy_transformer import explain, metrics
from ui.pages.energy_transformer.settings import (
    GRID,
    MAX_STEPS,
    PATCH,
    PHOTOS,
    SETTINGS,
    SIZE,
)

START_HELP = SETTINGS.fields["start"].help

PHOTO = "coffee"


@pytest.fixture(scope="module")
def models():
    return {name: load_pretrained("cpu", MODELS[name]) for name in ("harmonic", "paper")}


def hole(rows, cols):
    """The mask the page's rectangle sliders make (ui/pages/energy_transformer/controls.pick_mask)."""
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
    text = explain.first_try(models["harmonic"].cfg)
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
    text = explain.first_try(models["harmonic"].cfg)
    assert "**Rows** and **Columns** both to 2 – 6" in text
    e, energies, _ = run(models["harmonic"], (2, 6), (2, 6), steps=8)
    assert f"{e[0]:.4f}" == "0.0477" and f"{e[8]:.4f}" == "0.0483"
    assert "(0.0477 at step 0, 0.0483 after step 8" in text
    assert e[8] > e[0] and metrics.since_start(e, 8) == "+1.4 % since step 0"
    assert "+1.4 % since step 0, in red" in text
    assert falls(energies) and energies[8] < energies[0]


def test_paper_start_the_descent_draws_the_hole_on_rows_2_6_columns_2_6(models):
    """'The masked-patch error falls at every step, from 0.1500 at step 0 ... to 0.0475 after
    step 8, below the mean fill's 0.0698; with Steps T at 100 the energy keeps falling and the
    error creeps back up to 0.0501.'"""
    text = explain.first_try(models["paper"].cfg)
    assert "set **Rows** and **Columns** to 2 – 6" in text
    e, energies, yardstick = run(models["paper"], (2, 6), (2, 6))
    assert np.all(np.diff(e[:9]) < 0)                       # "falls at every step"
    assert f"{e[0]:.4f}" == "0.1500" and "from 0.1500 at step 0" in text
    assert f"{e[8]:.4f}" == "0.0475" and "to 0.0475 after step 8" in text
    assert e[8] < yardstick and f"{yardstick:.4f}" == "0.0698" and "mean fill's 0.0698" in text
    assert falls(energies) and energies[100] < energies[8]  # "the energy keeps falling"
    assert e[100] > e[8] and f"{e[100]:.4f}" == "0.0501" and "back up to 0.0501" in text


@pytest.mark.parametrize("start, rows, cols, before, after, delta", [
    ("harmonic", "0,4", "3,5", "0.0256", "0.0240", "-6.1 % since step 0"),
    ("paper", "2,6", "2,6", "0.1500", "0.0475", "-68.3 % since step 0"),
])
def test_the_page_shows_the_numbers_try_this_names(start, rows, cols, before, after, delta):
    at = open_app("energy_transformer", query={"start": start, "mask": "rectangle",
                                               "rows": rows, "cols": cols})
    assert any(explain.first_try(load_pretrained("cpu", MODELS[start]).cfg) in m.value
               for m in at.markdown)
    assert at_step(at, "energy_transformer", 0).metric("mse")[0] == before
    value, change, tone = at_step(at, "energy_transformer", "end").metric("mse")
    assert value == after and change == delta and tone == "good"


# ------------------------------------------------------------------ the other prompts and claims

SHARES = np.round(np.arange(0.3, 0.9 + 1e-9, 0.05), 2)  # the Hidden share slider, 0.3 to 0.9


@pytest.mark.parametrize("start, low, high", [("harmonic", "0.018", "0.047"),
                                              ("paper", "0.026", "0.053")])
def test_sliding_the_hidden_share_grows_the_ets_error_not_the_yardsticks(models, start, low, high):
    """'slide the hidden share from 0.3 to 0.9: the ET's error grows, with small dips, from
    0.018 to 0.047, while the mean-fill yardstick stays near 0.05 - 0.06: the ET's lead shrinks'
    (random mask, seed 0, the trained steps; not 'and so does the mean-fill yardstick's')."""
    model, img = models[start], preset_image("photos", PHOTO, SIZE)
    text = explain.share_try(model.cfg)
    assert f"from {low} to {high}" in text and "near 0.05 – 0.06" in text
    et, yard = [], []
    for share in SHARES:
        mask = random_mask(GRID, float(share), 0)  # what the page's sliders make (seed 0)
        et.append(masked_patch_mse(model.complete(img, mask).frames[-1], img, mask, PATCH))
        yard.append(masked_patch_mse(mean_fill(img, mask, PATCH), img, mask, PATCH))
    et, yard = np.array(et), np.array(yard)
    assert f"{et[0]:.3f}" == low and f"{et[-1]:.3f}" == high
    tenths = slice(None, None, 2)                                            # 0.3, 0.4, ... 0.9
    assert np.all(np.diff(et[tenths]) > 0) and np.any(np.diff(et) < 0)      # grows, with dips
    assert np.all((yard > 0.045) & (yard < 0.065))                          # near 0.05 - 0.06
    assert np.any(np.diff(yard[tenths]) < 0)                                # it does not grow
    assert yard[-1] - et[-1] < (yard[0] - et[0]) / 2                         # the lead shrinks


def test_the_energy_does_not_rise_on_the_preset_photos_with_the_default_masks(models):
    """The lede: 'the energy never rises in the limit of small steps (and, beyond float32
    rounding, does not on any preset photo with the page's default masks, up to T = 100)'."""
    defaults = (random_mask(GRID, 0.5, 0), hole((2, 6), (2, 6)))  # random and rectangle
    for photo in PHOTOS:
        img = preset_image("photos", photo, SIZE)
        for mask in defaults:
            for model in models.values():
                out = model.complete(img, mask, steps=MAX_STEPS)
                assert falls(out.energies), (photo, model.cfg.start)
                assert out.energies[-1] < out.energies[0]


def test_the_model_help_says_what_each_does_with_its_cards_numbers():
    """The Model help: the paper's descent draws the hole (its card's held-out error falls from
    step 0's to the end's), the classical-inpainting start begins near where it ends (a little
    refinement): each number is the card's, and each sentence holds for those numbers."""
    from ui.pages.energy_transformer.settings import EVALS

    paper, harmonic = EVALS["paper"], EVALS["harmonic"]
    assert (f"falls from {paper['start_mse']:.4f} at step 0 to {paper['et_mse']:.4f}" in START_HELP)
    assert (f"already at {harmonic['start_mse']:.4f}, and the descent refines it a little, to "
            f"{harmonic['et_mse']:.4f}") in START_HELP
    assert paper["et_mse"] < 0.5 * paper["start_mse"]  # "draws it": most of the error goes
    assert 0 < 1 - harmonic["et_mse"] / harmonic["start_mse"] < 0.1  # "a little"
    assert SETTINGS.fields["start"].default == "paper"  # the page opens on the descent