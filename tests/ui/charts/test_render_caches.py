"""What every rerun reuses instead of recomputing: the stored patterns of a store and the PNG
of a picture are made once per content for every session (ui/store/patterns.py, ui/charts/pictures.py)."""
import io

import numpy as np
import pytest
from PIL import Image

from hopfield_core.images import to_image
from hopfield_core.presets import preset_image
from ui.charts import pictures
from ui.store import patterns, store


def items(*keys):
    return [store.Stored(k, k.rpartition("/")[2], preset_image(*k.split("/"), store.SOURCE_SIZE))
            for k in keys]


def pattern_set(its, size=16, colour=False, binarize="threshold", binary=True):
    return patterns._pattern_set(tuple(s.key for s in its), tuple(s.name for s in its), size, colour,
                              binarize, binary, tuple(s.image for s in its))


def test_a_store_is_turned_into_patterns_once_and_shared_read_only():
    a = pattern_set(items("letters/H", "letters/O"))
    b = pattern_set(items("letters/H", "letters/O"))
    assert a is b                                   # the second session reuses the first's
    assert not a.X.flags.writeable                  # nobody can change it for the others
    with pytest.raises(ValueError):
        a.X[0, 0] = 5
    assert a.names == ("H", "O") and a.X.shape == (2, 256)
    assert np.array_equal(a.X[0], patterns._to_pattern(items("letters/H")[0].image, True, 16, False, "threshold"))


@pytest.mark.parametrize("change", [dict(size=12), dict(colour=True), dict(binarize="dither"),
                                    dict(binary=False)])
def test_another_representation_is_another_pattern_set(change):
    base = pattern_set(items("letters/H", "letters/O"))
    other = pattern_set(items("letters/H", "letters/O"), **change)
    assert other.fingerprint != base.fingerprint


def test_another_order_or_name_is_another_pattern_set():
    base = pattern_set(items("letters/H", "letters/O"))
    assert pattern_set(items("letters/O", "letters/H")).names == ("O", "H")
    renamed = [store.Stored(s.key, "mine", s.image) for s in items("letters/H", "letters/O")]
    assert pattern_set(renamed).names == ("mine", "mine") and base.names == ("H", "O")


def test_a_picture_is_encoded_once_as_crisp_png():
    rng = np.random.default_rng(0)
    x = np.sign(rng.standard_normal(256))
    png = pictures.picture_png(x, (16, 16), width=220)
    assert pictures.picture_png(x.copy(), (16, 16), width=220) is png   # same content: cached
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG" and im.size == (208, 208)              # 13 x 16 <= 220
    pixels = np.asarray(im.convert("RGB"), dtype=np.float64) / 255
    expected = np.kron(to_image(x, (16, 16)), np.ones((13, 13, 1)))  # nearest, no blur
    np.testing.assert_allclose(pixels, expected, atol=1 / 255)
    other = x.copy()
    other[0] *= -1
    assert pictures.picture_png(other, (16, 16), width=220) != png     # content decides


def test_an_image_png_is_enlarged_by_whole_factors_up_to_its_width_and_never_shrunk():
    img = np.random.default_rng(1).random((32, 32, 3))
    assert Image.open(io.BytesIO(pictures.image_png(img, 600))).size == (576, 576)
    assert Image.open(io.BytesIO(pictures.image_png(img, 20))).size == (32, 32)
