"""Session state, caching and URL state: the one place where pages meet Streamlit's plumbing.

The pattern store lives in st.session_state and is shared by every page of one browser
session (never across sessions). Settings that define a demo mirror st.query_params so
that a teacher can share one link.
"""
from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass

import numpy as np
import streamlit as st

from hopfield_core import drawing, images
from hopfield_core.presets import preset_groups, preset_image

from . import budget, exports, memory_plan, upload_quota, uploads
from .byte_cache import ByteCache
from .shared_settings import MAX_PATTERNS, SIDEBAR
from .text import quoted, safe_name

SOURCE_SIZE = 64        # stored images are kept as 64 x 64 squares
DEFAULT_PRESETS = ("letters/H", "letters/O", "letters/X")


@dataclass(frozen=True)
class Stored:
    key: str           # "letters/H", or "upload/<digest>" for an uploaded image (ui.uploads)
    name: str          # what the page shows
    image: np.ndarray  # (SOURCE_SIZE, SOURCE_SIZE, 3) in [0, 1]


@dataclass(frozen=True)
class PatternSet:
    X: np.ndarray      # (N, d) one pattern a row
    shape: tuple       # how a pattern is shown: (H, W) or (H, W, 3)
    names: tuple
    binary: bool
    fingerprint: str   # a short hash that identifies X for caches

    @property
    def N(self) -> int:
        return self.X.shape[0]

    @property
    def d(self) -> int:
        return self.X.shape[1]


# ---------------------------------------------------------------- the pattern store

def store() -> list[Stored]:
    if "store" not in st.session_state:
        st.session_state.store = []
        for key in DEFAULT_PRESETS:
            add_preset(key)
    return st.session_state.store


def add_preset(key: str) -> str | None:
    """Store a preset by "group/name"; returns a message when it cannot be stored."""
    group, _, name = key.partition("/")
    if name not in preset_groups().get(group, []):
        return f"There is no preset called {quoted(key)}."
    img = preset_image(group, name, SOURCE_SIZE)
    return _add(Stored(key, name, img))


def keep_upload(filename: str, data: bytes) -> str:
    """Decode an uploaded file once (the on-disk store is keyed by its bytes) and keep it;
    returns its key. Raises images.ImageError on bad files, and its QuotaExceeded when the
    file is new to the store and this session has added its quota of new images lately."""
    store = uploads.default_store()
    if not store.has(uploads.key_of(data)):
        st.session_state.setdefault("_upload_quota", upload_quota.Quota()).take()
    return store.put(filename, data)


def upload_key(uploaded_file) -> str:
    """The store key of a file in an st.file_uploader, decoded and kept on its first rerun
    only (remembered by the uploader's file id). Raises images.ImageError on bad files."""
    known = st.session_state.setdefault("_upload_keys", {})
    if uploaded_file.file_id not in known:
        known[uploaded_file.file_id] = keep_upload(uploaded_file.name, uploaded_file.getvalue())
    return known[uploaded_file.file_id]


def add_upload(filename: str, data: bytes) -> str | None:
    """Keep an uploaded image and add it to this session's pattern store, under this file's
    name (the same image uploaded before under another name keeps its key)."""
    return add_stored_upload(keep_upload(filename, data), safe_name(filename))


class _Missing(LookupError):
    """An upload the disk store lacks: raised, so that st.cache_data keeps no result."""


@st.cache_data(max_entries=512, show_spinner=False)
def _stored_pixels(key: str):
    """The store's (name, uint8 pixels) of an upload: cached in memory as 8-bit pixels (49 KB
    an upload, 25 MB at most), so that an entry the disk store drops later stays usable by the
    sessions that hold it. A miss raises _Missing and is never cached: the same bytes uploaded
    later, by this process or another sharing the folder, are found at once."""
    found = uploads.default_store().get_pixels(key)
    if found is None:
        raise _Missing(key)
    return found


def stored_upload(key: str):
    """(name, image (KEEP, KEEP, 3) in [0, 1]) of an upload this server keeps, or None."""
    try:
        return uploads.to_unit(_stored_pixels(key))
    except _Missing:
        return None


def missing_upload(key: str) -> str:
    if uploads.is_key(key):
        return (f"The link names an uploaded image, {quoted(key)}, that this server does not "
                f"have (uploads are kept for {uploads.MAX_AGE_S // 86400} days, on the server "
                "they were uploaded to). Ask for the image and upload it again.")
    if uploads.is_key(str(key).strip()):  # quoted() does not show the line break itself
        return (f"The link names an upload, {quoted(key)}, with a line break or a space around "
                "it, so it is not a valid upload name: skipped.")
    return f"The link names an upload, {quoted(key)}, that is not a valid upload name: skipped."


