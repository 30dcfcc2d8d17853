#!/usr/bin/env python3
"""Per-call overhead of numr's CPU namespace against raw NumPy and array-api-strict.

    python benchmarks/suite/overhead.py [--sizes 100 1000000] [--repeats 15] [--target 0.01]
                                  [--numr-module numr_array_api.cpu] [--json out.json]

For each operation and size it times the three libraries with ``timeit`` (loop count chosen
so one repeat lasts about --target seconds), interleaving the libraries repeat by repeat so a
noisy machine's drift hits all three alike, and keeps the minimum per call. It prints absolute
times and the ratios numr/NumPy and strict/NumPy. An operation a namespace lacks (or that
raises) is printed as "missing" / "error" instead of stopping the run.

Arrays are float64: x, y of n elements; matmul uses two sqrt(n) x sqrt(n) matrices (10x10 for
n=100, 1000x1000 for n=10^6); sort is stable in all three (the standard's default).
``--numr-module array_api_compat.numpy`` times another namespace in numr's column.
"""

import argparse
import importlib
import json
import math
import platform
import sys
import timeit

import numpy as np

# Run from a checkout without installing: the repository root is importable (an installed
# numr_array_api still takes precedence).
sys.path.append(str(__import__("pathlib").Path(__file__).resolve().parents[2]))


def _ops_for(xp, is_numpy):
    """name -> (function taking the prepared arrays, description). None when missing."""

    def need(*names):
        for n in names:
            if not hasattr(xp, n):
                raise AttributeError(n)

    ops = {}

    def op(name, needs, fn):
        try:
            need(*needs)
            ops[name] = fn
        except AttributeError as e:
            ops[name] = None
            ops.setdefault("_missing", {})[name] = str(e)

    if is_numpy:
        op("add", ["add"], lambda d: np.add(d["x"], d["y"]))
        op("multiply", ["multiply"], lambda d: np.multiply(d["x"], d["y"]))
        op("exp", ["exp"], lambda d: np.exp(d["x"]))
        op("sum", ["sum"], lambda d: np.sum(d["x"]))
        op("mean", ["mean"], lambda d: np.mean(d["x"]))
        op("x[1:50]", [], lambda d: d["x"][1:50])
        op("matmul", ["matmul"], lambda d: np.matmul(d["A"], d["B"]))
        op("where", ["where"], lambda d: np.where(d["c"], d["x"], d["y"]))
        op("reshape", ["reshape"], lambda d: np.reshape(d["x"], d["shape2"]))
        op("astype f32", [], lambda d: d["x"].astype(np.float32))
        op("sort", ["sort"], lambda d: np.sort(d["x"], kind="stable"))  # the standard's default
        op("concat", ["concatenate"], lambda d: np.concatenate([d["x"], d["y"]]))
    else:
        op("add", ["add"], lambda d: xp.add(d["x"], d["y"]))
        op("multiply", ["multiply"], lambda d: xp.multiply(d["x"], d["y"]))
        op("exp", ["exp"], lambda d: xp.exp(d["x"]))
        op("sum", ["sum"], lambda d: xp.sum(d["x"]))
        op("mean", ["mean"], lambda d: xp.mean(d["x"]))
        op("x[1:50]", [], lambda d: d["x"][1:50])
        op("matmul", ["matmul"], lambda d: xp.matmul(d["A"], d["B"]))
        op("where", ["where"], lambda d: xp.where(d["c"], d["x"], d["y"]))
        op("reshape", ["reshape"], lambda d: xp.reshape(d["x"], d["shape2"]))
        op("astype f32", ["astype", "float32"], lambda d: xp.astype(d["x"], xp.float32))
        op("sort", ["sort"], lambda d: xp.sort(d["x"]))
        op("concat", ["concat"], lambda d: xp.concat([d["x"], d["y"]]))
    return ops


