"""Images in, patterns out: safe loading, image <-> pattern conversion, corrupted queries.

# H, W image height and width, d = H * W (grey) or H * W * 3 (colour) neurons
# an image is (H, W, 3) float in [0, 1]; a pattern is (d,) in {-1, +1} or continuous
"""
from __future__ import annotations

import io
import os
import warnings
from typing import BinaryIO, Union

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from .validation import as_rng

ALLOWED_FORMATS = ("PNG", "JPEG", "GIF", "WEBP", "BMP")
MAX_PIXELS = 40_000_000        # 40 megapixels: any phone photo, far below a decompression bomb
# What one decode may cost, so that no upload can stall a classroom's server (measured on a
# 2-core machine: benchmarks/bench_images.py): the pixels Pillow holds before the image is
# shrunk (PNG RGBA: 6 MP; greyscale: 24 MP), and the slowest decoders' own caps.
MAX_DECODED_BYTES = 24_000_000
FORMAT_MAX_PIXELS = {"GIF": 12_000_000, "WEBP": 2_000_000}
MAX_FILE_BYTES = 20 * 2 ** 20  # 20 MB
MAX_SIDE = 1024                # larger images are shrunk while still 8-bit, before float conversion

Source = Union[bytes, bytearray, memoryview, str, os.PathLike, BinaryIO]


class ImageError(ValueError):
    """An image that cannot be used, with a sentence that says why and what to do."""


# ---------------------------------------------------------------- loading

def _read_bytes(source: Source) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as f:
                return f.read(MAX_FILE_BYTES + 1)
        except OSError as e:
            raise ImageError(f"The file {os.fspath(source)!r} could not be opened ({e.strerror}).") from e
    if hasattr(source, "read"):
        if hasattr(source, "seek"):
            source.seek(0)
        data = source.read(MAX_FILE_BYTES + 1)
        if not isinstance(data, (bytes, bytearray)):
            raise ImageError("The upload did not give binary data; please choose an image file.")
        return bytes(data)
    raise ImageError(f"Cannot read an image from a {type(source).__name__}; give bytes, a path or a file.")


