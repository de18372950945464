"""What the shipped Energy Transformer promises on photos it never saw (issue 10), measured
afresh: its answer is where the dynamics settle, its energy falls at every step, and the
model card's figures are the ones a fresh evaluation gives.

The held-out crops and masks are the card's: 12 fixed crops of each held-out photo
(`held_out_set(size, 12)`), half the patches hidden at random (`random_masks`, seed 99)."""
import json

import pytest
import torch

from hopfield_core.et import checkpoint
from hopfield_core.et.train import EVAL_RATIO, baselines, evaluate
from hopfield_core.et.data import held_out_set, random_masks

# The shipped model's error at T against mean fill's on these crops is 0.542 (its card): this
# catches a retrained model that is worse. Issue 10's goal is 0.4 (2.5 x better), not reached yet.
MEAN_FILL_RATIO_AT_MOST = 0.56


@pytest.fixture(scope="module")
def scored():
    model = checkpoint.load()
    cfg = model.cfg
    images = held_out_set(cfg.image_size, 12)
    masks = random_masks(len(images), cfg.n_patches, EVAL_RATIO, torch.Generator().manual_seed(99))
    ev = evaluate(model, images, masks, torch.device("cpu"))
    ev.update(baselines(images, masks, cfg.patch_size))
    card = json.loads((checkpoint.ASSET_DIR / checkpoint.CONFIG).read_text())
    return cfg, ev, card


def test_running_longer_does_not_make_the_completion_worse(scored):
    cfg, ev, _ = scored
    assert ev["et_mse_4T"] <= 1.05 * ev["et_mse"], (4 * cfg.steps, ev["et_mse_4T"], ev["et_mse"])
    assert ev["et_mse_100"] <= 1.05 * ev["et_mse"], (ev["et_mse_100"], ev["et_mse"])


def test_the_state_has_come_to_rest_after_100_steps(scored):
    _, ev, _ = scored
    assert ev["last_step_max_pixel_change"] < 1e-3  # of a pixel in [0, 1], between steps 99 and 100


def test_the_energy_falls_at_every_step_for_every_held_out_image(scored):
    _, ev, _ = scored
    assert ev["energy_falls_every_step"] == 1.0  # (or stays within float32 rounding once at rest)


def test_the_completion_beats_mean_fill_by_the_margin_the_card_states(scored):
    _, ev, card = scored
    ratio = ev["et_mse"] / ev["mean_fill_mse"]
    assert ratio <= MEAN_FILL_RATIO_AT_MOST, ratio
    assert abs(ratio - card["eval"]["ratio_to_mean_fill"]) < 0.01


@pytest.mark.parametrize("key", ["et_mse", "et_mse_4T", "et_mse_100", "mean_fill_mse", "biharmonic_mse", "harmonic_mse"])
def test_the_cards_figures_are_what_a_fresh_evaluation_gives(scored, key):
    _, ev, card = scored
    assert ev[key] == pytest.approx(card["eval"][key], rel=0.01)
