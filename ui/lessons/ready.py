"""The ready lessons shipped in assets/lessons/ (one lesson file each): read, checked against the
app's pages, and kept in the database under a fixed code made from the file's name, so that
their student links never change and every process of the deploy finds them. Nobody holds a key
to them: a teacher copies one into a draft to change it."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import codes, lesson_file, lesson_store

FOLDER = Path(__file__).resolve().parents[2] / "assets" / "lessons"


@dataclass(frozen=True)
class Ready:
    name: str   # the file's stem
    code: str
    lesson: lesson_file.Lesson


def code_of(name: str) -> str:
    """A fixed code for a ready lesson's name (from its SHA-256; the alphabet of codes)."""
    digest = hashlib.sha256(f"ready lesson {name}".encode()).digest()
    return "".join(codes.ALPHABET[b % len(codes.ALPHABET)] for b in digest[:codes.CODE_LENGTH])


def read_all(check_step: Callable) -> list[Ready]:
    """Every ready lesson, in the files' order (a file that no longer passes raises)."""
    return [Ready(p.stem, code_of(p.stem), lesson_file.read(p.read_bytes(), check_step))
            for p in sorted(FOLDER.glob("*.json"))]


def keep_all(check_step: Callable, address: str | None = None) -> list[Ready]:
    """Every ready lesson, kept in the database under its code (database.Unavailable)."""
    found = read_all(check_step)
    for r in found:
        lesson_store.keep_ready(r.code, lesson_file.body(r.lesson), r.lesson.title, address)
    return found
