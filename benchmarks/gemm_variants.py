"""WebGPU GEMM kernel variants next to CuPy (cuBLAS), in one process, on the sweep's shapes.

    python benchmarks/gemm_variants.py [--cases f32_4096,f16_4096,...] [--repeats 5]

For every case: CuPy's time, then numr webgpu's time for each kernel variant (tile
configurations pinned through ops/matmul/configs.force, the cooperative-matrix float16
path and its tiles through NUMR_WEBGPU_GEMM_COOP / _CFG, split-K parameters), each with
its error against a float64 NumPy reference on a sample of rows, in units of
sum_k |a_ik| |b_kj| (the scale a dot product's rounding error is bounded by). Prints one
line per variant; reports, never asserts.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import best_of, per_call  # noqa: E402


class _CoopLog(logging.Filter):
    def filter(self, record):
        m = record.getMessage().lower()
        return "coop" in m or "cooperative" in m


def _log_coop():
    """wgpu's own lines about cooperative-matrix configurations (Vulkan adapter probe)."""
    h = logging.StreamHandler(sys.stdout)
    h.addFilter(_CoopLog())
    h.setFormatter(logging.Formatter("[wgpu] %(message)s"))
    lg = logging.getLogger("wgpu")
    lg.addHandler(h)
    lg.setLevel(logging.DEBUG)


F32_BIG = ["8x8k8v", "db8x8k8", "db8x8k16", "db8x16k8", "db16x8k8"]
LOOP = [("db8x8k8 loop", {"cfg": "db8x8k8", "style": ""}),
        ("db8x8k8 uf", {"cfg": "db8x8k8", "style": "uf"}),
        ("db8x8k8 um", {"cfg": "db8x8k8", "style": "um"}),
        ("db8x16k8 um", {"cfg": "db8x16k8", "style": "um"}),
        ("db8x8k16 um", {"cfg": "db8x8k16", "style": "um"})]
# grouped tile rasterisation (spec.py ``_tile_origin``): G tile rows share L2
SWZ = [(f"db8x8k8 us{g}", {"cfg": "db8x8k8", "style": f"us{g}"}) for g in (4, 8, 16)] + \
    [("db8x16k8 us8", {"cfg": "db8x16k8", "style": "us8"}),
     ("db8x8k16 us8", {"cfg": "db8x8k16", "style": "us8"})]
