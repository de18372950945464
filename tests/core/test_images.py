"""load_image on good and bad files, image <-> pattern helpers, corruption operators."""
import io

import numpy as np
import pytest
from PIL import GifImagePlugin, Image, ImageFile

from hopfield_core.image_files import ImageError, load_image
from hopfield_core.images import (
    add_noise,
    flip_bits,
    invert,
    mask_rectangle,
    occlude_half,
    resize,
    to_bipolar,
    to_continuous,
    to_grey,
    to_image,
)
from tests.support.badfiles import BAD, encode, huge_png


@pytest.fixture(scope="module")
def photo() -> Image.Image:
    rng = np.random.default_rng(0)
    return Image.fromarray(rng.integers(0, 256, size=(40, 60, 3), dtype=np.uint8))


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("name", list(BAD))
def test_bad_bytes_give_a_clear_image_error(name):
    data, message = BAD[name]
    with pytest.raises(ImageError, match=message) as info:
        load_image(data)
    assert isinstance(info.value, ValueError)
    assert info.value.args[0].endswith(".")  # a whole sentence for the student


def test_truncated_png_and_jpeg_are_called_damaged(photo):
    for fmt in ("PNG", "JPEG"):
        data = encode(photo, fmt)
        with pytest.raises(ImageError, match="damaged"):
            load_image(data[: len(data) // 2])


def test_tiff_is_refused_as_an_unsupported_format(photo):
    with pytest.raises(ImageError, match="TIFF"):
        load_image(encode(photo, "TIFF"))


def test_other_pillow_formats_outside_the_allowlist_are_refused(photo):
    with pytest.raises(ImageError, match="not an image this app can read"):
        load_image(encode(photo, "PPM"))


@pytest.mark.parametrize("content, message", [(BAD["pdf"][0], "PDF"), (BAD["eps"][0], "PostScript")])
def test_documents_renamed_to_png_are_refused(tmp_path, content, message):
    path = tmp_path / "holiday.png"
    path.write_bytes(content)
    with pytest.raises(ImageError, match=message):
        load_image(path)
    with pytest.raises(ImageError, match=message):
        load_image(str(path))


def test_a_20000_square_png_is_refused_before_decoding(monkeypatch):
    data = huge_png(20000, 20000)
    decoded = []
    original = ImageFile.ImageFile.load
    monkeypatch.setattr(ImageFile.ImageFile, "load", lambda self: decoded.append(1) or original(self))
    with pytest.raises(ImageError, match="pixels"):
        load_image(data)
    assert not decoded  # refused from the header: not one pixel decoded


def test_the_pixel_limit_is_checked_from_the_header(photo):
    data = encode(photo, "PNG")  # 60 x 40 = 2400 pixels
    with pytest.raises(ImageError, match="60 x 40 pixels"):
        load_image(data, max_pixels=2000)
    assert load_image(data, max_pixels=2400).shape == (40, 60, 3)


def test_missing_path_and_wrong_type():
    with pytest.raises(ImageError, match="could not be opened"):
        load_image("/no/such/file.png")
    with pytest.raises(ImageError, match="Cannot read an image"):
        load_image(12345)


# ---------------------------------------------------------------- good input

def test_rgb_png_round_trips_exactly(photo):
    a = load_image(encode(photo, "PNG"))
    assert a.shape == (40, 60, 3) and a.dtype == np.float64
    np.testing.assert_array_equal(a, np.asarray(photo) / 255.0)


def test_file_objects_and_paths_work(photo, tmp_path):
    data = encode(photo, "PNG")
    path = tmp_path / "x.png"
    path.write_bytes(data)
    buf = io.BytesIO(data)
    buf.read(10)  # a half-read upload is read from its start
    for src in (buf, path, str(path), bytearray(data), memoryview(data)):
        np.testing.assert_array_equal(load_image(src), np.asarray(photo) / 255.0)


@pytest.mark.parametrize("fmt", ["JPEG", "GIF", "WEBP", "BMP"])
def test_every_allowed_format_loads(photo, fmt):
    a = load_image(encode(photo, fmt))
    assert a.shape == (40, 60, 3)
    assert 0 <= a.min() and a.max() <= 1


def test_mode_1():
    im = Image.new("1", (4, 3), 0)
    im.putpixel((1, 1), 1)
    a = load_image(encode(im, "PNG"))
    assert a[1, 1].tolist() == [1, 1, 1] and a[0, 0].tolist() == [0, 0, 0]


def test_mode_L():
    im = Image.new("L", (4, 3), 51)
    np.testing.assert_allclose(load_image(encode(im, "PNG")), 0.2)


def test_mode_LA_composites_on_white():
    im = Image.new("LA", (2, 2), (0, 0))  # black, fully transparent
    im.putpixel((0, 0), (0, 255))  # black, opaque
    a = load_image(encode(im, "PNG"))
    assert a[0, 0].tolist() == [0, 0, 0] and a[1, 1].tolist() == [1, 1, 1]


def test_mode_P_with_transparency_composites_on_white():
    im = Image.new("P", (3, 1))
    im.putpalette([255, 0, 0, 0, 0, 255] + [0] * 762)
    im.putpixel((0, 0), 0)
    im.putpixel((1, 0), 1)
    im.putpixel((2, 0), 0)
    data = encode(im, "PNG", transparency=1)  # palette entry 1 (blue) is transparent
    a = load_image(data)
    assert a[0, 0].tolist() == [1, 0, 0] and a[0, 1].tolist() == [1, 1, 1]
    gif = load_image(encode(im, "GIF", transparency=1))
    assert gif[0, 1].tolist() == [1, 1, 1]


def test_mode_RGBA_half_transparent_mixes_with_white():
    im = Image.new("RGBA", (1, 1), (0, 0, 0, 128))
    a = load_image(encode(im, "PNG"))
    np.testing.assert_allclose(a[0, 0], 127 / 255, atol=1 / 255)


def test_mode_CMYK():
    im = Image.new("CMYK", (8, 8), (0, 255, 255, 0))  # pure red in CMYK
    a = load_image(encode(im, "JPEG", quality=100))
    assert a.shape == (8, 8, 3)
    np.testing.assert_allclose(a[4, 4], [1, 0, 0], atol=0.05)


def test_mode_I16_uses_the_full_16_bit_range():
    arr = np.array([[0, 32768, 65535]], dtype=np.uint16)
    im = Image.fromarray(arr)
    assert im.mode == "I;16"
    a = load_image(encode(im, "PNG"))
    np.testing.assert_allclose(a[0, :, 0], [0, 32768 / 65535, 1], atol=1e-6)
    assert a.shape == (1, 3, 3)


@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_exif_orientation_6_is_applied(fmt):
    im = Image.new("RGB", (40, 20), (0, 0, 0))  # 40 wide, 20 tall as stored
    im.paste((255, 0, 0), (0, 0, 10, 10))  # a red block at the stored top-left
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 degrees clockwise to display"
    a = load_image(encode(im, fmt, exif=exif, quality=100) if fmt == "JPEG" else encode(im, fmt, exif=exif))
    assert a.shape == (40, 20, 3)  # shown upright: 20 wide, 40 tall
    assert a[4, 15, 0] > 0.8 and a[4, 15, 1] < 0.2  # the red block is now top-right
    assert a[4, 4, 0] < 0.2


def test_a_100_frame_gif_gives_its_first_frame_quickly(monkeypatch):
    frames = [Image.new("RGB", (64, 64), (i * 2, 0, 0)) for i in range(100)]
    frames[0] = Image.new("RGB", (64, 64), (0, 0, 255))
    data = encode(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=20)
    assert Image.open(io.BytesIO(data)).n_frames == 100
    frames_read = []
    original = GifImagePlugin.GifImageFile.seek
    monkeypatch.setattr(GifImagePlugin.GifImageFile, "seek",
                        lambda self, frame: frames_read.append(frame) or original(self, frame))
    a = load_image(data)
    assert frames_read == [0]  # the other 99 frames are never decoded
    np.testing.assert_allclose(a[10, 10], [0, 0, 1], atol=0.02)


# ---------------------------------------------------------------- patterns

def test_resize_and_grey():
    img = np.zeros((40, 80, 3))
    img[:, :40] = 1.0
    out = resize(img, (10, 10))  # centre crop keeps the middle 40 columns
    assert out.shape == (10, 10, 3)
    assert out[:, 0].mean() > 0.9 and out[:, -1].mean() < 0.1
    np.testing.assert_allclose(to_grey(np.ones((2, 2, 3)) * [1, 0, 0]), 0.299)


def test_bipolar_threshold_dither_and_round_trip():
    img = np.repeat(np.linspace(0, 1, 16)[None, :, None], 16, axis=0).repeat(3, axis=2)
    p = to_bipolar(img, threshold=0.5)
    assert p.shape == (256,) and set(np.unique(p)) == {-1.0, 1.0}
    assert (p.reshape(16, 16)[:, :8] == -1).all() and (p.reshape(16, 16)[:, 8:] == 1).all()
    dith = to_bipolar(np.full((16, 16, 3), 0.25), dither=True)
    assert 0.15 < np.mean(dith == 1) < 0.35  # a quarter of the dots are on
    colour = to_bipolar(img, colour=True)
    assert colour.shape == (768,)
    back = to_image(p, (16, 16))
    assert back.shape == (16, 16, 3) and set(np.unique(back)) == {0.0, 1.0}


def test_continuous_patterns_are_centred_and_can_be_unit_norm():
    img = np.random.default_rng(2).random((8, 8, 3))
    x = to_continuous(img)
    assert abs(x.mean()) < 1e-12
    assert np.linalg.norm(to_continuous(img, unit_norm=True)) == pytest.approx(1.0)
    assert to_continuous(img, colour=True, centre=False).max() <= 1.0


def test_flip_bits_flips_exactly_the_fraction_and_is_seedable():
    x = np.ones(200)
    y = flip_bits(x, 0.25, rng=3)
    assert np.sum(y == -1) == 50
    np.testing.assert_array_equal(y, flip_bits(x, 0.25, rng=3))
    assert not np.array_equal(y, flip_bits(x, 0.25, rng=4))
    assert np.all(x == 1)  # the input is never changed


def test_noise_masks_halves_and_invert():
    x = np.ones(36)
    n = add_noise(x, 0.5, rng=0)
    assert n.std() > 0.3 and np.array_equal(n, add_noise(x, 0.5, rng=0))
    assert set(np.unique(add_noise(x, 3.0, rng=0, binarize=True))) == {-1.0, 1.0}
    m = mask_rectangle(x, (6, 6), top=1, left=2, height=2, width=3).reshape(6, 6)
    assert (m[1:3, 2:5] == -1).all() and m.sum() == 36 - 2 * 6
    r = mask_rectangle(x, (6, 6), 0, 0, 6, 6, fill="random", rng=1)
    assert set(np.unique(r)) == {-1.0, 1.0}
    for side, block in [("bottom", np.s_[3:, :]), ("top", np.s_[:3, :]),
                        ("left", np.s_[:, :3]), ("right", np.s_[:, 3:])]:
        h = occlude_half(x, (6, 6), side=side).reshape(6, 6)
        assert (h[block] == -1).all() and h.sum() == 0
    colour = occlude_half(np.ones(48), (4, 4, 3), side="top", fill=0.0).reshape(4, 4, 3)
    assert (colour[:2] == 0).all() and (colour[2:] == 1).all()
    np.testing.assert_array_equal(invert(x), -x)


def test_bad_corruption_arguments_are_refused():
    with pytest.raises(ValueError, match="fraction"):
        flip_bits(np.ones(4), 1.5)
    with pytest.raises(ValueError, match="side"):
        occlude_half(np.ones(4), (2, 2), side="middle")
    with pytest.raises(ValueError, match="cannot be shown"):
        to_image(np.ones(5), (2, 2))


def test_corrupt_dispatches_every_kind():
    from hopfield_core.images import CORRUPTIONS, corrupt
    x = np.ones(64)
    assert np.array_equal(corrupt(x, (8, 8), "none", 0.5), x)
    assert np.sum(corrupt(x, (8, 8), "flip", 0.25, rng=0) == -1) == 16
    assert set(np.unique(corrupt(x, (8, 8), "noise", 1.0, rng=0))) <= {-1.0, 1.0}
    assert np.sum(corrupt(x, (8, 8), "mask", 0.25) == -1) == 16  # a centred 4 x 4 square
    assert np.sum(corrupt(x, (8, 8), "mask", 0.25, binary=False) == 0) == 16
    assert np.sum(corrupt(x, (8, 8), "half", 0.0) == -1) == 32
    assert np.array_equal(corrupt(x, (8, 8), "invert", 0.0), -x)
    assert np.array_equal(corrupt(x, (8, 8), "flip", 0.3, rng=5), corrupt(x, (8, 8), "flip", 0.3, rng=5))
    assert len(CORRUPTIONS) == 6
    with pytest.raises(ValueError, match="corruption"):
        corrupt(x, (8, 8), "smudge", 0.1)
    with pytest.raises(ValueError, match="amount"):
        corrupt(x, (8, 8), "flip", 2.0)


def test_the_design_contract_names_load_image_and_image_error_in_hopfield_core_images():
    """DESIGN 3.5: hopfield_core.images.load_image and ImageError, decoded by image_files."""
    from hopfield_core import image_files, images

    assert images.load_image is image_files.load_image and images.ImageError is image_files.ImageError
    with pytest.raises(images.ImageError, match="."):
        images.load_image(b"not an image")
