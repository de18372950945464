"""Downloads: a run as an animated GIF or a PNG, the energies as CSV. No Streamlit here.

Pictures come as (H, W, 3) floats in [0, 1] or as bytes (uint8, the player's frames). The GIF
is written one frame at a time (write_gif): its memory is one enlarged frame and the file
itself, whatever the length of the run; a run longer than MAX_GIF_FRAMES states is shown by
that many of them, evenly spaced (gif_note says so beside the button).
"""
from __future__ import annotations

import csv
import io
from typing import IO, Iterable

import numpy as np
from PIL import GifImagePlugin, Image

MAX_GIF_FRAMES = 200  # at 0.4 s a frame, 80 s of animation; a file of at most a few MB


def to_bytes(img: np.ndarray) -> np.ndarray:
    """A picture as uint8: bytes as they are, floats in [0, 1] as round(255 x value)."""
    a = np.asarray(img)
    if a.dtype == np.uint8:
        return a
    return np.round(np.clip(a, 0, 1) * 255).astype(np.uint8)


def _pil(img: np.ndarray, scale: int) -> Image.Image:
    im = Image.fromarray(np.ascontiguousarray(to_bytes(img)), mode="RGB")
    return im.resize((im.width * scale, im.height * scale), Image.Resampling.NEAREST)


def _scale(img: np.ndarray, target: int = 256) -> int:
    return max(1, target // max(img.shape[:2]))


def png_bytes(img: np.ndarray, target: int = 256) -> bytes:
    """The image as PNG, pixels enlarged by a whole factor to at most `target` px a side."""
    buf = io.BytesIO()
    _pil(img, _scale(img, target)).save(buf, "PNG")
    return buf.getvalue()


def gif_steps(states: int, most: int = MAX_GIF_FRAMES) -> np.ndarray:
    """The states a GIF shows: all of them, or `most` evenly spaced, the first and the last
    included."""
    if states <= most:
        return np.arange(states)
    return np.unique(np.round(np.linspace(0, states - 1, most)).astype(int))


def gif_note(states: int, most: int = MAX_GIF_FRAMES) -> str | None:
    """The sentence beside the GIF button when the GIF cannot show every state, else None."""
    if states <= most:
        return None
    return (f"A GIF holds at most {most} frames: this one shows {len(gif_steps(states, most))} "
            f"of the run's {states} states (steps 0 to {states - 1}), evenly spaced, the first "
            "and the last included. The CSV has every step.")


def gif_bytes(frames, ms_per_frame: int = 400, most: int = MAX_GIF_FRAMES) -> bytes:
    """A run's states (T+1 pictures) as one looping GIF, pixels enlarged to about 256 px: every
    state, or `most` of them (gif_steps)."""
    buf = io.BytesIO()
    write_gif((frames[t] for t in gif_steps(len(frames), most)), buf, ms_per_frame)
    return buf.getvalue()


def write_gif(frames: Iterable[np.ndarray], fp: IO[bytes], ms_per_frame: int = 400) -> None:
    """Write pictures to fp as a looping GIF, one at a time (Pillow's own writer keeps every
    frame until the end). A picture equal to the one before lengthens it, as Pillow does."""
    held, ms, scale, first = None, 0, 1, True
    for frame in frames:
        a = to_bytes(frame)
        if held is not None and np.array_equal(a, held):
            ms += ms_per_frame
            continue
        if held is not None:
            _write_frame(fp, _paletted(held, scale), ms, first)
            first = False
        else:
            scale = _scale(a)
        held, ms = a, ms_per_frame
    if held is None:
        raise ValueError("a GIF needs at least one picture")
    _write_frame(fp, _paletted(held, scale), ms, first)
    fp.write(b";")  # the trailer


def _paletted(a: np.ndarray, scale: int) -> Image.Image:
    """(H, W, 3) bytes as a palette image, enlarged: its own colours exactly when it has at most
    256 (every grey picture does), else the 256 that Pillow's median cut picks."""
    colours, index = np.unique(a.reshape(-1, 3), axis=0, return_inverse=True)
    if len(colours) <= 256:
        im = Image.fromarray(index.reshape(a.shape[:2]).astype(np.uint8), mode="P")
        im.putpalette(colours.astype(np.uint8).tobytes())
    else:
        im = Image.fromarray(np.ascontiguousarray(a), mode="RGB").convert(
            "P", palette=Image.Palette.ADAPTIVE)
    return im.resize((im.width * scale, im.height * scale), Image.Resampling.NEAREST)


def _write_frame(fp: IO[bytes], im: Image.Image, ms: int, first: bool) -> None:
    """One frame in its own palette (the first also writes the file's header, with its palette
    as the global one, and the loop)."""
    if first:
        header, _ = GifImagePlugin.getheader(im, None, {"loop": 0, "duration": ms})
        for part in header:
            fp.write(part)
    for part in GifImagePlugin.getdata(im, (0, 0), duration=ms, disposal=2,
                                       include_color_table=not first):
        fp.write(part)


def csv_bytes(columns: dict) -> bytes:
    """Columns of equal length as CSV with a header row; text is quoted as CSV needs (a
    pattern's name may hold a comma), floats at full precision."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(list(columns))
    for row in zip(*columns.values()):
        w.writerow([repr(float(v)) if isinstance(v, (float, np.floating)) else v for v in row])
    return out.getvalue().encode()
