"""Figures and verdicts shared by every session: `shared(key, make)` computes make() once per
key and keeps it, bounded by bytes (ui/serving/memory_plan.py: an energy curve is some 40 kB, the
modern page's largest figure 0.7 MB).

A key is a tuple of the actual parameters the result depends on, page included: numbers,
strings, booleans, None, tuples of them, and NumPy arrays (named by `fingerprint`, their
content). A key built by hand as a string is refused: a dependency left out of it would show
one student another's figure.
"""
from __future__ import annotations

import hashlib
import numbers

import numpy as np

from . import memory_plan
from .byte_cache import ByteCache

SHARED = ByteCache("shared", memory_plan.SHARED_BYTES)


def fingerprint(a: np.ndarray) -> tuple:
    """An array as a key: its dtype, its shape and a digest of its bytes."""
    a = np.ascontiguousarray(a)
    return ("array", a.dtype.str, a.shape, hashlib.sha1(a.tobytes()).hexdigest())


def key_of(parts: tuple) -> tuple:
    """The key of a tuple of parameters, arrays replaced by their fingerprint. TypeError for
    anything else than a tuple, or for a part that is no plain value."""
    if not isinstance(parts, tuple):
        raise TypeError(f"a shared key is a tuple of the parameters, not {type(parts).__name__} "
                        f"{parts!r:.80}")
    return tuple(_part(p) for p in parts)


def _part(p):
    if isinstance(p, np.ndarray):
        return fingerprint(p)
    if isinstance(p, tuple):
        return tuple(_part(x) for x in p)
    if isinstance(p, np.generic):  # a NumPy number: as the Python number it equals
        return p.item()
    if p is None or isinstance(p, (str, bytes, bool, numbers.Number)):
        return p
    raise TypeError(f"a shared key holds numbers, strings, tuples and arrays, not "
                    f"{type(p).__name__} {p!r:.80}")


def shared(key: tuple, make):
    """make(), computed once per `key` and shared read-only by every rerun and session.

    `key` (a tuple, see key_of) must name everything the result depends on, page included.
    Meant for figures (st.plotly_chart serialises a copy, never mutates) and verdicts:
    rebuilding a Plotly figure costs milliseconds that every rerun would pay.
    """
    return SHARED.get(key_of(key), make)
