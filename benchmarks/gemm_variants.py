"""WebGPU GEMM kernel variants next to CuPy (cuBLAS), in one process, on the sweep's shapes.

    python benchmarks/gemm_variants.py [--cases f32_4096,f16_4096,...] [--repeats 5]

For every case: CuPy's time, then numr webgpu's time for each kernel variant (tile
configurations pinned through ops/matmul/configs.force; the gemm family's tuning knobs:
code style GEMM_STYLE, split-K SPLITK_GROUPS / SPLITK_DEPTH), each with its error against
a float64 NumPy reference on a sample of rows, in units of
sum_k |a_ik| |b_kj| (the scale a dot product's rounding error is bounded by). Prints one
line per variant; reports, never asserts.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import best_of, per_call  # noqa: E402


F32_BIG = ["8x8k8v", "db8x8k8", "db8x8k16", "db8x16k8", "db16x8k8"]
STYLES = [("db8x8k8 u", {"cfg": "db8x8k8", "style": "u"}),
          ("db8x8k8 uf", {"cfg": "db8x8k8", "style": "uf"})]
CASES = {
    # name: (a shape, b shape, dtype, [(variant label, settings)]); db kernels in the
    # default style ("uf" for float32, "u" otherwise) unless the label says otherwise
    "f32_4096": ((4096, 4096), (4096, 4096), "float32",
                 [(c, {"cfg": c}) for c in F32_BIG] + STYLES),
    "f32_2048": ((2048, 2048), (2048, 2048), "float32",
                 [(c, {"cfg": c}) for c in F32_BIG] + STYLES),
    "f64_2048": ((2048, 2048), (2048, 2048), "float64",
                 [(c, {"cfg": c}) for c in ("4x4k8", "db8x8k8", "db4x8k8", "db8x4k8",
                                            "db4x4k8", "db4x4k16")]
                 + [("db8x8k8 uf", {"cfg": "db8x8k8", "style": "uf"})]),
    "f64_4096": ((4096, 4096), (4096, 4096), "float64",
                 [(c, {"cfg": c}) for c in ("db8x8k8", "db4x8k8")]),
    "skinny_wide": ((16384, 64), (64, 16384), "float32",
                    [(c, {"cfg": c}) for c in ("8x8k8v", "db8x8k8", "db8x16k8")]),
    "skinny_deep": ((64, 16384), (16384, 64), "float32",
                    [("4x4k16v split512/64", {"cfg": "4x4k16v"}),
                     ("db4x4k16 split512/64", {"cfg": "db4x4k16"}),
                     ("db4x4k16 split1024/128", {"cfg": "db4x4k16", "split": (1024, 128)}),
                     ("db4x4k16 split128/256", {"cfg": "db4x4k16", "split": (128, 256)}),
                     ("db4x4k16 split512/256", {"cfg": "db4x4k16", "split": (512, 256)})]),
    "batched_1000x64": ((1000, 64, 64), (1000, 64, 64), "float32",
                        [(c, {"cfg": c}) for c in ("4x4k16v", "db4x4k16", "db4x4k8",
                                                   "db4x8k16")]),
    "small_64": ((64, 64), (64, 64), "float32",
                 [(c, {"cfg": c}) for c in ("4x4k16v", "db4x4k16")]),
    "f16_4096": ((4096, 4096), (4096, 4096), "float16",
                 [(c, {"cfg": c}) for c in ("4x4k16", "db8x8k8", "db8x16k8", "db16x8k8")]),
    "f16_2048": ((2048, 2048), (2048, 2048), "float16",
                 [(c, {"cfg": c}) for c in ("4x4k16", "db8x8k8")]),
}


def _apply(settings, dtype):
    from numr_array_api import tuning
    from numr_array_api.backends.webgpu.ops.matmul import configs
    configs.force(dtype, settings.get("cfg"))
    groups, depth = settings.get("split", (None, None))
    tuning.force(GEMM_STYLE=settings.get("style"), SPLITK_GROUPS=groups, SPLITK_DEPTH=depth)


def _reference(a, b, rows):
    """float64 products of the sampled rows (of every batch matrix) and their error scale
    |a| @ |b|."""
    a64 = a[..., rows, :].astype(np.float64)
    b64 = b.astype(np.float64)
    return a64 @ b64, np.abs(a64) @ np.abs(b64)


def _error(r, ref, rows):
    """max |r - ref| / (|a| @ |b|) over the sampled rows."""
    want, scale = ref
    got = np.asarray(r)[..., rows, :].astype(np.float64)
    return float(np.max(np.abs(got - want) / np.maximum(scale, 1e-300)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-cupy", action="store_true")
    ap.add_argument("--shrink", type=int, default=1, help="divide every M / N / K by this "
                    "(a smoke run on a CPU adapter)")
    args = ap.parse_args()
    import numr_array_api
    import numr_array_api.webgpu as xp
    numr_array_api.set_host_conversion("allow")
    client = xp.asarray([0.0])._data.client
    print(f"[gemm] adapter {client.info.get('name')} ({client.info.get('backend')}); "
          f"device features: {sorted(client.features)}")
    cp = None
    if not args.no_cupy:
        try:
            import cupy as cp
            cp.cuda.runtime.getDeviceCount()
        except Exception as exc:  # noqa: BLE001
            print(f"[gemm] no CuPy: {exc}")
            cp = None
    rng = np.random.default_rng(0)
    t_all = time.perf_counter()
    for name in args.cases.split(","):
        ash, bsh, dtype, variants = CASES[name]
        if args.shrink > 1:
            ash = ash[:-2] + tuple(max(1, d // args.shrink) for d in ash[-2:])
            bsh = bsh[:-2] + (ash[-1], max(1, bsh[-1] // args.shrink))
        a = rng.standard_normal(ash).astype(dtype)
        b = rng.standard_normal(bsh).astype(dtype)
        M, K = ash[-2:]
        N = bsh[-1]
        nb = ash[0] if len(ash) == 3 else 1
        flops = 2.0 * nb * M * N * K
        rows = np.unique(np.linspace(0, M - 1, min(M, 48)).astype(int))
        reps = args.repeats if flops > 1e9 else 10 * args.repeats
        ref = _reference(a, b, rows)
        t_cp = None
        if cp is not None:
            ca, cb_ = cp.asarray(a), cp.asarray(b)
            sync = cp.cuda.get_current_stream().synchronize
            t_cp = per_call(lambda: ca @ cb_, sync, reps)
            lat_cp = best_of(lambda: ca @ cb_, sync, 3)
            e_cp = _error(cp.asnumpy(ca @ cb_), ref, rows)
            print(f"{name:16s} {'cupy':28s} {t_cp * 1e3:9.3f} ms {flops / t_cp / 1e12:7.2f} "
                  f"TFLOP/s  ratio 1.00  err {e_cp:.2e}  latency {lat_cp * 1e3:.3f} ms")
            del ca, cb_
        ga, gb = xp.asarray(a), xp.asarray(b)
        for label, settings in variants:
            _apply(settings, dtype)
            try:
                t0 = time.perf_counter()
                r = ga @ gb
                xp.synchronize()
                first = time.perf_counter() - t0
                err = _error(np.asarray(r), ref, rows)
                t = per_call(lambda: ga @ gb, xp.synchronize, reps)
                lat = best_of(lambda: ga @ gb, xp.synchronize, 3)
            except Exception as exc:  # noqa: BLE001 - report and go on
                print(f"{name:16s} {label:28s} FAILED {type(exc).__name__}: {str(exc)[:300]}")
                continue
            ratio = f"{t_cp / t:5.2f}" if t_cp else "  -  "
            print(f"{name:16s} {label:28s} {t * 1e3:9.3f} ms {flops / t / 1e12:7.2f} TFLOP/s  "
                  f"ratio {ratio}  err {err:.2e}  latency {lat * 1e3:.3f} ms  "
                  f"first {first * 1e3:.0f} ms",
                  flush=True)
        _apply({}, dtype)
        del ga, gb
    print(f"[gemm] done in {time.perf_counter() - t_all:.1f} s")


if __name__ == "__main__":
    main()
