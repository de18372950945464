"""What the ET page shows of a model's inside (hopfield_core.et.inspect), against direct
computations: each memory's use and its sum -E_HN, one patch's attention per head, the memories
drawn as patches, the most used ones, PSNR, the montage and the roughness of patches."""
import math
from dataclasses import replace

import numpy as np
import pytest
import torch

from hopfield_core.et import load_pretrained
from hopfield_core.et.checkpoint import MODELS
from hopfield_core.et.config import ETConfig
from hopfield_core.et.inspect import (
    attention,
    drawn,
    memory_patches,
    memory_use,
    montage,
    psnr,
    random_directions,
    roughness,
    top_memories,
)
from hopfield_core.et.masks import random_mask
from hopfield_core.et.model import EnergyTransformer
from hopfield_core.presets import preset_image

SMALL = ETConfig(dim=16, heads=2, head_dim=4, memories=10, steps=3, image_size=16, patch_size=4)


def small_model(**kw) -> EnergyTransformer:
    torch.manual_seed(3)
    return EnergyTransformer(replace(SMALL, **kw)).eval()


def tokens_of(model, T=3, seed=0) -> np.ndarray:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(T + 1, model.cfg.n_patches, model.cfg.dim, generator=g).numpy()  # (T+1, N, D)


def direct_use(model, x: np.ndarray) -> np.ndarray:
    """u[t, mu] by loops over tokens, in float64."""
    xi = model.memories.detach().double().numpy()
    out = np.zeros((len(x), len(xi)))
    with torch.no_grad():
        g = model.layer_norm(torch.from_numpy(x)).double().numpy()
    for t in range(len(x)):
        for B in range(x.shape[1]):
            out[t] += 0.5 * np.maximum(xi @ g[t, B], 0) ** 2
    return out


def direct_attention(model, x: np.ndarray, C: int) -> np.ndarray:
    """softmax over keys B of beta (W_K (g_B + p_B)) . (W_Q (g_C + p_C)), head by head."""
    with torch.no_grad():
        g = model.layer_norm(torch.from_numpy(x)).double()
        if model.pos_energy is not None:
            g = g + model.pos_energy.double()
    Wk, Wq = model.Wk.detach().double(), model.Wq.detach().double()
    T1, N, _ = x.shape
    out = np.zeros((T1, Wk.shape[0], N))
    for t in range(T1):
        for h in range(Wk.shape[0]):
            q = Wq[h] @ g[t, C]
            s = np.array([float((Wk[h] @ g[t, B]) @ q) for B in range(N)]) * model.beta
            if not model.cfg.attend_to_self:
                s[C] = -np.inf
            e = np.exp(s - s.max())
            out[t, h] = e / e.sum()
    return out


def test_each_memorys_use_is_its_part_of_the_hopfield_energy():
    model = small_model()
    x = tokens_of(model)
    u = memory_use(model, x)
    assert u.shape == (4, SMALL.memories)
    np.testing.assert_allclose(u, direct_use(model, x), rtol=1e-5, atol=1e-7)
    with torch.no_grad():
        e_hn = model.energy_parts(model.layer_norm(torch.from_numpy(x)))[1].double().numpy()
    np.testing.assert_allclose(u.sum(axis=1), -e_hn, rtol=1e-5)
    assert (u >= 0).all()
    hidden = np.zeros(SMALL.n_patches, dtype=bool)
    hidden[[1, 5]] = True
    np.testing.assert_allclose(memory_use(model, x, hidden), direct_use(model, x[:, hidden]),
                               rtol=1e-5, atol=1e-7)


def test_the_use_adds_up_to_the_shipped_completions_hopfield_energy():
    et = load_pretrained("cpu")
    out = et.complete(preset_image("photos", "coffee", et.cfg.image_size),
                      random_mask(et.cfg.grid, 0.5, 0))
    np.testing.assert_allclose(memory_use(et.model, out.tokens).sum(axis=1), -out.energies_hn,
                               rtol=1e-5)


@pytest.mark.parametrize("kw", [{}, {"attend_to_self": True}, {"energy_positions": True}])
def test_attention_is_the_softmax_over_keys_of_the_energy(kw):
    model = small_model(**kw)
    x = tokens_of(model, seed=1)
    for C in (0, 7, SMALL.n_patches - 1):
        a = attention(model, x, C)
        assert a.shape == (4, SMALL.heads, SMALL.n_patches)
        np.testing.assert_allclose(a, direct_attention(model, x, C), rtol=1e-4, atol=1e-7)
        np.testing.assert_allclose(a.sum(axis=-1), 1.0, atol=1e-6)
        if not model.cfg.attend_to_self:
            assert (a[..., C] == 0).all()


def test_attention_refuses_a_patch_that_is_not_there():
    model = small_model()
    for bad in (-1, SMALL.n_patches):
        with pytest.raises(ValueError, match="patch index"):
            attention(model, tokens_of(model), bad)


