"""Timing shared by the benchmark scripts (imported as a sibling module: scripts run with
their own folder first on sys.path). Kept apart from numr_array_api.tuning.tune.best_time,
which measures the same way: a benchmark must run against any tree of the library, including
those from before the tuning package (benchmarks/compare_trees.py)."""

import time


def best_of(fn, sync, repeats):
    """Seconds of the fastest of ``repeats`` synchronised calls of ``fn``, after one warm-up
    call (shader compilation, plan building and pool growth stay out of the figure)."""
    fn()
    sync()
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - t)
    return best

