"""Timing shared by the benchmark scripts (imported as a sibling module: scripts run with
their own folder first on sys.path)."""

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
