"""Shared widgets: the pattern store and query in the sidebar, the step/play player, downloads."""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core.images import CORRUPTIONS, ImageError
from hopfield_core.presets import preset_groups

from . import exports, state
from .text import quoted

UPLOAD_TYPES = ["png", "jpg", "jpeg", "gif", "webp", "bmp"]
PLAY_INTERVAL_S = 0.4
CORRUPTION_LABELS = {"none": "none", "flip": "flip pixels", "noise": "Gaussian noise",
                     "mask": "mask a square", "half": "hide the bottom half", "invert": "invert"}


def _default(key: str) -> None:
    if key not in st.session_state:
        st.session_state[key] = state.URL_SETTINGS[key][0]


# ---------------------------------------------------------------- sidebar

def sidebar() -> None:
    """Everything shared by the pages: the store, the representation, the query."""
    with st.sidebar:
        with st.container(key="controls_sidebar"):
            st.toggle("Presenter mode", key="presenter",
                      help="Hide the controls and enlarge everything for a projector.")
            _store_panel()
            _representation_panel()
            _query_panel()


def _store_panel() -> None:
    items = state.store()
    st.subheader(f"Pattern store ({len(items)}/{state.MAX_PATTERNS})")
    groups = preset_groups()
    group = st.segmented_control("Presets", list(groups), key="preset_group", default="letters",
                                 required=True)
    names = st.multiselect(f"Choose {group}", groups[group], key="preset_names",
                           placeholder=f"pick {group} to store")
    b1, b2 = st.columns(2)
    b1.button("Add", key="add_presets", disabled=not names, width="stretch",
              on_click=_add_presets, args=(group, names))
    b2.button("Clear all", key="clear_store", disabled=not items, width="stretch",
              on_click=state.clear)
    _uploader()
    for msg in st.session_state.get("store_messages", []):
        st.warning(msg)
    if items:
        _store_gallery(items)
    else:
        st.info("The store is empty: add presets or upload images.")


def _add_presets(group: str, names: list[str]) -> None:
    msgs = [m for m in (state.add_preset(f"{group}/{n}") for n in names) if m]
    st.session_state.store_messages = msgs
    st.session_state.preset_names = []


def _ingest_uploads() -> None:
    """on_change of the uploader (runs before the page): store each new file once."""
    seen = st.session_state.setdefault("_seen_uploads", set())
    errors, msgs = [], []
    for f in st.session_state.get("uploader") or []:
        if f.file_id in seen:
            continue
        seen.add(f.file_id)
        try:
            msg = state.add_upload(f.name, f.getvalue())
        except ImageError as e:
            errors.append(f"{quoted(f.name)}: {e}")
        else:
            if msg:
                msgs.append(msg)
    st.session_state.upload_errors = errors
    st.session_state.store_messages = msgs


def _uploader() -> None:
    st.file_uploader("Upload images", type=UPLOAD_TYPES, accept_multiple_files=True,
                     key="uploader", on_change=_ingest_uploads,
                     help="PNG, JPEG, GIF, WebP or BMP; each is centre-cropped to a square.")
    for err in st.session_state.get("upload_errors", []):
        st.error(err)


def _store_gallery(items) -> None:
    with st.expander("Stored patterns, as the networks see them", expanded=len(items) <= 12):
        ps = state.patterns(binary=True)
        per_row = 4
        for start in range(0, len(items), per_row):
            cols = st.columns(per_row)
            for col, item, x in zip(cols, items[start:start + per_row], ps.X[start:start + per_row]):
                col.image(state.picture_png(x, ps.shape), caption=f"{items.index(item) + 1}. {item.name}",
                          width="stretch", output_format="PNG")
                col.button("✕", key=f"remove_{item.key}", help=f"Remove {item.name}",
                           on_click=state.remove, args=(item.key,))


def _representation_panel() -> None:
    st.subheader("How images become patterns")
    for key in ("size", "colour", "binarize"):
        _default(key)
    st.select_slider("Size (pixels a side)", options=state.SIZES, key="size")
    c1, c2 = st.columns(2)
    c1.toggle("Colour", key="colour", help="One neuron per channel: d = 3 x size^2.")
    c2.radio("Binary by", ["threshold", "dither"], key="binarize", horizontal=True,
             help="threshold: brighter than the image's mean is +1; dither: Floyd-Steinberg dots.")
    size, colour, _ = state.representation()
    st.caption(f"d = {size * size * (3 if colour else 1)} neurons")


