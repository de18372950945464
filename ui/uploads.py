"""Uploaded images kept on disk by the hash of their bytes, so that a link can name them.

An upload is decoded once (small: hopfield_core.images shrinks while decoding), centre-
cropped to a KEEP x KEEP square and written as `<digest>.png`, its display name in a PNG
text chunk. Its key, `upload/<digest>`, goes into links: every student who opens the
teacher's link gets the same images, and a restart of the server loses nothing. Several
app processes (behind nginx) can share one folder: writes are atomic renames.

The folder is bounded: entries older than MAX_AGE_S go, then the least recently used
until the folder holds at most MAX_BYTES. No streamlit here; ui.state calls this.
"""
from __future__ import annotations

import hashlib
import io
import os
import re
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, PngImagePlugin

from hopfield_core import images

from .text import safe_name

PREFIX = "upload/"
DIGEST_CHARS = 24            # 96 bits of sha256: unguessable, short enough for a link
KEY_PATTERN = re.compile(rf"^{PREFIX}[0-9a-f]{{{DIGEST_CHARS}}}$")
KEEP = 128                   # pixels a side kept: the store uses 64, the ET page 32 to 64
MAX_BYTES = 256 * 2 ** 20    # about 5,000 uploads
MAX_AGE_S = 30 * 24 * 3600   # a month: a course's worth of links
ROOT_ENV = "HOPFIELD_UPLOAD_DIR"
DEFAULT_ROOT = Path(__file__).resolve().parent.parent / ".uploads"


def to_unit(found: tuple[str, np.ndarray] | None) -> tuple[str, np.ndarray] | None:
    """get_pixels' (name, uint8 pixels) as get() gives it: the image in [0, 1]; None stays None."""
    return None if found is None else (found[0], found[1] / 255.0)


class UploadStore:
    def __init__(self, root: str | os.PathLike, max_bytes: int = MAX_BYTES, max_age_s: float = MAX_AGE_S):
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.max_age_s = max_age_s

    def path(self, key: str) -> Path | None:
        """The file of a well-formed key (never a path built from anything else)."""
        if not isinstance(key, str) or not KEY_PATTERN.match(key):
            return None
        return self.root / f"{key[len(PREFIX):]}.png"

    def put(self, filename: str, data: bytes) -> str:
        """Store an uploaded file; returns its key. Raises images.ImageError for a bad file.
        The same bytes give the same key (and are decoded only the first time)."""
        key = PREFIX + hashlib.sha256(data).hexdigest()[:DIGEST_CHARS]
        path = self.path(key)
        if path.is_file():
            _touch(path)
            return key
        image = images.load_image(data, max_side=4 * KEEP)
        square = ImageOps.fit(images.to_pil(image), (KEEP, KEEP), method=Image.Resampling.LANCZOS)
        info = PngImagePlugin.PngInfo()
        info.add_text("name", safe_name(filename))
        self.root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.root, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            square.save(f, "PNG", pnginfo=info)
        os.replace(tmp, path)  # atomic: another process never sees half a file
        self.prune()
        return key

    def get(self, key: str) -> tuple[str, np.ndarray] | None:
        """(name, image (KEEP, KEEP, 3) in [0, 1]) of a stored upload, or None when this
        server does not have it (never stored here, pruned, or not a valid key)."""
        return to_unit(self.get_pixels(key))

    def get_pixels(self, key: str) -> tuple[str, np.ndarray] | None:
        """As get(), with the image as the file's own 8-bit pixels, (KEEP, KEEP, 3) uint8:
        an eighth of the memory, for the app's in-memory cache."""
        path = self.path(key)
        if path is None:
            return None
        try:
            data = path.read_bytes()
            with Image.open(io.BytesIO(data), formats=["PNG"]) as im:
                name = safe_name(im.text.get("name", "upload") + ".png")
                rgb = np.asarray(im.convert("RGB"), dtype=np.uint8)
        except (OSError, ValueError, SyntaxError):
            return None  # gone in between, or damaged: as good as missing
        _touch(path)
        return name, rgb

    def prune(self, now: float | None = None) -> None:
        """Drop entries older than max_age_s, then the least recently used beyond max_bytes."""
        now = time.time() if now is None else now
        entries = []
        for p in self.root.glob("*.png"):
            try:
                st = p.stat()
            except FileNotFoundError:
                continue  # another process pruned it
            if now - st.st_mtime > self.max_age_s:
                _unlink(p)
            else:
                entries.append((st.st_mtime, st.st_size, p))
        total = sum(size for _, size, _ in entries)
        for _, size, p in sorted(entries, key=lambda e: e[0]):
            if total <= self.max_bytes:
                break
            _unlink(p)
            total -= size
        for p in self.root.glob("*.tmp"):  # left by a process killed mid-write
            try:
                if now - p.stat().st_mtime > 3600:
                    _unlink(p)
            except FileNotFoundError:
                pass


def _touch(path: Path) -> None:
    try:
        os.utime(path)  # last use: the least recently used go first
    except OSError:
        pass


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def default_store() -> UploadStore:
    return UploadStore(os.environ.get(ROOT_ENV) or DEFAULT_ROOT)
