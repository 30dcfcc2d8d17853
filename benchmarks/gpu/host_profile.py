"""Where the host's time goes in queued large reductions (cProfile, tottime), with the
flush (submit) time measured apart. Reports, never asserts.

    python benchmarks/gpu/host_profile.py [--mib 256] [--calls 200]
"""
import argparse
import cProfile
import pstats
import time

import numpy as np


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mib", type=int, default=256)
    p.add_argument("--calls", type=int, default=200)
    a = p.parse_args()
    import numr_array_api.webgpu as xp
    from numr_array_api.backends.webgpu import get_client
    c = get_client()
    n = a.mib * (1 << 20) // 4
    x = xp.asarray(np.random.default_rng(0).random(n, dtype=np.float32))
    small = xp.asarray(np.ones(1000, np.float32))
    rec = c.recorder
    flush, spent = rec.flush, [0.0, 0]

    def timed_flush(*args, **kw):
        t = time.perf_counter()
        flush(*args, **kw)
        spent[0] += time.perf_counter() - t
        spent[1] += 1

    for name, f in (("sum 256 MiB", lambda: xp.sum(x)), ("sum 1000", lambda: xp.sum(small)),
                    ("x + x 1000", lambda: small + small)):
        for _ in range(5):
            f()
        c.synchronize()
        rec.flush = timed_flush
        spent[:] = [0.0, 0]
        t = time.perf_counter()
        for _ in range(a.calls):
            f()
        h = time.perf_counter() - t
        rec.flush = flush
        c.synchronize()
        w = time.perf_counter() - t
        print(f"{name}: host {h / a.calls * 1e6:.1f} us/call, of which flushes "
              f"{spent[0] / a.calls * 1e6:.1f} ({spent[1]} flushes); wall {w / a.calls * 1e6:.1f}",
              flush=True)
    pr = cProfile.Profile()
    for _ in range(5):
        pr.enable()
        for _ in range(a.calls // 5):
            xp.sum(x)
        pr.disable()
        c.synchronize()
    pstats.Stats(pr).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
