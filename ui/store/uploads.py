"""Uploaded images kept on disk by the hash of their bytes, so that a link can name them.

An upload is decoded once (small: hopfield_core.image_files shrinks while decoding), centre-
cropped to a KEEP x KEEP square and written as `<digest>.png`, its display name in a PNG
text chunk. Its key, `upload/<digest>`, goes into links: every student who opens the
teacher's link gets the same images, and a restart of the server loses nothing. Several
app processes (behind nginx) can share one folder: writes are atomic renames.

The folder is bounded: entries unused for MAX_AGE_S go, then the least recently used until
the folder holds at most MAX_BYTES, anonymous uploads first: an upload that a link opened
in the last LINKED_S names (`open_link`, marked by an empty `<digest>.link` beside it) goes
only when nothing anonymous is left, so a flood of uploads cannot push out the images of the
teacher's link. What the folder holds is indexed in memory (updated by put, get and
open_link) and read again from disk every RESCAN_S, or on demand (`prune`), to see what
other processes added, used or deleted: an upload costs no scan of the folder.
No streamlit here; ui.store.store calls this.
"""
from __future__ import annotations

import hashlib
import io
import os
import re
import tempfile
import threading
import time
from collections import OrderedDict
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, PngImagePlugin

from hopfield_core import image_files, images
from ui.serving.text import safe_name

# The file picker offers images; "image/*" also makes Streamlit leave the check of a file's type
# to hopfield_core.image_files.load_image, which explains an SVG, HEIC or TIFF (Streamlit's own check
# of the extensions raised an error on the page)
UPLOAD_TYPES = ["image/*", "png", "jpg", "jpeg", "gif", "webp", "bmp"]

PREFIX = "upload/"
DIGEST_CHARS = 24            # 96 bits of sha256: unguessable, short enough for a link
KEY_PATTERN = re.compile(rf"\A{PREFIX}[0-9a-f]{{{DIGEST_CHARS}}}\Z")  # \Z: no final newline
KEEP = 128                   # pixels a side kept: the store uses 64, the ET page 32 to 64
MAX_BYTES = 256 * 2 ** 20    # about 5,000 uploads
MAX_AGE_S = 30 * 24 * 3600   # a month: a course's worth of links
LINKED_S = 7 * 24 * 3600     # a link opened within a week (one lesson to the next) protects
RESCAN_S = 60.0              # how often a put reads the folder again (other processes' work)
STALE_TMP_S = 3600           # a .tmp this old was left by a process killed mid-write
ROOT_ENV = "HOPFIELD_UPLOAD_DIR"
DEFAULT_ROOT = Path(__file__).resolve().parent.parent / ".uploads"


def is_key(key) -> bool:
    """A well-formed upload key, the whole string (a trailing newline is not)."""
    return isinstance(key, str) and KEY_PATTERN.fullmatch(key) is not None


def key_of(data: bytes) -> str:
    """The key the store gives these bytes."""
    return PREFIX + hashlib.sha256(data).hexdigest()[:DIGEST_CHARS]


def to_unit(found: tuple[str, np.ndarray] | None) -> tuple[str, np.ndarray] | None:
    """get_pixels' (name, uint8 pixels) as get() gives it: the image in [0, 1]; None stays None."""
    return None if found is None else (found[0], found[1] / 255.0)


def upload_cap_bytes() -> int:
    """The app's upload cap, stated once: server.maxUploadSize (MB) of .streamlit/config.toml,
    as Streamlit's own loader reads it (the file picker refuses a larger file first)."""
    from streamlit import config

    return int(float(config.get_option("server.maxUploadSize")) * 2 ** 20)


