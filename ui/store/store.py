"""The pattern store: the images this browser session stores (presets, uploads, drawings),
shared by every page of the session (never across sessions), in st.session_state.store.

An item is named by its key ("letters/H", "upload/<digest>", "drawn/<size>/<hex>"), which is
what a link carries (`presets`, declared in ui.store.shared_settings.LINK); an uploaded query image
is an upload too (`q_image`). Reading those two from a link has no side effect (`read_presets`,
`read_query_image`): the settings layer then puts what could be read in use (`put_presets`,
`use_query_upload`), which marks the link's uploads as linked (ui.store.uploads).
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

import numpy as np
import streamlit as st

from hopfield_core import drawing, images
from hopfield_core.presets import preset_groups, preset_image
from ui.serving.text import quoted, safe_name

from . import upload_budget, upload_quota, uploads

SOURCE_SIZE = 64        # stored images are kept as 64 x 64 squares
MAX_PATTERNS = 40       # the store's cap: beyond it the pages stop being instant
DEFAULT_PRESETS = ("letters/H", "letters/O", "letters/X")
MAX_LINK_NOTES = 4      # messages about one link's store: beyond these, a count
# what an uploader tells the user the server keeps (docs/privacy.md)
KEPT_WORDS = (f"The server keeps it, as a {uploads.KEEP} x {uploads.KEEP} picture with its file "
              f"name, for {uploads.MAX_AGE_S // 86400} days (longer while a link to it is opened "
              f"every {uploads.LINKED_S // 86400} days) so that links can carry it; no account, "
              "name or address is stored.")


def store_first(why: str = "to begin", drawn: bool = False) -> str:
    """What a page shows in place of its content while the store is empty (one sentence for
    every page): `drawn` on the pages whose pattern editor can add a drawing instead."""
    also = ", or draw one above," if drawn else ""
    return f"Store at least one pattern in the sidebar{also} {why}."


@dataclass(frozen=True)
class Stored:
    key: str           # "letters/H", or "upload/<digest>" for an uploaded image (ui.store.uploads)
    name: str          # what the page shows
    image: np.ndarray  # (SOURCE_SIZE, SOURCE_SIZE, 3) in [0, 1]


def items() -> list[Stored]:
    """The stored items, in order (the default presets in a new session)."""
    if "store" not in st.session_state:
        st.session_state.store = []
        for key in DEFAULT_PRESETS:
            add_preset(key)
    return st.session_state.store


# ---------------------------------------------------------------- an item from its key

def _preset(key: str) -> Stored | str:
    group, _, name = key.partition("/")
    if name not in preset_groups().get(group, []):
        return f"There is no preset called {quoted(key)}."
    return Stored(key, name, preset_image(group, name, SOURCE_SIZE))


def _upload(key: str, name: str | None = None) -> Stored | str:
    found = stored_upload(key)
    if found is None:
        return missing_upload(key)
    stored_name, img = found
    return Stored(key, name or stored_name, images.resize(img, (SOURCE_SIZE, SOURCE_SIZE)))


def _drawing(key: str) -> Stored | str:
    """A pattern drawn by hand (drawn/<size>/<hex>: the link carries the drawing)."""
    try:
        grid = drawing.parse_key(key)
    except ValueError as e:
        return f"The drawing {quoted(key)} cannot be read: {e}."
    name = "drawing " + hashlib.sha1(key.encode()).hexdigest()[:4]
    return Stored(key, name, drawing.to_image(grid, SOURCE_SIZE))


def item_of(key: str) -> Stored | str:
    """The item a key names (a preset, an upload or a drawing, as a link names it), or a
    sentence saying why it cannot be stored."""
    if key.startswith(uploads.PREFIX):
        return _upload(key)
    if key.startswith(drawing.PREFIX):
        return _drawing(key)
    return _preset(key)


# ---------------------------------------------------------------- adding and removing

def _add(item: Stored | str) -> str | None:
    """Store an item; returns a message when it cannot be stored."""
    if isinstance(item, str):
        return item
    stored = items()
    if any(s.key == item.key for s in stored):
        return f"{item.name} is already stored."
    if len(stored) >= MAX_PATTERNS:
        return f"The store is full ({MAX_PATTERNS} patterns). Remove one to add {item.name}."
    stored.append(item)
    return None


def add(key: str) -> str | None:
    """Store a preset, an upload or a drawing by its key; a message when it cannot be."""
    return _add(item_of(key))


def add_preset(key: str) -> str | None:
    """Store a preset by "group/name"; returns a message when it cannot be stored."""
    return _add(_preset(key))


def add_upload(filename: str, data: bytes) -> str | None:
    """Keep an uploaded image and add it to this session's pattern store, under this file's
    name (the same image uploaded before under another name keeps its key)."""
    item = _upload(keep_upload(filename, data), safe_name(filename))
    return _add(removed_upload(quoted(filename)) if isinstance(item, str) else item)


def remove(key: str) -> None:
    st.session_state.store = [s for s in items() if s.key != key]


def clear() -> None:
    st.session_state.store = []


# ---------------------------------------------------------------- uploads

def keep_upload(filename: str, data: bytes) -> str:
    """Decode an uploaded file once (the on-disk store is keyed by its bytes) and keep it;
    returns its key. Raises image_files.ImageError on bad files, and its QuotaExceeded when the
    file is new to the store and this session has added its quota of new images lately, or the
    class's store has taken in its minute's worth (upload_budget.BudgetExceeded)."""
    disk = uploads.default_store()
    if disk.has(uploads.key_of(data)):
        return disk.put(filename, data)  # the store has it: nothing counted
    quota = st.session_state.setdefault("_upload_quota", upload_quota.Quota())
    quota.take()
    budget = upload_budget.default_budget()  # the class's, shared by every tab and process
    try:
        budget.check(tab_age_s())
    except upload_budget.BudgetExceeded:
        quota.give_back()  # a refused image does not count against the tab
        raise
    key = disk.put(filename, data)  # ImageError for a bad file: the tab's quota counted it
    budget.record(tab_age_s())
    return key


def opened_tab() -> None:
    """Every run: the time this tab (session) first ran, for the class's upload budget."""
    st.session_state.setdefault("_tab_opened", time.time())