def _query_panel() -> None:
    st.subheader("The query")
    items = state.store()
    for key in ("q_index", "q_corruption", "q_amount", "q_seed"):
        _default(key)
    if items:
        st.session_state.q_index = min(int(st.session_state.q_index), len(items) - 1)
        st.selectbox("Start from pattern", range(len(items)), key="q_index",
                     format_func=lambda i: f"{i + 1}. {items[i].name}")
    st.selectbox("Corruption", CORRUPTIONS, key="q_corruption", format_func=CORRUPTION_LABELS.get)
    st.slider("Amount", 0.0, 1.0, step=0.05, key="q_amount",
              help="flip: the fraction of pixels flipped; noise: its strength; mask: the area hidden.")
    st.number_input("Seed", min_value=0, max_value=2 ** 31 - 1, step=1, key="q_seed",
                    help="The same seed gives every student the same corrupted query.")
    st.file_uploader("Or upload a query image", type=UPLOAD_TYPES, key="q_uploader",
                     on_change=_ingest_query_upload)
    if st.session_state.get("q_upload_error"):
        st.error(st.session_state.q_upload_error)
    image = state.query_image()
    if image is not None:
        st.caption("The query is the uploaded image, not a stored pattern.")
        st.button("Start from a stored pattern instead", key="q_image_clear", on_click=_clear_query_image)


def _ingest_query_upload() -> None:
    """on_change of the query uploader: decode and keep the file once (not on every rerun)."""
    f = st.session_state.get("q_uploader")
    st.session_state.q_upload_error = None
    if f is None:
        st.session_state.q_image = None
        return
    try:
        st.session_state.q_image = state.keep_upload(f.name, f.getvalue())
    except ImageError as e:
        st.session_state.q_image = None
        st.session_state.q_upload_error = f"{quoted(f.name)}: {e}"


def _clear_query_image() -> None:
    st.session_state.q_image = None


def link_messages() -> None:
    """What the link asked for that could not be used, until the user dismisses it."""
    notes = st.session_state.get("link_messages")
    if not notes:
        return
    with st.container(key="link_messages"):
        for note in notes:
            st.warning(note, icon=":material/link_off:")
        st.button("Dismiss", key="dismiss_link_messages", on_click=st.session_state.pop,
                  args=("link_messages", None))


# ---------------------------------------------------------------- sections

def sections(key: str, labels: dict[str, str], url_key: str = "view") -> str:
    """A row of section buttons of which only the chosen section runs: a page's secondary
    parts cost the server nothing until a student opens them. The link names the open
    section (?view=name). Returns the chosen section's name."""
    names = list(labels)
    if key not in st.session_state:
        st.session_state[key] = state.url_choice(url_key, names, names[0])
    chosen = st.segmented_control("Section", names, key=key, required=True,
                                  format_func=labels.get, label_visibility="collapsed",
                                  width="stretch")
    return chosen or names[0]


# ---------------------------------------------------------------- presenter mode

PRESENTER_CSS = """
<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[class*="st-key-controls"] { display: none !important; }
.block-container { max-width: 100% !important; padding-top: 3.5rem !important; }
html, body, [data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li
  { font-size: 1.35rem !important; }
h1 { font-size: 3rem !important; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] * { font-size: 2.8rem !important; }
</style>
"""


def apply_presenter_mode() -> None:
    if state.presenter():
        st.markdown(PRESENTER_CSS, unsafe_allow_html=True)
        st.button("Leave presenter mode", key="leave_presenter", on_click=_leave_presenter)


def _leave_presenter() -> None:
    st.session_state.presenter = False


# ---------------------------------------------------------------- the player

def _cursor(page: str) -> str:
    return f"{page}_t"


def _set_t(page: str, value: int) -> None:
    st.session_state[_cursor(page)] = value
    st.session_state[f"{page}_playing"] = False