class UploadStore:
    def __init__(self, root: str | os.PathLike, max_bytes: int = MAX_BYTES,
                 max_age_s: float = MAX_AGE_S, linked_s: float = LINKED_S,
                 rescan_s: float = RESCAN_S, max_file_bytes: int = image_files.MAX_FILE_BYTES):
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.max_file_bytes = max_file_bytes  # one upload's size: the app's cap
        self.max_age_s = max_age_s
        self.linked_s = linked_s
        self.rescan_s = rescan_s
        self._lock = threading.Lock()
        # digest -> [last use (epoch s), bytes], least recently used first: anonymous uploads,
        # and those a link opened within linked_s (pruned only when no anonymous one is left)
        self._anon: OrderedDict[str, list] = OrderedDict()
        self._linked: OrderedDict[str, list] = OrderedDict()
        self._total = 0              # bytes of the indexed files
        self._scanned: float | None = None  # time.monotonic() of the last scan

    def path(self, key: str) -> Path | None:
        """The file of a well-formed key (never a path built from anything else)."""
        if not is_key(key):
            return None
        return self.root / f"{key[len(PREFIX):]}.png"

    def has(self, key: str) -> bool:
        path = self.path(key)
        return path is not None and path.is_file()

    # ------------------------------------------------------------ reading and writing
    def put(self, filename: str, data: bytes) -> str:
        """Store an uploaded file; returns its key. Raises image_files.ImageError for a bad file.
        The same bytes give the same key (and are decoded only the first time)."""
        key = key_of(data)
        path = self.path(key)
        if path.is_file():
            self._used(path.stem, None)
            return key
        image = image_files.load_image(data, max_side=4 * KEEP, max_bytes=self.max_file_bytes)
        square = ImageOps.fit(images.to_pil(image), (KEEP, KEEP), method=Image.Resampling.LANCZOS)
        info = PngImagePlugin.PngInfo()
        info.add_text("name", safe_name(filename))
        buffer = io.BytesIO()
        square.save(buffer, "PNG", pnginfo=info)
        png = buffer.getvalue()
        self.root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.root, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(png)
        os.replace(tmp, path)  # atomic: another process never sees half a file
        if self._scanned is None or time.monotonic() - self._scanned > self.rescan_s:
            self.rescan()  # the first put of this process, then once every rescan_s
        else:
            self._index(path.stem, time.time(), len(png))
        self._evict()
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
        self._used(path.stem, len(data))
        return name, rgb

    def open_link(self, key: str) -> bool:
        """A link that names this upload was opened: keep it over anonymous uploads for
        linked_s (marked on disk, so every process sharing the folder knows). Returns whether
        this server has the upload (nothing is marked for one it lacks)."""
        path = self.path(key)
        if path is None or not path.is_file():
            return False
        mark = path.with_suffix(".link")
        try:
            mark.touch()  # created, or its time set to now: the link's last opening
        except OSError:
            return path.is_file()
        self._used(path.stem, None, linked=True)
        return True

    # ------------------------------------------------------------ the bound
    def prune(self, now: float | None = None) -> None:
        """Read the folder again, then drop entries unused for max_age_s, then the least
        recently used beyond max_bytes (anonymous ones first)."""
        self.rescan(now)
        self._evict()

    def rescan(self, now: float | None = None) -> None:
        """Index the folder as it is on disk (what other processes added, used or deleted),
        dropping the entries unused for max_age_s and the leftovers of killed writes."""
        now = time.time() if now is None else now
        pngs, marks = {}, {}
        try:
            listing = list(os.scandir(self.root))
        except FileNotFoundError:
            listing = []
        for entry in listing:
            stem, _, suffix = entry.name.partition(".")
            try:
                st = entry.stat()
            except FileNotFoundError:
                continue  # another process pruned it
            if suffix == "png":
                pngs[stem] = (st.st_mtime, st.st_size)
            elif suffix == "link":
                marks[stem] = st.st_mtime
            elif suffix == "tmp" and now - st.st_mtime > STALE_TMP_S:
                _unlink(Path(entry.path))
        anon, linked, total = [], [], 0
        for stem, (used, size) in pngs.items():
            if now - used > self.max_age_s:
                self._delete(stem)
                continue
            recent = now - marks.get(stem, -float("inf")) <= self.linked_s
            (linked if recent else anon).append((used, stem, size))
            total += size
        for stem in marks.keys() - pngs.keys():
            _unlink(self.root / f"{stem}.link")  # its upload went (here or elsewhere)
        with self._lock:
            self._anon = OrderedDict((s, [u, b]) for u, s, b in sorted(anon))
            self._linked = OrderedDict((s, [u, b]) for u, s, b in sorted(linked))
            self._total = total
            self._scanned = time.monotonic()

    def _evict(self) -> None:
        """The least recently used beyond max_bytes go, anonymous ones first."""
        while True:
            with self._lock:
                if self._total <= self.max_bytes or not (self._anon or self._linked):
                    return
                stem, (_, size) = (self._anon or self._linked).popitem(last=False)
                self._total -= size
            self._delete(stem)

    # ------------------------------------------------------------ the index
    def _index(self, stem: str, used: float, size: int) -> None:
        with self._lock:
            if stem in self._anon or stem in self._linked:
                return
            self._anon[stem] = [used, size]
            self._total += size

    def _used(self, stem: str, size: int | None, linked: bool = False) -> None:
        """An entry was used now (read, stored again, or opened by a link): the file's time
        on disk for every process, this process's index for its next eviction."""
        _touch(self.root / f"{stem}.png")
        now = time.time()
        with self._lock:
            entry = self._anon.pop(stem, None)
            was_linked = entry is None and stem in self._linked
            entry = entry or self._linked.pop(stem, None)
            if entry is None:  # written by another process since the last scan
                if size is None or self._scanned is None:
                    return  # the next scan will see it
                entry = [now, size]
                self._total += size
            entry[0] = now
            (self._linked if linked or was_linked else self._anon)[stem] = entry

    def _delete(self, stem: str) -> None:
        _unlink(self.root / f"{stem}.png")
        _unlink(self.root / f"{stem}.link")


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


_STORES: dict[Path, UploadStore] = {}
_STORES_LOCK = threading.Lock()


def default_store() -> UploadStore:
    """The process's one store of the configured folder (its index is kept between uploads)."""
    root = Path(os.environ.get(ROOT_ENV) or DEFAULT_ROOT)
    with _STORES_LOCK:
        if root not in _STORES:
            _STORES[root] = UploadStore(root, max_file_bytes=upload_cap_bytes())
        return _STORES[root]
