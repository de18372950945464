"""Telling a safetensors file from a pickle before reading it (nothing here is ever unpickled).

A safetensors file starts with its header's length n (8 bytes, little-endian) and then the
JSON header itself, "{" first. A pickle (protocol 2 and up) starts with 0x80 and torch.save's
archive with "PK\\x03\\x04": but a safetensors header length can start with byte 0x80 too, so
a file counts as a pickle only when it is not shaped as a safetensors file.
"""
from __future__ import annotations

from pathlib import Path

PICKLE_MAGIC = (b"\x80", b"PK\x03\x04")  # a raw pickle, or torch.save's zip archive


def is_safetensors_shaped(path: Path) -> bool:
    """The 8-byte header length fits in the file and the header starts with "{"."""
    path = Path(path)
    with open(path, "rb") as f:
        head = f.read(9)
    if len(head) < 9:
        return False
    n = int.from_bytes(head[:8], "little")
    return head[8:9] == b"{" and 8 + n <= path.stat().st_size


def looks_like_pickle(path: Path) -> bool:
    """Not safetensors-shaped, and starting as a pickle or a torch.save archive does."""
    with open(path, "rb") as f:
        head = f.read(4)
    return head.startswith(PICKLE_MAGIC) and not is_safetensors_shaped(path)
