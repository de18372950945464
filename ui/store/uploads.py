"""Uploaded images kept on disk by the hash of their bytes, so that a link can name them.

An upload is decoded once (small: hopfield_core.image_files shrinks while decoding), centre-
cropped to a KEEP x KEEP square and written as `<digest>.png`, its display name in a PNG
text chunk. Its key, `upload/<digest>`, goes into links: every student who opens the
teacher's link gets the same images, and a restart of the server loses nothing. Several
app processes (behind nginx) can share one folder: writes are atomic renames.

The folder is bounded, and a flood cannot take what the class relies on (docs/classroom.md):
- entries go in the order they arrived (the file's time, never refreshed by use or by the
  same bytes uploaded again, so nobody can move old entries to the back of the queue), after
  MAX_AGE_S or when the folder holds more than max_bytes;
- an upload a link opened in the last LINKED_S (`open_link`, an empty `<digest>.link` beside
  it, its time the last opening) goes after the others, but only up to LINKED_SHARE of the
  folder: the most recently opened first, the rest in arrival order with everything else, so
  marks cannot pin the whole folder; a mark older than LINKED_S is deleted;
- new images come in at most `per_minute()` a minute, server-wide (ui.store.upload_budget),
  so that arrivals fill the unprotected part of the folder no sooner than HOLD_S: whatever a
  script does, an upload stays at least that long after it arrived.
What the folder holds is indexed in memory (updated by put and open_link) and read again from
disk every RESCAN_S, or on demand (`prune`), to see what other processes added, linked or
deleted: an upload costs no scan of the folder. No streamlit here; ui.store.store calls this.
"""
from __future__ import annotations

import hashlib
import io
import itertools
import os
import re
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator

import numpy as np
from PIL import Image, ImageOps, PngImagePlugin

from hopfield_core import image_files, images
from ui.serving.boot import positive_number_env
from ui.serving.text import safe_name

# The file picker offers images; "image/*" also makes Streamlit leave the check of a file's type
# to hopfield_core.image_files.load_image, which explains an SVG, HEIC or TIFF (Streamlit's own check
# of the extensions raised an error on the page)
UPLOAD_TYPES = ["image/*", "png", "jpg", "jpeg", "gif", "webp", "bmp"]

PREFIX = "upload/"
DIGEST_CHARS = 24            # 96 bits of sha256: unguessable, short enough for a link
KEY_PATTERN = re.compile(rf"\A{PREFIX}[0-9a-f]{{{DIGEST_CHARS}}}\Z")  # \Z: no final newline
KEEP = 128                   # pixels a side kept: the store uses 64, the ET page 32 to 64
MAX_PNG_BYTES = 3 * KEEP * KEEP + KEEP + 2048  # the largest entry: incompressible pixels, the
                                               # rows' filter bytes, chunks and a long name
MAX_BYTES = 512 * 2 ** 20    # about 10,000 uploads: 87 new ones a minute for an hour
MAX_AGE_S = 30 * 24 * 3600   # a month: a course's worth of links
LINKED_S = 7 * 24 * 3600     # a link opened within a week (one lesson to the next) protects ...
LINKED_SHARE = 0.5           # ... up to half the folder
HOLD_S = 3600                # an upload stays at least an hour after it arrives, whatever comes
RESCAN_S = 60.0              # how often a put reads the folder again (other processes' work)
STALE_TMP_S = 3600           # a .tmp this old was left by a process killed mid-write
ROOT_ENV = "HOPFIELD_UPLOAD_DIR"
SIZE_ENV = "HOPFIELD_UPLOAD_STORE_MB"    # the folder's bound, in MB (default 512)
HOLD_ENV = "HOPFIELD_UPLOAD_HOLD_MINUTES"  # HOLD_S in minutes (default 60)
DEFAULT_ROOT = Path(__file__).resolve().parents[2] / ".uploads"  # the repository's, git-ignored


def store_bytes() -> int:
    """The folder's bound: $HOPFIELD_UPLOAD_STORE_MB, else MAX_BYTES (512 MB)."""
    return int(positive_number_env(SIZE_ENV, MAX_BYTES / 2 ** 20) * 2 ** 20)


def hold_s() -> float:
    """How long an upload is sure to stay after it arrives: $HOPFIELD_UPLOAD_HOLD_MINUTES."""
    return positive_number_env(HOLD_ENV, HOLD_S / 60) * 60


