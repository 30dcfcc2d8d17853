#!/usr/bin/env python3
"""WebGPU reductions and scans: row-mapping tuning variants next to CuPy, in one process.

    python benchmarks/reduce_variants.py [--variants "REDUCE_UNROLL=2;REDUCE_GROUPS=4096"]
                                          [--large-mib 256] [--cases sum,max1,...] [--smoke]

For every case (the sweep's reduction and scan acceptance rows at a small and a large size)
times raw CuPy once and numr webgpu under each variant (knob assignments of the reduction
family, ``numr_array_api.tuning``; an empty one is the defaults), and checks every variant's
result against NumPy in
float64. Time per call as in benchmarks/sweep.py: ``reps`` calls queued, one synchronize,
best of ``repeats``. Prints one table: time, CuPy time / numr time (>= 0.8 is the acceptance
goal), dispatches per call, and "BAD" where a result differs from NumPy. Reports, never
asserts.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

if not hasattr(np, "cumulative_sum"):  # (NumPy < 2.1: the check's reference)
    np.cumulative_sum = lambda x, axis=None: np.cumsum(x, axis=axis)

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

# (benchmarks/results/reduce-variants-h100-2026-11-26.log: 4 / 8 loads a trip best; 16
# loads and 1024-thread workgroups slower; the time per call held the host's recording
# too: the batch was submitted only at synchronize)
VARIANTS = ("REDUCE_UNROLL=2,REDUCE_STRIDED_UNROLL=1;"   # 2 loads a trip
            " ;"                                           # the defaults
            "REDUCE_UNROLL=8;"
            "REDUCE_GROUPS=1024;"
            "REDUCE_UNROLL=8,REDUCE_STRIDED_UNROLL=8,REDUCE_GROUPS=4096,REDUCE_MIN_LOADS=8")


def cases(large_bytes, small):
    """(name, size, make(rng) -> numpy input, run(ns, x), tolerance)."""
    out = []
    for size in ("large", "small"):  # (large first: the acceptance rows)
        n32 = small if size == "small" else large_bytes // 4
        side = 1 << (int(math.isqrt(n32)).bit_length() - 1)
        rc = (25, n32 // 25) if size == "small" else (side, n32 // side)

        def f(shape, dt):
            def make(rng):
                if np.dtype(dt).kind == "b":
                    return rng.random(shape) > 0.5
                if np.dtype(dt).kind in "iu":
                    return rng.integers(-50, 100, shape).astype(dt)
                return rng.standard_normal(shape, dtype=np.float32).astype(dt)
            return make
        n16 = small if size == "small" else large_bytes // 2
        n64 = small if size == "small" else large_bytes // 8
        nb = small if size == "small" else large_bytes
        out += [
            ("sum f32", size, f((n32,), "float32"), lambda ns, x: ns.sum(x), 1e-5),
            ("max(axis=1) f32", size, f(rc, "float32"), lambda ns, x: ns.max(x, axis=1), 0),
            ("var(axis=0) f32", size, f(rc, "float32"), lambda ns, x: ns.var(x, axis=0),
             1e-4),
            ("cumulative_sum f32", size, f((n32,), "float32"),
             lambda ns, x: ns.cumulative_sum(x), 1e-3),
            ("sum(axis=1) f32", size, f(rc, "float32"), lambda ns, x: ns.sum(x, axis=1),
             1e-5),
            ("sum(axis=0) f32", size, f(rc, "float32"), lambda ns, x: ns.sum(x, axis=0),
             1e-5),
            ("mean f32", size, f((n32,), "float32"), lambda ns, x: ns.mean(x), 1e-5),
            ("argmax f32", size, f((n32,), "float32"), lambda ns, x: ns.argmax(x), 0),
            ("argmin(axis=1) f32", size, f(rc, "float32"),
             lambda ns, x: ns.argmin(x, axis=1), 0),
            ("sum f64", size, f((n64,), "float64"), lambda ns, x: ns.sum(x), 1e-12),
            ("sum f16", size, f((n16,), "float16"), lambda ns, x: ns.sum(x), 1e-3),
            ("sum i32", size, f((n32,), "int32"), lambda ns, x: ns.sum(x), 0),
            ("any bool", size, f((nb,), "bool"), lambda ns, x: ns.any(x), 0),
            ("x + x f32 (reference)", size, f((n32,), "float32"), lambda ns, x: x + x, 0),
        ]
    return out


def time_call(fn, sync, reps, repeats, host=None):
    """Best seconds per call of ``repeats`` runs of ``reps`` calls and one synchronize;
    ``host`` (a list) gets the best host-side seconds per call (calls only)."""
    fn()
    sync()
    best = hbest = math.inf
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(reps):
            fn()
        th = time.perf_counter()
        sync()
        best = min(best, (time.perf_counter() - t) / reps)
        hbest = min(hbest, (th - t) / reps)
    if host is not None:
        host.append(hbest)
    return best


_REF = {}


def check(name, got, a, run, tol):
    """None if ``got`` (host array) matches NumPy on ``a`` in float64, else a reason.
    tol 0: exact; sums / means / scans: ``tol`` relative to the same op on |a| (the
    magnitudes added), plus the result dtype's rounding; var: relative to the result."""
    key = (name, a.shape, a.dtype.str)
    if _REF.get("key") != key:  # once per case, not per variant
        a64 = a.astype(np.float64) if a.dtype.kind == "f" else a
        _REF.update(key=key, ref=np.asarray(run(np, a64)),
                    mag=None if tol == 0 or name.startswith("var") else
                    np.abs(np.asarray(run(np, np.abs(a64)))))
    ref, mag = _REF["ref"], _REF["mag"]
    got = np.asarray(got)
    if got.shape != ref.shape:
        return f"shape {got.shape} != {ref.shape}"
    if tol == 0:
        ok = np.array_equal(got.astype(np.float64), ref.astype(np.float64), equal_nan=True)
        return None if ok else \
            f"differs at {int(np.argmax(got.astype(np.float64) != ref))}"
    g = got.astype(np.float64)
    if name.startswith("var"):
        lim = tol * np.abs(ref)
    else:
        lim = tol * mag + \
            np.abs(ref) * (np.finfo(got.dtype).eps if got.dtype.kind == "f" else 0)
    bad = np.abs(g - ref) > lim + 1e-30
    if np.any(bad):
        i = int(np.argmax(bad))
        return f"{bad.sum()} off, e.g. {g.flat[i]!r} vs {ref.flat[i]!r}"
    return None


