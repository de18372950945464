"""A run's downloads: PNG of the final state, GIF of the run, CSV of the energies."""
from __future__ import annotations

import numpy as np
import streamlit as st

from ui.charts import exports


def downloads(page: str, frames: np.ndarray, energies: np.ndarray, extra: dict | None = None) -> None:
    """PNG of the last frame, GIF of the whole run, CSV of the energies: each file is made
    only when its button is clicked, so reruns do not pay for encoding. frames: (T+1, H, W, 3)
    pictures, floats in [0, 1] or bytes; the GIF is written a frame at a time and shows at most
    exports.MAX_GIF_FRAMES of them (a caption says so under a longer run)."""
    c1, c2, c3 = st.columns(3)
    cols = {"step": np.arange(len(energies)), "energy": energies, **(extra or {})}
    c1.download_button("PNG of the final state", lambda: exports.png_bytes(frames[-1]),
                       file_name=f"{page}_final.png", mime="image/png", key=f"{page}_png",
                       on_click="ignore")
    c2.download_button("GIF of the run", lambda: exports.gif_bytes(frames), file_name=f"{page}_run.gif",
                       mime="image/gif", key=f"{page}_gif", on_click="ignore")
    c3.download_button("Energies as CSV", lambda: exports.csv_bytes(cols), file_name=f"{page}_energies.csv",
                       mime="text/csv", key=f"{page}_csv", on_click="ignore")
    note = exports.gif_note(len(frames))
    if note:
        st.caption(note)
