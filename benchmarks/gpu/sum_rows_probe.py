"""Probe: a full float32 sum of 256 MiB three ways on numr webgpu, next to CuPy:
the full-reduction path, the row path (sum(axis=1) of a (8192, 8192) reshape, then the sum
of 8192 partials) and max(axis=1) (the row path's reference speed)."""
import os
import sys

import numpy as np

import numr_array_api.webgpu as W

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sweep import time_call  # noqa: E402

N = 1 << 26


def best(fn, sync, reps=20, repeats=5):
    return time_call(fn, sync, reps, repeats)  # the sweep's measure: reps queued, one sync


h = np.random.default_rng(0).random(N, dtype=np.float32)
x = W.asarray(h)
x2 = W.reshape(x, (8192, 8192))
sync = lambda: W.asarray(x[:1]).to_device("cpu")  # noqa: E731
cases = {
    "sum": lambda: W.sum(x),
    "sum rows then sum": lambda: W.sum(W.sum(x2, axis=1)),
    "sum(axis=1)": lambda: W.sum(x2, axis=1),
    "max(axis=1)": lambda: W.max(x2, axis=1),
}
try:
    import cupy as cp
    c = cp.asarray(h)
    ref = best(lambda: cp.sum(c), cp.cuda.Device().synchronize)
except Exception:  # noqa: BLE001
    ref = float("nan")
rec = x._data.client.recorder
print(f"submit_bytes={rec.submit_bytes}  cupy sum {ref * 1e6:.1f} us")
for name, fn in cases.items():
    t = best(fn, sync)
    print(f"  {name:20s} {t * 1e6:8.1f} us  cupy/numr {ref / t:.2f}")
print("  check", float(W.sum(x)), float(W.sum(W.sum(x2, axis=1))), float(h.sum(dtype=np.float64)))
