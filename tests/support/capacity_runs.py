"""A capacity-lab link costly enough to need the Run button (and the fair queue of heavy runs)."""
from __future__ import annotations

from ui.pages.capacity_lab import cost

COSTLY_NS = cost.counts(50, 3000, 12, log=True)  # the dense network's N, d = 100


def costly(seed: int, seconds: float = 2.0) -> tuple[dict, float]:
    """(the link, its estimate) of a dense-network curve that needs the Run button: the
    fewest trials whose estimate is at least `seconds` (and above cost.INSTANT_SECONDS)."""
    for trials in range(1, 201):
        estimate = cost.curves_seconds(["dense"], 100, COSTLY_NS, trials)
        if estimate >= seconds and estimate > cost.INSTANT_SECONDS:
            assert estimate <= cost.MAX_SECONDS, estimate
            return {"v_sync": "0", "v_async": "0", "v_dense": "1", "d": "100", "n_lo": "50",
                    "n_hi": "3000", "points": str(len(COSTLY_NS)), "trials": str(trials),
                    "seed": str(seed)}, estimate
    raise AssertionError("no number of trials gives such a run")
