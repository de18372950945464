"""The GIF download is written one frame at a time (ui/charts/exports.py write_gif): its memory is one
enlarged frame and the file itself, whatever the length of the run (Pillow's own writer held
every 256-pixel frame: 312 MB resident for a run of 908 steps). A run longer than
MAX_GIF_FRAMES states is shown by that many of them, evenly spaced, and the page says so."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageSequence

from tests.support.memory_probe import traced
from ui.charts import exports

ROOT = Path(__file__).resolve().parents[3]


def noise(n: int, size: int = 32, seed: int = 0) -> np.ndarray:
    """n distinct colour pictures (n, size, size, 3) in bytes: the hardest to compress."""
    return (np.random.default_rng(seed).random((n, size, size, 3)) * 255).astype(np.uint8)


def decoded(gif: bytes, step: int) -> tuple[list[np.ndarray], list[int]]:
    """(every frame of the GIF, sampled back to one value a source pixel; their durations)."""
    im = Image.open(io.BytesIO(gif))
    assert im.info.get("loop") == 0 and im.size == (256, 256)
    frames, ms = [], []
    for f in ImageSequence.Iterator(im):
        frames.append(np.asarray(f.convert("RGB"))[::step, ::step].copy())
        ms.append(f.info["duration"])
    return frames, ms


def test_every_state_is_a_frame_exactly_and_a_repeat_lengthens_the_one_before():
    pictures = noise(12, 16)      # 256 colours a frame: the GIF's palette holds them exactly
    pictures[5] = pictures[4]
    frames, ms = decoded(exports.gif_bytes(pictures), 16)
    kept = [t for t in range(12) if t != 5]
    assert len(frames) == 11 and all(np.array_equal(f, pictures[t]) for f, t in zip(frames, kept))
    assert ms == [400] * 4 + [800] + [400] * 6
    binary = np.where(noise(6, 32)[..., :1] > 127, 255, 0).astype(np.uint8).repeat(3, axis=3)
    frames, _ = decoded(exports.gif_bytes(binary / 255.0), 8)  # floats in [0, 1] as well
    assert len(frames) == len(binary)
    assert all(np.array_equal(f, b) for f, b in zip(frames, binary))


def test_a_long_run_is_shown_by_at_most_max_frames_evenly_spaced():
    states = 3 * exports.MAX_GIF_FRAMES + 7
    pictures = noise(states, 8)
    frames, ms = decoded(exports.gif_bytes(pictures), 32)
    steps = exports.gif_steps(states)
    assert len(frames) == len(steps) == exports.MAX_GIF_FRAMES and set(ms) == {400}
    assert steps[0] == 0 and steps[-1] == states - 1 and np.all(np.diff(steps) >= 3)
    assert all(np.array_equal(f, pictures[t]) for f, t in zip(frames, steps))
    assert exports.gif_note(states) == (
        f"A GIF holds at most {exports.MAX_GIF_FRAMES} frames: this one shows "
        f"{exports.MAX_GIF_FRAMES} of the run's {states} states (steps 0 to {states - 1}), evenly "
        "spaced, the first and the last included. The CSV has every step.")
    assert exports.gif_note(exports.MAX_GIF_FRAMES) is None
    assert list(exports.gif_steps(5)) == [0, 1, 2, 3, 4]


def test_the_traced_peak_is_the_file_and_one_frame_whatever_the_run_length():
    peaks = {}
    for states in (50, 1000):
        pictures = noise(states, 16)
        peak, gif = traced(lambda: exports.gif_bytes(pictures, most=states))  # no frame cap
        peaks[states] = peak - 2 * len(gif)  # the file, and its copy as bytes
        assert Image.open(io.BytesIO(gif)).n_frames == states
    assert peaks[1000] < 2 * 2 ** 20 and peaks[1000] < peaks[50] + 2 ** 20, peaks


RSS_PROBE = """
import json, resource, sys
import numpy as np
from ui.charts import exports
pictures = (np.random.default_rng(0).random((908, 16, 16, 3)) * 255).astype(np.uint8)
exports.gif_bytes(pictures[:3])  # Pillow's encoders loaded
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
gif = exports.gif_bytes(pictures, most=908)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"growth": (after - before) * 1024, "file": len(gif)}))
"""


def test_pillows_own_memory_stays_bounded_too():
    """tracemalloc does not see Pillow's image buffers: the resident peak of a fresh process
    does. Every one of 908 states (no frame cap) costs about the file, not 312 MB."""
    out = subprocess.run([sys.executable, "-c", RSS_PROBE], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True)
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    assert probe["growth"] <= 2 * probe["file"] + 24 * 2 ** 20, probe
