"""The natural-statistics training images (hopfield_core.et.natural), the sampler options that
mix them in, and the descent's share that the evaluation reports."""
import json
import math

import pytest
import torch

from hopfield_core.et import card
from hopfield_core.et.data import Sampler, augment, procedural, random_crop
from hopfield_core.et.evaluation import descent_share, report
from hopfield_core.et.model import EnergyTransformer
from hopfield_core.et.natural import (
    blur,
    dead_leaves,
    natural,
    occlude,
    pink_noise,
    power_law_radius,
)
from tests.support.et_models import SMALL_ET


def gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def test_radii_follow_the_inverse_cube_law_within_their_bounds():
    r = power_law_radius(200_000, 0.05, 0.5, gen())
    assert float(r.min()) >= 0.05 and float(r.max()) <= 0.5
    # density r^-3 on [a, b]: P(r > t) = (t^-2 - b^-2) / (a^-2 - b^-2)
    a, b, t = 0.05, 0.5, 0.1
    expected = (t ** -2 - b ** -2) / (a ** -2 - b ** -2)
    assert abs(float((r > t).float().mean()) - expected) < 0.005


def test_pink_noise_has_a_power_spectrum_falling_as_a_power_of_frequency():
    g, slopes = gen(3), []
    for _ in range(20):
        img = pink_noise(64, g)
        assert img.shape == (64, 64, 3) and float(img.min()) >= 0 and float(img.max()) <= 1
        lum = img.mean(dim=-1)
        power = torch.fft.fft2(lum - lum.mean()).abs() ** 2
        f = torch.sqrt(torch.fft.fftfreq(64)[:, None] ** 2 + torch.fft.fftfreq(64)[None, :] ** 2)
        band = (f > 2 / 64) & (f < 0.25)  # away from DC and from clipping's flat tail
        x, y = torch.log(f[band]), torch.log(power[band] + 1e-12)
        slopes.append(float(((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum()))
    slopes = torch.tensor(slopes)
    assert -3.3 < float(slopes.mean()) < -1.5  # white noise would be 0
    assert float(slopes.max()) < -1.0


def test_dead_leaves_are_flat_regions_with_edges_between_them():
    g = gen(1)
    img = dead_leaves(32, g)
    assert img.shape == (32, 32, 3) and float(img.min()) >= 0 and float(img.max()) <= 1
    flat = torch.stack([dead_leaves(32, g) for _ in range(10)])  # (10, S, S, 3)
    step = (flat[:, 1:] - flat[:, :-1]).abs().amax(dim=-1)  # (10, S-1, S) vertical neighbour jumps
    # most neighbours sit on the same leaf (small change), some straddle an edge (large)
    noise = torch.rand(10, 32, 32, 3, generator=g)
    noise_step = (noise[:, 1:] - noise[:, :-1]).abs().amax(dim=-1)
    assert float((step < 0.1).float().mean()) > 0.5 > float((noise_step < 0.1).float().mean())
    assert float((step > 0.2).float().mean()) > 0.01


def test_blur_keeps_a_flat_image_and_smooths_an_edge():
    flat = torch.full((16, 16, 3), 0.3)
    torch.testing.assert_close(blur(flat, 1.0), flat)
    edge = torch.zeros(16, 16, 3)
    edge[:, 8:] = 1.0
    soft = blur(edge, 1.0)
    assert 0.0 < float(soft[5, 7, 0]) < 0.5 < float(soft[5, 8, 0]) < 1.0
    assert blur(edge, 0.1) is edge


def test_occlude_paints_palette_colours_over_part_of_the_image():
    img = torch.zeros(32, 32, 3)
    palette = torch.tensor([[1.0, 0.0, 0.0]])
    out = occlude(img, gen(2), palette)
    changed = (out - img).abs().amax(dim=-1) > 0  # (S, S)
    assert 0 < float(changed.float().mean()) < 1
    assert torch.equal(img, torch.zeros(32, 32, 3))  # the input is not written to


def test_natural_images_are_reproducible_from_the_seed():
    a = torch.stack([natural(32, gen(7)) for _ in range(2)])
    torch.testing.assert_close(a[0], a[1])
    assert not torch.equal(natural(32, gen(7)), natural(32, gen(8)))


def photos() -> list[torch.Tensor]:
    g = gen(4)
    return [torch.rand(40, 48, 3, generator=g), torch.rand(50, 36, 3, generator=g)]


def test_the_sampler_without_the_new_families_draws_the_images_it_always_drew():
    ph = photos()
    got = Sampler(ph, 32, seed=5).batch(12)
    g, want = torch.Generator().manual_seed(5), []
    for _ in range(12):  # the stream as it was before natural.py existed
        if torch.rand((), generator=g) < 0.3:
            want.append(procedural(32, g))
        else:
            i = int(torch.randint(0, len(ph), (), generator=g))
            want.append(augment(random_crop(ph[i], 32, g), g))
    torch.testing.assert_close(got, torch.stack(want))


def test_the_sampler_mixes_in_natural_images_and_occluded_photos():
    ph = [torch.full((40, 40, 3), 0.5), torch.full((40, 40, 3), 0.5)]  # flat grey photos
    s = Sampler(ph, 32, seed=0, p_procedural=0.0, p_occlude=1.0)
    b = s.batch(8)  # every crop gets shapes of the palette's colours, grey here
    assert s.palette.shape == (2 * 256, 3) and b.shape == (8, 32, 32, 3)
    allnat = Sampler(ph, 32, seed=0, p_procedural=1.0, p_natural=1.0).batch(8)
    assert float(allnat.std(dim=(1, 2)).mean()) > 0.01  # textures and leaves, not flat grey
    half = Sampler(ph, 32, seed=0, p_procedural=1.0, p_natural=0.0, p_occlude=0.5)
    assert half.palette is not None


def test_the_descent_share_is_computed_per_image_and_on_average():
    start = torch.tensor([1.0, 1.0, 2.0, 4.0])
    at_T = torch.tensor([0.5, 0.95, 2.0, 3.0])
    d = descent_share(start, at_T)
    assert d["start_mse"] == pytest.approx(2.0)
    assert d["descent_share"] == pytest.approx(1 - 6.45 / 8.0)
    assert d["image_descent_share_mean"] == pytest.approx((0.5 + 0.05 + 0.0 + 0.25) / 4)
    assert d["images_descent_at_least_10pct"] == pytest.approx(0.5)  # 0.5 and 0.25 only


def test_the_report_puts_the_yardsticks_beside_the_descent():
    pytest.importorskip("skimage")
    torch.manual_seed(0)
    model = EnergyTransformer(SMALL_ET).eval()
    imgs = torch.rand(3, 32, 32, 3, generator=gen(9))
    masks = torch.zeros(3, SMALL_ET.n_patches, dtype=torch.bool)
    masks[:, ::2] = True
    ev = report(model, imgs, masks, torch.device("cpu"))
    assert ev["et_vs_biharmonic"] == pytest.approx(ev["et_mse"] / ev["biharmonic_mse"])
    assert ev["et_mse_100_vs_mean_fill"] == pytest.approx(ev["et_mse_100"] / ev["mean_fill_mse"])
    assert ev["start_mse"] == pytest.approx(ev["mse_by_step"][0], rel=1e-4)
    assert ev["descent_share"] == pytest.approx(1 - ev["et_mse"] / ev["start_mse"], rel=1e-4, abs=1e-6)
    assert 0 <= ev["images_descent_at_least_10pct"] <= 1 and not math.isnan(ev["image_descent_share_mean"])


def test_the_card_names_the_generated_share_of_the_training_images():
    old = card._procedural({})
    assert old == "plus 30 % procedural images (smooth noise, gradients, stripes, shapes, edges)."
    new = card._procedural({"procedural": 0.4, "natural": 0.6, "occlude": 0.2})
    assert new.startswith("plus 40 % procedural images: 60 % of them natural-statistics images")
    assert "dead-leaves" in new and "1/f noise" in new and "20 % of the photo crops" in new


def test_shape_masks_are_rectangles_or_half_images_that_leave_something_visible():
    from hopfield_core.et.data import shape_masks

    m = shape_masks(300, 8, gen(11)).reshape(300, 8, 8)
    hidden = m.sum(dim=(1, 2))
    assert int(hidden.min()) >= 1 and int(hidden.max()) < 64
    halves = [torch.zeros(8, 8, dtype=torch.bool) for _ in range(4)]
    halves[0][:4], halves[1][4:], halves[2][:, :4], halves[3][:, 4:] = True, True, True, True
    is_half = torch.stack([(m == h).all(dim=(1, 2)) for h in halves]).any(dim=0)
    rows, cols = m.any(dim=2), m.any(dim=1)  # (300, 8) each
    is_box = (m.sum(dim=(1, 2)) == rows.sum(1) * cols.sum(1))  # hidden = its bounding box
    assert 0.2 < float(is_half.float().mean()) < 0.5  # about a third of them
    assert float(is_box.float().mean()) > 0.5  # the single rectangles and the halves
    assert float((~is_box).float().mean()) > 0.05  # a few small rectangles apart


def test_training_with_the_new_data_and_mask_shapes_says_so_in_its_card(tmp_path):
    pytest.importorskip("skimage")
    from hopfield_core.et import checkpoint, train

    threads = torch.get_num_threads()
    try:
        train.main(["--batches", "2", "--batch-size", "4", "--dim", "16", "--heads", "2",
                    "--head-dim", "4", "--memories", "8", "--steps", "2", "--held-out-per-photo", "1",
                    "--procedural", "0.5", "--natural", "0.5", "--occlude", "0.5",
                    "--shape-masks", "0.5", "--out", str(tmp_path / "out")])
    finally:
        torch.set_num_threads(threads)
    text = (tmp_path / "out" / checkpoint.CARD).read_text()
    assert "plus 50 % procedural images: 50 % of them natural-statistics images" in text
    assert "50 % of the photo crops have flat shapes painted over them" in text
    assert "Mask shapes: in 50 % of the batches" in text
    assert "--procedural 0.5 --natural 0.5 --occlude 0.5 --shape-masks 0.5" in text
    meta = json.loads((tmp_path / "out" / checkpoint.CONFIG).read_text())
    assert meta["training"]["shape_masks"] == 0.5 and "descent_share" in meta["eval"]


def test_the_card_states_the_descents_share_where_the_record_measured_it():
    from tests.support.et_models import shipped_info

    info = shipped_info()
    older = {k: v for k, v in info["eval"].items()
             if k not in ("descent_share", "images_descent_at_least_10pct")}
    assert "From its step-0 picture" not in card.card_text({**info, "eval": older}, "0" * 64,
                                                           "cmd")  # a record made before
    info["eval"] = {**info["eval"], "descent_share": 0.123, "images_descent_at_least_10pct": 0.55}
    text = card.card_text(info, "0" * 64, "cmd")
    assert "lowers the error by 12.3 % on average, and by at least 10 % on 55 % of the held-out" in text
