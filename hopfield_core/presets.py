"""Preset images that need no download: letters, digits, shapes and a few photos.

# every preset is an image (size, size, 3) float in [0, 1]: dark ink on white
"""
from __future__ import annotations

import string
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont, ImageOps

from .image_files import load_image
from .images import resize

PHOTO_DIR = Path(__file__).resolve().parent.parent / "assets" / "presets"
_SUPERSAMPLE = 4  # shapes are drawn large, then scaled down: smooth edges

SHAPES = ("circle", "square", "triangle", "cross", "ring", "diamond", "stripes", "checker")


def _glyph(char: str, size: int) -> np.ndarray:
    """The character in bold ink, stretched to fill the square but a 1-pixel margin:
    glyphs that fill the frame share less background, so they overlap less."""
    big = size * _SUPERSAMPLE
    im = Image.new("L", (2 * big, 2 * big), 255)
    draw = ImageDraw.Draw(im)
    font = ImageFont.load_default(size=big)
    draw.text((big / 2, big / 2), char, fill=0, font=font, stroke_width=big // 24, stroke_fill=0)
    box = ImageOps.invert(im).getbbox()
    inner = max(size - 2, 1)
    glyph = im.crop(box).resize((inner, inner), Image.Resampling.LANCZOS)
    out = Image.new("L", (size, size), 255)
    out.paste(glyph, ((size - inner) // 2, (size - inner) // 2))
    return np.asarray(out, dtype=np.float64) / 255.0


def _shape(name: str, size: int) -> np.ndarray:
    big = size * _SUPERSAMPLE
    m = big // 8  # margin
    im = Image.new("L", (big, big), 255)
    draw = ImageDraw.Draw(im)
    if name == "circle":
        draw.ellipse((m, m, big - m, big - m), fill=0)
    elif name == "square":
        draw.rectangle((m, m, big - m, big - m), fill=0)
    elif name == "triangle":
        draw.polygon([(big / 2, m), (big - m, big - m), (m, big - m)], fill=0)
    elif name == "cross":
        t = big // 6
        draw.rectangle((big / 2 - t, m, big / 2 + t, big - m), fill=0)
        draw.rectangle((m, big / 2 - t, big - m, big / 2 + t), fill=0)
    elif name == "ring":
        draw.ellipse((m, m, big - m, big - m), outline=0, width=big // 7)
    elif name == "diamond":
        draw.polygon([(big / 2, m), (big - m, big / 2), (big / 2, big - m), (m, big / 2)], fill=0)
    elif name == "stripes":
        w = big // 4
        for x0 in range(0, big, 2 * w):
            draw.rectangle((x0, 0, x0 + w - 1, big), fill=0)
    elif name == "checker":
        w = big // 4
        for i in range(4):
            for j in range(4):
                if (i + j) % 2 == 0:
                    draw.rectangle((j * w, i * w, (j + 1) * w - 1, (i + 1) * w - 1), fill=0)
    else:
        raise ValueError(f"unknown shape {name!r}; choose from {SHAPES}")
    return np.asarray(im.resize((size, size), Image.Resampling.LANCZOS), dtype=np.float64) / 255.0


def photo_names() -> list[str]:
    return sorted(p.stem for p in PHOTO_DIR.glob("*.png"))


def preset_groups() -> dict[str, list[str]]:
    """Every preset name by group."""
    return {
        "letters": list(string.ascii_uppercase),
        "digits": list(string.digits),
        "shapes": list(SHAPES),
        "photos": photo_names(),
    }


@lru_cache(maxsize=512)
def _preset(group: str, name: str, size: int) -> np.ndarray:
    if group in ("letters", "digits"):
        if name not in preset_groups()[group]:
            raise ValueError(f"{name!r} is not among the {group}")
        grey = _glyph(name, size)
    elif group == "shapes":
        grey = _shape(name, size)
    elif group == "photos":
        path = PHOTO_DIR / f"{name}.png"
        if name not in photo_names():
            raise ValueError(f"no preset photo named {name!r}; choose from {photo_names()}")
        return resize(load_image(path), (size, size))
    else:
        raise ValueError(f"unknown preset group {group!r}; choose from {list(preset_groups())}")
    return np.repeat(grey[:, :, None], 3, axis=2)


def preset_image(group: str, name: str, size: int = 16) -> np.ndarray:
    """The preset as an image (size, size, 3) in [0, 1] (a fresh copy each call)."""
    if not 4 <= size <= 256:
        raise ValueError(f"size must be between 4 and 256 pixels, got {size}")
    img = _preset(group, name, int(size))
    return img.copy()
