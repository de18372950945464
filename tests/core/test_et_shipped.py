"""What the shipped Energy Transformer promises on photos it never saw (issue 10), measured
afresh: its answer is where the dynamics settle, its energy falls at every step, and the
model card's figures are the ones a fresh evaluation gives.

The held-out crops and masks are the card's: 12 fixed crops of each held-out photo
(`held_out_set(size, 12)`), half the patches hidden at random (`random_masks`, seed 99); and
the benchmark's 240 (48 of each, config.json "eval_bench"), measured the way
`python -m hopfield_core.et.rescore` measures them for the cards."""
import json

import pytest

from hopfield_core.et import checkpoint
from hopfield_core.et.rescore import BENCH_KEYS, held_out_scores
from hopfield_core.et.standing import LEVEL

# Issue 31's goal: at most 0.4 x mean fill's error, at rest. The default model is at 0.330 on
# these crops (its card); the paper-start model, shipped beside it to show an ET drawing a whole
# hole, at 0.489 (not reached: see its card). The bounds catch a retrained model that is worse.
MEAN_FILL_RATIO_AT_MOST = {"harmonic": 0.34, "paper": 0.50}


def needs_skimage():
    pytest.importorskip("skimage", reason="the held-out photos come from scikit-image (a test "
                        "dependency, requirements-dev.txt), not one of the core's")


@pytest.fixture(scope="module", params=sorted(checkpoint.MODELS))
def scored(request):
    needs_skimage()
    name = request.param
    model = checkpoint.load(checkpoint.MODELS[name])
    ev = held_out_scores(model, 12)
    card = json.loads((checkpoint.MODELS[name] / checkpoint.CONFIG).read_text())
    return name, model.cfg, ev, card


@pytest.fixture(scope="module", params=sorted(checkpoint.MODELS))
def bench_scored(request):
    needs_skimage()
    name = request.param
    ev = held_out_scores(checkpoint.load(checkpoint.MODELS[name]), 48)
    card = json.loads((checkpoint.MODELS[name] / checkpoint.CONFIG).read_text())
    return name, ev, card


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


def test_the_cards_crop_by_crop_count_is_what_a_fresh_evaluation_gives(scored):
    """The card and the page say on how many of the card's crops biharmonic inpainting does
    better (the default model: 39 of 60); one crop either way fails."""
    _, _, ev, card = scored
    assert card["eval"]["crops"] == ev["crops"] == 60
    assert round(ev["biharmonic_better_share"] * 60) == round(card["eval"]["biharmonic_better_share"] * 60)


@pytest.mark.parametrize("key", BENCH_KEYS)
def test_the_cards_figures_on_the_benchmarks_crops_are_what_a_fresh_evaluation_gives(bench_scored, key):
    """config.json "eval_bench": bench_et's 240 crops, where the default model's error is 1.00 x
    biharmonic inpainting's (0.95 x on the card's 60)."""
    _, ev, card = bench_scored
    assert card["eval_bench"]["crops"] == ev["crops"] == 240
    assert ev[key] == pytest.approx(card["eval_bench"][key], rel=0.01, abs=1 / 240)


def test_the_default_model_is_about_level_with_biharmonic_inpainting_on_both_sets(bench_scored):
    """What the card and the page say (hopfield_core/et/standing.py): within LEVEL of
    biharmonic's error on the card's crops (their figures re-measured above) and on the
    benchmark's (measured here), and biharmonic is better on more than half the crops of each
    (so "about level", never "better than")."""
    name, bench, card = bench_scored
    if name != "harmonic":
        pytest.skip("the paper-start model is behind biharmonic inpainting (its card says so)")
    for e in (card["eval"], bench):
        assert abs(e["et_mse"] / e["biharmonic_mse"] - 1) <= LEVEL
        assert e["biharmonic_better_share"] > 0.5


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
