"""Where the wall time of one large eigh (tridiagonal path) goes on a GPU: the host time of
each step of tridiag.eigh (setup recipe, cluster read, vectors recipe, status read) and,
with a synchronize after each recipe, the GPU time of each; beside the whole
xp.linalg.eigh call and CuPy's.

    python benchmarks/gpu/eigh_phases.py [n ...]     (default 512; float64 and float32)
Reports, never asserts."""

import sys
import time

import numpy as np

import numr_array_api.webgpu as xp
from numr_array_api.backends.webgpu.ops.linalg_spectral import clusters, tridiag

REPS = 7


def _med(xs):
    return float(np.median(xs)) * 1e3


def phases(be, x, sync):
    """Host timestamps (ms from the start) of eigh's steps; with ``sync`` a synchronize
    after each recipe (then each step's time is its GPU time plus its host time)."""
    marks = []
    rec = x.client.recipes
    orig_call, orig_plan = rec.call, tridiag.plan

    def call(*a, **k):
        out = orig_call(*a, **k)
        if sync:
            xp.synchronize()
        marks.append(("recipe " + str(a[0][-1])[:12], time.perf_counter()))
        return out

    def plan(*a, **k):
        out = orig_plan(*a, **k)
        marks.append(("cluster read", time.perf_counter()))
        return out

    rec.call, tridiag.plan = call, plan
    try:
        t0 = time.perf_counter()
        tridiag.eigh(be, x.copy(), True)
        marks.append(("status read + end", time.perf_counter()))
    finally:
        rec.call, tridiag.plan = orig_call, orig_plan
    out, prev = [], t0
    for name, t in marks:
        out.append((name, (t - prev) * 1e3))
        prev = t
    return out, (prev - t0) * 1e3


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [512]
    be = xp._backend
    try:
        import cupy as cp
    except Exception:  # noqa: BLE001
        cp = None
    for n in sizes:
        for dtype in ("float64", "float32"):
            a = np.random.default_rng(0).standard_normal((n, n))
            a = (a + a.T).astype(dtype)
            xa = xp.asarray(a)
            x = xp.asarray(a[None])._data
            for _ in range(3):
                xp.linalg.eigh(xa)
                tridiag.eigh(be, x.copy(), True)
            xp.synchronize()
            whole = []
            for _ in range(REPS):
                xp.synchronize()
                t = time.perf_counter()
                xp.linalg.eigh(xa)
                xp.synchronize()
                whole.append(time.perf_counter() - t)
            line = f"eigh {n} {dtype}: xp.linalg.eigh {_med(whole):.3f} ms"
            if cp is not None:
                ca = cp.asarray(a)
                cp.linalg.eigh(ca)
                cp.cuda.Device().synchronize()
                ct = []
                for _ in range(REPS):
                    t = time.perf_counter()
                    cp.linalg.eigh(ca)
                    cp.cuda.Device().synchronize()
                    ct.append(time.perf_counter() - t)
                line += f", CuPy {_med(ct):.3f} ms"
            print(line, flush=True)
            for sync in (False, True):
                runs = [phases(be, x, sync) for _ in range(REPS)]
                names = [nm for nm, _ in runs[0][0]]
                cols = [float(np.median([r[0][i][1] for r in runs])) for i in range(len(names))]
                tot = float(np.median([r[1] for r in runs]))
                parts = ", ".join(f"{nm} {c:.3f}" for nm, c in zip(names, cols))
                print(f"  {'synced' if sync else 'as is '} tridiag.eigh {tot:.3f} ms: {parts}",
                      flush=True)


if __name__ == "__main__":
    main()
