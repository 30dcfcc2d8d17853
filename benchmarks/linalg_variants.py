#!/usr/bin/env python3
"""Where the time of numr's webgpu factorisations goes, and tuning variants side by side
with CuPy (cuSOLVER) in one process.

    python benchmarks/linalg_variants.py --cases solve:4096:float32,cholesky:2048:float64
        [--variants "default;CHOL_NB=32;CHOL_NB=128,CHOL_SPLIT=4"] [--repeats 3]
        [--profile] [--check] [--small]

A case is ROW:N:DTYPE (a row of benchmarks/webgpu_linalg.py, or eigh / eigvalsh / svd; N 'BxN' or
'BxNxN' for a stack of B matrices of N x N; 'B1xB2xN' a stack of shape (B1, B2); the header
line says how many matrices it took: earlier versions read 'BxNxN' as B x N matrices).
--no-cupy times numr alone (no CuPy needed: without it numr's times print alone). A
variant is a comma-separated list of NAME=VALUE tuning knobs pinned for its calls
(numr_array_api.tuning.force; "default": none; names: numr_array_api.tuning.knobs()).
Per case and variant it prints the time (best of --repeats after a warm-up), numr /
CuPy, the dispatches and submits of one call and, with --profile, for the first
variant, with plans off (LINALG_PLAN: every dispatch recorded by Python): that time,
the host's share (the same call with every dispatch dropped:
Python, allocation, recording) and each kernel family's share (the call without that
family's dispatches: results are then wrong, only the time counts). --check prints the
backward error of each variant's result against the NumPy input (n <= 2048).
"""

import argparse
import collections
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import webgpu_linalg as wl  # noqa: E402
import webgpu_linalg_spectral as wls  # noqa: E402
from _timing import best_of  # noqa: E402

from numr_array_api import tuning  # noqa: E402
from numr_array_api.backends.webgpu.runtime import submit as _submit  # noqa: E402

wls.register_rows(wl.add_row)  # eigh / svd cases too

_orig_dispatch = _submit.Recorder.dispatch
SKIP = set()
COUNT = collections.Counter()
DROP_ALL = [False]


def family(label):
    return str(label or "?").split(":")[0].split("(")[0][:40]


def _dispatch(self, pipe, *a, **k):
    f = family(getattr(pipe, "label", "?"))
    COUNT[f] += 1
    if DROP_ALL[0] or f in SKIP:
        return None
    return _orig_dispatch(self, pipe, *a, **k)


_submit.Recorder.dispatch = _dispatch


def set_variant(v):
    tuning.unforce_all()
    if v != "default":
        tuning.force(**dict(kv.split("=") for kv in v.split(",")))


def _norm(x):
    """Frobenius norms of the matrices of a stack (whole-stack norms would shrink a
    stack's ratios by the square root of its size)."""
    return np.linalg.norm(x, axis=(-2, -1))


def backward(row, host, res):
    """||A - factors|| / ||A|| (cholesky, qr), the residual of solve / inv / eigh, or the
    eigenvalue error (eigvalsh) over ||A||: the worst matrix of a stack."""
    a = host[0].astype(np.float64)
    if row == "cholesky":
        l_ = np.asarray(res.to_device("cpu")).astype(np.float64)
        return float(np.max(_norm(a - l_ @ np.swapaxes(l_, -1, -2)) / _norm(a)))
    if row == "eigh":   # the worst matrix of a stack: ||A V - V diag(w)|| / ||A||
        w, v = (np.asarray(x.to_device("cpu")).astype(np.float64) for x in res)
        return float(np.max(_norm(a @ v - v * w[..., None, :]) / _norm(a)))
    if row == "eigvalsh":
        w = np.asarray(res.to_device("cpu")).astype(np.float64)
        e = np.abs(w - np.linalg.eigvalsh(a)).max(axis=-1)
        return float(np.max(e / _norm(a)))
    if row == "qr":
        q, r = (np.asarray(x.to_device("cpu")).astype(np.float64) for x in res)
        return float(np.max(_norm(a - q @ r) / _norm(a)))
    x = np.asarray(res.to_device("cpu")).astype(np.float64)
    b = host[1].astype(np.float64) if row == "solve" else np.eye(a.shape[-1])
    return float(np.max(_norm(a @ x - b) / (_norm(a) * _norm(x))))


