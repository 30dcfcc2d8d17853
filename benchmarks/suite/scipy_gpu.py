#!/usr/bin/env python3
"""SciPy on the GPU: numr_array_api.scipy (webgpu kernels; cuda through cupyx.scipy) next to
CuPy's cupyx.scipy, in one run.

    python benchmarks/suite/scipy_gpu.py [--small] [--backends numr-webgpu,numr-cuda,cupy]
                                          [--repeats 3] [--json out.json]

Cases: special.erf / gammaln / ndtr / i0 of 64M float32; ndimage.gaussian_filter (sigma 4)
and uniform_filter (size 9) of a 4096 x 4096 float32 image; signal.fftconvolve of 1M by 10k
float32; signal.lfilter of a 4th-order Butterworth low-pass along the last axis of 64 x 1M
float32. ``--small`` divides every length by 64 (so it runs on lavapipe).

Prints time per call and the ratio numr webgpu / CuPy (1.0: as fast). A backend that lacks a
function (BackendLimitation) or fails is recorded with its error. Nothing here asserts a
timing.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


def cases(small):
    d = 64 if small else 1
    n = (64 << 20) // d
    side = 4096 // (8 if small else 1)
    sig, ker = (1 << 20) // d, 10_000 // d
    rows, length = (64 // (8 if small else 1)), (1 << 20) // d
    from scipy.signal import butter
    b, a = butter(4, 0.1)
    out = []
    for fn in ("erf", "gammaln", "ndtr", "i0"):
        out.append((f"special.{fn} float32 {n >> 20}M", "special", fn,
                    lambda rng, n=n: (rng.uniform(0.01, 8, n).astype(np.float32),), {}))
    img = lambda rng: (rng.standard_normal((side, side)).astype(np.float32),)  # noqa: E731
    out.append((f"ndimage.gaussian_filter sigma 4 {side}^2", "ndimage", "gaussian_filter",
                img, {"sigma": 4.0}))
    out.append((f"ndimage.uniform_filter size 9 {side}^2", "ndimage", "uniform_filter",
                img, {"size": 9}))
    out.append((f"signal.fftconvolve {sig >> 10}k x {ker}", "signal", "fftconvolve",
                lambda rng: (rng.standard_normal(sig).astype(np.float32),
                             rng.standard_normal(ker).astype(np.float32)), {}))
    out.append((f"signal.lfilter order 4 {rows} x {length >> 10}k", "signal", "lfilter",
                lambda rng: (rng.standard_normal((rows, length)).astype(np.float32),),
                {"_coeffs": (b, a)}))
    return out


def backends(names):
    out = {}
    for name in names:
        try:
            if name == "cupy":
                import cupy as cp
                cp.cuda.runtime.getDeviceCount()
                out[name] = (lambda module: importlib.import_module(f"cupyx.scipy.{module}"),
                             cp.asarray, cp.cuda.get_current_stream().synchronize)
            elif name in ("numr-webgpu", "numr-cuda"):
                xp = importlib.import_module(f"numr_array_api.{name.split('-')[1]}")
                if not xp.__array_namespace_info__().devices():
                    raise RuntimeError("no device")
                out[name] = (lambda module: importlib.import_module(
                    f"numr_array_api.scipy.{module}"), xp.asarray, xp.synchronize)
        except Exception as e:  # noqa: BLE001 - a missing peer is reported, not fatal
            print(f"{name}: skipped ({type(e).__name__}: {e})")
    return out


def timed(fn, sync, repeats, budget=0.5):
    fn()                        # warm-up: compiles shaders / plans
    sync()
    t0 = time.perf_counter()
    fn()
    sync()
    one = time.perf_counter() - t0
    reps = max(1, min(20, int(budget / max(one, 1e-6))))
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--backends", default="numr-webgpu,numr-cuda,cupy")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json")
    a = ap.parse_args()
    bes = backends(a.backends.split(","))
    if not bes:
        print("no backend available")
        return 0
    rng = np.random.default_rng(0)
    names = list(bes)
    print(f"{'case':44s} " + " ".join(f"{b:>14s}" for b in names) + "  webgpu/cupy")
    results = []
    for title, module, fname, make, kwargs in cases(a.small):
        host = make(rng)
        row = {"case": title}
        for b, (lib, asarray, sync) in bes.items():
            try:
                f = getattr(lib(module), fname)
                args = tuple(asarray(h) for h in host)
                kw = dict(kwargs)
                coeffs = kw.pop("_coeffs", None)
                if coeffs is not None:    # lfilter(b, a, x): coefficients as host arrays
                    args = (asarray(coeffs[0]), asarray(coeffs[1])) + args
                sync()
                row[b] = timed(lambda: f(*args, **kw), sync, a.repeats)
            except Exception as e:  # noqa: BLE001 - a case a backend cannot run
                row[b] = None
                row[b + "_error"] = f"{type(e).__name__}: {e}"[:200]
        t, p = row.get("numr-webgpu"), row.get("cupy")
        row["webgpu_over_cupy"] = t / p if t and p else None
        cells = [f"{row[b] * 1e3:11.3f} ms" if row.get(b) else f"{'error':>14s}"
                 for b in names]
        ratio = f"{row['webgpu_over_cupy']:10.2f}x" if row["webgpu_over_cupy"] else "-"
        print(f"{title:44s} " + " ".join(cells) + "  " + ratio, flush=True)
        for b in names:
            if row.get(b + "_error"):
                print(f"    {b}: {row[b + '_error']}")
        results.append(row)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
