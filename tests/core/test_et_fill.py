"""Harmonic fill (hopfield_core.et.fill) and the Energy Transformer that starts from it."""
from dataclasses import replace

import pytest
import torch

from hopfield_core.et import ETConfig
from hopfield_core.et.fill import _neighbour_sum, harmonic_fill, harmonic_fill_pixels
from hopfield_core.et.model import EnergyTransformer, patchify

SMALL = ETConfig(dim=32, heads=2, head_dim=8, memories=24, steps=4)


def images_and_mask(seed=0, B=3, S=32, p=4, share=0.5):
    gen = torch.Generator().manual_seed(seed)
    images = torch.rand(B, S, S, 3, generator=gen)
    N = (S // p) ** 2
    mask = torch.rand(B, N, generator=gen) < share
    return images, mask


def hidden_pixels(mask, p, S):
    g = S // p
    return mask.reshape(-1, g, g).repeat_interleave(p, 1).repeat_interleave(p, 2)


def test_visible_pixels_stay_and_each_hidden_pixel_is_the_mean_of_its_neighbours():
    images, mask = images_and_mask()
    out = harmonic_fill(images, mask, 4)
    hid = hidden_pixels(mask, 4, 32)
    assert torch.equal(out[~hid], images[~hid])
    x = out.permute(0, 3, 1, 2).double()
    deg = _neighbour_sum(torch.ones_like(x[:, :1]))
    mean_of_neighbours = _neighbour_sum(x) / deg
    gap = (x - mean_of_neighbours).abs() * hid[:, None]
    assert float(gap.max()) < 1e-4


def test_a_ramp_along_the_rows_is_filled_exactly():
    """x = b j + c is discrete-harmonic away from the first and last columns (a pixel on the
    top or bottom edge averages three neighbours, b j + c on average), so a hole in it that
    leaves those columns visible is filled with the ramp itself; a constant image anywhere."""
    S = 32
    j = torch.arange(S, dtype=torch.float32)
    ramp = (0.1 + 0.8 * j / (S - 1))[None, :, None].expand(S, S, 3)[None].clone()
    flat = torch.full((1, S, S, 3), 0.3)
    _, mask = images_and_mask(seed=3, B=1)
    inner = mask.reshape(1, 8, 8).clone()
    inner[:, :, [0, 7]] = False
    inner = inner.reshape(1, 64)
    assert inner.sum() > 10 and bool(inner.reshape(8, 8)[[0, 7]].any())  # top and bottom rows too
    assert torch.allclose(harmonic_fill(ramp, inner, 4), ramp, atol=1e-4)
    assert torch.allclose(harmonic_fill(flat, mask, 4), flat, atol=1e-5)


def test_each_image_is_filled_on_its_own():
    images, mask = images_and_mask(seed=1, B=4)
    together = harmonic_fill(images, mask, 4)
    for b in range(4):
        alone = harmonic_fill(images[b:b + 1], mask[b:b + 1], 4)
        assert torch.allclose(alone[0], together[b], atol=1e-5)


def test_nothing_hidden_and_everything_hidden():
    images, _ = images_and_mask(seed=2, B=2)
    none = torch.zeros(2, 64, dtype=torch.bool)
    assert torch.equal(harmonic_fill(images, none, 4), images)
    every = torch.ones(2, 64, dtype=torch.bool)
    out = harmonic_fill(images, every, 4)
    assert torch.isfinite(out).all() and torch.allclose(out, torch.full_like(out, 0.5))


def test_one_visible_pixel_colours_the_whole_image():
    img = torch.rand(1, 8, 8, 3)
    hidden = torch.ones(1, 8, 8, dtype=torch.bool)
    hidden[0, 5, 2] = False
    out = harmonic_fill_pixels(img, hidden)
    assert torch.allclose(out[0], img[0, 5, 2].expand(8, 8, 3), atol=1e-4)


def test_the_start_must_be_known():
    with pytest.raises(ValueError, match="start must be one of"):
        ETConfig(start="biharmonic")
    with pytest.raises(ValueError, match="start must be one of"):
        ETConfig.from_dict({"start": "zeros"})
    assert ETConfig().start == "mask_token"  # configs saved before the option load as before


def test_a_harmonic_start_encodes_the_fill_plus_the_mask_token():
    torch.manual_seed(0)
    model = EnergyTransformer(replace(SMALL, start="harmonic")).eval()
    images, mask = images_and_mask(seed=4, B=2)
    P = patchify(images, 4)
    filled = patchify(harmonic_fill(images, mask, 4), 4)
    with torch.no_grad():
        x = model.tokens(P, mask)
        expect_hidden = model.encoder(filled - 0.5) + model.mask_token + model.pos
        expect_visible = model.encoder(P - 0.5) + model.pos
    assert torch.allclose(x[mask], expect_hidden[mask], atol=1e-6)
    assert torch.allclose(x[~mask], expect_visible[~mask], atol=1e-6)
    # the paper's start differs only on the hidden tokens
    paper = EnergyTransformer(SMALL).eval()
    paper.load_state_dict(model.state_dict())
    with torch.no_grad():
        y = paper.tokens(P, mask)
    assert torch.allclose(y[~mask], x[~mask]) and not torch.allclose(y[mask], x[mask])


def test_the_readout_must_be_known_and_a_change_readout_needs_the_harmonic_start():
    with pytest.raises(ValueError, match="readout must be one of"):
        ETConfig(readout="residual")
    with pytest.raises(ValueError, match='needs start "harmonic"'):
        ETConfig(readout="change")
    assert ETConfig().readout == "tokens"


def test_a_change_readout_shows_the_harmonic_fill_at_step_0_and_adds_the_decoded_change():
    from hopfield_core.et.complete import ETCompleter

    torch.manual_seed(0)
    cfg = replace(SMALL, start="harmonic", readout="change", project=True, clamp_visible=True)
    model = EnergyTransformer(cfg).eval()
    images, mask = images_and_mask(seed=5, B=1)
    out = ETCompleter(model, torch.device("cpu")).complete(images[0].numpy(), mask.reshape(8, 8).numpy())
    fill = harmonic_fill(images, mask, 4)[0].clamp(0, 1).numpy()
    assert abs(out.frames[0] - fill).max() < 1e-6  # the start, exactly
    P = patchify(images, 4)
    with torch.no_grad():
        x0, base = model.start(P, mask)
        xT = model.evolve(x0, mask=mask)
        expect = base + model.decoder(xT) - model.decoder(x0)
        assert torch.allclose(model.read(xT, x0, base), expect)
        assert not torch.allclose(model.read(xT, x0, base), model.decode(xT))
