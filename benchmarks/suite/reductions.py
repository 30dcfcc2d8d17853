#!/usr/bin/env python3
"""Big reductions, one call and queued, numr next to CuPy in one process.

    python benchmarks/suite/reductions.py [--small] [--backends numr-webgpu,numr-cuda,cupy]
                                          [--repeats 5] [--json out.json]

Cases on 256 MiB (``--small``: 4 MiB): ``sum``, ``mean``, ``argmax`` of a float32 vector,
``max(axis=1)`` of its (4096, n / 4096) view, ``sum`` of a float64 vector of the same bytes.
For each backend and case three figures, the best of ``repeats`` rounds (the backends'
order rotates from round to round, so a slow phase of a shared machine hits them alike):

* ``one``: one call then a synchronize: what a program waiting on each result pays;
* ``q10`` / ``q50``: 10 / 50 calls queued, then one synchronize, per call: throughput.

The JSON rows add numr's ratios to CuPy: ``throughput`` (CuPy's q50 time over numr's: >= 1
means as fast) and ``one_call`` (numr's one-call time over CuPy's). Nothing here asserts a
timing.
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

CASES = {
    "sum float32": (np.float32, lambda xp, x: xp.sum(x)),
    "mean float32": (np.float32, lambda xp, x: xp.mean(x)),
    "max(axis=1) float32": (np.float32, lambda xp, x: xp.max(xp.reshape(x, (4096, -1)),
                                                              axis=1)),
    "argmax float32": (np.float32, lambda xp, x: xp.argmax(x)),
    "sum float64": (np.float64, lambda xp, x: xp.sum(x)),
}


def _backends(names):
    out = []
    for name in names:
        try:
            if name == "numr-webgpu":
                import numr_array_api.webgpu as ns
            elif name == "numr-cuda":
                import numr_array_api.cuda as ns
            elif name == "cupy":
                import cupy as ns
                ns.cuda.runtime.getDeviceCount()
            else:
                raise ValueError(f"unknown backend {name}")
            if name.startswith("numr") and not ns.__array_namespace_info__().devices():
                raise RuntimeError("no device")
            sync = ns.cuda.get_current_stream().synchronize if name == "cupy" else \
                ns.synchronize
            out.append((name, ns, sync))
        except Exception as e:  # noqa: BLE001 - a missing peer is reported
            print(f"{name}: skipped ({type(e).__name__}: {e})")
    return out


def _burst(fn, sync, reps):
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    sync()
    return (time.perf_counter() - t) / reps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--backends", default="numr-webgpu,numr-cuda,cupy")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json")
    a = ap.parse_args()
    nbytes = (4 if a.small else 256) << 20
    backends = _backends(a.backends.split(","))
    rng = np.random.default_rng(0)
    host = {np.float32: rng.standard_normal(nbytes // 4).astype(np.float32)}
    host[np.float64] = host[np.float32][: nbytes // 8].astype(np.float64)
    rows = []
    print(f"{'case':22s} {'backend':12s} {'one':>9s} {'q10':>9s} {'q50':>9s}  (us per call)")
    for case, (dtype, op) in CASES.items():
        devs = {}
        for name, ns, _ in backends:
            try:
                devs[name] = ns.asarray(host[dtype])
            except Exception as e:  # noqa: BLE001 - a case a backend cannot run
                rows.append({"case": case, "backend": name,
                             "error": f"{type(e).__name__}: {e}"[:200]})
        best = {name: {"one": 1e9, "q10": 1e9, "q50": 1e9} for name in devs}
        for rnd in range(a.repeats):
            order = backends[rnd % len(backends):] + backends[:rnd % len(backends)]
            for name, ns, sync in order:
                if name not in devs:
                    continue
                x = devs[name]

                def fn():
                    return op(ns, x)
                fn()
                sync()
                b = best[name]
                b["one"] = min(b["one"], _burst(fn, sync, 1))
                b["q10"] = min(b["q10"], _burst(fn, sync, 10))
                b["q50"] = min(b["q50"], _burst(fn, sync, 50))
        ref = best.get("cupy")
        for name, b in best.items():
            row = {"case": case, "backend": name, "bytes": nbytes,
                   **{k: v * 1e6 for k, v in b.items()}}
            if ref and name != "cupy":
                row["throughput"] = ref["q50"] / b["q50"]
                row["one_call"] = b["one"] / ref["one"]
            rows.append(row)
            extra = (f"  throughput {row['throughput']:.2f}, one call at {row['one_call']:.2f}x"
                     if "throughput" in row else "")
            print(f"{case:22s} {name:12s} {row['one']:9.1f} {row['q10']:9.1f} "
                  f"{row['q50']:9.1f}{extra}", flush=True)
        del devs
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"bytes": nbytes, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
