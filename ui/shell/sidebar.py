"""The sidebar: presenter mode, and the shared panels a page uses (the pattern store, how
images become patterns, the query). A page names what applies to it (`panels(...)`), so the
sidebar shows only that; the values of a panel that is not shown stay in use (ui.settings.layer)."""
from __future__ import annotations

import streamlit as st

from hopfield_core.image_files import ImageError
from hopfield_core.presets import preset_groups
from ui.charts import pictures
from ui.serving.text import quoted
from ui.settings.modes import PROJECTOR_HELP
from ui.store import patterns, store
from ui.store.shared_settings import CORRUPTION_LABELS, LINK, SIDEBAR, STORE_KEPT, USES_AMOUNT, USES_SEED
from ui.store.upload_quota import QuotaExceeded
from ui.store.uploads import UPLOAD_TYPES

from . import presenter_view

NOTHING_CHOSEN = "Choose one or more presets in the list first, then press Add."

# The preset list keeps one height whether it has the focus or not. Streamlit gives its text
# field 48 px of room with the focus and 8 px without, so a row of chips with 8 to 48 px left
# over wraps the field onto a line of its own only while the list has the focus: the list
# shrank by one line when a click on Add took the focus away, Add jumped up from under the
# pointer, and the click was lost (issue 34). The same room in both states: no jump.
STORE_CSS = ("<style>.st-key-preset_names [data-testid='stMultiSelectTagsContainer'] input"
             " { min-width: 3rem !important; }</style>")


def presenter_toggle() -> None:
    """Every page: the switches to presenter mode (the sidebar hides in it) and to
    high-contrast projector mode (ui.shell.page_style; presenter mode shows its own switch)."""
    with st.sidebar, st.container(key="controls_sidebar_top"):
        st.toggle("Presenter mode", key="presenter",
                  help="Hide the controls and enlarge everything for a projector.")
        st.toggle("High-contrast projector mode", key="projector", help=PROJECTOR_HELP)


def panels(store: bool = True, representation: bool = True, binary: bool = True,
           query: bool = True) -> None:
    """The shared panels that apply to the page at hand. `binary`: the page's networks use
    +-1 patterns (so the binarisation applies)."""
    with st.sidebar, st.container(key="controls_sidebar"):
        if store:
            _store_panel()
        if representation:
            _representation_panel(binary)
        if query:
            _query_panel()


def _store_panel() -> None:
    st.session_state[presenter_view.STORE_DRAWN] = True  # the page uses the store: presenter mode shows it
    items = store.items()
    st.header(f"Pattern store ({len(items)}/{store.MAX_PATTERNS})")
    if LINK.hidden("presets"):  # presets_hide=1: the store shown, its editing controls not
        st.caption(STORE_KEPT)
        if items:
            _store_gallery(items, removable=False)
        return
    groups = preset_groups()
    group = st.segmented_control("Presets", list(groups), key="preset_group", default="letters",
                                 required=True)
    st.html(STORE_CSS)  # style only: takes no room
    st.multiselect(f"Choose {group}", groups[group], key="preset_names",
                   placeholder=f"pick {group} to store")
    b1, b2 = st.columns(2)
    # Add reads the choice when it is clicked, and is never greyed out: a click that comes
    # before the rerun of the last pick (a busy server) still adds what is chosen
    b1.button("Add", key="add_presets", width="stretch", on_click=_add_presets)
    b2.button("Clear all", key="clear_store", disabled=not items, width="stretch",
              on_click=store.clear)
    _uploader()
    for msg in st.session_state.get("store_messages", []):
        st.warning(msg)
    if items:
        _store_gallery(items)
    else:
        st.info("The store is empty: add presets or upload images.")


def _add_presets() -> None:
    """on_click of Add: store the presets chosen at the moment of the click."""
    group = st.session_state.get("preset_group") or "letters"
    names = st.session_state.get("preset_names") or []
    if not names:
        st.session_state.store_messages = [NOTHING_CHOSEN]
        return
    msgs = [m for m in (store.add_preset(f"{group}/{n}") for n in names) if m]
    st.session_state.store_messages = msgs
    st.session_state.preset_names = []


def _ingest_uploads() -> None:
    """on_change of the uploader (runs before the page): store each new file once."""
    seen = st.session_state.setdefault("_seen_uploads", set())
    errors, msgs, over = [], [], []
    for f in st.session_state.get("uploader") or []:
        if f.file_id in seen or not store.has_bytes(f):
            continue
        seen.add(f.file_id)
        try:
            msg = store.add_upload(f.name, f.getvalue())
        except QuotaExceeded as e:
            over.append((f.name, e))
        except ImageError as e:
            errors.append(f"{quoted(f.name)}: {e}")
        else:
            if msg:
                msgs.append(msg)
        finally:
            store.release_upload(f.file_id)  # read once: Streamlit need not keep its bytes
    if over:  # one sentence for the files over this tab's quota, however many
        others = f" and {len(over) - 1} more" if len(over) > 1 else ""
        errors.append(f"{quoted(over[0][0])}{others} not stored: {over[-1][1]}")
    st.session_state.upload_errors = errors
    st.session_state.store_messages = msgs


