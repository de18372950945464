"""Images as patterns: image <-> pattern conversion and the corrupted queries.

Decoding a file into pixels is hopfield_core.image_files; its `load_image` and `ImageError`
are also this module's, as DESIGN 3.5's contract names them (hopfield_core.images.load_image).

# H, W image height and width, d = H * W (grey) or H * W * 3 (colour) neurons
# an image is (H, W, 3) float in [0, 1]; a pattern is (d,) in {-1, +1} or continuous
"""
from __future__ import annotations

import numpy as np
from PIL import Image, ImageOps

from .image_files import ImageError, load_image  # noqa: F401 - the contract's names (DESIGN 3.5)
from .validation import as_rng


# ---------------------------------------------------------------- image <-> pattern

def to_pil(image: np.ndarray) -> Image.Image:
    """(H, W, 3) or (H, W) float in [0, 1] -> a Pillow image."""
    a = np.clip(np.asarray(image, dtype=np.float64), 0, 1)
    a = np.round(a * 255).astype(np.uint8)
    return Image.fromarray(a, mode="RGB" if a.ndim == 3 else "L")


def resize(image: np.ndarray, size: tuple[int, int], crop: bool = True) -> np.ndarray:
    """Resize to (height, width); with crop=True first centre-crop to that aspect ratio."""
    h, w = size
    if h < 1 or w < 1:
        raise ValueError(f"size must be positive, got {size}")
    im = to_pil(image)
    if crop:
        im = ImageOps.fit(im, (w, h), method=Image.Resampling.LANCZOS)
    else:
        im = im.resize((w, h), Image.Resampling.LANCZOS)
    out = np.asarray(im, dtype=np.float64) / 255.0
    return out if out.ndim == 3 else np.repeat(out[:, :, None], 3, axis=2)


def to_grey(image: np.ndarray) -> np.ndarray:
    """(H, W, 3) -> (H, W) luminance (ITU-R 601)."""
    a = np.asarray(image, dtype=np.float64)
    if a.ndim == 2:
        return a
    return a @ np.array([0.299, 0.587, 0.114])


def to_bipolar(image: np.ndarray, colour: bool = False, dither: bool = False,
               threshold: float | None = None) -> np.ndarray:
    """Image -> bipolar pattern (d,): +1 bright, -1 dark.

    threshold: brightness in [0, 1] (None: the image's mean, so each pattern is
    about half on); dither=True uses Floyd-Steinberg error diffusion instead.
    colour=True gives one bit per channel (d = H W 3), else d = H W.
    """
    planes = np.moveaxis(np.asarray(image, dtype=np.float64), -1, 0) if colour else [to_grey(image)]
    bits = []
    for plane in planes:
        if dither:
            b = np.asarray(to_pil(plane).convert("1", dither=Image.Dither.FLOYDSTEINBERG)) > 0
        else:
            t = float(np.mean(plane)) if threshold is None else threshold
            b = plane > t
        bits.append(b)
    b = np.stack(bits, axis=-1) if colour else bits[0]
    return np.where(b, 1.0, -1.0).ravel()


def to_continuous(image: np.ndarray, colour: bool = False, centre: bool = True,
                  unit_norm: bool = False) -> np.ndarray:
    """Image -> continuous pattern (d,): 2 * pixel - 1, centred to mean 0, optionally unit norm."""
    a = np.asarray(image, dtype=np.float64) if colour else to_grey(image)
    x = (2.0 * a - 1.0).ravel()
    if centre:
        x = x - x.mean()
    if unit_norm:
        n = np.linalg.norm(x)
        x = x / n if n > 0 else x
    return x


def to_image(pattern: np.ndarray, shape: tuple[int, ...], vmin: float = -1.0,
             vmax: float = 1.0) -> np.ndarray:
    """Pattern (d,) -> image (H, W, 3) in [0, 1]; shape is (H, W) or (H, W, 3).

    Values are mapped linearly from [vmin, vmax] to [0, 1] and clipped.
    """
    p = np.asarray(pattern, dtype=np.float64)
    if p.size != int(np.prod(shape)):
        raise ValueError(f"a pattern of {p.size} values cannot be shown as {shape}")
    a = np.clip((p.reshape(shape) - vmin) / (vmax - vmin), 0.0, 1.0)
    return a if a.ndim == 3 else np.repeat(a[:, :, None], 3, axis=2)


# ---------------------------------------------------------------- corruption