def add_stored_upload(key: str, name: str | None = None) -> str | None:
    found = stored_upload(key)
    if found is None:
        return missing_upload(key)
    stored_name, img = found
    return _add(Stored(key, name or stored_name, images.resize(img, (SOURCE_SIZE, SOURCE_SIZE))))


def add_drawing(key: str) -> str | None:
    """Store a pattern drawn by hand (drawn/<size>/<hex>: the link carries the drawing)."""
    try:
        grid = drawing.parse_key(key)
    except ValueError as e:
        return f"The drawing {quoted(key)} cannot be read: {e}."
    name = "drawing " + hashlib.sha1(key.encode()).hexdigest()[:4]
    return _add(Stored(key, name, drawing.to_image(grid, SOURCE_SIZE)))


def add(key: str) -> str | None:
    """Store a preset, an upload or a drawing by its key, as a link names it."""
    if key.startswith(uploads.PREFIX):
        return add_stored_upload(key)
    if key.startswith(drawing.PREFIX):
        return add_drawing(key)
    return add_preset(key)


def _add(item: Stored) -> str | None:
    items = st.session_state.store
    if any(s.key == item.key for s in items):
        return f"{item.name} is already stored."
    if len(items) >= MAX_PATTERNS:
        return f"The store is full ({MAX_PATTERNS} patterns). Remove one to add {item.name}."
    items.append(item)
    return None


def remove(key: str) -> None:
    st.session_state.store = [s for s in store() if s.key != key]


def clear() -> None:
    st.session_state.store = []


def setting(key: str):
    """A shared setting of the sidebar (ui.shared_settings) as in use."""
    return SIDEBAR.value(key)


def representation() -> tuple[int, bool, str]:
    return int(setting("size")), bool(setting("colour")), str(setting("binarize"))


def to_pattern(img: np.ndarray, binary: bool) -> np.ndarray:
    size, colour, binarize = representation()
    return _to_pattern(img, binary, size, colour, binarize)


def _to_pattern(img: np.ndarray, binary: bool, size: int, colour: bool, binarize: str) -> np.ndarray:
    small = images.resize(img, (size, size))
    if binary:
        return images.to_bipolar(small, colour=colour, dither=binarize == "dither")
    return images.to_continuous(small, colour=colour, unit_norm=True)


def _source(key: str, img: np.ndarray, size: int) -> np.ndarray:
    """The image a pattern is made from: a drawing at its own size exactly, cell for cell
    (resampling would blur its edges); anything else as stored."""
    if key.startswith(drawing.PREFIX) and key.split("/")[1] == str(size):
        return drawing.to_image(drawing.parse_key(key), size)
    return img


@st.cache_resource(max_entries=64, show_spinner=False)
def _pattern_set(keys: tuple, names: tuple, size: int, colour: bool, binarize: str, binary: bool,
                 _images: tuple) -> PatternSet:
    """The patterns of stored items, once per (items, representation) for every session:
    an item's key names its image (a preset's name, an upload's hash), so the keys and the
    representation determine X. Read-only: X is shared by every rerun that asks."""
    shape = (size, size, 3) if colour else (size, size)
    d = int(np.prod(shape))
    X = (np.stack([_to_pattern(_source(k, img, size), binary, size, colour, binarize)
                   for k, img in zip(keys, _images)])
         if _images else np.zeros((0, d)))
    X.flags.writeable = False
    fp = hashlib.sha1(X.tobytes() + str(shape).encode()).hexdigest()[:16]
    return PatternSet(X, shape, tuple(names), binary, fp)


def patterns(binary: bool = True) -> PatternSet:
    """The stored images as patterns, in the representation chosen in the sidebar."""
    size, colour, binarize = representation()
    items = store()
    return _pattern_set(tuple(s.key for s in items), tuple(s.name for s in items), size, colour,
                        binarize, binary, tuple(s.image for s in items))


def picture_png(pattern: np.ndarray, shape: tuple, lo: float = -1.0, hi: float = 1.0,
                width: int = 256) -> bytes:
    """A pattern (values from lo to hi) as PNG bytes: see image_png."""
    return image_png(images.to_image(pattern, shape, lo, hi), width)


def image_png(img: np.ndarray, width: int = 256) -> bytes:
    """An (H, W, 3) image in [0, 1] as PNG bytes, pixels enlarged by a whole factor to at
    most `width` px, encoded once per content for every session. Show it with
    `st.image(..., output_format="PNG")` at `width` or "stretch": Streamlit then sends the
    bytes as they are, where an array (or output_format "auto", which turns RGB into JPEG)
    would be encoded again on every rerun."""
    a = np.ascontiguousarray(img, dtype=np.float64)
    key = f"{hashlib.sha1(a.tobytes()).hexdigest()}|{a.shape}|{width}"
    return _png(key, a, width)


