"""Where the time of a batched small solve / inv / cholesky goes, H100.

Per case: the public call with its status read (best of 5, synchronised), the kernel alone
(its dispatches captured as a graph, replayed 10 times per synchronisation), an empty
synchronize round trip, and CuPy's call. Reports only."""
import sys
import time

import numpy as np

sys.path.insert(0, "benchmarks")
import numr_array_api.backends.webgpu as W  # noqa: E402
import numr_array_api.webgpu as xp  # noqa: E402
from numr_array_api._core import dtypes as dt  # noqa: E402
from numr_array_api.backends.webgpu.ops.linalg import batched  # noqa: E402
from numr_array_api.backends.webgpu.ops.linalg.dispatch import status_word  # noqa: E402
from numr_array_api.backends.webgpu.storage import new_output  # noqa: E402
from _timing import per_call  # noqa: E402

try:
    import cupy as cp
except Exception:  # noqa: BLE001
    cp = None


def best(fn, sync, reps=5, inner=1):
    """Milliseconds per call: the best of ``reps`` batches of ``inner`` queued calls."""
    return per_call(fn, sync, inner, reps) * 1e3


rng = np.random.default_rng(0)
print("sync round trip (ms):", f"{best(lambda: None, xp.synchronize, 20):.3f}")
for B, n, dty in ((100000, 8, "float32"), (10000, 16, "float32"), (10000, 24, "float32"),
                  (10000, 32, "float32"), (10000, 16, "float64"), (10000, 32, "float64")):
    a = (rng.standard_normal((B, n, n)) + n * np.eye(n)).astype(dty)
    spd = (a @ a.transpose(0, 2, 1)).astype(dty)
    b = rng.standard_normal((B, n, 1)).astype(dty)
    xa, xb, xs = xp.asarray(a), xp.asarray(b), xp.asarray(spd)
    for name, f, cf in (
            ("solve", lambda: xp.linalg.solve(xa, xb), lambda: cp.linalg.solve(ca, cb)),
            ("inv", lambda: xp.linalg.inv(xa), lambda: cp.linalg.inv(ca)),
            ("cholesky", lambda: xp.linalg.cholesky(xs), lambda: cp.linalg.cholesky(cs))):
        if cp is not None:
            ca, cb, cs = cp.asarray(a), cp.asarray(b), cp.asarray(spd)
        t0 = time.perf_counter()
        f()
        xp.synchronize()
        first = (time.perf_counter() - t0) * 1e3
        t_call = best(f, xp.synchronize)
        t_queued = best(f, xp.synchronize, 3, 10)
        kern = float("nan")
        try:
            a3, b3, s3 = xa._data, xb._data, xs._data
            if name == "cholesky":
                nmax = batched.batch_chol_nmax(n)
                def g(s):
                    out = new_output((B, n, n), s.dtype, s.client)
                    batched.batch_cholesky(s, out, status_word(s.client), nmax, False)
                    return out
                G = W.capture_graph(g, s3)
            else:
                k = 1 if name == "solve" else n
                nmax = batched.batch_solve_nmax(a3.client, a3.dtype, n, k)
                def g(s, r):
                    x = new_output((B, n, k), s.dtype, s.client)
                    batched.batch_solve(s, r if name == "solve" else None, x,
                                       status_word(s.client), nmax)
                    return x
                G = W.capture_graph(g, a3, b3)
            kern = best(lambda: G(*G.inputs), xp.synchronize, 3, 10)
        except Exception as e:  # noqa: BLE001
            print("  graph:", type(e).__name__, e)
        t_cp = best(cf, cp.cuda.Device().synchronize) if cp is not None else float("nan")
        print(f"{name:9s} {B}x{n}x{n} {dty}: first {first:.0f} ms, call {t_call:.3f} ms, queued x10 {t_queued:.3f} ms/call, "
              f"kernel {kern:.3f} ms, cupy {t_cp:.3f} ms, call/cupy {t_call / t_cp:.2f}")
