#!/usr/bin/env python3
"""Sorting, searching and sets: numr webgpu next to CuPy and PyTorch, in one run.

    python benchmarks/suite/sort.py [--small] [--backends numr-webgpu,cupy,torch]
                                     [--repeats 5] [--json out.json]

Cases (the acceptance rows): sort and argsort of 2^24 float32 / int32 / float64,
a 1000 x 4096 row-wise float32 sort (axis -1), unique_values of 4M int32 (values below
1M), searchsorted of 1M float32 needles into 16M sorted float32. ``--small`` divides every
size by 256 (rows by 16) so it runs on lavapipe / a CPU machine in well under a minute.

Prints time per call, keys/s, and the time ratios numr / CuPy and numr / PyTorch (1.0: as
fast; 10: ten times slower). Peers that cannot be imported (or have no CUDA device) are
skipped. Time per call: one warm-up call, then the best of ``repeats`` runs of ``reps``
calls followed by one synchronize. Nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


def cases(small):
    div = 256 if small else 1
    n = (1 << 24) // div
    rows = 1000 // (16 if small else 1)
    out = []
    for name in ("float32", "int32", "float64"):
        out.append((f"sort {name} 2^24" + (" /256" if small else ""), n,
                    lambda rng, name=name: (_keys(rng, n, name),),
                    lambda ns, x: ns.sort(x)))
        out.append((f"argsort {name} 2^24" + (" /256" if small else ""), n,
                    lambda rng, name=name: (_keys(rng, n, name),),
                    lambda ns, x: ns.argsort(x)))
    out.append((f"row sort float32 {rows}x4096", rows * 4096,
                lambda rng: (rng.standard_normal((rows, 4096)).astype(np.float32),),
                lambda ns, x: ns.sort(x, axis=-1)))
    nu = (4 << 20) // div
    out.append((f"unique_values int32 {nu}", nu,
                lambda rng: (rng.integers(0, 1 << 20, nu).astype(np.int32),),
                lambda ns, x: ns.unique_values(x)))
    nh, nd = (1 << 20) // div, (16 << 20) // div
    out.append((f"searchsorted {nh} into {nd}", nh,
                lambda rng: (np.sort(rng.standard_normal(nd).astype(np.float32)),
                             rng.standard_normal(nh).astype(np.float32)),
                lambda ns, s, v: ns.searchsorted(s, v)))
    return out


def _keys(rng, n, name):
    if name.startswith("float"):
        return rng.standard_normal(n).astype(name)
    return rng.integers(-(1 << 31), (1 << 31) - 1, n, dtype=np.int64).astype(name)


class _Torch:
    """The few array API calls used here, on torch tensors."""

    def __init__(self, torch):
        self.t = torch

    def sort(self, x, axis=-1):
        return self.t.sort(x, dim=axis, stable=True).values

    def argsort(self, x):
        return self.t.argsort(x, stable=True)

    def unique_values(self, x):
        return self.t.unique(x)

    def searchsorted(self, s, v):
        return self.t.searchsorted(s, v)


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


def timed(ns, sync, fn, args, repeats, budget=0.5):
    fn(ns, *args)               # warm-up: compiles shaders / plans
    sync()
    t0 = time.perf_counter()
    fn(ns, *args)
    sync()
    one = time.perf_counter() - t0
    reps = max(1, min(20, int(budget / max(one, 1e-6))))
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn(ns, *args)
        sync()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--backends", default="numr-webgpu,cupy,torch")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json")
    a = ap.parse_args()
    bes = backends(a.backends.split(","))
    if not bes:
        print("no backend available")
        return 0
    rng = np.random.default_rng(0)
    results = []
    names = list(bes)
    print(f"{'case':40s} " + " ".join(f"{b:>22s}" for b in names) +
          "   numr/cupy  numr/torch")
    for title, keys, make, fn in cases(a.small):
        host = make(rng)
        row = {"case": title, "keys": keys}
        for b, (ns, asarray, sync) in bes.items():
            try:
                args = tuple(asarray(h) for h in host)
                sync()
                row[b] = timed(ns, sync, fn, args, a.repeats)
            except Exception as e:  # noqa: BLE001 - a case a backend cannot run
                row[b] = None
                row[b + "_error"] = f"{type(e).__name__}: {e}"[:200]
        cells = []
        for b in names:
            t = row.get(b)
            cells.append(f"{t * 1e3:9.3f} ms {keys / t / 1e6:7.0f}Mk/s" if t else
                         f"{'error':>22s}")
        ratios = []
        for peer in ("cupy", "torch"):
            t, p = row.get("numr-webgpu"), row.get(peer)
            ratios.append(f"{t / p:10.1f}x" if t and p else f"{'-':>11s}")
        print(f"{title:40s} " + " ".join(cells) + " " + " ".join(ratios), flush=True)
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