@st.cache_resource(max_entries=2048, show_spinner=False)
def _png(key: str, _img: np.ndarray, width: int) -> bytes:
    return exports.png_bytes(_img, width)  # a few kB each


# ---------------------------------------------------------------- the query

def query_image() -> tuple[str, np.ndarray] | None:
    """(upload key, image) of the uploaded query image, or None when the query is made from
    a stored pattern."""
    key = st.session_state.get("q_image")
    found = stored_upload(key) if key else None
    return (key, found[1]) if found else None


def query_source(ps: PatternSet) -> int | None:
    """The stored pattern the query is made from, or None for an uploaded query image."""
    if query_image() is not None:
        return None
    return min(int(setting("q_index")), ps.N - 1)


def query(ps: PatternSet) -> tuple[np.ndarray, str]:
    """The corrupted query for the current settings, and a short key that identifies it."""
    i = query_source(ps)
    if i is None:
        source, upload = query_image()
        clean = to_pattern(upload, ps.binary)
    else:
        clean = ps.X[i]
        source = f"pattern/{i}"
    kind, amount, seed = str(setting("q_corruption")), float(setting("q_amount")), int(setting("q_seed"))
    q = images.corrupt(clean, ps.shape, kind, amount, rng=seed, binary=ps.binary)
    if not ps.binary:
        q = q.astype(ps.X.dtype)
    flips = flipped_pixels(ps)
    if flips:  # pixels flipped by hand (binary patterns): every channel of each
        q = q.copy()
        channels = ps.shape[2] if len(ps.shape) == 3 else 1
        q[[p * channels + c for p in flips for c in range(channels)]] *= -1
    return q, f"{source}|{kind}|{amount}|{seed}|{ps.fingerprint}|{','.join(map(str, flips))}"


def flipped_pixels(ps: PatternSet) -> tuple[int, ...]:
    """The query's pixels flipped by hand that apply to these patterns (binary ones, pixels
    inside the image)."""
    if not ps.binary:
        return ()
    pixels = ps.shape[0] * ps.shape[1]
    return tuple(p for p in setting("q_flip") if p < pixels)


# ---------------------------------------------------------------- URL state

MAX_LINK_NOTES = 4  # messages about one link's store: beyond these, a count


def init_from_url() -> None:
    """Once per session, before the widgets exist: the shared settings (ui.shared_settings),
    the store (`presets`), the uploaded query image and presenter mode from the link. Every
    value that cannot be used is named in `link_messages` (shown by streamlit_app.py)."""
    SIDEBAR.bind()
    if st.session_state.get("_url_loaded"):
        return
    st.session_state._url_loaded = True
    params = st.query_params
    notes = []
    if "presets" in params:
        st.session_state.store = []
        keys = [k.strip() for k in params["presets"].split(",") if k.strip()]
        if len(keys) > MAX_PATTERNS:
            notes.append(f"The link lists {len(keys)} patterns; the store holds at most "
                         f"{MAX_PATTERNS}: using the first {MAX_PATTERNS}.")
            keys = keys[:MAX_PATTERNS]
        notes += [m for m in (add(_opened(k)) for k in keys) if m]
        if keys and not st.session_state.store:  # an empty value is an empty store (Clear all)
            notes.append("None of the link's patterns could be stored: the store is empty. "
                         "Add presets or upload images in the sidebar.")
    if "q_image" in params:
        key = _opened(params["q_image"])
        if not uploads.is_key(key) or stored_upload(key) is None:
            notes.append(missing_upload(key))
        else:
            st.session_state.q_image = key
    if params.get("presenter") in ("1", "true"):
        st.session_state.presenter = True
    if len(notes) > MAX_LINK_NOTES:
        notes = notes[:MAX_LINK_NOTES - 1] + [f"... and {len(notes) - MAX_LINK_NOTES + 1} more "
                                               "of the link's patterns could not be stored."]
    st.session_state.setdefault("link_messages", []).extend(notes)


def _opened(key: str) -> str:
    """A key a link names: an upload among them is kept over anonymous ones (ui.uploads)."""
    if uploads.is_key(key):
        uploads.default_store().open_link(key)
    return key


def publish_url(page_settings: dict | None = None) -> None:
    """Write the settings that define the current demo into the query string: the shared
    ones, the store, the query image, presenter mode and the page's own."""
    values = SIDEBAR.link()
    values["presets"] = ",".join(s.key for s in store())
    if query_image() is not None:
        values["q_image"] = st.session_state.q_image
    if st.session_state.get("presenter"):
        values["presenter"] = 1
    values.update(page_settings or {})
    wanted = {k: str(v) for k, v in values.items()}
    if dict(st.query_params) != wanted:
        st.query_params.from_dict(wanted)


