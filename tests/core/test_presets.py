"""Presets render offline, at any size, and make usable patterns."""
import numpy as np
import pytest

from hopfield_core import ClassicalHopfield
from hopfield_core.images import to_bipolar
from hopfield_core.presets import PHOTO_DIR, preset_groups, preset_image


def test_every_group_is_there_and_photos_ship_with_a_licence():
    groups = preset_groups()
    assert len(groups["letters"]) == 26 and len(groups["digits"]) == 10
    assert len(groups["shapes"]) >= 6 and len(groups["photos"]) >= 6
    licence = (PHOTO_DIR / "LICENSE.md").read_text()
    for name in groups["photos"]:
        assert f"`{name}.png`" in licence


@pytest.mark.parametrize("group", ["letters", "digits", "shapes", "photos"])
@pytest.mark.parametrize("size", [8, 16, 32])
def test_every_preset_renders_at_the_asked_size(group, size):
    for name in preset_groups()[group]:
        img = preset_image(group, name, size)
        assert img.shape == (size, size, 3)
        assert 0 <= img.min() and img.max() <= 1
        assert img.std() > 0.05, f"{group}/{name} at {size}px is blank"


def test_presets_are_distinct_and_never_shared_between_calls():
    a = preset_image("letters", "A", 16)
    b = preset_image("letters", "B", 16)
    assert not np.allclose(a, b)
    a[:] = 0
    assert preset_image("letters", "A", 16).max() > 0  # the cached copy was untouched


def test_a_few_letters_are_retrieved_by_the_classical_network():
    X = np.stack([to_bipolar(preset_image("letters", c, 16), threshold=0.5) for c in "HOX"])
    model = ClassicalHopfield(X)
    for x in X:
        q = x.copy()
        q[:20] *= -1
        np.testing.assert_array_equal(model.run(q, mode="async", rng=0).final, x)


@pytest.mark.parametrize("args, message", [
    (("letters", "a", 16), "not among"), (("fonts", "A", 16), "group"),
    (("photos", "nobody", 16), "no preset photo"), (("shapes", "blob", 16), "shape"),
    (("letters", "A", 2), "size"),
])
def test_unknown_presets_are_explained(args, message):
    with pytest.raises(ValueError, match=message):
        preset_image(*args)
