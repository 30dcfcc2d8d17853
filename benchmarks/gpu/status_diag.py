"""Where a batched small solve's time goes beyond its kernel, H100: the call,
the call without its status read, a status read alone, and the host's share. Reports only."""
import time

import numpy as np

import numr_array_api.webgpu as xp
from numr_array_api.backends.webgpu.ops.linalg import mixin
from numr_array_api.backends.webgpu.ops.linalg.dispatch import status_word


def best(fn, reps=7, inner=1):
    fn(); xp.synchronize()
    b = 1e9
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        xp.synchronize()
        b = min(b, (time.perf_counter() - t) / inner)
    return b * 1e3


rng = np.random.default_rng(0)
for B, n in ((100000, 8), (10000, 16)):
    a = xp.asarray((rng.standard_normal((B, n, n)) + n * np.eye(n)).astype(np.float32))
    b = xp.asarray(rng.standard_normal((B, n, 1)).astype(np.float32))
    client = a._data.client
    f = lambda: xp.linalg.solve(a, b)
    full = best(f)
    orig = mixin._status_set
    mixin._status_set = lambda st: False
    try:
        noread = best(f, 5, 10)
        rec = client.recorder
        d = rec.dispatch
        rec.dispatch = lambda *x, **k: None
        try:
            t = time.perf_counter()
            for _ in range(200):
                f()
            host = (time.perf_counter() - t) / 200 * 1e3
        finally:
            rec.dispatch = d
    finally:
        mixin._status_set = orig
    st = status_word(client)
    xp.synchronize()
    def rd():
        status_word(client).to_numpy()
    read = best(rd)
    print(f"solve {B}x{n}x{n}: call {full:.3f} ms | without the status read (queued) "
          f"{noread:.3f} | host only {host:.3f} | fill + read of a status word {read:.3f}")
