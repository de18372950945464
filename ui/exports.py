"""Downloads: a run as an animated GIF or a PNG, the energies as CSV. No Streamlit here."""
from __future__ import annotations

import io

import numpy as np
from PIL import Image


def _pil(img: np.ndarray, scale: int) -> Image.Image:
    a = np.round(np.clip(img, 0, 1) * 255).astype(np.uint8)
    im = Image.fromarray(a, mode="RGB")
    return im.resize((im.width * scale, im.height * scale), Image.Resampling.NEAREST)


def _scale(img: np.ndarray, target: int = 256) -> int:
    return max(1, target // max(img.shape[:2]))


def png_bytes(img: np.ndarray, target: int = 256) -> bytes:
    """The image as PNG, pixels enlarged by a whole factor to at most `target` px a side."""
    buf = io.BytesIO()
    _pil(img, _scale(img, target)).save(buf, "PNG")
    return buf.getvalue()


def gif_bytes(frames: list[np.ndarray] | np.ndarray, ms_per_frame: int = 400) -> bytes:
    """Every state of a run as one looping GIF, pixels enlarged to about 256 px."""
    s = _scale(frames[0])
    ims = [_pil(f, s) for f in frames]
    buf = io.BytesIO()
    ims[0].save(buf, "GIF", save_all=True, append_images=ims[1:], duration=ms_per_frame,
                loop=0, disposal=2)
    return buf.getvalue()


def csv_bytes(columns: dict[str, np.ndarray]) -> bytes:
    """Columns of equal length as CSV with a header row (full float precision)."""
    names = list(columns)
    rows = zip(*(np.asarray(columns[n]) for n in names))
    lines = [",".join(names)] + [",".join(repr(float(v)) if isinstance(v, (float, np.floating))
                                          else str(v) for v in row) for row in rows]
    return ("\n".join(lines) + "\n").encode()
