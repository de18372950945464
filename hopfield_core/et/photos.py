"""Which photos the shipped ET trained on and which it never saw. No torch: the page reads it.

The photos are the ones bundled in scikit-image and scikit-learn. skimage.data.cat() is
chelsea, so that photo is held out under both names; both halves of the stereo motorcycle
pair are kept out (the right one is the left one shifted).
"""
from __future__ import annotations

TRAIN_PHOTOS = ("astronaut", "camera", "hubble_deep_field", "immunohistochemistry", "retina",
                "colorwheel", "coins", "brick", "grass", "gravel", "horse", "moon", "page",
                "text", "logo", "cell", "clock", "microaneurysms", "china", "shepp_logan_phantom")
HELD_OUT_PHOTOS = ("coffee", "chelsea", "rocket", "flower", "motorcycle")

# the app's preset photos (assets/presets/) and the scikit-image photo each was made from
PRESET_SOURCE = {"astronaut": "astronaut", "cameraman": "camera", "cat": "chelsea",
                 "coffee": "coffee", "coins": "coins", "horse": "horse", "rocket": "rocket"}


def held_out(preset: str) -> bool:
    """Whether the ET never saw this preset photo in training."""
    return PRESET_SOURCE.get(preset) in HELD_OUT_PHOTOS