def per_minute(max_bytes: int | None = None, hold: float | None = None) -> int:
    """New images the server takes in a minute, all tabs together: as many as fill the part of
    the folder that links cannot protect no sooner than `hold` seconds, at the largest entry
    size (512 MB and an hour: 87)."""
    max_bytes = store_bytes() if max_bytes is None else max_bytes
    hold = hold_s() if hold is None else hold
    return int((1 - LINKED_SHARE) * max_bytes / MAX_PNG_BYTES / (hold / 60))


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
                 rescan_s: float = RESCAN_S, max_file_bytes: int = image_files.MAX_FILE_BYTES,
                 linked_share: float = LINKED_SHARE):
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.max_file_bytes = max_file_bytes  # one upload's size: the app's cap
        self.max_age_s = max_age_s
        self.linked_s = linked_s
        self.linked_share = linked_share
        self.rescan_s = rescan_s
        self._lock = threading.Lock()
        # digest -> [arrived (epoch s, the file's time), bytes, last opened by a link or None],
        # in the order they arrived (a scan sorts them; a put appends the newest)
        self._entries: dict[str, list] = {}
        self._linked: set[str] = set()  # the entries with a link mark (a few, beside thousands)
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
        The same bytes give the same key (and are decoded only the first time; their place in
        the queue is their first arrival's)."""
        key = key_of(data)
        path = self.path(key)
        if path.is_file():
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
        return name, rgb

    def open_link(self, key: str) -> bool:
        """A link that names this upload was opened: it goes after the others for linked_s
        (within linked_share of the folder; marked on disk, so every process sharing the
        folder knows). Returns whether this server has the upload (nothing is marked for one
        it lacks)."""
        path = self.path(key)
        if path is None or not path.is_file():
            return False
        mark = path.with_suffix(".link")
        try:
            mark.touch()  # created, or its time set to now: the link's last opening
        except OSError:
            return path.is_file()
        with self._lock:
            if path.stem in self._entries:
                self._entries[path.stem][2] = time.time()
                self._linked.add(path.stem)
        return True

    # ------------------------------------------------------------ the bound
    def prune(self, now: float | None = None) -> None:
        """Read the folder again, then drop entries past max_age_s (unless a link opened them
        lately), then the first arrived beyond max_bytes (protected links last)."""
        self.rescan(now)
        self._evict(now)

    def rescan(self, now: float | None = None) -> None:
        """Index the folder as it is on disk (what other processes added, linked or deleted),
        dropping entries older than max_age_s that no link opened lately, expired link marks,
        and the leftovers of killed writes."""
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
        found, total = [], 0
        for stem, opened in marks.items():
            if stem not in pngs or now - opened > self.linked_s:
                _unlink(self.root / f"{stem}.link")  # its upload went, or its week is over
        for stem, (arrived, size) in pngs.items():
            opened = marks.get(stem)
            linked = opened if opened is not None and now - opened <= self.linked_s else None
            if now - arrived > self.max_age_s and linked is None:
                self._delete(stem)
                continue
            found.append((arrived, stem, [arrived, size, linked]))
            total += size
        entries = {stem: entry for _, stem, entry in sorted(found)}  # in arrival order
        with self._lock:
            self._entries = entries
            self._linked = {stem for stem, e in entries.items() if e[2] is not None}
            self._total = total
            self._scanned = time.monotonic()

    def _protected(self, now: float) -> list[str]:
        """The entries the links protect: opened by a link within linked_s, the most recently
        opened first, up to linked_share of max_bytes."""
        with self._lock:
            linked = sorted(((e[2], s, e[1]) for s in self._linked if (e := self._entries.get(s))
                             and e[2] is not None and now - e[2] <= self.linked_s), reverse=True)
        protected, room = [], self.linked_share * self.max_bytes
        for _, stem, size in linked:
            if size > room:
                break
            protected.append(stem)
            room -= size
        return protected

    def _queue(self, now: float | None = None) -> Iterator[str]:
        """The entries in the order they go: those the links do not protect by arrival, then
        the protected ones, least recently opened first (lazily: eviction stops early)."""
        protected = self._protected(time.time() if now is None else now)
        kept = set(protected)
        with self._lock:
            order = list(self._entries)  # arrival order
        return itertools.chain((s for s in order if s not in kept), reversed(protected))

    def eviction_order(self, now: float | None = None) -> list[str]:
        return list(self._queue(now))

    def _evict(self, now: float | None = None) -> None:
        """The first arrived beyond max_bytes go, the links' protected entries last; the walk
        stops once within the bound, so a put into a full store sorts nothing."""
        with self._lock:
            if self._total <= self.max_bytes:
                return
        for stem in self._queue(now):
            with self._lock:
                if self._total <= self.max_bytes:
                    return
                entry = self._entries.pop(stem, None)
                self._linked.discard(stem)
                if entry is None:
                    continue
                self._total -= entry[1]
            self._delete(stem)

    # ------------------------------------------------------------ the index
    def _index(self, stem: str, arrived: float, size: int) -> None:
        with self._lock:
            if stem in self._entries:
                return
            self._entries[stem] = [arrived, size, None]
            self._total += size

    def _delete(self, stem: str) -> None:
        _unlink(self.root / f"{stem}.png")
        _unlink(self.root / f"{stem}.link")


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
            _STORES[root] = UploadStore(root, max_bytes=store_bytes(), max_file_bytes=upload_cap_bytes())
        return _STORES[root]