def presenter() -> bool:
    return bool(st.session_state.get("presenter", False))


# ---------------------------------------------------------------- cached runs

def build_model(kind: str, X: np.ndarray, cfg: dict):
    from hopfield_core import ClassicalHopfield, DenseAssociativeMemory, ModernHopfield

    if kind == "classical":
        return ClassicalHopfield(X, learning_rule=cfg.get("learning_rule", "hebbian"))
    if kind == "dense":
        return DenseAssociativeMemory(X, interaction=cfg.get("interaction", "polynomial"),
                                      degree=cfg.get("degree", 3), beta=cfg.get("beta", 1.0),
                                      rectified=cfg.get("rectified", False))
    if kind == "modern":
        return ModernHopfield(X, beta=cfg.get("beta", 1.0))
    raise ValueError(f"unknown model {kind!r}")


# the runs of every session, bounded by bytes (ui/memory_plan.py): a trajectory of d = 3072
# neurons holds 25 kB a step, and a run up to the budget some 36 MB
RUNS = ByteCache("runs", memory_plan.RUNS_BYTES)


def _cached_run(kind: str, cfg: tuple, fingerprint: str, query_key: str, run_kwargs: tuple,
                _X: np.ndarray, _q: np.ndarray):
    """The run, once per (model, settings, patterns, query, run options) for every session,
    kept in RUNS and shared read-only. Keyed by small values only: the arrays (leading
    underscore) are named by the fingerprint and the query key."""
    key = (kind, cfg, fingerprint, query_key, run_kwargs)
    return RUNS.get(key, lambda: model_for(kind, cfg, fingerprint, _X).run(_q, **dict(run_kwargs)))


def _model_bytes(model) -> int:
    own = getattr(model, "nbytes", None)  # the classical and dense networks count their own
    return int(own) if own is not None else int(model.patterns.nbytes)


# the built networks, budget.MODELS_BYTES in all (least recently used out first)
MODELS = ByteCache("models", budget.MODELS_BYTES, size_of=_model_bytes)
_build_lock = threading.Lock()  # one network built at a time: their peaks never add up


def model_for(kind: str, cfg: tuple, fingerprint: str, _X: np.ndarray):
    """A model shared read-only by the runs and reruns that need its weights (never mutated):
    its weights are built once per (model, settings, patterns), not once per query, and by
    one session at a time (a classical network of d = 3072 neurons holds a 38 MB weight
    matrix, 75 MB for the Storkey and pseudo-inverse rules); a network already kept is
    returned at once, even while another is being built."""
    def build():
        with _build_lock:
            return build_model(kind, _X, dict(cfg))

    return MODELS.get((kind, cfg, fingerprint), build)


# figures and verdicts shared by every session, bounded by bytes (ui/memory_plan.py): an
# energy curve is some 40 kB, the modern page's largest figure 0.7 MB
SHARED = ByteCache("shared", memory_plan.SHARED_BYTES)


def shared(key, _make):
    """_make(), computed once per `key` and shared read-only by every rerun and session.

    `key` (a string or tuple of small, hashable values) must name everything the result
    depends on, page included. Meant for figures (st.plotly_chart serialises a copy, never
    mutates) and verdicts: rebuilding a Plotly figure costs milliseconds that every rerun
    would pay.
    """
    return SHARED.get(key, _make)


def run(kind: str, cfg: dict, ps: PatternSet, q: np.ndarray, query_key: str, share: float = 1.0,
        **run_kwargs):
    """model.run(q, **run_kwargs), cached per (model, settings, patterns, query).

    The step limit is cut to what fits in `share` of one run's CPU and memory budgets
    (ui.budget), with a sentence on the page when it is: no student can hold the shared server
    for long, or fill its memory. A network too large for the memory budget is refused: the
    page stops there with a sentence that names the limit and what to lower."""
    requested = int(run_kwargs.get("max_steps", 100))
    steps, note = budget.run_cap(kind, run_kwargs.get("mode", ""), ps.d, ps.N, requested, share,
                                 cfg, ps.shape[0] * ps.shape[1])
    if steps == 0:
        st.error(note, icon=":material/memory:")
        st.stop()
    run_kwargs["max_steps"] = steps
    traj = _cached_run(kind, tuple(sorted(cfg.items())), ps.fingerprint, query_key,
                       tuple(sorted(run_kwargs.items())), ps.X, q)
    if note and traj.steps >= steps and not traj.converged:
        st.caption(note)  # only when the cut mattered: a run that settled earlier lost nothing
    return traj