def _sniff_unsupported(head: bytes) -> str | None:
    """A friendly name for well-known files that are not images we decode."""
    text = head.lstrip()[:256].lower()
    if head.startswith(b"%PDF"):
        return "a PDF document"
    if head.startswith(b"%!PS") or head.startswith(b"\xc5\xd0\xd3\xc6"):
        return "a PostScript (EPS) file"
    if text.startswith(b"<svg") or (text.startswith(b"<?xml") and b"<svg" in head[:2048].lower()):
        return "an SVG drawing (vector graphics)"
    if text.startswith((b"<!doctype html", b"<html")):
        return "a web page (HTML)"
    if head[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftyphevc", b"ftypavif"):
        return "a HEIC/AVIF photo"
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return "a TIFF image"
    return None


_SUPPORTED = "PNG, JPEG, GIF, WebP or BMP"


def load_image(source: Source, max_pixels: int = MAX_PIXELS, max_side: int | None = MAX_SIDE) -> np.ndarray:
    """Decode an image safely into an RGB float array (H, W, 3) in [0, 1].

    EXIF orientation is applied, transparency is composited on white, only the
    first frame of an animation is read, and the pixel count is checked from the
    header before anything is decoded. An image larger than `max_side` on its
    longer side is shrunk (aspect kept) while it is decoded: JPEG decodes at
    1/2, 1/4 or 1/8 scale, other formats are reduced while still 8-bit, so a
    large file never becomes a large float array. Bad input raises ImageError.
    """
    data = _read_bytes(source)
    if len(data) == 0:
        raise ImageError("The file is empty (0 bytes). Please choose an image file.")
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(f"The file is larger than {MAX_FILE_BYTES // 2 ** 20} MB; please use a smaller image.")
    kind = _sniff_unsupported(data[:4096])
    if kind:
        raise ImageError(f"This file is {kind}, not a picture this app can read. "
                         f"Please save or export it as {_SUPPORTED}.")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            im = Image.open(io.BytesIO(data), formats=ALLOWED_FORMATS)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
            raise ImageError("This image has far too many pixels to be opened safely. "
                             "Please use a smaller image.") from e
        except UnidentifiedImageError as e:
            raise ImageError(f"This file is not an image this app can read. Please use {_SUPPORTED}.") from e
        except (OSError, SyntaxError, ValueError) as e:
            raise ImageError("This image file is damaged and cannot be read.") from e
    with im:
        w, h = im.size
        if w * h > max_pixels:
            raise ImageError(f"This image is {w} x {h} pixels, more than the {max_pixels / 1e6:.0f} "
                             "megapixels allowed. Please use a smaller image.")
        if w == 0 or h == 0:
            raise ImageError("This image has no pixels.")
        if max_side and im.format == "JPEG":
            im.draft(None, (max_side, max_side))  # decode at 1/2, 1/4 or 1/8 scale
        _check_decoding_cost(im)
        try:
            im.seek(0)  # first frame of an animation
            im.load()
            im = _shrink(im, max_side) if max_side else im
            im = ImageOps.exif_transpose(im)
            return _to_rgb_array(im)
        except (OSError, SyntaxError, ValueError, EOFError, IndexError) as e:
            raise ImageError("This image file is damaged or incomplete (it may have been cut off "
                             "while uploading). Please try another copy.") from e


def _bytes_per_pixel(mode: str) -> int:
    """What Pillow stores per pixel of a decoded image in `mode`."""
    if mode in ("1", "L", "P"):
        return 1
    return 2 if mode.startswith("I;16") else 4


def _check_decoding_cost(im: Image.Image) -> None:
    """Refuse, before decoding, an image that would cost too much memory or time to decode
    (JPEG is checked after draft(), at the scale it will really be decoded)."""
    w, h = im.size
    most = min(MAX_DECODED_BYTES // _bytes_per_pixel(im.mode),
               FORMAT_MAX_PIXELS.get(im.format, MAX_PIXELS))
    if w * h > most:
        raise ImageError(f"This image is {w} x {h} pixels: too many to decode quickly as a "
                         f"{im.format} file of this kind (at most {most / 1e6:.0f} megapixels; "
                         "JPEG photos up to 40). Please use a smaller image, or save it as JPEG.")


_REDUCIBLE = ("L", "LA", "La", "PA", "RGB", "RGBA", "RGBa", "CMYK", "YCbCr", "I", "F")
_STRIP_ROWS = 256  # rows converted at a time when a mode must change before reducing


def _shrink(im: Image.Image, max_side: int) -> Image.Image:
    """Shrink so that the longer side is at most max_side, while the image is still 8-bit.

    Box-averaging by an integer factor first (Image.reduce: cheap, no float copy), then
    an exact Lanczos resize of the small result. Modes that reduce() cannot average
    (1, P, I;16) are converted strip by strip, so no full-size converted copy exists.
    """
    w, h = im.size
    if max(w, h) <= max_side:
        return im
    factor = max(w, h) // max_side
    if factor >= 2:
        if im.mode in _REDUCIBLE:
            im = im.reduce(factor)
        else:
            im = _reduce_in_strips(im, factor)
    target = (max(1, round(im.width * max_side / max(im.size))),
              max(1, round(im.height * max_side / max(im.size))))
    if im.mode not in _REDUCIBLE:
        im = im.convert(_reducible_mode(im))
    return im.resize(target, Image.Resampling.LANCZOS) if im.size != target else im


def _reducible_mode(im: Image.Image) -> str:
    if im.mode == "1":
        return "L"
    if im.mode.startswith("I;16"):
        return "I"
    return "RGBA" if "transparency" in im.info or im.mode == "PA" else "RGB"


def _reduce_in_strips(im: Image.Image, factor: int) -> Image.Image:
    mode = _reducible_mode(im)
    w, h = im.size
    out = Image.new(mode, (w // factor, h // factor))
    rows = max(factor, _STRIP_ROWS // factor * factor)
    for top in range(0, (h // factor) * factor, rows):
        bottom = min(top + rows, (h // factor) * factor)
        strip = im.crop((0, top, (w // factor) * factor, bottom)).convert(mode)
        out.paste(strip.reduce(factor), (0, top // factor))
    return out


def _to_rgb_array(im: Image.Image) -> np.ndarray:
    """Any Pillow mode -> (H, W, 3) float64 in [0, 1], alpha composited on white."""
    mode = im.mode
    if mode in ("I", "F") or mode.startswith("I;16"):
        a = np.asarray(im, dtype=np.float64)
        if mode.startswith("I;16"):
            a = a / 65535.0
        elif mode == "I" and a.min() >= 0 and a.max() <= 65535:
            a = a / (255.0 if a.max() <= 255 else 65535.0)
        elif a.max() > a.min():
            a = (a - a.min()) / (a.max() - a.min())
        a = np.clip(a, 0.0, 1.0)
        return np.repeat(a[:, :, None], 3, axis=2)
    has_alpha = mode in ("RGBA", "LA", "PA", "La", "RGBa") or (
        mode in ("P", "L", "RGB", "1") and "transparency" in im.info)
    if has_alpha:
        rgba = im.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        im = Image.alpha_composite(white, rgba)
    rgb = im.convert("RGB")
    a = np.asarray(rgb, dtype=np.float64)
    a /= 255.0  # in place: one float copy of the image, not two
    return a


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
