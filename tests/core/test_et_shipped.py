"""What the shipped Energy Transformer promises on photos it never saw (issue 10), measured
afresh: its answer is where the dynamics settle, its energy falls at every step, and the
model card's figures are the ones a fresh evaluation gives.

The held-out crops and masks are the card's: 12 fixed crops of each held-out photo
(`held_out_set(size, 12)`), half the patches hidden at random (`random_masks`, seed 99)."""
import json

import pytest
import torch

from hopfield_core.et import checkpoint
from hopfield_core.et.data import held_out_set, random_masks
from hopfield_core.et.evaluation import EVAL_RATIO, baselines, evaluate

# Issue 31's goal: at most 0.4 x mean fill's error, at rest. The default model is at 0.330 on
# these crops (its card); the paper-start model, shipped beside it to show an ET drawing a whole
# hole, at 0.489 (not reached: see its card). The bounds catch a retrained model that is worse.
MEAN_FILL_RATIO_AT_MOST = {"harmonic": 0.34, "paper": 0.50}


@pytest.fixture(scope="module", params=sorted(checkpoint.MODELS))
def scored(request):
    pytest.importorskip("skimage", reason="the held-out photos come from scikit-image (a test "
                        "dependency, requirements-dev.txt), not one of the core's")
    name = request.param
    model = checkpoint.load(checkpoint.MODELS[name])
    cfg = model.cfg
    images = held_out_set(cfg.image_size, 12)
    masks = random_masks(len(images), cfg.n_patches, EVAL_RATIO, torch.Generator().manual_seed(99))
    ev = evaluate(model, images, masks, torch.device("cpu"))
    ev.update(baselines(images, masks, cfg.patch_size))
    card = json.loads((checkpoint.MODELS[name] / checkpoint.CONFIG).read_text())
    return name, cfg, ev, card


def test_running_longer_does_not_make_the_completion_worse(scored):
    _, cfg, ev, _ = scored
    assert ev["et_mse_4T"] <= 1.05 * ev["et_mse"], (4 * cfg.steps, ev["et_mse_4T"], ev["et_mse"])
    assert ev["et_mse_100"] <= 1.05 * ev["et_mse"], (ev["et_mse_100"], ev["et_mse"])


def test_the_state_has_come_to_rest_after_100_steps(scored):
    _, _, ev, _ = scored
    assert ev["last_step_max_pixel_change"] < 1e-3  # of a pixel in [0, 1], between steps 99 and 100


def test_the_energy_falls_at_every_step_for_every_held_out_image(scored):
    _, _, ev, _ = scored
    assert ev["energy_falls_every_step"] == 1.0  # (or stays within float32 rounding once at rest)


def test_the_completion_beats_mean_fill_by_the_margin_the_card_states(scored):
    name, _, ev, card = scored
    ratio = ev["et_mse"] / ev["mean_fill_mse"]
    assert ratio <= MEAN_FILL_RATIO_AT_MOST[name], ratio
    assert abs(ratio - card["eval"]["ratio_to_mean_fill"]) < 0.01


@pytest.mark.parametrize("key", ["et_mse", "et_mse_4T", "et_mse_100", "mean_fill_mse", "biharmonic_mse", "harmonic_mse"])
def test_the_cards_figures_are_what_a_fresh_evaluation_gives(scored, key):
    _, _, ev, card = scored
    assert ev[key] == pytest.approx(card["eval"][key], rel=0.01)


def test_the_default_completion_beats_biharmonic_inpainting_on_the_cards_crops(scored):
    name, _, ev, _ = scored
    if name != "harmonic":
        pytest.skip("the paper-start model is shipped to draw a whole hole, not to beat inpainting")
    assert ev["et_mse"] < ev["biharmonic_mse"], (ev["et_mse"], ev["biharmonic_mse"])


def test_the_descent_improves_on_where_it_starts(scored):
    """The card and the page say the descent lowers its start's error, step by step: the error
    at T is below the start's (the harmonic fill's, for a harmonic start) and never rises along
    the trained steps by more than float32 noise."""
    _, cfg, ev, _ = scored
    path = ev["mse_by_step"][: cfg.steps + 1]
    assert path[cfg.steps] < path[0], path
    if cfg.start == "harmonic":
        assert path[0] == pytest.approx(ev["harmonic_mse"], rel=1e-3)  # step 0 is the fill itself
    assert all(b <= a * (1 + 1e-3) for a, b in zip(path, path[1:])), path


def test_the_shipped_models_share_the_page_s_picture_and_patch_size():
    sizes = {(checkpoint.shipped_config(d).image_size, checkpoint.shipped_config(d).patch_size)
             for d in checkpoint.MODELS.values()}
    assert len(sizes) == 1, sizes  # one mask grid and one link format for both


@pytest.mark.parametrize("key", ["start_mse", "descent_share", "images_descent_at_least_10pct"])
def test_the_cards_share_of_the_descent_is_what_a_fresh_evaluation_gives(scored, key):
    """The cards (and the page, from them) say how much of the completion the descent does:
    its start's error, the share it takes off, and on how many images it takes 10 % or more."""
    _, _, ev, card = scored
    assert ev[key] == pytest.approx(card["eval"][key], rel=0.01, abs=1e-6)


def test_where_each_model_stands_against_issue_31s_numbers(scored):
    """What the cards and the page say of issue 31's goals, measured afresh: the paper-start
    model's descent does nearly all the work but it stays above 0.40 x mean fill; the default
    stays near biharmonic inpainting (not 0.90 x or below) and its descent takes about 2 % off
    its start, 10 % or more on few images. A retrained model that reaches a goal fails this test
    until its card, the page and this test say so."""
    name, _, ev, _ = scored
    if name == "paper":
        assert ev["descent_share"] > 0.8 and ev["images_descent_at_least_10pct"] == 1.0
        assert ev["et_mse"] / ev["mean_fill_mse"] > 0.40
    else:
        assert 0.90 < ev["et_mse"] / ev["biharmonic_mse"] < 1.0
        assert 0.0 < ev["descent_share"] < 0.10 and ev["images_descent_at_least_10pct"] < 0.5
