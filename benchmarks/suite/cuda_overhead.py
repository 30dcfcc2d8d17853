#!/usr/bin/env python3
"""Per-op overhead of numr's cuda namespace against raw CuPy, and CUDA graph replay.

    python benchmarks/suite/cuda_overhead.py [--n 1000] [--calls 2000] [--repeats 7] [--json out.json]

1. Per-op cost on small arrays (float32, --n elements; matmul 32x32): for each of a dozen
   functions, ``calls`` back-to-back calls then one synchronisation, best of ``repeats``,
   divided by ``calls``. Small ops are launch-bound, so this is the host-side cost of one
   call: argument handling, allocation, kernel launch. Raw CuPy is timed in a fresh child
   process (CuPy's defaults: its MemoryPool, the legacy stream), numr in this one; raw CuPy
   inside numr's process (numr's allocator and compute stream) is shown too, separating the
   front-end's cost from the runtime's. Target: numr / raw CuPy <= 1.2.
2. A 100-op elementwise chain (x of --n float32): eager (100 launches) against one replay
   of its CUDA graph (numr_array_api.cuda.capture_graph), per op. Target: eager / replay >= 3.

Prints a table and PASS/FAIL per target (exit status 0 either way; --strict: 1 on FAIL).
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

import numpy as np  # noqa: E402

OVERHEAD_TARGET = 1.2
GRAPH_TARGET = 3.0


def ops(xp, cupy_like):
    """name -> (callable of prepared args, args builder)."""
    f32 = xp.float32

    def arr(n, scale=1.0):
        return xp.asarray((np.arange(n, dtype=np.float32) % 17) * scale + 0.5)

    def mk(n):
        x, y = arr(n), arr(n, 0.25)
        m1 = xp.reshape(arr(1024), (32, 32))
        m2 = xp.reshape(arr(1024, 0.5), (32, 32))
        cond = x > y
        i = xp.asarray(np.arange(n, dtype=np.int64) % 7)
        return dict(x=x, y=y, m1=m1, m2=m2, cond=cond, i=i)

    if cupy_like:
        astype = lambda a: a.astype(np.float64)  # noqa: E731
        concat = lambda a, b: xp.concatenate((a, b))  # noqa: E731
        permute = lambda m: xp.transpose(m, (1, 0)).copy()  # noqa: E731
    else:
        astype = lambda a: xp.astype(a, xp.float64)  # noqa: E731
        concat = lambda a, b: xp.concat((a, b))  # noqa: E731
        permute = lambda m: xp.asarray(xp.permute_dims(m, (1, 0)), copy=True)  # noqa: E731
    table = {
        "add": lambda d: xp.add(d["x"], d["y"]),
        "x * 2.0 (operator, scalar)": lambda d: d["x"] * 2.0,
        "multiply": lambda d: xp.multiply(d["x"], d["y"]),
        "exp": lambda d: xp.exp(d["x"]),
        "sin": lambda d: xp.sin(d["x"]),
        "sqrt": lambda d: xp.sqrt(d["x"]),
        "sum": lambda d: xp.sum(d["x"]),
        "max": lambda d: xp.max(d["x"]),
        "where": lambda d: xp.where(d["cond"], d["x"], d["y"]),
        "matmul 32x32": lambda d: xp.matmul(d["m1"], d["m2"]),
        "astype f64": lambda d: astype(d["x"]),
        "concat": lambda d: concat(d["x"], d["y"]),
        "x[::2] + y[::2]": lambda d: d["x"][::2] + d["y"][::2],
        "transpose copy": lambda d: permute(d["m1"]),
        "zeros": lambda d: xp.zeros(d["n"], dtype=f32),
    }
    return table, mk


def time_ops(xp, sync, cupy_like, n, calls, repeats):
    table, mk = ops(xp, cupy_like)
    d = mk(n)
    d["n"] = n
    out = {}
    for name, fn in table.items():
        try:
            for _ in range(20):
                fn(d)
            sync()
            best = float("inf")
            for _ in range(repeats):
                t0 = time.perf_counter()
                for _ in range(calls):
                    fn(d)
                sync()
                best = min(best, time.perf_counter() - t0)
            out[name] = best / calls
        except Exception as e:  # report and keep going
            out[name] = f"error: {type(e).__name__}: {e}"
    return out


def chain_ops(xp, x, n_ops=100):
    y = x
    for i in range(n_ops // 4):
        y = y * 0.999
        y = y + 0.001
        y = xp.sin(y)
        y = xp.abs(y)
    return y


def graph_bench(nx, n, repeats, loops=50):
    x = nx.asarray(np.linspace(0, 1, n, dtype=np.float32))
    for _ in range(3):
        chain_ops(nx, x)
    nx.synchronize()
    best_e = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(loops):
            chain_ops(nx, x)
        nx.synchronize()
        best_e = min(best_e, time.perf_counter() - t0)
    g = nx.capture_graph(chain_ops, nx, x)
    g.replay(sync=True)
    best_g = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(loops):
            g.replay()
        nx.synchronize()
        best_g = min(best_g, time.perf_counter() - t0)
    eager = np.asarray(chain_ops(nx, x).to_device("cpu"))
    replay = np.asarray(g.replay(sync=True).to_device("cpu"))
    same = bool(np.allclose(eager, replay, rtol=1e-6, atol=1e-7))
    per_e = best_e / loops / 100
    per_g = best_g / loops / 100
    return {"eager_per_op_s": per_e, "graph_per_op_s": per_g, "ratio": per_e / per_g,
            "replay_equals_eager": same}


def child_raw(args):
    import cupy
    res = time_ops(cupy, cupy.cuda.Device().synchronize, True, args.n, args.calls, args.repeats)
    print("@@RAW@@" + json.dumps(res))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=1000)
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--repeats", type=int, default=15)
    p.add_argument("--json")
    p.add_argument("--strict", action="store_true")
    p.add_argument("--child-raw", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child_raw:
        return child_raw(args)

    import numr_array_api.cuda as nx
    if not nx.__array_namespace_info__().devices():
        print(f"no CUDA device: {nx._backend.rt.reason}")
        return 2
    import cupy

    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child-raw", "--n",
                        str(args.n), "--calls", str(args.calls), "--repeats", str(args.repeats)],
                       capture_output=True, text=True)
    raw = {}
    for line in r.stdout.splitlines():
        if line.startswith("@@RAW@@"):
            raw = json.loads(line[7:])
    if not raw:
        print("raw CuPy child failed:\n" + r.stdout + r.stderr)

    nx.zeros(1)  # numr's client (streams, allocator) on device 0
    numr = time_ops(nx, nx.synchronize, False, args.n, args.calls, args.repeats)
    raw_in = time_ops(cupy, nx.synchronize, True, args.n, args.calls, args.repeats)

    dev = cupy.cuda.runtime.getDeviceProperties(0)["name"]
    dev = dev.decode() if isinstance(dev, bytes) else dev
    print(f"device: {dev}; CuPy {cupy.__version__}; Python {platform.python_version()}; "
          f"n={args.n} float32, {args.calls} calls x best of {args.repeats}")
    print(f"{'op':28s} {'raw CuPy us':>12s} {'CuPy in numr':>13s} {'numr us':>9s} "
          f"{'numr/raw':>9s}")
    ratios = []
    for name in numr:
        a, b, c = raw.get(name), raw_in.get(name), numr.get(name)
        fmt = lambda v: f"{v * 1e6:.2f}" if isinstance(v, float) else "err"  # noqa: E731
        ratio = c / a if isinstance(a, float) and isinstance(c, float) else None
        if ratio is not None:
            ratios.append(ratio)
        print(f"{name:28s} {fmt(a):>12s} {fmt(b):>13s} {fmt(c):>9s} "
              f"{(f'{ratio:.2f}' if ratio else '-'):>9s}")
        for v in (a, b, c):
            if isinstance(v, str):
                print(f"    {v}")
    geo = float(np.exp(np.mean(np.log(ratios)))) if ratios else float("nan")
    worst = max(ratios) if ratios else float("nan")
    ok1 = geo <= OVERHEAD_TARGET
    print(f"per-op overhead numr/raw CuPy: geometric mean {geo:.3f}, worst {worst:.3f} "
          f"-> {'PASS' if ok1 else 'FAIL'} (target geometric mean <= {OVERHEAD_TARGET})")

    gb = graph_bench(nx, args.n, args.repeats)
    ok2 = gb["ratio"] >= GRAPH_TARGET and gb["replay_equals_eager"]
    print(f"100-op chain: eager {gb['eager_per_op_s'] * 1e6:.2f} us/op, graph replay "
          f"{gb['graph_per_op_s'] * 1e6:.3f} us/op, eager/replay {gb['ratio']:.1f}x, replay "
          f"equals eager: {gb['replay_equals_eager']} -> {'PASS' if ok2 else 'FAIL'} "
          f"(target >= {GRAPH_TARGET}x)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": dev, "cupy": cupy.__version__, "n": args.n, "raw_cupy": raw,
                       "raw_cupy_in_numr_process": raw_in, "numr": numr,
                       "overhead_geomean": geo, "overhead_worst": worst, "graph": gb,
                       "pass": {"overhead": ok1, "graph": ok2}}, f, indent=2)
    return 1 if args.strict and not (ok1 and ok2) else 0


if __name__ == "__main__":
    sys.exit(main())