def tab_age_s() -> float:
    return time.time() - st.session_state.get("_tab_opened", time.time())


def upload_key(uploaded_file) -> str:
    """The store key of a file in an st.file_uploader, decoded and kept on its first rerun
    only (remembered by the uploader's file id; its bytes released then). Raises
    image_files.ImageError on bad files."""
    known = st.session_state.setdefault("_upload_keys", {})
    if uploaded_file.file_id not in known:
        try:
            known[uploaded_file.file_id] = keep_upload(uploaded_file.name, uploaded_file.getvalue())
        finally:
            release_upload(uploaded_file.file_id)
    return known[uploaded_file.file_id]


def has_bytes(uploaded_file) -> bool:
    """Whether an uploader's file still has its bytes: a released one (release_upload) reads,
    in a callback's session state, as Streamlit's DeletedFile, which has only its id."""
    return hasattr(uploaded_file, "getvalue")


def release_upload(file_id: str) -> None:
    """Let Streamlit drop an uploaded file's bytes once the app has read them (stored, refused
    or explained). Streamlit keeps every file a session uploaded in memory until the session
    ends and its reconnection window (120 s) passes: 60 scripted sessions uploading 40 photos
    each held 530 MB (benchmarks/bench_upload_flood_memory.py). What the app needs is on disk
    by then (ui.store.uploads) and its key in the session; the uploader still lists the file."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or not Runtime.exists():
        return
    try:
        Runtime.instance().uploaded_file_mgr.remove_file(ctx.session_id, file_id)
    except (KeyError, AttributeError):  # gone already, or a manager without files
        pass


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


def removed_upload(what: str) -> str:
    """An upload this tab stored or was using that the server's store no longer has (what:
    the file's name, quoted, or words for it): what happened and what to do."""
    return (f"The uploaded image {what} is no longer in this server's store of uploads: it was "
            f"removed (uploads are kept for {uploads.MAX_AGE_S // 86400} days, and a full store "
            "removes its oldest first). Upload it again.")


