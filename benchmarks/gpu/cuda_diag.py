"""Where numr cuda loses to raw CuPy on the sweep's worst rows (batched matmul, small take):
the same CuPy call on CuPy's default stream / on numr's compute stream, and numr's call,
best of many; plus a profile of numr's call."""
import cProfile
import pstats
import sys
import time

import cupy as cp
import numpy as np

import numr_array_api.cuda as xp

sys.path.insert(0, "benchmarks")
from _timing import best_of  # noqa: E402


def sync():
    cp.cuda.Device(0).synchronize()


def per_call(fn, reps=200, repeats=7):
    def many():
        for _ in range(reps):
            fn()
    return best_of(many, sync, repeats) / reps * 1e6


rng = np.random.default_rng(0)
a = rng.standard_normal((1000, 64, 64)).astype(np.float32)
na, ca = xp.asarray(a), cp.asarray(a)
print(f"batched matmul 1000x64x64: cupy {per_call(lambda: cp.matmul(ca, ca)):.1f} us, "
      f"numr {per_call(lambda: xp.matmul(na, na)):.1f} us, "
      f"cupy on numr's data {per_call(lambda: cp.matmul(na._data, na._data)):.1f} us")
s = cp.cuda.Stream(non_blocking=False)
with s:
    print(f"  cupy on a blocking stream {per_call(lambda: cp.matmul(ca, ca)):.1f} us")
x = rng.standard_normal(1000).astype(np.float32)
i = rng.integers(0, 1000, 250)
nx, ni, cx, ci = xp.asarray(x), xp.asarray(i), cp.asarray(x), cp.asarray(i)
print(f"take small: cupy {per_call(lambda: cp.take(cx, ci)):.1f} us, "
      f"numr {per_call(lambda: xp.take(nx, ni)):.1f} us")
for name, fn in (("matmul", lambda: xp.matmul(na, na)), ("take", lambda: xp.take(nx, ni))):
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(2000):
        fn()
    sync()
    pr.disable()
    print(f"--- profile numr {name} x2000")
    pstats.Stats(pr).sort_stats("tottime").print_stats(12)
