"""Downloads: the GIF holds every state, the PNG the last, the CSV the exact energies."""
import io

import numpy as np
from PIL import Image

from ui.charts import exports


def test_gif_has_one_frame_per_state_and_png_the_last():
    frames = np.stack([np.full((8, 8, 3), v) for v in (0.0, 0.5, 1.0)])
    gif = Image.open(io.BytesIO(exports.gif_bytes(frames)))
    assert gif.n_frames == 3 and gif.size == (256, 256)
    gif.seek(2)
    assert np.asarray(gif.convert("RGB"))[0, 0].tolist() == [255, 255, 255]
    png = Image.open(io.BytesIO(exports.png_bytes(frames[-1])))
    assert png.size == (256, 256) and np.asarray(png)[5, 5].tolist() == [255, 255, 255]


def test_csv_round_trips_the_energies_exactly():
    E = np.array([-1.0 / 3.0, -2.5e-17, 12345.678901234])
    text = exports.csv_bytes({"step": np.arange(3), "energy": E}).decode()
    lines = text.strip().split("\n")
    assert lines[0] == "step,energy"
    assert [float(line.split(",")[1]) for line in lines[1:]] == E.tolist()
    assert [line.split(",")[0] for line in lines[1:]] == ["0", "1", "2"]
