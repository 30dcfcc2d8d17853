"""Where the host's time goes in a queued large call: reduce_variants printed a
host time per call (calls only, no synchronize) of 108-113 us for a 256 MiB float32 sum
whose whole call took 120 us, i.e. the host did not run ahead of the GPU. Times the calls
and the native submits, then profiles 40 queued calls (cProfile, top by own time)."""

import cProfile
import pstats
import sys
import time

import numpy as np

import numr_array_api.webgpu as W


def timed(fn, reps=20):
    fn()
    W.synchronize()
    best_t = best_h = 1e9
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        th = time.perf_counter()
        W.synchronize()
        best_t = min(best_t, (time.perf_counter() - t0) / reps)
        best_h = min(best_h, (th - t0) / reps)
    return best_t * 1e6, best_h * 1e6


def main():
    n = (256 << 20) // 4
    x = W.asarray(np.random.default_rng(0).standard_normal(n, dtype=np.float32))
    m = W.reshape(x, (8192, n // 8192))
    cases = [("sum", lambda: W.sum(x)), ("max(axis=1)", lambda: W.max(m, axis=1)),
             ("x + x", lambda: x + x), ("sum 4 KiB", None)]
    small = W.asarray(np.ones(1024, dtype=np.float32))
    cases[-1] = ("sum 4 KiB", lambda: W.sum(small))
    for name, fn in cases:
        t, h = timed(fn)
        print(f"{name:12s} call {t:8.1f} us  host {h:8.1f} us", flush=True)
    # the native submit call alone, per call (wrapped on the recorder's queue)
    rec = x._data.client.recorder
    q = rec.queue
    spans = []

    class Timed:
        def __getattr__(self, k):
            return getattr(q, k)

        def submit(self, cbs):
            t0 = time.perf_counter()
            q.submit(cbs)
            spans.append(time.perf_counter() - t0)
    rec.queue = Timed()
    for name, fn in cases:
        for _ in range(3):
            spans.clear()
            for _ in range(20):
                fn()
            W.synchronize()
            s = sorted(spans)
            if s:
                print(f"submit {name:12s} n={len(s)} min {s[0] * 1e6:7.1f} med "
                      f"{s[len(s) // 2] * 1e6:7.1f} max {s[-1] * 1e6:7.1f} us", flush=True)
    rec.queue = q
    for name, fn in cases[:3]:
        fn()
        W.synchronize()
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(40):
            fn()
        pr.disable()
        W.synchronize()
        print(f"--- {name}: 40 calls, top by own time")
        st = pstats.Stats(pr, stream=sys.stdout)
        st.sort_stats("tottime").print_stats(14)


if __name__ == "__main__":
    main()
