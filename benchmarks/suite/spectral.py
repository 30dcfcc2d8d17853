#!/usr/bin/env python3
"""eigh and svd: numr webgpu (Jacobi kernels) next to CuPy (cuSOLVER) and PyTorch, one run.

    python benchmarks/suite/spectral.py [--small] [--backends numr-webgpu,cupy,torch]
                                                [--repeats 3] [--only eigh,eigh-cov,eigh-cluster,svd] [--match RE]
                                                [--exclude RE] [--json out.json]

Cases: eigh and svd of one 512 x 512 and one 2048 x 2048 matrix (float32,
float64), and of stacks of 100000 x 8 x 8 and 10000 x 32 x 32 (float32, float64).
``--small`` runs 64 / 128 single matrices and stacks of 1000 x 8 x 8 / 100 x 32 x 32 so it
finishes on lavapipe / a CPU machine.

Prints time per call and the ratios numr / CuPy and numr / PyTorch (1.0: as fast; 10: ten
times slower). A call longer than 2 s is timed once (no repeats). Peers that cannot be
imported (or have no CUDA device) are skipped. Nothing here asserts a timing.

``--table [args]`` instead adds eigh / svd rows to benchmarks/suite/linalg.py's table
(``add_row``) and runs that harness with the remaining arguments (its cases: 512 / 2048 /
4096 and the two stacks).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


def cases(small, only):
    singles = (64, 128) if small else (512, 2048)
    stacks = ((1000, 8), (100, 32)) if small else ((100000, 8), (10000, 32))
    out = []
    for op in ("eigh", "eigh-cov", "eigh-cluster", "svd"):
        if op not in only:
            continue
        for dtype in ("float32", "float64"):
            for n in singles:
                if op == "eigh-cluster":   # G of n x p, p = n/4 and 3n/4: clusters 3n/4, n/4
                    for p in (n // 4, 3 * n // 4):
                        out.append((f"{op} {dtype} {n}x{n} p={p}", op, dtype, (n, p)))
                    continue
                out.append((f"{op} {dtype} {n}x{n}", op, dtype, (n, n)))
            for b, n in stacks if op not in ("eigh-cov", "eigh-cluster") else ():
                out.append((f"{op} {dtype} {b}x{n}x{n}", op, dtype, (b, n, n)))
    return out


def make(rng, op, dtype, shape):
    """eigh: a semicircle spectrum; eigh-cov: a covariance G G^T / n + I (Marchenko-Pastur:
    the dense low end of the spectrum is what a PCA's eigh meets); eigh-cluster: G G^T / p + I
    with G of shape (n, p), p < n: the eigenvalue 1 n - p times (one cluster of equal
    eigenvalues)."""
    a = rng.standard_normal(shape)
    if op == "eigh-cluster":
        n, p = shape
        return (a @ a.T / p + np.eye(n)).astype(dtype)
    if op == "eigh-cov":
        n = shape[-1]
        return (a @ np.swapaxes(a, -1, -2) / n + np.eye(n)).astype(dtype)
    if op == "eigh":
        a = (a + np.swapaxes(a, -1, -2)) / 2
    return a.astype(dtype)


class _Torch:
    def __init__(self, torch):
        self.t = torch

    def eigh(self, x):
        return self.t.linalg.eigh(x)

    def svd(self, x):
        return self.t.linalg.svd(x, full_matrices=False)


def call(ns, op, x):
    if op in ("eigh", "eigh-cov", "eigh-cluster"):
        return ns.linalg.eigh(x) if hasattr(ns, "linalg") else ns.eigh(x)
    if hasattr(ns, "linalg"):
        return ns.linalg.svd(x, full_matrices=False)
    return ns.svd(x)


def backends(names):
    out = {}
    if "numr-webgpu" in names:
        try:
            import numr_array_api.webgpu as wx
            if wx.__array_namespace_info__().devices():
                out["numr-webgpu"] = (wx, wx.asarray, wx.synchronize)
            else:
                print("numr-webgpu: no adapter, skipped")
        except Exception as e:  # noqa: BLE001 - a missing peer is reported, not fatal
            print(f"numr-webgpu: skipped ({e})")
    if "cupy" in names:
        try:
            import cupy as cp
            cp.cuda.runtime.getDeviceCount()
            out["cupy"] = (cp, cp.asarray, cp.cuda.get_current_stream().synchronize)
        except Exception as e:  # noqa: BLE001
            print(f"cupy: skipped ({e})")
    if "torch" in names:
        try:
            import torch
            if not torch.cuda.is_available():
                raise RuntimeError("no CUDA device")
            out["torch"] = (_Torch(torch), lambda a: torch.as_tensor(a, device="cuda"),
                            torch.cuda.synchronize)
        except Exception as e:  # noqa: BLE001
            print(f"torch: skipped ({e})")
    return out


def timed(ns, sync, op, x, repeats, budget=0.5):
    call(ns, op, x)             # warm-up: compiles shaders / plans
    sync()
    t0 = time.perf_counter()
    call(ns, op, x)
    sync()
    one = time.perf_counter() - t0
    if one > 2.0:
        return one
    reps = max(1, min(20, int(budget / max(one, 1e-6))))
    best = one
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(reps):
            call(ns, op, x)
        sync()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def register_rows(add_row):
    """eigh / eigvalsh / svd rows for benchmarks/suite/linalg.py's ROWS table."""
    def sym(rng, batch, n, dtype):
        return [make(rng, "eigh", dtype, batch + (n, n))]

    def gen(rng, batch, n, dtype):
        return [make(rng, "svd", dtype, batch + (n, n))]

    def cov(rng, batch, n, dtype):
        return [make(rng, "eigh-cov", dtype, batch + (n, n))]
    for name, inp in (("eigh", sym), ("eigh-cov", cov)):
        add_row(name, inp, numr=lambda m, a: m.linalg.eigh(a),
                cupy=lambda m, a: m.linalg.eigh(a), torch=lambda m, a: m.linalg.eigh(a))
    add_row("eigvalsh", sym, numr=lambda m, a: m.linalg.eigvalsh(a),
            cupy=lambda m, a: m.linalg.eigvalsh(a), torch=lambda m, a: m.linalg.eigvalsh(a))
    add_row("svd", gen, numr=lambda m, a: m.linalg.svd(a, full_matrices=False),
            cupy=lambda m, a: m.linalg.svd(a, full_matrices=False),
            torch=lambda m, a: m.linalg.svd(a, full_matrices=False))


def main():
    if "--table" in sys.argv:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import linalg as webgpu_linalg
        register_rows(webgpu_linalg.add_row)
        rest = [x for x in sys.argv[1:] if x != "--table"]
        if "--only" not in rest:
            rest += ["--only", "eigh,svd"]
        return webgpu_linalg.main(rest)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--backends", default="numr-webgpu,cupy,torch")
    ap.add_argument("--only", default="eigh,svd")
    ap.add_argument("--match", default="", help="regular expression: run the matching cases")
    ap.add_argument("--exclude", default="", help="regular expression: leave these cases out")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json")
    a = ap.parse_args()
    bes = backends(a.backends.split(","))
    if not bes:
        print("no backend available")
        return 0
    rng = np.random.default_rng(0)
    results = []
    names = list(bes)
    print(f"{'case':32s} " + " ".join(f"{b:>14s}" for b in names) + "   numr/cupy  numr/torch")
    for title, op, dtype, shape in cases(a.small, a.only.split(",")):
        if (a.match and not re.search(a.match, title)) or \
                (a.exclude and re.search(a.exclude, title)):
            continue
        host = make(rng, op, dtype, shape)
        row = {"case": title}
        for b, (ns, asarray, sync) in bes.items():
            try:
                x = asarray(host)
                sync()
                row[b] = timed(ns, sync, op, x, a.repeats)
            except Exception as e:  # noqa: BLE001 - a case a backend cannot run
                row[b] = None
                row[b + "_error"] = f"{type(e).__name__}: {e}"[:200]
        cells = [f"{row[b] * 1e3:11.3f} ms" if row.get(b) else f"{'error':>14s}" for b in names]
        ratios = []
        for peer in ("cupy", "torch"):
            t, p = row.get("numr-webgpu"), row.get(peer)
            ratios.append(f"{t / p:10.2f}x" if t and p else f"{'-':>11s}")
        print(f"{title:32s} " + " ".join(cells) + " " + " ".join(ratios), flush=True)
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
