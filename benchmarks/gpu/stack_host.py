"""Host time of small stacked linalg calls (cProfile, top functions by own time), to see
what besides the GPU work and the one status read a 0.2-0.4 ms call spends."""
import cProfile
import os
import pstats
import sys
import time

import numpy as np

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")
import numr_array_api.webgpu as xp  # noqa: E402

rng = np.random.default_rng(0)
cases = {
    "solve 100000x8x8": lambda: (xp.linalg.solve, [rng.standard_normal((100000, 8, 8)) + 3 * np.eye(8),
                                                   rng.standard_normal((100000, 8, 1))]),
    "inv 100000x8x8": lambda: (xp.linalg.inv, [rng.standard_normal((100000, 8, 8)) + 3 * np.eye(8)]),
    "cholesky 10000x32x32": lambda: (xp.linalg.cholesky, [np.eye(32)[None] * 32 + 0.1 * rng.standard_normal((10000, 32, 32))]),
}
for name, make in cases.items():
    fn, host = make()
    if name.startswith("cholesky"):
        host = [(h + np.swapaxes(h, -1, -2)) / 2 for h in host]
    args = [xp.asarray(h.astype(np.float32)) for h in host]
    for _ in range(5):
        fn(*args)
    xp.synchronize()
    n = 200
    t = time.perf_counter()
    for _ in range(n):
        fn(*args)
        xp.synchronize()
    print(f"{name}: {(time.perf_counter() - t) / n * 1e3:.3f} ms a call with its sync", flush=True)
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(n):
        fn(*args)
        xp.synchronize()
    pr.disable()
    pstats.Stats(pr, stream=sys.stdout).sort_stats("tottime").print_stats(14)
