"""The memory budget (ui/serving/budget.py) against the machine: for each page, the heaviest run a link
can ask for at the largest size (32 x 32 in colour, d = 3072, a store of 40 patterns; the
step limits cut by ui.serving.budget as the page cuts them), its measured peak beside the estimate
that capped or admitted it, and the whole rerun of the page at that link, traced, beside the
per-run limit budget.RUN_BYTES.

    python benchmarks/bench_page_memory.py

Peaks are measured with tracemalloc (NumPy and Python) and, for PyTorch's tensors, with
torch's profiler (the running sum of its allocations and frees). The rerun's trace does not
see PyTorch: its column adds the PyTorch estimate of the page, if any.
Goal: every estimate at or above its measured peak, at most 3 times it, and every rerun within
RUN_BYTES (tests/ui/serving/test_memory_budget.py asserts the same).
"""
from __future__ import annotations

import logging

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import print_table_head  # noqa: E402
from tests.support.memory_cases import (  # noqa: E402
    LINKS,
    TORCH_PAGES,
    cases,
    fresh_caches,
    page_peak,
)
from ui.pages import PAGES  # noqa: E402
from ui.serving import budget  # noqa: E402

MB = 2 ** 20


def heaviest() -> dict:
    """page -> its case with the largest estimate (the heaviest run the budget admits)."""
    out = {}
    for case in cases("large"):
        if case.page not in out or case.estimate > out[case.page].estimate:
            out[case.page] = case
    return out


def reruns() -> dict:
    """page -> (the link, the largest traced peak of a rerun at one of its largest links)."""
    out = {}
    for page, query in LINKS:
        _, peak = page_peak(page, query)
        fresh_caches()
        peak += TORCH_PAGES.get(page, lambda: 0)()
        if page not in out or peak > out[page][1]:
            out[page] = (query, peak)
    return out


def main() -> None:
    logging.disable(logging.WARNING)  # AppTest's bare-mode warnings
    runs, pages = heaviest(), reruns()
    limit = budget.RUN_BYTES
    print(f"d = 3072 (32 x 32 in colour), N = 40; RUN_BYTES = {limit / MB:.0f} MB\n")
    print_table_head("page", "heaviest run", "measured (MB)", "estimate (MB)", "estimate / measured",
                     "whole rerun at its largest link (MB)", "rerun / RUN_BYTES")
    for info in PAGES:
        case = runs.get(info.file)
        if case is None:
            continue  # home and the capacity lab (its own budget, ui/pages/capacity_lab)
        measured = case.measure()
        rerun = pages[info.file][1]
        print(f"| {info.title} | {case.what} | {measured / MB:.1f} | {case.estimate / MB:.1f} "
              f"| {case.estimate / measured:.2f} | {rerun / MB:.1f} | {rerun / limit:.2f} |")


if __name__ == "__main__":
    main()
