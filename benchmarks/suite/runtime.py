#!/usr/bin/env python3
"""WebGPU core costs next to CuPy and NumPy, measured in the same run.

    python benchmarks/suite/runtime.py [--mib 256] [--chain 500] [--small 1000] [--json out.json]
    python benchmarks/suite/runtime.py --host-only [--chain 2000] [--repeats 7]

1. Bandwidth of large elementwise ops (float32): binary ``x + y`` and unary ``-x`` on arrays
   of --mib MiB each, as effective GB/s (bytes read + written / time), next to CuPy's
   device-to-device copy of the same array (the practical ceiling), CuPy's own add, and
   NumPy on the host.
2. Per-op cost of --chain chained small adds (``y = y + x`` on --small float32 elements),
   amortised, end to end (one synchronize at the end), next to CuPy's figure.
3. Graph replay: the same chain captured once with ``capture_graph`` and replayed, per op.

``--host-only``: only the host side of the eager per-op cost, for machines whose adapter is
slow (lavapipe) or to split the eager figure: the Python loop of --chain ops timed without
the final synchronisation, for ``y = y + x`` and ``y = y + 1.0``, (a) with the default
batched submits inside the loop (``host_loop``) and (b) with submission held until after
the loop (``host_record``: Python layers + the recording calls into wgpu-native, no
driver submit); CuPy's loop without synchronisation next to it. Best of --repeats.

Backends that are missing are reported and skipped; nothing here asserts a timing.
"""

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.append(str(__import__("pathlib").Path(__file__).resolve().parents[2]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


from _timing import best_of  # noqa: E402


def chain_of(n):
    """``n`` chained small adds: the per-op-cost workload, identical for every library."""
    def chain(a):
        r = a
        for _ in range(n):
            r = r + a
        return r
    return chain


def bandwidth(nbytes_moved, seconds):
    return nbytes_moved / seconds / 1e9


def bench_webgpu(args, out):
    try:
        import numr_array_api.webgpu as xp
        if not xp.__array_namespace_info__().devices():
            raise RuntimeError("no WebGPU adapter")
    except Exception as e:  # report, never crash: the other columns still matter
        out["webgpu"] = f"unavailable: {e}"
        return
    info = xp.__array_namespace_info__()
    out["webgpu_device"] = str(info.default_device())
    sync = xp.synchronize
    n = args.mib * 2**20 // 4
    x = xp.asarray(np.random.default_rng(0).random(n, dtype=np.float32))
    y = xp.asarray(np.random.default_rng(1).random(n, dtype=np.float32))
    nb = n * 4
    t = best_of(lambda: xp.add(x, y), sync, args.repeats)
    out["webgpu_add_GBps"] = bandwidth(3 * nb, t)
    t = best_of(lambda: xp.negative(x), sync, args.repeats)
    out["webgpu_neg_GBps"] = bandwidth(2 * nb, t)
    del x, y
    xs = xp.asarray(np.ones(args.small, dtype=np.float32))

    chain = chain_of(args.chain)

    t = best_of(lambda: chain(xs), sync, args.repeats)
    out["webgpu_chain_us_per_op"] = t / args.chain * 1e6
    capture = getattr(xp, "capture_graph", None)
    if capture is None:
        out["webgpu_graph_us_per_op"] = "capture_graph missing"
        return
    g = capture(chain, xs)
    t = best_of(lambda: g(xs), sync, args.repeats)
    out["webgpu_graph_us_per_op"] = t / args.chain * 1e6
    r = np.asarray(g(xs).to_device("cpu") if hasattr(g(xs), "to_device") else g(xs)[0])
    out["webgpu_graph_result_ok"] = bool(np.allclose(r, args.chain + 1))


def host_loops(n):
    """The two host-only workloads: ``y = y + x`` and ``y = y + 1.0``, ``n`` times."""
    def arr(x):
        y = x
        for _ in range(n):
            y = y + x
        return y

    def scal(x):
        y = x
        for _ in range(n):
            y = y + 1.0
        return y
    return {"array": arr, "scalar": scal}


def best_host(fn, x, sync, repeats):
    """Best time of ``fn(x)`` with everything before it synchronised and the loop's own
    work left running (its result is synchronised after the clock stops)."""
    sync(fn(x))
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        y = fn(x)
        best = min(best, time.perf_counter() - t)
        sync(y)
    return best


def bench_webgpu_host(args, out):
    try:
        import numr_array_api.webgpu as xp
        if not xp.__array_namespace_info__().devices():
            raise RuntimeError("no WebGPU adapter")
    except Exception as e:
        out["webgpu"] = f"unavailable: {e}"
        return
    out["webgpu_device"] = str(xp.__array_namespace_info__().default_device())
    x = xp.ones(args.small, dtype=xp.float32)
    rec = x._data.client.recorder  # the recorder of the adapter the arrays live on

    def sync(y):
        float(y[0])  # a read-back: submits and waits

    for name, fn in host_loops(args.chain).items():
        t = best_host(fn, x, sync, args.repeats)
        out[f"webgpu_host_loop_{name}_us_per_op"] = t / args.chain * 1e6
        saved = rec.threshold
        rec.threshold = 1 << 30  # no submit inside the loop: recording only
        try:
            t = best_host(fn, x, sync, args.repeats)
        finally:
            rec.threshold = saved
        out[f"webgpu_host_record_{name}_us_per_op"] = t / args.chain * 1e6


def bench_cupy_host(args, out):
    try:
        import cupy as cp
        cp.cuda.runtime.getDeviceCount()
    except Exception as e:
        out["cupy"] = f"unavailable: {e}"
        return
    x = cp.ones(args.small, dtype=cp.float32)

    def sync(y):
        cp.cuda.Device().synchronize()

    for name, fn in host_loops(args.chain).items():
        t = best_host(fn, x, sync, args.repeats)
        out[f"cupy_host_loop_{name}_us_per_op"] = t / args.chain * 1e6


def bench_cupy(args, out):
    try:
        import cupy as cp
        cp.cuda.runtime.getDeviceCount()
    except Exception as e:
        out["cupy"] = f"unavailable: {e}"
        return
    sync = cp.cuda.Device().synchronize
    n = args.mib * 2**20 // 4
    x = cp.random.random(n, dtype=cp.float32)
    y = cp.random.random(n, dtype=cp.float32)
    nb = n * 4
    t = best_of(lambda: x.copy(), sync, args.repeats)
    out["cupy_copy_GBps"] = bandwidth(2 * nb, t)
    t = best_of(lambda: cp.add(x, y), sync, args.repeats)
    out["cupy_add_GBps"] = bandwidth(3 * nb, t)
    t = best_of(lambda: cp.negative(x), sync, args.repeats)
    out["cupy_neg_GBps"] = bandwidth(2 * nb, t)
    del x, y
    xs = cp.ones(args.small, dtype=cp.float32)

    chain = chain_of(args.chain)

    t = best_of(lambda: chain(xs), sync, args.repeats)
    out["cupy_chain_us_per_op"] = t / args.chain * 1e6


def bench_numpy(args, out):
    n = args.mib * 2**20 // 4
    x = np.random.default_rng(0).random(n, dtype=np.float32)
    y = np.random.default_rng(1).random(n, dtype=np.float32)
    t = best_of(lambda: np.add(x, y), lambda: None, max(1, args.repeats // 2))
    out["numpy_add_GBps"] = bandwidth(3 * n * 4, t)
    xs = np.ones(args.small, dtype=np.float32)

    chain = chain_of(args.chain)

    t = best_of(lambda: chain(xs), lambda: None, args.repeats)
    out["numpy_chain_us_per_op"] = t / args.chain * 1e6


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--mib", type=int, default=256, help="MiB per large array (default 256)")
    p.add_argument("--chain", type=int, default=500)
    p.add_argument("--small", type=int, default=1000)
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--json")
    p.add_argument("--host-only", action="store_true",
                   help="only the host side of the per-op cost (see above)")
    args = p.parse_args()
    out = {"mib": args.mib, "chain": args.chain, "small": args.small}
    if args.host_only:
        out = {"chain": args.chain, "small": args.small, "mode": "host-only"}
        benches = (bench_cupy_host, bench_webgpu_host)
    else:
        benches = (bench_numpy, bench_cupy, bench_webgpu)
    for bench in benches:
        bench(args, out)
    if isinstance(out.get("webgpu_add_GBps"), float) and isinstance(out.get("cupy_copy_GBps"), float):
        out["webgpu_add_vs_cupy_copy"] = out["webgpu_add_GBps"] / out["cupy_copy_GBps"]
    if isinstance(out.get("webgpu_graph_us_per_op"), float):
        out["graph_speedup_vs_eager"] = out["webgpu_chain_us_per_op"] / out["webgpu_graph_us_per_op"]
    for k, v in out.items():
        print(f"{k:32s} {v:.3f}" if isinstance(v, float) else f"{k:32s} {v}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