def parse_size(size):
    """'N', 'BxN', 'BxNxN' (the matrix written out) or 'B1xB2xN' -> (batch shape, n)."""
    dims = [int(s) for s in size.split("x")]
    if len(dims) >= 3 and dims[-1] == dims[-2]:
        dims = dims[:-1]
    return tuple(dims[:-1]), dims[-1]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cases", required=True)
    p.add_argument("--variants", default="default")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--profile", action="store_true")
    p.add_argument("--check", action="store_true")
    p.add_argument("--no-cupy", action="store_true")
    args = p.parse_args()
    libs = wl.libraries()
    xp, up, sync, dev = libs["numr"]
    print(f"numr device: {dev}", flush=True)
    rng = np.random.default_rng(0)
    variants = args.variants.split(";")
    for case in args.cases.split(","):
        row, size, dtype = case.split(":")
        batch, n = parse_size(size)
        r = wl.ROWS[row]
        host = r.make(rng, batch, n, dtype)
        ct = None
        if "cupy" in libs and not args.no_cupy:
            cp, cup, csync, _ = libs["cupy"]
            dv = [cup(h) for h in host]
            ct = best_of(lambda: r.call["cupy"](cp, *dv), csync, args.repeats)
            dv = None
        dv = [up(h) for h in host]
        sync()
        fn = r.call["numr"]
        shape = "x".join(map(str, batch + (n, n)))
        print(f"== {case} ({shape})  cupy {'-' if ct is None else f'{ct * 1e3:.3f} ms'}",
              flush=True)
        for vi, v in enumerate(variants):
            set_variant(v)
            try:
                t = best_of(lambda: fn(xp, *dv), sync, args.repeats)
            except Exception as e:
                print(f"  {v:36s} error {type(e).__name__}: {str(e)[:150]}", flush=True)
                continue
            rec = dv[0]._data.client.recorder
            d0, s0 = rec.dispatches, rec.submits
            res = fn(xp, *dv)
            sync()
            nd, ns = rec.dispatches - d0, rec.submits - s0
            extra = ""
            if args.check and n <= 2048:
                extra = f" berr {backward(row, host, res):.2e}"
            res = None
            ratio = f"{t / ct:6.2f}x" if ct else "   -"
            print(f"  {v:36s} {t * 1e3:10.3f} ms  numr/cupy {ratio}  dispatches {nd:5d}"
                  f"  submits {ns:3d}{extra}", flush=True)
            if args.profile and vi == 0:
                # plans (ops/linalg/plan.py) replay without Recorder.dispatch: profile
                # the recording path
                tuning.force(LINALG_PLAN=False)
                COUNT.clear()
                fn(xp, *dv)
                sync()
                fams = dict(COUNT)
                tr = best_of(lambda: fn(xp, *dv), sync, args.repeats)
                print(f"    without plans: {tr * 1e3:.3f} ms", flush=True)
                t = tr
                DROP_ALL[0] = True
                th = best_of(lambda: fn(xp, *dv), sync, args.repeats)
                DROP_ALL[0] = False
                print(f"    host only (every dispatch dropped): {th * 1e3:.3f} ms", flush=True)
                for f, cnt in sorted(fams.items(), key=lambda kv: -kv[1]):
                    SKIP.add(f)
                    try:
                        ts = best_of(lambda: fn(xp, *dv), sync, args.repeats)
                    except Exception as e:
                        ts = float("nan")
                        print(f"    ({f}: {type(e).__name__} {str(e)[:80]})")
                    SKIP.discard(f)
                    print(f"    {f:34s} x{cnt:5d}  without it {ts * 1e3:9.3f} ms  "
                          f"share {(t - ts) * 1e3:9.3f} ms", flush=True)
                set_variant(v)
        set_variant("default")
        dv = None


if __name__ == "__main__":
    main()