def _play(page: str, T: int) -> None:
    if st.session_state.get(_cursor(page), 0) >= T:
        st.session_state[_cursor(page)] = 0
    st.session_state[f"{page}_playing"] = True


def player(page: str, T: int, run_key: str) -> int:
    """Reset / Step / Run / Play over a precomputed run of T steps; returns the step shown.

    The cursor goes back to 0 whenever the run changes (new query, new settings).
    """
    if st.session_state.get(f"{page}_run") != run_key:
        st.session_state[f"{page}_run"] = run_key
        st.session_state[_cursor(page)] = 0
        st.session_state[f"{page}_playing"] = False
    t = min(st.session_state.get(_cursor(page), 0), T)
    playing = st.session_state.get(f"{page}_playing", False)
    cols = st.columns([1, 1, 1, 1, 3])
    cols[0].button("Reset", icon=":material/first_page:", key=f"{page}_reset", on_click=_set_t, args=(page, 0), width="stretch")
    cols[1].button("Step", icon=":material/step:", key=f"{page}_step", on_click=_set_t, args=(page, min(t + 1, T)),
                   disabled=t >= T, width="stretch", type="primary")
    cols[2].button("Run", icon=":material/last_page:", key=f"{page}_run_all", on_click=_set_t, args=(page, T),
                   disabled=t >= T, width="stretch")
    if playing:
        cols[3].button("Pause", icon=":material/pause:", key=f"{page}_pause", on_click=_set_t, args=(page, t),
                       width="stretch")
    else:
        cols[3].button("Play", icon=":material/play_arrow:", key=f"{page}_play", on_click=_play, args=(page, T),
                       disabled=T == 0, width="stretch")
    cols[4].markdown(f"**step {t} of {T}**")
    if T > 0:
        st.session_state[f"{page}_scrub"] = t
        st.slider("Scrub through the steps", 0, T, key=f"{page}_scrub", label_visibility="collapsed",
                  on_change=lambda: _set_t(page, st.session_state[f"{page}_scrub"]))
    return t


def animated(page: str, body) -> None:
    """Run `body()` as a fragment that the browser re-runs every PLAY_INTERVAL_S while
    playing: each tick advances the cursor one step, without rerunning the whole page."""
    playing = st.session_state.get(f"{page}_playing", False)
    st.session_state[f"{page}_timer"] = playing  # whether this fragment gets a timer

    def tick():
        now = st.session_state.get(f"{page}_playing", False)
        if now != st.session_state.get(f"{page}_timer"):
            # Play or Pause was pressed inside the fragment: only a full rerun can start
            # or stop the fragment's timer
            st.rerun(scope="app")
        if now:
            st.session_state[_cursor(page)] = st.session_state.get(_cursor(page), 0) + 1
        body()

    st.fragment(tick, run_every=PLAY_INTERVAL_S if playing else None)()


def stop_if_done(page: str, t: int, T: int) -> None:
    """Called by the body at the last step: stop the timer with a full rerun."""
    if st.session_state.get(f"{page}_playing") and t >= T:
        st.session_state[f"{page}_playing"] = False
        st.rerun(scope="app")


# ---------------------------------------------------------------- downloads

def downloads(page: str, frames: np.ndarray, energies: np.ndarray, extra: dict | None = None) -> None:
    """PNG of the last frame, GIF of the whole run, CSV of the energies: each file is made
    only when its button is clicked, so reruns do not pay for encoding."""
    c1, c2, c3 = st.columns(3)
    cols = {"step": np.arange(len(energies)), "energy": energies, **(extra or {})}
    c1.download_button("PNG of the final state", lambda: exports.png_bytes(frames[-1]),
                       file_name=f"{page}_final.png", mime="image/png", key=f"{page}_png",
                       on_click="ignore")
    c2.download_button("GIF of the run", lambda: exports.gif_bytes(frames), file_name=f"{page}_run.gif",
                       mime="image/gif", key=f"{page}_gif", on_click="ignore")
    c3.download_button("Energies as CSV", lambda: exports.csv_bytes(cols), file_name=f"{page}_energies.csv",
                       mime="text/csv", key=f"{page}_csv", on_click="ignore")