def test_a_memory_is_drawn_by_the_decoder_or_by_the_part_that_flips_with_its_sign():
    model = small_model()
    with torch.no_grad():
        model.decoder[1].bias.fill_(0.3)  # an offset the "change" readout never trains
        xi = model.memories[[2, 5]]
        want_tokens = (model.decoder(xi) + 0.5).clamp(0, 1).reshape(2, 4, 4, 3).numpy()
        want_change = (0.5 + (model.decoder(xi) - model.decoder(-xi)) / 2).clamp(0, 1)
    np.testing.assert_allclose(memory_patches(model, [2, 5]), want_tokens, atol=1e-6)
    change = small_model(start="harmonic", readout="change")
    with torch.no_grad():
        change.decoder[1].bias.fill_(0.3)
        xi = change.memories[[2, 5]]
        want_change = (0.5 + (change.decoder(xi) - change.decoder(-xi)) / 2).clamp(0, 1)
        assert float((change.decoder(xi) + 0.5 - want_change).abs().max()) > 0.1  # the offset shows
    got = memory_patches(change, [2, 5])
    np.testing.assert_allclose(got, want_change.reshape(2, 4, 4, 3).numpy(), atol=1e-6)
    assert memory_patches(model).shape == (SMALL.memories, 4, 4, 3)


def test_any_vector_is_drawn_the_way_a_memory_is():
    """Issue 43, item 3: random directions and an image's tokens go through the memories' own
    drawing (the layer-normalising decoder), so their roughness compares like with like."""
    change = small_model(start="harmonic", readout="change")
    directions = random_directions(change, 7, seed=3)
    assert directions.shape == (7, SMALL.dim)
    np.testing.assert_array_equal(directions, random_directions(change, 7, seed=3))
    with torch.no_grad():
        x = torch.as_tensor(directions, dtype=torch.float32)
        want = (0.5 + (change.decoder(x) - change.decoder(-x)) / 2).clamp(0, 1)
    np.testing.assert_allclose(drawn(change, directions), want.reshape(7, 4, 4, 3).numpy(),
                               atol=1e-6)
    np.testing.assert_allclose(drawn(change, change.memories.detach().numpy()[[2, 5]]),
                               memory_patches(change, [2, 5]))
    # the decoder normalises first: a direction drawn at any length looks the same
    np.testing.assert_allclose(drawn(change, 10 * directions), drawn(change, directions),
                               atol=1e-4)


def test_the_most_used_memories_come_first_with_their_shares():
    use = np.array([0.0, 3.0, 1.0, 6.0])
    order, shares = top_memories(use, 3)
    assert order.tolist() == [3, 1, 2]
    np.testing.assert_allclose(shares, [0.6, 0.3, 0.1])
    order, shares = top_memories(np.zeros(4), 2)
    assert len(order) == 2 and (shares == 0).all()


def test_psnr():
    assert psnr(0.01) == pytest.approx(20.0)
    assert psnr(1e-4) == pytest.approx(40.0)
    assert psnr(0.01, peak=255) == pytest.approx(20 + 20 * math.log10(255))
    assert psnr(0.0) == math.inf
    with pytest.raises(ValueError, match="negative"):
        psnr(-0.1)


def test_montage_lays_patches_in_rows_with_gaps():
    patches = np.arange(5, dtype=float)[:, None, None, None] * np.ones((5, 2, 2, 1)) / 10
    m = montage(patches, columns=3, gap=1, background=1.0)
    assert m.shape == (2 * 3 - 1, 3 * 3 - 1, 1)
    assert (m[0:2, 3:5] == 0.1).all() and (m[3:5, 3:5] == 0.4).all()
    assert (m[3:5, 6:8] == 1.0).all() and (m[2, :] == 1.0).all()  # no sixth patch; the gap


def test_roughness_is_the_mean_step_between_neighbours():
    assert roughness(np.full((3, 4, 4, 3), 0.7)) == 0.0
    checker = (np.indices((4, 4)).sum(axis=0) % 2).astype(float)[None, :, :, None]
    assert roughness(checker) == 1.0
    ramp = np.tile(np.arange(4) / 3, (4, 1))[None, :, :, None]  # across: steps of 1/3; down: 0
    assert roughness(ramp) == pytest.approx((12 * (1 / 3)) / 24)


@pytest.mark.parametrize("name", list(MODELS))
def test_the_shipped_models_memories_are_rougher_than_a_photos_patches(name):
    """The sentence under the page's memories: drawn one by one they are far rougher than the
    photo's own patches (neighbour steps more than twice as large)."""
    et = load_pretrained("cpu", MODELS[name])
    img = preset_image("photos", "coffee", et.cfg.image_size)
    p, G = et.cfg.patch_size, et.cfg.grid
    patches = img.reshape(G, p, G, p, 3).swapaxes(1, 2).reshape(-1, p, p, 3)
    assert roughness(memory_patches(et.model)) > 2 * roughness(patches)
