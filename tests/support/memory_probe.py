"""Peak memory of a call, as the memory-budget tests and benchmarks measure it: tracemalloc
sees every allocation NumPy and Python make (not PyTorch's tensors, nor Pillow's buffers)."""
from __future__ import annotations

import tracemalloc
from typing import Callable


def traced(fn: Callable) -> tuple[int, object]:
    """(peak bytes allocated while fn() ran, beyond what was allocated when it began; its result)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        out = fn()
        return tracemalloc.get_traced_memory()[1] - before, out
    finally:
        tracemalloc.stop()


def traced_peak(fn: Callable) -> int:
    """Peak bytes allocated while fn() ran (see traced)."""
    return traced(fn)[0]
