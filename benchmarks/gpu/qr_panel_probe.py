"""linalg.qr on webgpu: the many-workgroup panel (ops/linalg/qr_wide.py, the default)
against the one-workgroup panel (FactorSpec "qr") and CuPy
(cuSOLVER geqrf + orgqr) when cupy imports.

One line per case: first call (compiles and records the plan), best of the timed calls
(synchronised; later calls replay the plan), and the accuracy on 64 sampled columns:
||A_S - Q R_S|| / ||A|| and ||Q_S^H Q - I_S|| in units of n eps.

    python benchmarks/gpu/qr_panel_probe.py [sizes...]     (default 512 2048 4096)
    QR_PROBE_REPS=k      timed calls per case (default 3, after one warm-up call)
    QR_PROBE_DTYPES="float32;float64"   (default both)
    QR_PROBE_VARIANTS="wide;one;RPT=8;RPT=32;MIN=512"   the panel variants, side by side
        (';' between variants, ',' between settings; a name without the QR_ prefix
        means the tuning knob QR_WIDE_<name>; "wide": the defaults, "one": every panel
        on one workgroup; knobs key the plans, so one process holds them all)
"""
import os
import sys
import time

import numpy as np

import numr_array_api.webgpu as xp
from numr_array_api._core.config import host_conversion
from numr_array_api import tuning
from numr_array_api.backends.webgpu.ops.linalg import qr_wide

try:
    import cupy as cp
except Exception:  # noqa: BLE001
    cp = None

SIZES = [int(s) for s in sys.argv[1:]] or [512, 2048, 4096]
REPS = int(os.environ.get("QR_PROBE_REPS", "3"))
DTYPES = [d for d in os.environ.get("QR_PROBE_DTYPES", "float32;float64").split(";") if d]
SAMPLE = 64


def variants():
    out = []
    for v in os.environ.get("QR_PROBE_VARIANTS", "wide;one").split(";"):
        v = v.strip()
        if v == "wide":
            out.append((v, {}))
        elif v == "one":
            out.append((v, {"QR_WIDE_MIN": 1 << 30, "QR_WIDE_MIN_F64": 1 << 30,
                            "QR_LOOP_MAX": 0, "QR_LOOP_MAX_F32": 0}))
        elif v:
            knobs = {}
            for kv in v.split(","):
                k, _, val = kv.strip().partition("=")
                k = k.strip()
                knobs[k if k.startswith("QR_") else "QR_WIDE_" + k] = val.strip()
            out.append((v, knobs))
    return out


def best(fn, sync):
    t0 = time.perf_counter()
    out = fn()
    sync()
    first = (time.perf_counter() - t0) * 1e3
    b = 1e30
    for _ in range(REPS):
        t = time.perf_counter()
        out = fn()
        sync()
        b = min(b, (time.perf_counter() - t) * 1e3)
    return first, b, out


def accuracy(a, q, r, cols):
    n = a.shape[-1]
    eps = float(np.finfo(a.dtype).eps)
    q = np.asarray(q.to_device("cpu")).astype(np.float64)
    r = np.asarray(r.to_device("cpu")).astype(np.float64)
    ref = a.astype(np.float64)
    err = np.linalg.norm(ref[:, cols] - q @ r[:, cols]) / np.linalg.norm(ref) / (n * eps)
    orth = np.linalg.norm(q[:, cols].T @ q - np.eye(n)[cols]) / (n * eps)
    tri = bool((np.tril(r, -1) == 0).all())
    return f"err {err:.3f} orth {orth:.3f} (x n eps, {len(cols)} cols) triu {tri}"


def main():
    rng = np.random.default_rng(0)
    print("adapter:", xp.__array_namespace_info__().devices(), flush=True)
    for n in SIZES:
        cols = np.sort(rng.choice(n, min(n, SAMPLE), replace=False))
        for dtype in DTYPES:
            a = rng.standard_normal((n, n)).astype(dtype)
            with host_conversion("allow"):
                x = xp.asarray(a)
            for lab, venv in variants():
                before = qr_wide.CALLS["panels"]
                try:
                    with tuning.override(**venv):
                        first, t, (q, r) = best(lambda: xp.linalg.qr(x), xp.synchronize)
                    with host_conversion("allow"):
                        acc = accuracy(a, q, r, cols)
                except Exception as e:  # noqa: BLE001
                    first, t, acc = float("nan"), float("nan"), f"{type(e).__name__}: {e}"
                wide = qr_wide.CALLS["panels"] - before   # counted while recording only
                print(f"qr n={n:5d} {dtype}: {lab:10s} first {first:9.1f} ms, best {t:9.1f} ms"
                      f"  [{acc}] wide_panels_recorded={wide}", flush=True)
            if cp is not None:
                ca = cp.asarray(a)
                _, t, _ = best(lambda: cp.linalg.qr(ca), cp.cuda.Device().synchronize)
                print(f"qr n={n:5d} {dtype}: {'cupy':10s} best {t:9.1f} ms", flush=True)


if __name__ == "__main__":
    main()
