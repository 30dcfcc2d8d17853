"""The GEMM autotuner: per (dtype, shape bucket) the fastest tile configuration on this
adapter, written to the "gemm" section of its tuning table (numr_array_api.tuning.tables),
read back by configs.choose.

    python -m numr_array_api.backends.webgpu.ops.matmul.tune [--quick]

For each dtype and shape, every configuration that renders on the adapter (configs
CONFIGS, within its workgroup memory) is timed on the device (best of a few synchronised
calls, after a warm-up that compiles it) and checked against NumPy; the fastest correct
one becomes the bucket's choice. Buckets already in the table keep their entry unless
re-tuned. Nothing is tuned implicitly: a program gets the built-in choice until this ran.
"""

from __future__ import annotations


import numpy as np

from .....tuning import tables
from .....tuning.tune import best_time
from . import configs

SHAPES = [(4096, 4096, 4096), (2048, 2048, 2048), (1024, 1024, 1024), (512, 512, 512),
          (256, 256, 256), (128, 128, 128), (64, 64, 64), (16384, 64, 16384),
          (64, 16384, 64), (4096, 256, 4096)]
QUICK = [(256, 256, 256), (64, 64, 64)]
DTYPES = ("float32", "float64", "float16")
TOL = {"float32": 1e-5, "float64": 1e-13, "float16": 2e-3}


def candidates(client, dtype):
    from ...codegen.caps import Caps
    val = {"float64": "f64"}.get(dtype, "f32")
    wgs = Caps.of(client).workgroup_storage
    return [n for n, c in configs.CONFIGS.items() if configs._allowed(c, val, dtype, wgs)]


def tune(client=None, shapes=None, dtypes=DTYPES, repeats=3, write=True, log=print,
         path=None):
    """Time the candidates; returns {"dtype:bucket": config name}; merges them into the
    adapter's tuning table (``path``: that file instead) when ``write``."""
    from ....._core import dtypes as dt
    from ...transfer import from_numpy
    from .gemm import gemm
    if client is None:
        import numr_array_api.webgpu as xp
        client = xp.asarray([0.0])._data.client
    shapes = shapes or SHAPES
    rng = np.random.default_rng(0)
    found = {}
    saved = dict(configs._FORCED)
    try:
        for dtype in dtypes:
            if not client.native(getattr(dt, dtype)):
                continue
            for M, K, N in shapes:
                a = rng.standard_normal((M, K)).astype(dtype)
                b = rng.standard_normal((K, N)).astype(dtype)
                rows = slice(0, min(M, 16))
                ref = a[rows].astype(np.float64) @ b.astype(np.float64)
                scale = np.abs(a[rows].astype(np.float64)) @ np.abs(b.astype(np.float64))
                ga, gb = from_numpy(a, client), from_numpy(b, client)
                best = None
                for name in candidates(client, dtype):
                    configs.force(dtype, name)
                    try:
                        t = best_time(lambda: gemm(ga, gb), client.synchronize, repeats)
                        got = gemm(ga, gb).to_numpy()[rows].astype(np.float64)
                    except Exception as exc:  # noqa: BLE001 - a candidate that fails: skipped
                        log(f"[tune] {dtype} {M}x{K}x{N} {name}: {type(exc).__name__}")
                        continue
                    err = float(np.max(np.abs(got - ref) / np.maximum(scale, 1e-300)))
                    if err > TOL[dtype]:
                        log(f"[tune] {dtype} {M}x{K}x{N} {name}: error {err:.1e}, skipped")
                        continue
                    if best is None or t < best[0]:
                        best = (t, name)
                if best is not None:
                    key = f"{dtype}:{configs.bucket(M, N, K)}"
                    found[key] = best[1]
                    log(f"[tune] {dtype} {M}x{K}x{N} -> {best[1]} "
                        f"({2 * M * N * K / best[0] / 1e12:.2f} TFLOP/s)")
    finally:
        for dtype in dtypes:
            configs.force(dtype, saved[dtype].name if dtype in saved else None)
    if write and found:
        written = tables.write(tables.describe(client), gemm=found, path=path)
        if written:
            log(f"[tune] wrote {len(found)} choices to {written}")
    return found


if __name__ == "__main__":
    import sys
    tune(shapes=QUICK if "--quick" in sys.argv else None)
