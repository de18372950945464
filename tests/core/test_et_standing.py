"""Where an Energy Transformer stands against biharmonic inpainting, in words
(hopfield_core/et/standing.py): "about level" only within LEVEL on every set of crops, the
ratios of both sets and the crop-by-crop count, each checked against the numbers given."""
import pytest
import torch

from hopfield_core.et import card, checkpoint
from hopfield_core.et.evaluation import better_share
from hopfield_core.et.standing import LEVEL, about, biharmonic_words, scored, verdict


def ev(et: float, bih: float, share: float, crops: int) -> dict:
    return {"et_mse": et, "biharmonic_mse": bih, "biharmonic_better_share": share, "crops": crops}


@pytest.mark.parametrize("ratios, said", [
    ([0.95, 1.00], "about level with"),  # the default model: ahead on 60 crops, level on 240
    ([1 - LEVEL + 0.001, 1 + LEVEL - 0.001], "about level with"),
    ([1 + LEVEL + 0.001, 1.0], "about level with or behind"),
    ([0.85, 0.88], "ahead of"),
    ([1.41, 1.50], "behind"),  # the paper-start model
    ([0.85, 1.00], "about level with or ahead of"),  # never "ahead" on one set's word
    ([0.85, 1.20], "sometimes ahead of, sometimes behind"),
    ([0.85, 1.0, 1.20], "sometimes ahead of, sometimes behind"),
])
def test_the_verdict_holds_on_every_set(ratios, said):
    assert verdict(ratios) == said


@pytest.mark.parametrize("share, said", [
    (0.65, "2 in 3"), (39 / 60, "2 in 3"), (155 / 240, "2 in 3"), (0.5, "1 in 2"),
    (0.74, "3 in 4"), (0.2, "1 in 5"), (56 / 60, None), (0.9, None), (0.03, None), (1.0, None),
])
def test_a_share_is_a_small_fraction_only_when_close(share, said):
    assert about(share) == said


def test_the_words_give_both_sets_their_ratios_and_counts():
    said = biharmonic_words(ev(0.00762, 0.00803, 39 / 60, 60), ev(0.00769, 0.00767, 155 / 240, 240))
    assert said == ("about level with biharmonic inpainting: 0.95 x biharmonic's mean error on the card's "
                    "60 crops and 1.00 x on 240 crops of the same photos; crop by crop, biharmonic "
                    "inpainting fills about 2 in 3 of the crops (39 of 60 and 155 of 240) with a "
                    "smaller error")
    behind = biharmonic_words(ev(0.0113, 0.00803, 56 / 60, 60), ev(0.0115, 0.00767, 215 / 240, 240))
    assert behind.startswith("behind biharmonic inpainting: 1.41 x") and "56 of 60 and 215 of 240 crops" in behind
    alone = biharmonic_words(ev(0.00762, 0.00803, 39 / 60, 60), None)
    assert "1.00 x" not in alone and "(39 of 60)" in alone


@pytest.mark.parametrize("bad", [
    {}, {"et_mse": 0.01}, ev(0.01, 0.0, 0.5, 60), ev(-1.0, 0.01, 0.5, 60), ev(0.01, 0.01, 1.5, 60),
    ev(0.01, 0.01, 0.5, 0), ev("0.01", 0.01, 0.5, 60), ev(0.01, 0.01, True, 60), {**ev(0.01, 0.01, 0.5, 60), "crops": 6.5},
])
def test_figures_that_are_missing_or_not_numbers_give_no_words(bad):
    assert not scored(bad)
    assert biharmonic_words(bad, None) == ""
    assert biharmonic_words(ev(0.01, 0.01, 0.5, 60), bad).count(" x ") == 1  # a bad bench set is left out


def test_better_share_counts_the_crops_where_biharmonic_is_strictly_better():
    theirs, ours = torch.tensor([0.1, 0.2, 0.3, 0.4]), torch.tensor([0.2, 0.2, 0.1, 0.5])
    loop = sum(t < o for t, o in zip(theirs.tolist(), ours.tolist())) / 4
    assert better_share(theirs, ours) == loop == 0.5


@pytest.mark.parametrize("name", sorted(checkpoint.MODELS))
def test_each_card_says_it_with_these_words_and_not_the_old_ones(name):
    """The shipped cards (written by `python -m hopfield_core.et.rescore`) carry the sentence
    built from their own figures; the default's no longer says "better than biharmonic"."""
    import json
    folder = checkpoint.MODELS[name]
    info = json.loads((folder / checkpoint.CONFIG).read_text())
    text = (folder / checkpoint.CARD).read_text()
    words = biharmonic_words(info["eval"], info["eval_bench"], these="these")
    assert words and words.split(":")[0] in text and "better than biharmonic" not in text
    assert f"On the {info['eval_bench']['crops']} crops" in text
    assert text == card.card_text(info, info["sha256"], info["command"])
