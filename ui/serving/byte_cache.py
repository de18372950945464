"""A cache bounded by bytes, shared by every session of the process. No Streamlit here.

st.cache_data and st.cache_resource bound a cache by its number of entries, so what they hold
depends on how large each entry is: 256 runs of 36 MB each is 9 GB. A ByteCache knows each
entry's size in bytes (`nbytes`: every NumPy array it holds, counted once, plus its Python
objects) and keeps at most `limit` bytes in all, the least recently used going first. An entry
larger than the whole limit is computed and returned but not kept (and pushes nothing out).

Values are shared, not copied: every array of a kept value is made read-only (`freeze`), so
that no session can change what another sees, and a hit costs no unpickling. Two sessions
that ask for the same key at once compute it once: the second waits for the first and gets the
same value (or the same error). ui/serving/memory_plan.py gives each cache its limit and adds them up.
"""
from __future__ import annotations

import dataclasses
import sys
import threading
import types
from collections import OrderedDict
from typing import Callable

import numpy as np

_CACHES: dict[str, ByteCache] = {}  # name -> cache, every ByteCache of the process


def caches() -> list[ByteCache]:
    """Every ByteCache made so far in this process."""
    return list(_CACHES.values())


def clear_all() -> None:
    for cache in caches():
        cache.clear()


_NOT_DATA = (type, types.ModuleType, types.FunctionType, types.MethodType)  # code, not data


def _members(value) -> list:
    """The objects a value holds: a dataclass's fields, a container's items, an object's
    attributes."""
    if isinstance(value, dict):
        return [*value.keys(), *value.values()]
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [getattr(value, f.name) for f in dataclasses.fields(value)]
    if hasattr(value, "__dict__") and not isinstance(value, _NOT_DATA):
        return list(vars(value).values())
    return []


def _walk(value, seen: set):
    """Every object reachable from value, each once (by id)."""
    stack = [value]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        if not isinstance(obj, (np.ndarray, str, bytes, bytearray, int, float, complex, bool)):
            stack.extend(_members(obj))


def _owner(a: np.ndarray) -> np.ndarray:
    """The array that owns a's memory: a view keeps its whole base alive."""
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def nbytes(value) -> int:
    """Bytes a value keeps alive: each array's memory once (a view counts its whole base),
    and the Python objects around them (sys.getsizeof)."""
    seen, owners, total = set(), set(), 0
    for obj in _walk(value, seen):
        if isinstance(obj, np.ndarray):
            own = _owner(obj)
            if id(own) not in owners:
                owners.add(id(own))
                total += own.nbytes
            total += sys.getsizeof(obj) - (obj.nbytes if obj.base is None else 0)
        else:
            total += sys.getsizeof(obj)
    return total


def freeze(value):
    """Make every array a value holds read-only (the value is shared); returns the value."""
    for obj in _walk(value, set()):
        if isinstance(obj, np.ndarray):
            obj.flags.writeable = False
    return value


@dataclasses.dataclass(eq=False)
class _Flight:
    """A value being computed: the sessions that ask for it meanwhile wait here."""
    done: threading.Event = dataclasses.field(default_factory=threading.Event)
    owner: int = dataclasses.field(default_factory=threading.get_ident)  # the computing thread
    value: object = None
    error: Exception | None = None
    computed: bool = False


class ByteCache:
    """key -> value, least recently used out first, at most `limit` bytes kept in all."""

    def __init__(self, name: str, limit: int, size_of: Callable[[object], int] = nbytes):
        if name in _CACHES:
            raise ValueError(f"there is already a byte cache called {name!r}")
        self.name, self.limit, self.size_of = name, int(limit), size_of
        self._items: OrderedDict = OrderedDict()  # key -> (value, bytes), oldest use first
        self._bytes = 0
        self._flights: dict = {}                  # key -> _Flight being computed
        self._lock = threading.Lock()
        _CACHES[name] = self

    @property
    def bytes(self) -> int:
        """Bytes kept now (the sum of the kept entries' sizes)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key) -> bool:
        return key in self._items

    def keys(self) -> list:
        """The kept keys, least recently used first."""
        with self._lock:
            return list(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def get(self, key, make: Callable[[], object]):
        """The value kept under key (now the most recently used), else make()'s, kept if it
        fits. While one session computes a key, the others that ask for it wait for it."""
        while True:
            with self._lock:
                if key in self._items:
                    self._items.move_to_end(key)
                    return self._items[key][0]
                flight = self._flights.get(key)
                mine = flight is None
                if mine:
                    flight = self._flights[key] = _Flight()
            if mine:
                return self._compute(key, make, flight)
            if flight.owner == threading.get_ident():  # make() asked for its own key
                raise RecursionError(f"{self.name}: computing {key!r} needs {key!r} itself")
            flight.done.wait()
            if flight.error is not None:
                raise flight.error
            if flight.computed:
                return flight.value
            # the session computing it stopped (its script was interrupted): ask again

    def _compute(self, key, make, flight: _Flight):
        size = 0
        try:
            value = freeze(make())
            size = int(self.size_of(value))
        except Exception as e:  # an error of the computation: every waiting session gets it
            flight.error = e
            raise
        else:
            flight.value, flight.computed = value, True
            return value
        finally:  # kept (if it fits) and no longer in flight, at once for every other session
            with self._lock:
                self._flights.pop(key, None)
                if flight.computed and size <= self.limit:
                    self._keep(key, value, size)
            flight.done.set()

    def _keep(self, key, value, size: int) -> None:
        """Keep an entry (size <= limit), first dropping the least recently used until it fits
        (the lock held): the total never exceeds the limit, not even for a moment that a
        reader of `bytes` without the lock could see."""
        if key in self._items:
            self._bytes -= self._items.pop(key)[1]
        while self._items and self._bytes + size > self.limit:
            _, (_, old) = self._items.popitem(last=False)
            self._bytes -= old
        self._items[key] = (value, size)
        self._bytes += size
