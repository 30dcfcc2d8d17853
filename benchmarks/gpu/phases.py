"""Where the host time of a small stacked linalg call goes on a GPU: recording (Python up
to the submit), the submit, the wait for the status word's mapping, and the rest; beside
the bare round trip of a 4-byte read and CuPy's launch + synchronize of a tiny kernel."""
import os
import time

import numpy as np

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")
import numr_array_api.webgpu as xp  # noqa: E402
from numr_array_api.backends.webgpu.runtime import mapping, submit  # noqa: E402

acc = {}


def timed(cls, name):
    f = getattr(cls, name)

    def w(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            acc[name] = acc.get(name, 0.0) + time.perf_counter() - t
    setattr(cls, name, w)


for cls, name in ((submit.Recorder, "flush"), (mapping.Mappings, "wait"),
                  (mapping.Mappings, "finish"), (submit.Recorder, "replay")):
    timed(cls, name)

rng = np.random.default_rng(0)
spd = rng.standard_normal((10000, 32, 32)) * 0.1 + 32 * np.eye(32)
cases = {
    "solve 100000x8x8": (xp.linalg.solve, [rng.standard_normal((100000, 8, 8)) + 3 * np.eye(8),
                                           rng.standard_normal((100000, 8, 1))]),
    "inv 100000x8x8": (xp.linalg.inv, [rng.standard_normal((100000, 8, 8)) + 3 * np.eye(8)]),
    "cholesky 10000x32x32": (xp.linalg.cholesky, [(spd + np.swapaxes(spd, -1, -2)) / 2]),
    "solve 2x8x8": (xp.linalg.solve, [rng.standard_normal((2, 8, 8)) + 3 * np.eye(8),
                                      rng.standard_normal((2, 8, 1))]),
}
st = xp.asarray(np.zeros(1, np.uint32))
cases["read 4 bytes"] = (lambda s: s.to_device("cpu"), [None])
for name, (fn, host) in cases.items():
    args = [st] if host[0] is None else [xp.asarray(h.astype(np.float32)) for h in host]
    for _ in range(10):
        fn(*args)
    xp.synchronize()
    n = int(os.environ.get("PHASES_N", "300"))
    acc.clear()
    t = time.perf_counter()
    for _ in range(n):
        fn(*args)
        xp.synchronize()
    tot = (time.perf_counter() - t) / n * 1e6
    parts = " ".join(f"{k} {v / n * 1e6:.1f}" for k, v in sorted(acc.items()))
    print(f"{name:22s} {tot:7.1f} us a call | {parts} (us a call)", flush=True)
try:
    import cupy as cp
    x = cp.zeros(4, cp.float32)
    for _ in range(10):
        x += 1
    cp.cuda.Device().synchronize()
    n = 1000
    t = time.perf_counter()
    for _ in range(n):
        x += 1
        cp.cuda.Device().synchronize()
    print(f"cupy tiny kernel + synchronize {(time.perf_counter() - t) / n * 1e6:.1f} us")
    a = cp.asarray(rng.standard_normal((100000, 8, 8)).astype(np.float32) + 3 * np.eye(8, dtype=np.float32))
    for _ in range(5):
        cp.linalg.inv(a)
    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    for _ in range(100):
        cp.linalg.inv(a)
    t1 = time.perf_counter()
    cp.cuda.Device().synchronize()
    print(f"cupy inv 100000x8x8: host {(t1 - t) / 100 * 1e6:.1f} us a call (queued)")
except ImportError:
    pass
