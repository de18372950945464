"""What one upload costs the server: hopfield_core.image_files.load_image on the costliest file of
each kind it accepts, beside Pillow decoding the same file in full (Image.open + load, no
shrinking, no float conversion), measured alternately in one run.

    python benchmarks/bench_images.py

Goal: under 0.3 s for any accepted file on this project's 2-core machine (the memory bound,
under 100 MB, is a test: tests/core/test_image_decoding_cost.py).
"""
from __future__ import annotations

import io

from PIL import Image

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import interleaved, print_table_head  # noqa: E402
from hopfield_core.image_files import load_image  # noqa: E402
from tests.support.badfiles import files_at_the_limits, huge_png  # noqa: E402


def pillow_full_decode(data: bytes) -> None:
    with Image.open(io.BytesIO(data)) as im:
        im.load()


def main() -> None:
    files = files_at_the_limits()
    files["4.9 KB PNG of 39.7 MP (refused)"] = huge_png(6300, 6300)
    print_table_head("file", "size", "load_image (ms)", "Pillow full decode (ms)", "ratio", "goal")
    for name, data in files.items():
        with Image.open(io.BytesIO(data)) as im:
            size = f"{im.width} x {im.height} {im.mode}"

        def ours(data=data):
            try:
                load_image(data)
            except ValueError:
                pass

        t_ours, t_peer = interleaved(ours, lambda data=data: pillow_full_decode(data), rounds=5)
        print(f"| {name} | {size} | {t_ours * 1e3:.0f} | {t_peer * 1e3:.0f} | {t_ours / t_peer:.2f} | < 300 ms |")


if __name__ == "__main__":
    main()
