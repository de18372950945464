"""Bad and odd image files shared by the core tests and the upload tests.

Each BAD entry: name -> (bytes, a regular expression the error message must match).
"""
import io
import struct
import zlib

import numpy as np
from PIL import Image

from hopfield_core import image_files


def encode(im: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    return buf.getvalue()


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def huge_png(width: int, height: int) -> bytes:
    """A real, valid 1-bit PNG of width x height black pixels: a decompression bomb."""
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    z = zlib.compressobj(9)
    row = b"\x00" * (1 + (width + 7) // 8)  # filter byte + packed bits
    body = b"".join(z.compress(row) for _ in range(height)) + z.flush()
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", body)
            + png_chunk(b"IEND", b""))


BAD = {
    "empty": (b"", "empty"),
    "random bytes": (np.random.default_rng(1).bytes(5000), "not an image"),
    "png signature then garbage": (b"\x89PNG\r\n\x1a\n" + b"garbage" * 50, "damaged|not an image"),
    "svg": (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" '
            b'height="10"><rect width="10" height="10"/></svg>', "SVG"),
    "bare svg": (b'<svg xmlns="http://www.w3.org/2000/svg"></svg>', "SVG"),
    "pdf": (b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF", "PDF"),
    "eps": (b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n", "PostScript"),
    "html": (b"<!DOCTYPE html><html><body>hi</body></html>", "web page"),
    "heic": (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64, "HEIC"),
}


def photo(width: int = 60, height: int = 40, seed: int = 0) -> Image.Image:
    rng = np.random.default_rng(seed)
    return Image.fromarray(rng.integers(0, 256, size=(height, width, 3), dtype=np.uint8))


def bad_uploads() -> list[tuple[str, bytes, str]]:
    """(file name as a student might upload it, content, regex of the message)."""
    png, jpeg = encode(photo(), "PNG"), encode(photo(), "JPEG")
    cases = [(f"{name.replace(' ', '_')}.png", data, msg) for name, (data, msg) in BAD.items()]
    cases += [
        ("cut_off.png", png[: len(png) // 2], "damaged"),
        ("cut_off.jpg", jpeg[: len(jpeg) // 2], "damaged"),
        ("huge.png", huge_png(20000, 20000), "pixels"),
        ("scan.png", encode(photo(), "TIFF"), "TIFF"),
    ]
    return cases


def smooth_image(w: int, h: int) -> Image.Image:
    x = np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
    y = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    return Image.fromarray((np.concatenate([x + 0 * y, y + 0 * x, x * y], axis=2) * 255).astype(np.uint8))


def files_at_the_limits() -> dict:
    """The costliest file of each kind that load_image accepts."""
    rng = np.random.default_rng(0)
    grey_side = int((image_files.MAX_DECODED_BYTES - 1) ** 0.5)   # 1 byte a pixel
    rgba_side = int((image_files.MAX_DECODED_BYTES // 4 - 1) ** 0.5)
    gif_side = int((image_files.FORMAT_MAX_PIXELS["GIF"] - 1) ** 0.5)
    webp_side = int((image_files.FORMAT_MAX_PIXELS["WEBP"] - 1) ** 0.5)
    bits = Image.fromarray(rng.integers(0, 2, (grey_side, grey_side), dtype=np.uint8) * 255)
    return {
        "grey.png": encode(smooth_image(grey_side, grey_side).convert("L"), "PNG"),
        "bits.png": encode(bits.convert("1"), "PNG"),
        "rgba.png": encode(smooth_image(rgba_side, rgba_side).convert("RGBA"), "PNG"),
        "palette.gif": encode(smooth_image(gif_side, gif_side).convert("P"), "GIF"),
        "photo.webp": encode(Image.fromarray(rng.integers(0, 256, (webp_side, webp_side, 3), dtype=np.uint8)),
                             "WEBP", quality=90),
        "phone.jpg": encode(smooth_image(7300, 5470), "JPEG", quality=95),   # 39.9 MP
    }