_PROBE = """
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@compute @workgroup_size(@WG@)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let T = nw.x * @WG@u;
  let gid = w.x * @WG@u + l;
  let n = arrayLength(&src);
@DECL@
  var i = gid;
  for (; i + (@U@ - 1u) * T < n; i += @U@ * T) {
@LOADS@
@ADDS@
  }
  for (; i < n; i += T) { a0 += src[i]; }
  let s = dot(@SUM@, vec4<f32>(1.0));
  if (s == 1234.5678) { dst[gid] = s; }
}
"""


def probe(W, client, a, reps, repeats, cp=None):
    """Raw read bandwidth on this stack: grid-stride vec4 sums over ``a`` (float32), U loads
    in flight per thread and trip, G workgroups; the result is never stored (a compare
    keeps the loads live). The ceiling the reduction kernels can reach here."""
    x = W.asarray(a)
    nbytes = a.nbytes
    for wg in (256,):
        for u in (1, 4, 8):
            for g in (1056, 4096, 16384, 65535):
                src = (_PROBE.replace("@WG@", str(wg)).replace("@U@", f"{u}u")
                       .replace("@DECL@", "\n".join(f"  var a{j} = vec4<f32>(0.0);"
                                                  for j in range(u)))
                       .replace("@LOADS@", "\n".join(f"    let x{j} = src[i + {j}u * T];"
                                                   for j in range(u)))
                       .replace("@ADDS@", "\n".join(f"    a{j} += x{j};" for j in range(u)))
                       .replace("@SUM@", " + ".join(f"a{j}" for j in range(u))))
                dst = W.zeros(g * wg, dtype=W.float32)
                run = lambda: W.custom_kernel(src, "main", [x._data], [dst._data], (g, 1, 1))
                try:
                    t = time_call(run, W.synchronize, reps, repeats)
                    print(f"[probe] wg={wg} U={u} G={g}: {t * 1e6:.1f} us "
                          f"{nbytes / t / 1e12:.2f} TB/s", flush=True)
                except Exception as exc:
                    print(f"[probe] wg={wg} U={u} G={g}: {type(exc).__name__}: {exc}")
    if cp is not None:
        xc = cp.asarray(a)
        t = time_call(lambda: cp.sum(xc), cp.cuda.get_current_stream().synchronize, reps,
                      repeats)
        print(f"[probe] cupy.sum: {t * 1e6:.1f} us {nbytes / t / 1e12:.2f} TB/s")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variants", default=VARIANTS)
    p.add_argument("--large-mib", type=int, default=256)
    p.add_argument("--small", type=int, default=1000)
    p.add_argument("--reps-small", type=int, default=200)
    p.add_argument("--reps-large", type=int, default=10)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--cases", default="", help="comma-separated name prefixes")
    p.add_argument("--sizes", default="small,large")
    p.add_argument("--no-cupy", action="store_true")
    p.add_argument("--smoke", action="store_true")
    p.add_argument("--probe", action="store_true", help="raw read-bandwidth probes first")
    args = p.parse_args(argv)
    if args.smoke:
        args.large_mib, args.reps_small, args.reps_large, args.repeats = 1, 3, 2, 1
    import numr_array_api.webgpu as W
    from numr_array_api import tuning
    from numr_array_api.tuning.registry import parse_assignments
    from numr_array_api.backends.webgpu.codegen.caps import Caps
    cp = None
    if not args.no_cupy:
        try:
            import cupy as cp
            cp.cuda.runtime.getDeviceCount()
        except Exception as exc:
            print(f"[reduce] no CuPy: {type(exc).__name__}: {exc}")
            cp = None
    client = W.asarray([0.0])._data.client
    caps = Caps.of(client)
    print(f"[reduce] webgpu: {client.info.get('name')} ({client.info.get('backend')}); "
          f"subgroup={caps.subgroup} int64={caps.int64}; cupy: "
          f"{cp.cuda.runtime.getDeviceProperties(0)['name'].decode() if cp else '-'}")
    if args.probe:
        probe(W, client, np.random.default_rng(1).standard_normal(
            (args.large_mib << 20) // 4, dtype=np.float32), args.reps_large, args.repeats, cp)
    variants = [v.strip() for v in args.variants.split(";")]
    want = [c for c in args.cases.split(",") if c]
    sizes = set(args.sizes.split(","))
    rng = np.random.default_rng(0)
    rows = []
    t0 = time.perf_counter()
    for name, size, make, run, tol in cases(args.large_mib << 20, args.small):
        if size not in sizes or (want and not any(name.startswith(w) for w in want)):
            continue
        a = make(rng)
        reps = args.reps_small if size == "small" else args.reps_large
        row = {"case": name, "size": size}
        if cp is not None:
            try:
                xc = cp.asarray(a)
                s = cp.cuda.get_current_stream()
                row["cupy"] = time_call(lambda: run(cp, xc), s.synchronize, reps, args.repeats)
                del xc
            except Exception as exc:
                row["cupy_err"] = f"{type(exc).__name__}: {exc}"
        x = W.asarray(a)
        W.synchronize()
        for v in variants:
            knobs = tuning.override(**parse_assignments(v, "--variants"))
            knobs.__enter__()
            try:
                got = run(W, x)
                W.synchronize()
                d0 = client.recorder.dispatches
                got = run(W, x)
                disp = client.recorder.dispatches - d0
                bad = check(name, np.asarray(got.to_device("cpu")), a, run, tol)
                del got
                host = []
                t = time_call(lambda: run(W, x), W.synchronize, reps, args.repeats, host)
                row[v] = (t, disp, bad, host[0])
            except Exception as exc:
                row[v] = (None, 0, f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}",
                          None)
            finally:
                knobs.__exit__(None, None, None)
        del x, a
        rows.append(row)
        print(_line(row, variants), flush=True)
    print(f"[reduce] {len(rows)} cases x {len(variants)} variants in "
          f"{time.perf_counter() - t0:.1f} s")
    print("[reduce] variants: " + " | ".join(f"v{i}={v or 'defaults'}"
                                             for i, v in enumerate(variants)))
    return 0


def _fmt(t):
    if t is None:
        return "-"
    return f"{t * 1e6:.1f}us" if t < 1e-3 else f"{t * 1e3:.3f}ms"


def _line(row, variants):
    c = row.get("cupy")
    parts = [f"{row['case']:24s} {row['size']:5s} cupy {_fmt(c):>9s}"]
    for i, v in enumerate(variants):
        t, disp, bad, host = row[v]
        ratio = f"{c / t:.2f}" if c and t else "-"
        parts.append(f"v{i} {_fmt(t):>9s} r={ratio:>5s} d={disp} h={_fmt(host)}" +
                     (f" BAD({bad})" if bad else ""))
    return " | ".join(parts)


if __name__ == "__main__":
    sys.exit(main())
