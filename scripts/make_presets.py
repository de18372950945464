"""Save the preset photos into assets/presets/ from images that ship inside scikit-image.

Run once (scikit-image is a development dependency, not a runtime one):
    python scripts/make_presets.py
The photos are centre-cropped to a square and saved at 96 x 96 pixels as PNG.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageOps

# name -> (skimage.data loader, square crop (top, left) as fractions of height and width
# and size as a fraction of the shorter side, or None for a centre crop; licence)
PHOTOS = {
    "astronaut": ("astronaut", (0.0, 0.25, 0.5),
                  "Eileen Collins, NASA portrait; public domain (skimage.data.astronaut)"),
    "cameraman": ("camera", (0.05, 0.25, 0.55),
                  "Cameraman, copyright Lav R. Varshney, released CC0 (skimage.data.camera)"),
    "cat": ("chelsea", (0.0, 0.1, 0.9),
            "Chelsea the cat, by Stefan van der Walt; CC0 (skimage.data.chelsea)"),
    "coffee": ("coffee", None, "Coffee cup, by Rachel Michetti; CC0 (skimage.data.coffee)"),
    "rocket": ("rocket", None, "SpaceX rocket launch; public domain, CC0 (skimage.data.rocket)"),
    "horse": ("horse", None, "Horse silhouette, openclipart.org; public domain (skimage.data.horse)"),
    "coins": ("coins", None, "Greek coins, Pompeii, Brooklyn Museum; public domain (skimage.data.coins)"),
}
SIZE = 96
OUT = Path(__file__).resolve().parent.parent / "assets" / "presets"


def square(img: np.ndarray, box) -> Image.Image:
    a = img.astype(np.float64)
    if a.max() <= 1.0:
        a = a * 255.0
    im = Image.fromarray(a.clip(0, 255).astype(np.uint8))
    im = im.convert("RGB")
    if box is not None:
        top, left, size = box
        w, h = im.size
        s = min(int(size * min(w, h)), w - int(left * w), h - int(top * h))
        im = im.crop((int(left * w), int(top * h), int(left * w) + s, int(top * h) + s))
    return ImageOps.fit(im, (SIZE, SIZE), method=Image.Resampling.LANCZOS)


def main() -> None:
    import skimage.data

    OUT.mkdir(parents=True, exist_ok=True)
    lines = ["# Preset photos", "",
             f"Made by `python scripts/make_presets.py` from the sample images bundled in "
             f"scikit-image, centre-cropped and resized to {SIZE} x {SIZE}.", ""]
    for name, (loader, box, licence) in PHOTOS.items():
        square(getattr(skimage.data, loader)(), box).save(OUT / f"{name}.png", optimize=True)
        lines.append(f"- `{name}.png`: {licence}")
    (OUT / "LICENSE.md").write_text("\n".join(lines) + "\n")
    print(f"wrote {len(PHOTOS)} photos to {OUT}")


if __name__ == "__main__":
    main()
