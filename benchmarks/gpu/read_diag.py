"""A status read's round trip on a GPU adapter (a batched solve pays one a call), and CuPy's
copy paths for a strided view (the sweep's cuda row x[:, ::2] copy). Reports only."""
import time

import numpy as np

import numr_array_api.webgpu as xp
from numr_array_api.backends.webgpu.ops.linalg.dispatch import status_word


def best(fn, sync, reps=50):
    fn(); sync()
    b = 1e9
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        sync()
        b = min(b, time.perf_counter() - t)
    return b * 1e6


x = xp.asarray(np.zeros(1, np.uint32))
c = x._data.client
sync = xp.synchronize
mode = "read"
big = xp.asarray(np.ones(1 << 24, np.float32))
print(f"[{mode}] idle sync {best(lambda: None, sync):.1f} us | fill + sync "
      f"{best(lambda: status_word(c), sync):.1f} us | fill + read "
      f"{best(lambda: status_word(c).to_numpy(), lambda: None):.1f} us | "
      f"64 MiB add + read of one element "
      f"{best(lambda: (big + big)[:1]._data.to_numpy(), lambda: None, 20):.1f} us")
rng = np.random.default_rng(0)
for B, n in ((100000, 8), (10000, 16)):
    a = xp.asarray((rng.standard_normal((B, n, n)) + n * np.eye(n)).astype(np.float32))
    b = xp.asarray(rng.standard_normal((B, n, 1)).astype(np.float32))
    print(f"[{mode}] solve {B}x{n}x{n} {best(lambda: xp.linalg.solve(a, b), sync, 10):.1f} us"
          f" | inv {best(lambda: xp.linalg.inv(a), sync, 10):.1f} us")
try:
    import cupy as cp
    h = cp.ones((8192, 8192), cp.float32)
    v = h[:, ::2]
    s = cp.cuda.Device().synchronize
    for name, f in (("v.copy()", lambda: v.copy()),
                    ("cp.asarray(v, copy=True)", lambda: cp.asarray(v, copy=True)),
                    ("cp.array(v, copy=True)", lambda: cp.array(v, copy=True)),
                    ("v.copy(order='K')", lambda: v.copy(order="K")),
                    ("cp.ascontiguousarray(v)", lambda: cp.ascontiguousarray(v))):
        print(f"cupy {name}: {best(f, s, 20):.1f} us")
    import numr_array_api.cuda as xc
    xv = xc.asarray(h)
    print(f"numr cuda asarray(x[:, ::2], copy=True): "
          f"{best(lambda: xc.asarray(xv[:, ::2], copy=True), s, 20):.1f} us")
except Exception as e:  # noqa: BLE001
    print("cupy:", type(e).__name__, e)
