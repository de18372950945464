"""Image files in, pixels out: safe, bounded decoding of uploads and preset files.

A file is checked (size, kind, pixel count, decoding cost) before it is decoded, and a large
image is shrunk while it is still 8-bit, so no upload can stall a classroom's server.
Turning the pixels into patterns is hopfield_core.images.

# H, W image height and width; a decoded image is (H, W, 3) float in [0, 1]
"""
from __future__ import annotations

import io
import os
import warnings
from typing import BinaryIO, Union

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

ALLOWED_FORMATS = ("PNG", "JPEG", "GIF", "WEBP", "BMP")
MAX_PIXELS = 40_000_000        # 40 megapixels: any phone photo, far below a decompression bomb
# What one decode may cost, so that no upload can stall a classroom's server (measured on a
# 2-core machine: benchmarks/bench_images.py): the pixels Pillow holds before the image is
# shrunk (PNG RGBA: 6 MP; greyscale: 24 MP), and the slowest decoders' own caps.
MAX_DECODED_BYTES = 24_000_000
FORMAT_MAX_PIXELS = {"GIF": 12_000_000, "WEBP": 2_000_000}
MAX_FILE_BYTES = 20 * 2 ** 20  # 20 MB: the library's default; the app passes its upload cap
MAX_SIDE = 1024                # larger images are shrunk while still 8-bit, before float conversion

Source = Union[bytes, bytearray, memoryview, str, os.PathLike, BinaryIO]


class ImageError(ValueError):
    """An image that cannot be used, with a sentence that says why and what to do."""


def _read_bytes(source: Source, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as f:
                return f.read(max_bytes + 1)
        except OSError as e:
            raise ImageError(f"The file {os.fspath(source)!r} could not be opened ({e.strerror}).") from e
    if hasattr(source, "read"):
        if hasattr(source, "seek"):
            source.seek(0)
        data = source.read(max_bytes + 1)
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


def load_image(source: Source, max_pixels: int = MAX_PIXELS, max_side: int | None = MAX_SIDE,
               max_bytes: int = MAX_FILE_BYTES) -> np.ndarray:
    """Decode an image safely into an RGB float array (H, W, 3) in [0, 1].

    EXIF orientation is applied, transparency is composited on white, only the
    first frame of an animation is read, and the pixel count is checked from the
    header before anything is decoded. An image larger than `max_side` on its
    longer side is shrunk (aspect kept) while it is decoded: JPEG decodes at
    1/2, 1/4 or 1/8 scale, other formats are reduced while still 8-bit, so a
    large file never becomes a large float array. A file over `max_bytes` is refused unread
    beyond that. Bad input raises ImageError.
    """
    data = _read_bytes(source, max_bytes)
    if len(data) == 0:
        raise ImageError("The file is empty (0 bytes). Please choose an image file.")
    if len(data) > max_bytes:
        raise ImageError(f"The file is larger than {max_bytes / 2 ** 20:g} MB; please use a "
                         "smaller image.")
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
