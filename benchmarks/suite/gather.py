"""Gather / scatter on webgpu next to CuPy, every variant in one process.

Rows: take (16M int64 indices from 64M float32, and the sweep's small size), take_along_axis,
x[idx] on 2-D data, x[idx] = v, x[mask]; each checked against NumPy, then timed for numr
webgpu under each variant (index check sync | lazy: primitives/gather.py's CHECK; the
GATHER_EPT / GATHER_GROUPS / MASK_BLOCK_MIN tuning knobs; the map-wait spin, MAP_SPIN_US,
of runtime/mapping.py) and for CuPy. Prints one line per (case, variant):
time per call and ratio = CuPy time / numr time (1.0 = CuPy's speed). Reports, never asserts.

    python benchmarks/suite/gather.py [--quick] [--only take,mask]
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_of  # noqa: E402


def timed(fn, sync, reps, repeats=5):
    def many():
        for _ in range(reps):
            fn()
    return best_of(many, sync, repeats) / reps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small sizes only (lavapipe smoke)")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    import numr_array_api.webgpu as wx
    from numr_array_api import tuning
    from numr_array_api.backends.webgpu.primitives import gather as G
    client = wx.asarray([0])._data.client
    try:
        import cupy as cp
    except Exception:
        cp = None
    rng = np.random.default_rng(0)
    large = 64 << 20 if not args.quick else 1 << 16
    side = 8192 if not args.quick else 256
    cases = []

    def add(name, size, make, fn_w, fn_c, ref):
        cases.append((name, size, make, fn_w, fn_c, ref))

    for size, n in (("small", 1000), ("large", large)):
        m = max(1, n // 4)
        add("take", size, lambda n=n, m=m: (rng.standard_normal(n, dtype=np.float32),
                                             rng.integers(0, n, m).astype(np.int64)),
            lambda ns, x, i: ns.take(x, i), lambda ns, x, i: ns.take(x, i),
            lambda x, i: np.take(x, i))
        r, c = (25, 40) if size == "small" else (side, side)
        add("take_along_axis", size,
            lambda r=r, c=c: (rng.standard_normal((r, c), dtype=np.float32),
                              rng.integers(-c, c, (r, c)).astype(np.int64)),
            lambda ns, x, i: ns.take_along_axis(x, i, axis=1),
            lambda ns, x, i, c=c: ns.take_along_axis(x, i % c, axis=1),
            lambda x, i: np.take_along_axis(x, i % x.shape[1], axis=1))
        add("x[idx,:] 2-D", size,
            lambda r=r, c=c: (rng.standard_normal((r, c), dtype=np.float32),
                              rng.integers(-r, r, r // 2).astype(np.int64)),
            lambda ns, x, i: x[i, :], lambda ns, x, i: x[i % x.shape[0], :],
            lambda x, i: x[i, :])
        add("x[mask]", size, lambda n=n: (rng.standard_normal(n, dtype=np.float32),
                                          rng.random(n) < 0.5),
            lambda ns, x, b: x[b], lambda ns, x, b: x[b], lambda x, b: x[b])

        def setit(ns, x, i, v):
            x[i] = v
            return x
        add("x[idx] = v", size, lambda n=n, m=m: (rng.standard_normal(n, dtype=np.float32),
                                                   rng.permutation(n)[:m].astype(np.int64),
                                                   rng.standard_normal(m, dtype=np.float32)),
            setit, setit, lambda x, i, v: setit(np, x.copy(), i, v))

    # (name, settings): check mode, elements per thread, grid cap, map-wait spin (s)
    variants = [("sync e8 g16k", dict(check="sync", ept=8, groups=16384, spin=2e-3)),
                ("sync e8 g16k spin.3", dict(check="sync", ept=8, groups=16384, spin=3e-4)),
                ("sync mask-ranks", dict(check="sync", ept=8, groups=16384, spin=2e-3,
                                         mask="ranks")),
                ("lazy e8 g16k", dict(check="lazy", ept=8, groups=16384, spin=2e-3)),
                ("lazy e4 g16k", dict(check="lazy", ept=4, groups=16384, spin=2e-3)),
                ("lazy e1 g64k", dict(check="lazy", ept=1, groups=65535, spin=2e-3)),
                ("lazy e2 g64k", dict(check="lazy", ept=2, groups=65535, spin=2e-3)),
                ("lazy e4 g64k", dict(check="lazy", ept=4, groups=65535, spin=2e-3)),
                ("lazy e8 g64k", dict(check="lazy", ept=8, groups=65535, spin=2e-3)),
                ("lazy e16 g64k", dict(check="lazy", ept=16, groups=65535, spin=2e-3))]
    only = set(filter(None, args.only.split(",")))
    print(f"adapter: {client.info['name']} ({client.info['backend']}); cupy: "
          f"{cp.cuda.runtime.getDeviceProperties(0)['name'].decode() if cp else 'absent'}")
    print(f"{'case':18s} {'size':6s} {'variant':18s} {'time':>10s} {'cupy':>10s} {'ratio':>6s}")
    for name, size, make, fn_w, fn_c, ref in cases:
        if only and not any(o in name for o in only):
            continue
        t0 = time.perf_counter()
        host = make()
        want = ref(*host)
        dev = [wx.asarray(h) for h in host]
        got = np.asarray(fn_w(wx, *dev).to_device("cpu"))
        ok = np.array_equal(got, want)
        tc = None
        if cp is not None:
            cdev = [cp.asarray(h) for h in host]
            cok = np.array_equal(cp.asnumpy(fn_c(cp, *cdev)), want)
            reps = 200 if size == "small" else 10
            tc = timed(lambda: fn_c(cp, *cdev), cp.cuda.get_current_stream().synchronize,
                       reps)
            if not cok:
                print(f"  (cupy result differs from NumPy for {name} {size})")
        print(f"{name:18s} {size:6s} {'correct' if ok else 'WRONG':18s}", flush=True)
        for vname, v in variants:
            plain = v["ept"] == 8 and v["groups"] == 16384
            if v.get("mask") and not name.startswith("x[mask]"):
                continue
            if not plain and (size == "small" or name.startswith("x[mask]")
                              or name.startswith("x[idx] =")):
                continue
            G.CHECK = v["check"]
            tuning.force(GATHER_EPT=v["ept"], GATHER_GROUPS=v["groups"],
                         MASK_BLOCK_MIN=(1 << 40) if v.get("mask") else None,
                         MAP_SPIN_US=round(v["spin"] * 1e6))
            got = np.asarray(fn_w(wx, *dev).to_device("cpu"))
            good = np.array_equal(got, want) if not name.startswith("x[idx] =") else True
            reps = 200 if size == "small" else 10
            tw = timed(lambda: fn_w(wx, *dev), wx.synchronize if hasattr(wx, "synchronize")
                       else client.synchronize, reps)
            ratio = f"{tc / tw:6.2f}" if tc else "   -  "
            tcs = f"{tc * 1e6:8.1f}us" if tc else "      -   "
            print(f"{'':18s} {'':6s} {vname:18s} {tw * 1e6:8.1f}us {tcs} {ratio}"
                  f"{'' if good else '  WRONG'}", flush=True)
        print(f"  ({time.perf_counter() - t0:.1f} s)", flush=True)
        del dev
    G.CHECK = "sync"
    tuning.force(GATHER_EPT=None, GATHER_GROUPS=None, MASK_BLOCK_MIN=None, MAP_SPIN_US=None)


if __name__ == "__main__":
    main()