def missing_upload(key: str) -> str:
    if uploads.is_key(key):
        return (f"The link names an uploaded image, {quoted(key)}, that this server does not "
                f"have (uploads are kept for {uploads.MAX_AGE_S // 86400} days, on the server "
                "they were uploaded to). Ask for the image and upload it again.")
    if uploads.is_key(str(key).strip()):  # quoted() does not show the line break itself
        return (f"The link names an upload, {quoted(key)}, with a line break or a space around "
                "it, so it is not a valid upload name: skipped.")
    return f"The link names an upload, {quoted(key)}, that is not a valid upload name: skipped."


# ---------------------------------------------------------------- the link's store and query image

def read_presets(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A link's `presets` (keys separated by commas): the keys of the patterns it can store, in
    order, and sentences on what it cannot (too many, keys no pattern has, repeats, nothing
    storable). No side effect: `put_presets` stores them."""
    keys = [k.strip() for k in text.split(",") if k.strip()]
    notes = []
    if len(keys) > MAX_PATTERNS:
        notes.append(f"The link lists {len(keys)} patterns; the store holds at most "
                     f"{MAX_PATTERNS}: using the first {MAX_PATTERNS}.")
        keys = keys[:MAX_PATTERNS]
    kept = []
    for key in keys:
        item = item_of(key)
        if isinstance(item, str):
            notes.append(item)
        elif item.key in kept:
            notes.append(f"{item.name} is already stored.")
        else:
            kept.append(item.key)
    if keys and not kept:  # an empty value is an empty store (Clear all): no message
        notes.append("None of the link's patterns could be stored: the store is empty. "
                     "Add presets or upload images in the sidebar.")
    if len(notes) > MAX_LINK_NOTES:
        notes = notes[:MAX_LINK_NOTES - 1] + [f"... and {len(notes) - MAX_LINK_NOTES + 1} more "
                                               "of the link's patterns could not be stored."]
    return tuple(kept), tuple(notes)


def put_presets(keys) -> None:
    """Store exactly these patterns (keys read_presets accepted), in place of the store's;
    a link's uploads among them are kept over anonymous ones (ui.store.uploads)."""
    clear()
    for key in keys:
        _opened(key)
        add(key)


def stored_keys() -> tuple[str, ...]:
    """The keys of the stored items, as a link lists them."""
    return tuple(s.key for s in items())


def _opened(key: str) -> None:
    if uploads.is_key(key):
        uploads.default_store().open_link(key)


def read_query_image(text: str) -> tuple[str | None, tuple[str, ...]]:
    """A link's `q_image`: (the upload's key, ()) when this server keeps that upload, else
    (None, the sentence that says why not). No side effect."""
    if not uploads.is_key(text) or stored_upload(text) is None:
        return None, (missing_upload(text),)
    return text, ()


def query_upload() -> tuple[str, np.ndarray] | None:
    """(key, image) of the uploaded query image in use (one this server still keeps), or None
    when the query is made from a stored pattern."""
    key = st.session_state.get("q_image")
    found = stored_upload(key) if key else None
    return (key, found[1]) if found else None


def query_key() -> str | None:
    """The key of the uploaded query image in use, or None."""
    found = query_upload()
    return found[0] if found else None


def use_query_upload(key: str | None) -> None:
    """Make the query from this upload (None: from a stored pattern)."""
    if key is not None:
        _opened(key)
    st.session_state.q_image = key