def _data(xp, is_numpy, n, rng):
    """The same values for every library, converted with its own asarray."""
    m = int(round(math.sqrt(n)))
    host = {
        "x": rng.standard_normal(n),
        "y": rng.standard_normal(n),
        "A": rng.standard_normal((m, m)),
        "B": rng.standard_normal((m, m)),
    }
    host["c"] = host["x"] > 0
    conv = np.asarray if is_numpy else xp.asarray
    d = {k: conv(v) for k, v in host.items()}
    d["shape2"] = (n // 10, 10)
    return d


def _fmt_time(t):
    if t is None:
        return "-"
    if t < 1e-6:
        return f"{t * 1e9:.0f} ns"
    if t < 1e-3:
        return f"{t * 1e6:.2f} us"
    if t < 1:
        return f"{t * 1e3:.2f} ms"
    return f"{t:.2f} s"


def _calibrate(fn, target):
    """Loop count so that one repeat of fn lasts about `target` seconds."""
    number = 1
    while True:
        t = timeit.timeit(fn, number=number)
        if t >= target / 5 or number >= 1 << 20:
            break
        number *= 4
    return max(1, int(number * target / max(t, 1e-9)))


def measure(libs, op, n, repeats, target):
    """Minimum seconds per call of `op` for each library, repeats interleaved."""
    calls, numbers, status = {}, {}, {}
    for name, lib in libs.items():
        fn = lib["ops"].get(op)
        if fn is None:
            status[name] = "missing"
            continue
        d = lib["data"][n]
        call = (lambda fn=fn, d=d: fn(d))
        try:
            call()
        except Exception as e:  # keep going: report the failure in the table
            status[name] = "error"
            lib.setdefault("errors", {})[f"{op} n={n}"] = f"{type(e).__name__}: {e}"
            continue
        calls[name] = call
        numbers[name] = _calibrate(call, target)
    best = {name: math.inf for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            t = timeit.timeit(call, number=numbers[name]) / numbers[name]
            best[name] = min(best[name], t)
    for name in libs:
        if name not in status:
            status[name] = best[name]
    return status


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[100, 1_000_000])
    p.add_argument("--repeats", type=int, default=15, help="interleaved repeats (min is kept)")
    p.add_argument("--target", type=float, default=0.01,
                   help="seconds per repeat (sets the loop count)")
    p.add_argument("--numr-module", default="numr_array_api.cpu",
                   help="namespace timed in the numr column")
    p.add_argument("--ops", nargs="+", default=None, help="only these operations")
    p.add_argument("--json", default=None, metavar="PATH", help="also write the results as JSON")
    args = p.parse_args(argv)

    libs = {}
    try:
        numr = importlib.import_module(args.numr_module)
    except Exception as e:
        sys.exit(f"cannot import {args.numr_module}: {type(e).__name__}: {e}")
    libs["numpy"] = {"xp": np, "numpy": True}
    libs["numr"] = {"xp": numr, "numpy": False}
    try:
        import array_api_strict
        libs["strict"] = {"xp": array_api_strict, "numpy": False}
    except ImportError:
        print("array-api-strict is not installed: its column is left out")

    for name, lib in libs.items():
        lib["ops"] = _ops_for(lib["xp"], lib["numpy"])
        lib["data"] = {}
        for n in args.sizes:
            try:
                lib["data"][n] = _data(lib["xp"], lib["numpy"], n, np.random.default_rng(0))
            except Exception as e:
                sys.exit(f"{name}: cannot create the input arrays: {type(e).__name__}: {e}")

    ops = [o for o in libs["numpy"]["ops"] if not o.startswith("_")]
    if args.ops:
        ops = [o for o in ops if o in args.ops]

    print(f"numr column: {args.numr_module}; numpy {np.__version__}; "
          f"python {platform.python_version()}; {platform.machine()}; "
          f"{args.repeats} interleaved repeats of ~{args.target * 1e3:.0f} ms, minimum per call")
    names = list(libs)
    head = ["op", "n"] + names + ["numr/numpy"] + (["strict/numpy"] if "strict" in libs else [])
    rows, results = [], []
    for n in args.sizes:
        for op in ops:
            r = measure(libs, op, n, args.repeats, args.target)
            base = r.get("numpy")
            row = [op if op != "matmul" else f"matmul {int(round(math.sqrt(n)))}^2", str(n)]
            for name in names:
                v = r[name]
                row.append(v if isinstance(v, str) else _fmt_time(v))
            for name in ("numr", "strict"):
                if name not in libs:
                    continue
                v = r[name]
                ok = isinstance(v, float) and isinstance(base, float) and base > 0
                row.append(f"{v / base:.2f}x" if ok else "-")
            rows.append(row)
            results.append({"op": op, "n": n, **{k: r[k] for k in names}})
            print("  " + " | ".join(row), file=sys.stderr, flush=True)

    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    line = lambda cells: "| " + " | ".join(c.rjust(w) if i > 0 else c.ljust(w)
                                           for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    print()
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    for name, lib in libs.items():
        for what, msg in (lib["ops"].get("_missing") or {}).items():
            print(f"{name}: {what} missing ({msg})")
        for what, msg in (lib.get("errors") or {}).items():
            print(f"{name}: {what} raised {msg}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"numr_module": args.numr_module, "numpy": np.__version__,
                       "repeats": args.repeats, "target_s": args.target,
                       "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