CASES = {
    # name: (a shape, b shape, dtype, [(variant label, settings)]); db kernels unrolled
    # (style "u") unless the label says otherwise
    "f32_4096": ((4096, 4096), (4096, 4096), "float32",
                 [(c, {"cfg": c}) for c in F32_BIG] + LOOP),
    "f32_4096s": ((4096, 4096), (4096, 4096), "float32",
                  [("db8x8k8", {"cfg": "db8x8k8"})] + SWZ + [("db8x8k8 u", {"cfg": "db8x8k8"})]),
    # diagnostics (wrong results by design): "C" FMAs on the first K tile only, "L" the
    # global -> workgroup tile traffic only (spec.py ``_render_db``)
    "f32_4096d": ((4096, 4096), (4096, 4096), "float32",
                  [(f"{c} {st}", {"cfg": c, "style": st})
                   for c in ("db8x8k8", "db8x8k16", "db8x16k8")
                   for st in ("u", "uC", "uL")]),
    # compiled without wgpu's runtime checks (GemmSpec.trusted)
    "f32_4096t": ((4096, 4096), (4096, 4096), "float32",
                  [(f"{c} {st}{' T' if t else ''}", {"cfg": c, "style": st, "trusted": t})
                   for c, st, t in (("db8x8k8", "u", False), ("db8x8k8", "u", True),
                                    ("db8x8k8", "uC", True), ("db8x8k16", "u", True),
                                    ("db8x16k8", "u", True), ("db16x8k8", "u", True),
                                    ("db8x8k8", "uf", True), ("db8x8k8", "us8", True),
                                    ("db8x8k8", "u", False))]),
    "f32_2048t": ((2048, 2048), (2048, 2048), "float32",
                  [(f"db8x8k8 u{' T' if t else ''}", {"cfg": "db8x8k8", "trusted": t})
                   for t in (False, True)]),
    "f64_2048t": ((2048, 2048), (2048, 2048), "float64",
                  [(f"{c}{' T' if t else ''}", {"cfg": c, "trusted": t})
                   for c in ("db8x8k8", "db4x8k8") for t in (False, True)]),
    "f16_4096t": ((4096, 4096), (4096, 4096), "float16",
                  [(f"db8x8k8{' T' if t else ''}", {"coop": "0", "cfg": "db8x8k8", "trusted": t})
                   for t in (False, True)]),
    "batched_t": ((1000, 64, 64), (1000, 64, 64), "float32",
                  [(f"db4x4k16{' T' if t else ''}", {"cfg": "db4x4k16", "trusted": t})
                   for t in (False, True)]),
    "skinny_deep_t": ((64, 16384), (16384, 64), "float32",
                      [(f"db4x4k16 split{' T' if t else ''}", {"cfg": "db4x4k16", "trusted": t})
                       for t in (False, True)]),
    "skinny_wide_t": ((16384, 64), (64, 16384), "float32",
                      [(f"db8x8k8{' T' if t else ''}", {"cfg": "db8x8k8", "trusted": t})
                       for t in (False, True)]),
    "f32_2048s": ((2048, 2048), (2048, 2048), "float32",
                  [("db8x8k8", {"cfg": "db8x8k8"})] + SWZ[:3]),
    "f64_2048s": ((2048, 2048), (2048, 2048), "float64",
                  [(c, {"cfg": c}) for c in ("db8x8k8", "db4x8k8", "db8x4k8", "db4x4k8",
                                             "db4x4k16")]
                  + [(f"{c} us8", {"cfg": c, "style": "us8"})
                     for c in ("db8x8k8", "db4x8k8", "db8x4k8", "db4x4k16")]),
    "f64_4096s": ((4096, 4096), (4096, 4096), "float64",
                  [(c, {"cfg": c}) for c in ("db8x8k8", "db4x8k8")]
                  + [(f"{c} us8", {"cfg": c, "style": "us8"}) for c in ("db8x8k8", "db4x8k8")]),
    "f16_4096s": ((4096, 4096), (4096, 4096), "float16",
                  [(c, {"coop": "0", "cfg": c}) for c in ("db8x8k8",)]
                  + [("db8x8k8 us8", {"coop": "0", "cfg": "db8x8k8", "style": "us8"})]),
    "f32_2048": ((2048, 2048), (2048, 2048), "float32",
                 [(c, {"cfg": c}) for c in F32_BIG] + LOOP[:1] + LOOP[2:4]),
    "f64_2048": ((2048, 2048), (2048, 2048), "float64",
                 [(c, {"cfg": c}) for c in ("4x4k8", "db8x8k8", "db4x8k8", "db8x4k8")]
                 + [("db8x8k8 loop", {"cfg": "db8x8k8", "style": ""}),
                    ("db8x8k8 um", {"cfg": "db8x8k8", "style": "um"})]),
    "skinny_wide": ((16384, 64), (64, 16384), "float32",
                    [(c, {"cfg": c}) for c in ("8x8k8v", "db8x8k8", "db8x16k8")]),
    "skinny_deep": ((64, 16384), (16384, 64), "float32",
                    [("4x4k16v split512/256", {"cfg": "4x4k16v"}),
                     ("db4x4k16 split512/256", {"cfg": "db4x4k16"}),
                     ("db4x4k16 split1024/128", {"cfg": "db4x4k16", "split": (1024, 128)}),
                     ("db4x4k16 split128/256", {"cfg": "db4x4k16", "split": (128, 256)}),
                     ("db4x4k16 split512/64", {"cfg": "db4x4k16", "split": (512, 64)})]),
    "batched_1000x64": ((1000, 64, 64), (1000, 64, 64), "float32",
                        [(c, {"cfg": c}) for c in ("4x4k16v", "db4x4k16", "db4x4k8",
                                                   "db4x8k16")]),
    "small_64": ((64, 64), (64, 64), "float32",
                 [(c, {"cfg": c}) for c in ("4x4k16v", "db4x4k16")]),
    "f16_4096": ((4096, 4096), (4096, 4096), "float16",
                 [(c, {"coop": "0", "cfg": c}) for c in ("4x4k16", "db8x8k8", "db8x16k8",
                                                          "db16x8k8")] +
                 [("coop auto", {"coop": "1"})]),
    "f16_2048": ((2048, 2048), (2048, 2048), "float16",
                 [(c, {"coop": "0", "cfg": c}) for c in ("4x4k16", "db8x8k8")]),
}


def _apply(settings, dtype):
    from numr_array_api.backends.webgpu.ops.matmul import configs
    import importlib
    G = importlib.import_module("numr_array_api.backends.webgpu.ops.matmul.gemm")
    configs.force(dtype, settings.get("cfg"))
    os.environ["NUMR_WEBGPU_GEMM_COOP"] = settings.get("coop", "1")
    os.environ["NUMR_WEBGPU_GEMM_COOP_CFG"] = settings.get("coop_cfg", "")
    groups, depth = settings.get("split", (512, 256))
    G.SPLIT_K_GROUPS, G.SPLIT_K_DEPTH = groups, depth
    G.STYLE = settings.get("style", "u")
    G.TRUSTED = settings.get("trusted", False)
    if not settings:   # back to the library's defaults
        G.STYLE, G.TRUSTED = None, True


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
    os.environ.setdefault("NUMR_WEBGPU_GEMM_COOP", "1")  # the device asks for the feature
    import wgpu  # noqa: F401 - its logger class must exist before the handler goes on
    _log_coop()
    import numr_array_api
    import numr_array_api.webgpu as xp
    numr_array_api.set_host_conversion("allow")
    from numr_array_api.backends.webgpu.ops.matmul import coop
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
            extra = ""
            if dtype == "float16":
                extra = f"  coop={coop.status(client)}"
            ratio = f"{t_cp / t:5.2f}" if t_cp else "  -  "
            print(f"{name:16s} {label:28s} {t * 1e3:9.3f} ms {flops / t / 1e12:7.2f} TFLOP/s  "
                  f"ratio {ratio}  err {err:.2e}  latency {lat * 1e3:.3f} ms  "
                  f"first {first * 1e3:.0f} ms{extra}",
                  flush=True)
        _apply({}, dtype)
        del ga, gb
    print(f"[gemm] done in {time.perf_counter() - t_all:.1f} s")


if __name__ == "__main__":
    main()
