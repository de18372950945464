"""A capacity-lab run's estimate against its measured time, alone and with 4 other heavy
runs at once, through the fair gate (ui/serving/run_queue.py) as the page runs them.

    python benchmarks/bench_queue_wait.py [--slots K]

Five different dense curves (d = 100, N from 50 to 3000, each with its own seed, so nothing
is shared or cached), each estimated at about 2 s by ui/pages/capacity_lab/cost.py. First each alone;
then all five start together in threads, at most K computing at once (default: the cores
this process may use), one math thread each as in the app. Printed per run: the estimate,
its computing time, its wall time (waiting included) and the ratios; and the wait the page
would have told it (runs ahead x their estimates / K) beside the wait it had.
"""
from __future__ import annotations

import argparse
import threading
import time

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from threadpoolctl import threadpool_limits  # noqa: E402

from hopfield_core.capacity import curves  # noqa: E402
from ui.pages.capacity_lab import cost  # noqa: E402
from ui.serving import run_queue  # noqa: E402

RUNS = 5
NS = cost.counts(50, 3000, 12, log=True)


def trials_for(seconds: float) -> int:
    return next(t for t in range(1, 500) if cost.curves_seconds(["dense"], 100, NS, t) >= seconds)


def compute(trials: int, seed: int) -> float:
    t0 = time.perf_counter()
    curves.success_points("dense", 100, NS, trials, 0.0, seed, degree=3)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--slots", type=int, default=run_queue.default_slots())
    args = ap.parse_args()
    trials = trials_for(2.0)
    estimate = cost.curves_seconds(["dense"], 100, NS, trials)
    with threadpool_limits(1):
        alone = [compute(trials, 100 + k) for k in range(RUNS)]
        gate = run_queue.Gate(args.slots)
        out = [None] * RUNS

        def one(k: int) -> None:
            told = []
            t0 = time.perf_counter()
            work = gate.run(("bench", k), lambda _ticket: compute(trials, 200 + k), estimate,
                            on_wait=lambda w: told or told.append(sum(w.seconds) / args.slots))
            out[k] = (time.perf_counter() - t0, work, told[0] if told else 0.0)

        threads = [threading.Thread(target=one, args=(k,)) for k in range(RUNS)]
        for t in threads:
            t.start()
            time.sleep(0.05)  # arrival order = k
        for t in threads:
            t.join()
    print(f"dense curve, d = 100, {len(NS)} points, {trials} trials; estimate {estimate:.2f} s; "
          f"{args.slots} slot(s)")
    print("run  alone s  est/alone  together: computing s  est/computing  wall s  wait told s  wait had s")
    for k, (wall, work, told) in enumerate(out):
        print(f"{k:3d}  {alone[k]:7.2f}  {estimate / alone[k]:9.2f}  {work:21.2f}  "
              f"{estimate / work:13.2f}  {wall:6.2f}  {told:11.2f}  {wall - work:10.2f}")


if __name__ == "__main__":
    main()