def _uploader() -> None:
    st.file_uploader("Upload images", type=UPLOAD_TYPES, accept_multiple_files=True,
                     key="uploader", on_change=_ingest_uploads,
                     help="PNG, JPEG, GIF, WebP or BMP; each is centre-cropped to a square. "
                          + store.KEPT_WORDS)
    for err in st.session_state.get("upload_errors", []):
        st.error(err)


def _store_gallery(items, removable: bool = True) -> None:
    """The stored patterns, three to a row (large enough to tell apart in the sidebar). Each
    caption takes two lines, broken between words (page_style.PAGE_CSS), so the remove buttons
    under a row line up; the button's tooltip names the pattern in full."""
    with st.expander("Stored patterns, as the networks see them", expanded=len(items) <= 12):
        ps = patterns.from_store(binary=True)
        per_row = 3
        for start in range(0, len(items), per_row):
            cols = st.columns(per_row)
            for i, (col, item, x) in enumerate(zip(cols, items[start:start + per_row],
                                                   ps.X[start:start + per_row]), start=start + 1):
                col.image(pictures.picture_png(x, ps.shape), caption=f"{i}. {item.name}",
                          width="stretch", output_format="PNG", alt=gallery_alt(i, item.name, ps.shape))
                if removable:
                    col.button("✕", key=f"remove_{item.key}", help=f"Remove {i}. {item.name}",
                               on_click=store.remove, args=(item.key,))


def gallery_alt(number: int, name: str, shape: tuple) -> str:
    """A gallery picture's alt text: which stored pattern, and what the picture is (a +-1
    pattern: black and white, or in colour each channel on or off). `name` is the store's
    (ui.serving.text.safe_name for an upload); Streamlit sets it as the attribute, escaped."""
    kind = "colour image, each channel on or off" if len(shape) == 3 else "black-and-white image"
    return f"Stored pattern {number}, {name}: a {shape[0]} x {shape[1]} {kind}"


def _representation_panel(binary: bool) -> None:
    st.header("How images become patterns")
    SIDEBAR.show("size")
    c1, c2 = st.columns(2)
    SIDEBAR.show("colour", c1)
    if binary:
        SIDEBAR.show("binarize", c2, horizontal=True)
    else:
        c2.caption("Continuous patterns: pixel values, centred, unit length.")
    size, colour, _ = patterns.representation()
    st.caption(f"d = {size * size * (3 if colour else 1)} neurons")


def _query_panel() -> None:
    """Only the controls that shape the query (ui.store.query.make): with an uploaded query image,
    the pattern to start from does not apply (the corruption does); the amount and the seed
    are greyed out for a corruption that does not read them."""
    st.header("The query")
    items = store.items()
    image = store.query_upload()
    if image is None and st.session_state.get("q_image"):  # in use, and removed since
        st.session_state.q_image = None
        st.session_state.q_upload_error = store.removed_upload("the query was made from")
    if image is not None:
        name, _ = store.stored_upload(image[0]) or ("upload", None)
        st.caption(f"The query is the uploaded image {quoted(name)}, not a stored pattern; the "
                   "corruption below is applied to it.")
        st.button("Start from a stored pattern instead", key="q_image_clear", on_click=_clear_query_image)
    elif items:
        SIDEBAR.show("q_index", options=range(len(items)),
                     format_func=lambda i: f"{i + 1}. {items[i].name}")
    SIDEBAR.show("q_corruption")
    kind = SIDEBAR["q_corruption"]
    SIDEBAR.show("q_amount", disabled=kind not in USES_AMOUNT)
    SIDEBAR.show("q_seed", disabled=kind not in USES_SEED)
    unused = unused_note(kind)
    if unused:
        st.caption(unused)
    st.file_uploader("Or upload a query image", type=UPLOAD_TYPES, key="q_uploader",
                     on_change=_ingest_query_upload, help=store.KEPT_WORDS)
    if st.session_state.get("q_upload_error"):
        st.error(st.session_state.q_upload_error)


def unused_note(kind: str) -> str:
    """The sentence under the greyed-out controls of a corruption ("" when both apply)."""
    unused = [what for what, kinds in (("amount", USES_AMOUNT), ("seed", USES_SEED))
              if kind not in kinds]
    if not unused:
        return ""
    which = " and the ".join(unused)
    verb = "does" if len(unused) == 1 else "do"
    if kind == "none":
        return f"No corruption: the {which} {verb} not apply."
    return f"The {which} {verb} not apply to “{CORRUPTION_LABELS[kind]}”."


def _ingest_query_upload() -> None:
    """on_change of the query uploader: decode and keep the file once (not on every rerun)."""
    f = st.session_state.get("q_uploader")
    if f is not None and not store.has_bytes(f):  # the file this uploader read, released since
        return
    st.session_state.q_upload_error = None
    if f is None:
        st.session_state.q_image = None
        return
    try:
        key = store.keep_upload(f.name, f.getvalue())
    except ImageError as e:
        st.session_state.q_image = None
        st.session_state.q_upload_error = f"{quoted(f.name)}: {e}"
        return
    finally:
        store.release_upload(f.file_id)  # read once: Streamlit need not keep its bytes
    if store.stored_upload(key) is None:  # gone again before it could be read
        st.session_state.q_image = None
        st.session_state.q_upload_error = store.removed_upload(quoted(f.name))
        return
    st.session_state.q_image = key


def _clear_query_image() -> None:
    st.session_state.q_image = None
