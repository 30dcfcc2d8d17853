#!/usr/bin/env python3
"""Lazy elementwise fusion: numr webgpu eager, numr webgpu fused and CuPy (one kernel per
op), in one run.

    python benchmarks/suite/fusion.py [--small] [--backends numr-webgpu,cupy] [--repeats 3]
                                       [--json out.json]

Cases on a 256 MiB float32 array x of shape (rows, 4096) (``--small``: 4 MiB):
``affine``: ``((x - m) / s) * w + b`` with m, s, w, b rows of 4096 (standardise, scale,
shift); ``chain6``: ``y = x * 2; e = exp(y); c = y > 1; z = where(c, e, y); (z - 0.5) * x``;
``sumsq``: ``sum((x - m) ** 2, axis=1)`` (fused: the expression is the reduction's prologue,
one kernel reading x once; eager and CuPy: two elementwise kernels, then the reduction).
Time per call: the expression, then ``synchronize()`` (which runs what fusion deferred).
Nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


def affine(xp, x, m, s, w, b):
    return ((x - m) / s) * w + b


def chain6(xp, x, m, s, w, b):
    y = x * 2
    e = xp.exp(y)
    c = y > 1
    z = xp.where(c, e, y)
    return (z - 0.5) * x


def sumsq(xp, x, m, s, w, b):
    return xp.sum((x - m) ** 2, axis=1)


CASES = {"affine": affine, "chain6": chain6, "sumsq": sumsq}


def timed(fn, sync, repeats, budget=0.5):
    """Best time per call; every call's result is held until the synchronize, so a fused
    expression runs for each (a result dropped unread would run nothing)."""
    keep = [fn()]
    sync()
    t0 = time.perf_counter()
    keep = [fn()]
    sync()
    one = time.perf_counter() - t0
    reps = max(1, min(16, int(budget / max(one, 1e-6))))
    best = float("inf")
    for _ in range(repeats):
        keep = []
        t0 = time.perf_counter()
        for _ in range(reps):
            keep.append(fn())
        sync()
        best = min(best, (time.perf_counter() - t0) / reps)
    del keep
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--backends", default="numr-webgpu,cupy")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json")
    a = ap.parse_args()
    cols = 4096
    rows = (4 << 20 if a.small else 256 << 20) // 4 // cols
    rng = np.random.default_rng(0)
    host = [rng.standard_normal((rows, cols)).astype(np.float32)] + \
        [rng.uniform(0.5, 1.5, cols).astype(np.float32) for _ in range(4)]
    runs = []
    names = a.backends.split(",")
    if "numr-webgpu" in names:
        try:
            import numr_array_api.webgpu as wx
            if wx.__array_namespace_info__().devices():
                runs += [("numr-webgpu eager", wx, False), ("numr-webgpu fused", wx, True)]
        except Exception as e:  # noqa: BLE001 - a missing backend is reported
            print(f"numr-webgpu: skipped ({e})")
    if "cupy" in names:
        try:
            import cupy as cp
            cp.cuda.runtime.getDeviceCount()
            runs.append(("cupy", cp, None))
        except Exception as e:  # noqa: BLE001
            print(f"cupy: skipped ({e})")
    results = []
    print(f"{'case':10s} " + " ".join(f"{r[0]:>20s}" for r in runs) + "  fused/cupy")
    for case, fn in CASES.items():
        row = {"case": f"{case} float32 {rows}x{cols}", "bytes": rows * cols * 4}
        for label, xp, fused in runs:
            try:
                args = [xp.asarray(h) for h in host]
                sync = xp.cuda.get_current_stream().synchronize if fused is None else \
                    xp.synchronize
                if fused is not None:
                    xp.set_fusion(fused)
                try:
                    row[label] = timed(lambda: fn(xp, *args), sync, a.repeats)
                finally:
                    if fused is not None:
                        xp.set_fusion(False)
            except Exception as e:  # noqa: BLE001 - a case a backend cannot run
                row[label] = None
                row[label + "_error"] = f"{type(e).__name__}: {e}"[:200]
        f, c = row.get("numr-webgpu fused"), row.get("cupy")
        row["fused_over_cupy"] = f / c if f and c else None
        print(f"{case:10s} " + " ".join(f"{row[r[0]] * 1e3:17.3f} ms" if row.get(r[0]) else
                                        f"{'error':>20s}" for r in runs)
              + (f"  {row['fused_over_cupy']:9.2f}x" if row["fused_over_cupy"] else ""),
              flush=True)
        results.append(row)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