def flip_bits(pattern: np.ndarray, fraction: float, rng=None) -> np.ndarray:
    """Flip the sign of exactly round(fraction * d) entries chosen at random."""
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction must be in [0, 1], got {fraction}")
    x = np.array(pattern, dtype=np.float64, copy=True)
    k = int(round(fraction * x.size))
    idx = as_rng(rng).choice(x.size, size=k, replace=False)
    x[idx] = -x[idx]
    return x


def add_noise(pattern: np.ndarray, sigma: float, rng=None, binarize: bool = False) -> np.ndarray:
    """Add Gaussian noise of standard deviation sigma; binarize=True takes the sign after
    (ties to +1) so the result is bipolar again."""
    if sigma < 0:
        raise ValueError(f"sigma must be >= 0, got {sigma}")
    x = np.asarray(pattern, dtype=np.float64) + sigma * as_rng(rng).standard_normal(np.shape(pattern))
    return np.where(x >= 0, 1.0, -1.0) if binarize else x


def _fill(x: np.ndarray, region: np.ndarray, fill, rng) -> None:
    if fill == "random":
        x[region] = as_rng(rng).choice([-1.0, 1.0], size=int(region.sum()))
    else:
        x[region] = float(fill)


def mask_rectangle(pattern: np.ndarray, shape: tuple[int, ...], top: int, left: int,
                   height: int, width: int, fill=-1.0, rng=None) -> np.ndarray:
    """Overwrite a rectangle (rows top..top+height, cols left..left+width) of the image
    the pattern shows; fill is a number or "random" (+-1 coin flips)."""
    x = np.array(pattern, dtype=np.float64, copy=True).reshape(shape)
    region = np.zeros(shape[:2], dtype=bool)
    region[max(top, 0):max(top + height, 0), max(left, 0):max(left + width, 0)] = True
    if len(shape) == 3:
        region = np.repeat(region[:, :, None], shape[2], axis=2)
    _fill(x, region, fill, rng)
    return x.ravel()


def occlude_half(pattern: np.ndarray, shape: tuple[int, ...], side: str = "bottom",
                 fill=-1.0, rng=None) -> np.ndarray:
    """Hide one half of the image: side is "top", "bottom", "left" or "right"."""
    H, W = shape[:2]
    boxes = {"top": (0, 0, H // 2, W), "bottom": (H - H // 2, 0, H // 2, W),
             "left": (0, 0, H, W // 2), "right": (0, W - W // 2, H, W // 2)}
    if side not in boxes:
        raise ValueError(f"side must be one of {sorted(boxes)}, got {side!r}")
    return mask_rectangle(pattern, shape, *boxes[side], fill=fill, rng=rng)


def invert(pattern: np.ndarray) -> np.ndarray:
    """-x: for a bipolar pattern, its mirror image (also a minimum of the classical energy)."""
    return -np.asarray(pattern, dtype=np.float64)


CORRUPTIONS = ("none", "flip", "noise", "mask", "half", "invert")


def corrupt(pattern: np.ndarray, shape: tuple[int, ...], kind: str, amount: float,
            rng=None, binary: bool = True) -> np.ndarray:
    """One entry point for the query builder: corrupt a pattern by `kind` and `amount` in [0, 1].

    flip: a fraction `amount` of entries change sign; noise: Gaussian noise of
    standard deviation `amount` x the pattern's std (then the sign, if binary);
    mask: a centred square covering `amount` of the area; half: the bottom half
    hidden; invert: the mirror image. Hidden entries become -1 (binary) or 0.
    """
    if kind not in CORRUPTIONS:
        raise ValueError(f"corruption must be one of {CORRUPTIONS}, got {kind!r}")
    if not 0 <= amount <= 1:
        raise ValueError(f"amount must be in [0, 1], got {amount}")
    gen = as_rng(rng)
    x = np.asarray(pattern, dtype=np.float64)
    fill = -1.0 if binary else 0.0
    if kind == "none":
        return x.copy()
    if kind == "flip":
        return flip_bits(x, amount, gen)
    if kind == "noise":
        scale = float(x.std()) or 1.0
        return add_noise(x, amount * scale, gen, binarize=binary)
    if kind == "mask":
        H, W = shape[:2]
        side_h, side_w = int(round(H * np.sqrt(amount))), int(round(W * np.sqrt(amount)))
        return mask_rectangle(x, shape, (H - side_h) // 2, (W - side_w) // 2, side_h, side_w, fill=fill)
    if kind == "half":
        return occlude_half(x, shape, "bottom", fill=fill)
    return invert(x)
