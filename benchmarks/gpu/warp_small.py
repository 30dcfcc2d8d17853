"""The subgroup-per-matrix kernels (ops/linalg/warp.py) against the workgroup kernels and
CuPy: stacks of small solve (1 rhs) / inv / cholesky, per n, float32 and float64.

Per case and variant: the public call with its status read (best of 5, synchronised), the
kernel alone (its dispatches captured as a graph, replayed 10 times per synchronisation),
and CuPy's call. Variants: workgroup (the knob BWARP off), warp (the default: inv by
Gauss-Jordan). The warp path is forced on for every n here (BWARP_MIN / _CHOL_MIN = 2);
the defaults are what the dispatcher does without them. Reports only.

  python3 benchmarks/gpu/warp_small.py [n ...]       (default: 8 12 16 20 24 28 32)
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numr_array_api.backends.webgpu as W  # noqa: E402
import numr_array_api.webgpu as xp  # noqa: E402
from _timing import per_call  # noqa: E402
from numr_array_api import tuning  # noqa: E402
from numr_array_api.backends.webgpu.ops.linalg import batched, warp  # noqa: E402
from numr_array_api.backends.webgpu.ops.linalg.dispatch import status_word  # noqa: E402
from numr_array_api.backends.webgpu.storage import new_output  # noqa: E402

try:
    import cupy as cp
except Exception:  # noqa: BLE001
    cp = None


def best(fn, sync, reps=5, inner=1):
    """Milliseconds per call: the best of ``reps`` batches of ``inner`` queued calls."""
    return per_call(fn, sync, inner, reps) * 1e3


VARIANTS = {"workgroup": {"BWARP": False}, "warp": {"BWARP": True}}


def setenv(d):
    tuning.force(**d)


def main():
    ns = [int(v) for v in sys.argv[1:]] or [8, 12, 16, 20, 24, 28, 32]
    tuning.force(BWARP_MIN=2, BWARP_CHOL_MIN=2)
    client = xp.asarray([0.0])._data.client
    print("subgroup size:", warp.subgroup_size(client), "adapter info (min, max):",
          warp._adapter_sizes(client))
    print("sync round trip (ms):", f"{best(lambda: None, xp.synchronize, 20):.3f}")
    rng = np.random.default_rng(0)
    B = 10000
    for dty in ("float32", "float64"):
        for n in ns:
            a = (rng.standard_normal((B, n, n)) + n * np.eye(n)).astype(dty)
            spd = (a @ a.transpose(0, 2, 1)).astype(dty)
            b = rng.standard_normal((B, n, 1)).astype(dty)
            xa, xb, xs = xp.asarray(a), xp.asarray(b), xp.asarray(spd)
            if cp is not None:
                ca, cb, cs = cp.asarray(a), cp.asarray(b), cp.asarray(spd)
            for name in ("solve", "inv", "cholesky"):
                f = {"solve": lambda: xp.linalg.solve(xa, xb), "inv": lambda: xp.linalg.inv(xa),
                     "cholesky": lambda: xp.linalg.cholesky(xs)}[name]
                row = []
                for vn, env in VARIANTS.items():
                    if vn == "warp-lu" and name != "inv":
                        continue
                    setenv(env)
                    warp.reset(client)
                    before = dict(warp.LAUNCHES)
                    t0 = time.perf_counter()
                    try:
                        f()
                        xp.synchronize()
                    except Exception as e:  # noqa: BLE001
                        row.append(f"{vn}: {type(e).__name__} {e}")
                        continue
                    first = (time.perf_counter() - t0) * 1e3
                    took = warp.LAUNCHES != before
                    t_call = best(f, xp.synchronize)
                    kern = float("nan")
                    try:
                        a3, b3, s3 = xa._data, xb._data, xs._data
                        if name == "cholesky":
                            nmax = batched.batch_chol_nmax(n)

                            def g(s):
                                out = new_output((B, n, n), s.dtype, s.client)
                                batched.batch_cholesky(s, out, status_word(s.client),
                                                      nmax, False)
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
                    row.append(f"{vn}{'' if took or vn == 'workgroup' else '(not taken)'} call "
                               f"{t_call:.3f} kernel {kern:.3f} (first {first:.0f})")
                t_cp = float("nan")
                if cp is not None:
                    cf = {"solve": lambda: cp.linalg.solve(ca, cb), "inv": lambda: cp.linalg.inv(ca),
                          "cholesky": lambda: cp.linalg.cholesky(cs)}[name]
                    t_cp = best(cf, cp.cuda.Device().synchronize)
                print(f"{name:8s} {B}x{n}x{n} {dty}: " + " | ".join(row)
                      + f" | cupy {t_cp:.3f}",
                      flush=True)
    tuning.unforce_all()


if __name__ == "__main__":
    main()
