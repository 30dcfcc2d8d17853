"""Where numr cuda's small matmuls spend their time next to raw CuPy (the sweep's
skinny 64x16384 @ 16384x64 and batched 1000 x 64x64 rows at 0.74 / 0.80 of CuPy).

Per case: per-call time with 20 calls queued (the sweep's measure), raw CuPy on the same
stream first and last, numr through the namespace, numr's backend call alone, and a
cProfile of 300 numr calls (Python hot spots). Reports, never asserts."""

import cProfile
import os
import pstats
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _timing  # noqa: E402


def per_call(fn, sync, calls=20, batches=7):
    return _timing.per_call(fn, sync, calls, batches) * 1e6


def main():
    import cupy as cp
    import numr_array_api.cuda as nx
    rng = np.random.default_rng(0)
    sync = cp.cuda.get_current_stream().synchronize
    cases = {"skinny": ((64, 16384), (16384, 64)), "batched": ((1000, 64, 64), (1000, 64, 64)),
             "small": ((64, 64), (64, 64))}
    for name, (sa, sb) in cases.items():
        a = rng.standard_normal(sa).astype(np.float32)
        b = rng.standard_normal(sb).astype(np.float32)
        xa, xb = nx.asarray(a), nx.asarray(b)
        ca, cb = xa._data, xb._data       # the very CuPy arrays numr holds
        be = xa.__array_namespace__()
        raw = lambda: cp.matmul(ca, cb)  # noqa: E731
        s = cp.cuda.get_current_stream()
        rows = [("cupy (numr's stream)", per_call(raw, s.synchronize)),
                ("numr namespace", per_call(lambda: xa @ xb, s.synchronize)),
                ("numr matmul()", per_call(lambda: nx.matmul(xa, xb), s.synchronize)),
                ("cupy again", per_call(raw, s.synchronize))]
        with cp.cuda.Stream(non_blocking=True) as st:
            c2a, c2b = cp.asarray(a), cp.asarray(b)
            rows.append(("cupy own stream", per_call(lambda: cp.matmul(c2a, c2b),
                                                      st.synchronize)))
        for k, v in rows:
            print(f"{name:8s} {k:22s} {v:8.1f} us")
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(300):
            xa @ xb
        pr.disable()
        s.synchronize()
        pstats.Stats(pr, stream=sys.stdout).sort_stats("tottime").print_stats(12)
        del be


if __name__ == "__main__":
    main()
