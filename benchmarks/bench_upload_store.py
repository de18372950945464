"""What one upload costs the upload store when its folder is full: UploadStore.put of a new image
into a folder of 10,800 entries held at its bound (what the default 512 MB store holds; every
put evicts the entry that arrived first, ordering the whole index), beside the same put into an
empty folder, measured alternately in one run; and, for scale, one read of the whole folder
(what every put cost before the store kept an index: `prune`, now only once a minute or on
demand).

    python benchmarks/bench_upload_store.py

Goal: the ratio near 1 (a put does not grow with the folder).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import interleaved, print_table_head  # noqa: E402
from tests.support.badfiles import encode, photo  # noqa: E402
from ui.store.uploads import UploadStore  # noqa: E402

ENTRIES = 10_800
ENTRY_BYTES = 40_000  # a typical upload's PNG
ROUNDS = 15


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        full = UploadStore(Path(tmp) / "full", max_bytes=ENTRIES * ENTRY_BYTES)  # at its bound
        empty = UploadStore(Path(tmp) / "empty")
        full.root.mkdir()
        for i in range(ENTRIES):  # entries as other processes left them (only sizes and times
            entry = full.root / f"{i:024x}.png"  # count): sparse files of an upload's size, so
            entry.touch()                        # that a put evicts about one, as in class
            os.truncate(entry, ENTRY_BYTES)
        fresh = iter([encode(photo(seed=s), "PNG") for s in range(2 * (ROUNDS + 4))])
        full.put("first.png", next(fresh))  # each process reads its folder once
        empty.put("first.png", next(fresh))
        t_full, t_empty = interleaved(lambda: full.put("x.png", next(fresh)),
                                      lambda: empty.put("x.png", next(fresh)), rounds=ROUNDS)
        t_scan, _ = interleaved(full.prune, lambda: None, rounds=5)
    print_table_head("put of a new image", f"into {ENTRIES:,} entries at the bound (ms)",
                     "into an empty folder (ms)", "ratio", f"one read of the {ENTRIES:,} (ms)")
    print(f"| median of {ROUNDS} | {t_full * 1e3:.1f} | {t_empty * 1e3:.1f} | "
          f"{t_full / t_empty:.2f} | {t_scan * 1e3:.1f} |")


if __name__ == "__main__":
    main()
