"""Mask helpers and the masked-patch error of the completion page."""
import numpy as np
import pytest
import torch

from hopfield_core.et import baselines
from hopfield_core.et.masks import (
    masked_patch_mse,
    mean_fill,
    random_mask,
    rectangle_mask,
    show_masked,
    toggle,
)


def test_random_mask_hides_exactly_the_ratio_and_is_seeded():
    m = random_mask(8, 0.5, seed=3)
    assert m.shape == (8, 8) and m.sum() == 32
    np.testing.assert_array_equal(m, random_mask(8, 0.5, seed=3))
    assert not np.array_equal(m, random_mask(8, 0.5, seed=4))
    with pytest.raises(ValueError, match="ratio"):
        random_mask(8, 1.5, 0)


def test_rectangle_and_toggle():
    m = rectangle_mask(8, 2, 3, 2, 4)
    assert m.sum() == 8 and m[2:4, 3:7].all()
    t = toggle(m, x=10, y=10, shown_width=320, shown_height=320)  # top-left patch
    assert t[0, 0] and t.sum() == 9 and not m[0, 0]
    assert not toggle(t, 10, 10, 320, 320)[0, 0]
    assert toggle(m, 319.9, 319.9, 320, 320)[7, 7]


def test_numpy_scores_agree_with_the_training_baselines():
    rng = np.random.default_rng(0)
    img = rng.random((32, 32, 3))
    pred = rng.random((32, 32, 3))
    m = random_mask(8, 0.5, 1)
    t = lambda a: torch.tensor(a[None], dtype=torch.float64)  # noqa: E731
    mt = torch.tensor(m.reshape(1, -1))
    assert masked_patch_mse(pred, img, m, 4) == pytest.approx(
        float(baselines.masked_patch_mse(t(pred), t(img), mt, 4)), rel=1e-12)
    np.testing.assert_allclose(mean_fill(img, m, 4), baselines.mean_fill(t(img), mt, 4)[0].numpy(), atol=1e-12)


def test_show_masked_changes_only_hidden_pixels():
    img = np.ones((32, 32, 3))
    m = rectangle_mask(8, 0, 0, 1, 1)
    out = show_masked(img, m, 4)
    assert (out[:4, :4] < 1).all() and (out[4:] == 1).all() and (out[:, 4:] == 1).all()
