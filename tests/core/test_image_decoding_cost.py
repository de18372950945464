"""load_image on large files: shrunk while decoding, refused before decoding when too costly,
and never more than 100 MB of memory for any file it accepts (each case in a fresh process,
so that the peak resident memory measures that one decode)."""
import json
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from hopfield_core import image_files
from hopfield_core.image_files import ImageError, load_image
from tests.support.badfiles import encode, files_at_the_limits, huge_png, smooth_image

MEMORY_LIMIT_MB = 100


def _peak_memory_mb(path) -> dict:
    """Load `path` in a fresh interpreter; the rise of its peak RSS during load_image
    (Linux: /proc/self/clear_refs resets the peak after the imports and the file read)."""
    code = (
        "import json, sys\n"
        "from hopfield_core.image_files import load_image, ImageError\n"
        "def rss_peak_kb():\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmHWM:'):\n"
        "            return int(line.split()[1])\n"
        "data = open(sys.argv[1], 'rb').read()\n"
        "with open('/proc/self/clear_refs', 'w') as f:\n"
        "    f.write('5')  # reset the peak to the current resident size\n"
        "before = rss_peak_kb()\n"
        "try:\n"
        "    shape = list(load_image(data).shape)\n"
        "except ImageError as e:\n"
        "    shape = str(e)\n"
        "print(json.dumps({'mb': (rss_peak_kb() - before) / 1024, 'shape': shape}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                         check=True, cwd=str(image_files.__file__).rsplit("/hopfield_core", 1)[0])
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def limit_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("limits")
    paths = {}
    for name, data in files_at_the_limits().items():
        paths[name] = folder / name
        paths[name].write_bytes(data)
    return paths


@pytest.mark.parametrize("name", ["grey.png", "bits.png", "rgba.png", "palette.gif", "photo.webp",
                                  "phone.jpg"])
def test_the_costliest_accepted_files_stay_under_100_mb(limit_files, name):
    result = _peak_memory_mb(limit_files[name])
    assert isinstance(result["shape"], list), result["shape"]  # accepted
    assert max(result["shape"][:2]) == image_files.MAX_SIDE           # and shrunk while decoding
    assert result["mb"] < MEMORY_LIMIT_MB, result


def test_the_4_kb_png_of_40_megapixels_is_refused_before_decoding(tmp_path):
    path = tmp_path / "bomb.png"
    path.write_bytes(huge_png(6300, 6300))  # 39.7 MP, 1 bit a pixel, 4.9 KB
    assert path.stat().st_size < 5000
    result = _peak_memory_mb(path)
    assert "6300 x 6300" in result["shape"] and "megapixels" in result["shape"]
    assert result["mb"] < 20


@pytest.mark.parametrize("fmt, mode, side", [("PNG", "RGBA", 2900), ("PNG", "L", 5700),
                                             ("GIF", "P", 3500), ("WEBP", "RGB", 1500)])
def test_files_over_their_decoding_budget_name_the_limit(fmt, mode, side):
    data = encode(smooth_image(side, side).convert(mode), fmt)
    with pytest.raises(ImageError, match=rf"{side} x {side} pixels.*at most \d+ megapixels") as info:
        load_image(data)
    assert info.value.args[0].endswith(".")


def test_large_images_are_shrunk_with_their_aspect_ratio():
    a = load_image(encode(smooth_image(3000, 1500), "PNG"))
    assert a.shape == (512, 1024, 3)
    a = load_image(encode(smooth_image(3000, 1500), "JPEG"), max_side=200)
    assert a.shape == (100, 200, 3)
    assert load_image(encode(smooth_image(300, 150), "PNG")).shape == (150, 300, 3)  # small: as is
    assert load_image(encode(smooth_image(3000, 1500), "PNG"), max_side=None).shape == (1500, 3000, 3)


def test_shrinking_keeps_the_picture():
    """Shrunk while decoding = decoded in full, then resized (up to resampling differences)."""
    im = smooth_image(2400, 1800)
    for fmt in ("PNG", "JPEG", "GIF"):
        small = load_image(encode(im if fmt != "GIF" else im.convert("P"), fmt), max_side=300)
        full = load_image(encode(im if fmt != "GIF" else im.convert("P"), fmt), max_side=None)
        ref = np.asarray(Image.fromarray((full * 255).round().astype(np.uint8)).resize(
            (300, 225), Image.Resampling.LANCZOS)) / 255
        assert small.shape == ref.shape
        assert np.abs(small - ref).mean() < 0.03, fmt


def test_large_palette_and_bilevel_images_shrink_in_strips_correctly():
    """Modes that reduce() cannot average (P with transparency, 1) go through strips."""
    rgba = Image.new("RGBA", (1200, 900), (0, 0, 255, 255))
    rgba.paste((0, 0, 0, 0), (0, 0, 600, 900))  # left half transparent
    pal = rgba.convert("P", palette=Image.Palette.ADAPTIVE, colors=4)
    pal.info["transparency"] = pal.getpixel((0, 0))
    a = load_image(encode(pal, "PNG", transparency=pal.getpixel((0, 0))), max_side=120)
    assert a.shape == (90, 120, 3)
    np.testing.assert_allclose(a[45, 10], [1, 1, 1], atol=0.02)   # transparent: white
    np.testing.assert_allclose(a[45, 110], [0, 0, 1], atol=0.02)  # opaque blue
    stripes = np.zeros((900, 1200), dtype=np.uint8)
    stripes[:, ::2] = 255  # every other column white: averages to mid grey
    b = load_image(encode(Image.fromarray(stripes).convert("1"), "PNG"), max_side=120)
    assert b.shape == (90, 120, 3)
    np.testing.assert_allclose(b.mean(), 0.5, atol=0.02)
