#!/usr/bin/env python3
"""linalg on numr's webgpu backend next to CuPy (cuSOLVER) and PyTorch, in the same run.

    python benchmarks/suite/linalg.py [--small] [--only cholesky,solve] [--dtypes float32]
                                       [--repeats 3] [--json out.json]

Rows: cholesky / solve (64 right-hand sides) / inv / qr of one n x n matrix (n = 512,
2048, 4096) in float32 and float64, and batched stacks 100000 x 8 x 8 and 10000 x 32 x 32
(float32). ``--small`` shrinks every case for CPU machines (lavapipe). Each library is
optional: a missing one is reported and its column left empty. Times are the best of
--repeats after a warm-up call, each ending in a device synchronisation; inputs are made
on the host and uploaded before timing.

Other rows plug in through ``ROWS`` (name -> Row): ``make(rng, batch, n, dtype)`` returns
the NumPy inputs, ``call[lib](module, *inputs)`` runs it on lib ("numr" gets
``numr_array_api.webgpu``, "cupy" ``cupy``, "torch" ``torch``). eigh / svd rows belong
there (see ``add_row``).
"""

import argparse
import json
import os
import sys
from dataclasses import dataclass, field

import numpy as np

sys.path.append(str(__import__("pathlib").Path(__file__).resolve().parents[2]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


@dataclass
class Row:
    make: object
    call: dict = field(default_factory=dict)


def _rand(rng, shape, dtype):
    return rng.standard_normal(shape).astype(dtype)


def _spd(rng, batch, n, dtype):
    a = rng.standard_normal(batch + (n, n))
    return [(a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)]


def _square(rng, batch, n, dtype):
    # cast after the sum: np.sqrt(n) is an np.float64, which (NEP 50) would promote a
    # float32 matrix to float64
    return [(_rand(rng, batch + (n, n), dtype) + np.sqrt(n) * np.eye(n)).astype(dtype)]


def _system(rng, batch, n, dtype):
    k = 64 if not batch else 1
    return _square(rng, batch, n, dtype) + [_rand(rng, batch + (n, k), dtype)]


ROWS = {
    "cholesky": Row(_spd, {"numr": lambda m, a: m.linalg.cholesky(a),
                           "cupy": lambda m, a: m.linalg.cholesky(a),
                           "torch": lambda m, a: m.linalg.cholesky(a)}),
    "solve": Row(_system, {"numr": lambda m, a, b: m.linalg.solve(a, b),
                           "cupy": lambda m, a, b: m.linalg.solve(a, b),
                           "torch": lambda m, a, b: m.linalg.solve(a, b)}),
    "inv": Row(_square, {"numr": lambda m, a: m.linalg.inv(a),
                         "cupy": lambda m, a: m.linalg.inv(a),
                         "torch": lambda m, a: m.linalg.inv(a)}),
    "qr": Row(_square, {"numr": lambda m, a: m.linalg.qr(a),
                        "cupy": lambda m, a: m.linalg.qr(a),
                        "torch": lambda m, a: m.linalg.qr(a)}),
}


def add_row(name, make, numr=None, cupy=None, torch=None):
    """Register another row (e.g. eigh, svd) with the same cases."""
    ROWS[name] = Row(make, {k: v for k, v in (("numr", numr), ("cupy", cupy),
                                             ("torch", torch)) if v is not None})


def cases(small):
    if small:
        return [((), 64), ((), 128), ((1000,), 8), ((100,), 32)]
    return [((), 512), ((), 2048), ((), 4096), ((100000,), 8), ((10000,), 32)]


def libraries():
    libs = {}
    try:
        import numr_array_api.webgpu as xp
        if not xp.__array_namespace_info__().devices():
            raise RuntimeError("no WebGPU adapter")
        libs["numr"] = (xp, xp.asarray, xp.synchronize,
                        str(xp.__array_namespace_info__().default_device()))
    except Exception as e:
        print(f"numr webgpu unavailable: {e}")
    try:
        import cupy as cp
        cp.cuda.runtime.getDeviceCount()
        libs["cupy"] = (cp, cp.asarray, cp.cuda.Device().synchronize, "cuda:0")
    except Exception as e:
        print(f"cupy unavailable: {e}")
    try:
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("no CUDA device")
        libs["torch"] = (torch, lambda a: torch.as_tensor(a, device="cuda"),
                         torch.cuda.synchronize, "cuda:0")
    except Exception as e:
        print(f"torch unavailable: {e}")
    return libs


from _timing import best_of  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--small", action="store_true", help="small cases (CPU machines)")
    p.add_argument("--only", default="", help="comma-separated row names")
    p.add_argument("--dtypes", default="float32,float64")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--json", default="")
    p.add_argument("--stacks", action="store_true", help="the batched cases only")
    args = p.parse_args(argv)
    libs = libraries()
    names = [n for n in ROWS if not args.only or n in args.only.split(",")]
    dtypes = args.dtypes.split(",")
    rng = np.random.default_rng(0)
    results = []
    print(f"devices: {', '.join(f'{k}={v[3]}' for k, v in libs.items())}")
    head = f"{'row':10s} {'case':>16s} {'dtype':8s}" + "".join(
        f" {k + ' ms':>11s}" for k in ("numr", "cupy", "torch")) + \
        f" {'numr/cupy':>10s} {'numr/torch':>10s}"
    print(head)
    # cases outermost (batched and small first), so a run cut short still has every row
    order = sorted(cases(args.small), key=lambda c: (not c[0], c[1]))
    if args.stacks:
        order = [c for c in order if c[0]]
    for batch, n in order:
        for name in names:
            row = ROWS[name]
            for dtype in (dtypes if not batch else ["float32"]):
                host = row.make(rng, batch, n, dtype)
                rec = {"row": name, "batch": list(batch), "n": n, "dtype": dtype}
                for lib, (mod, up, sync, _) in libs.items():
                    fn = row.call.get(lib)
                    if fn is None:
                        continue
                    try:
                        dev = [up(h) for h in host]
                        sync()
                        rec[lib] = best_of(lambda: fn(mod, *dev), sync, args.repeats) * 1e3
                    except Exception as e:  # a library without the case: report, go on
                        rec[lib] = f"{type(e).__name__}: {str(e)[:60]}"
                    finally:
                        dev = None
                results.append(rec)
                case = ("x".join(map(str, batch)) + "x" if batch else "") + f"{n}x{n}"

                def cell(k):
                    v = rec.get(k)
                    return f" {v:11.3f}" if isinstance(v, float) else f" {'-' if v is None else 'err':>11s}"

                def ratio(k):
                    a, b = rec.get("numr"), rec.get(k)
                    return f" {a / b:10.2f}" if isinstance(a, float) and isinstance(b, float) \
                        else f" {'-':>10s}"
                print(f"{name:10s} {case:>16s} {dtype:8s}" + "".join(
                    cell(k) for k in ("numr", "cupy", "torch")) + ratio("cupy") + ratio("torch"),
                    flush=True)
                for k in ("numr", "cupy", "torch"):
                    if isinstance(rec.get(k), str):
                        print(f"    {k}: {rec[k]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"devices": {k: v[3] for k, v in libs.items()}, "results": results}, f,
                      indent=1)


if __name__ == "__main__":
    main()
