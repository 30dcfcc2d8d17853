"""eigh / eigvalsh of large real symmetric matrices on webgpu: the tridiagonal path
(ops/linalg_spectral/tridiag.py) against the Jacobi path and CuPy (if importable).

One line per case: first call (compiles), best of the timed calls (synchronised), and
the accuracy of the result against NumPy in float64 (eigenvalue error and, for eigh,
residual / orthogonality in units of n eps ||A||), and whether the path fell back.

    python benchmarks/gpu/eigh_tridiag_probe.py [sizes...]   (default 512 1024 2048)
    EIGH_PROBE_JACOBI=0 skips the Jacobi path (3.7 s per 2048 f32 eigh on an H100);
    EIGH_PROBE_REPS=k timed calls per case (default 3);
    EIGH_PROBE_VARIANTS="default;SYMV_RPW=2;MSECT_WG=128,BT_NB=64" times the tridiagonal
    path once per variant, side by side (';' between variants, ',' between tuning knob
    settings; a name without the EIGH_ prefix means EIGH_<name>; the tuning epoch is part
    of the recipe key, so the variants share one process);
    EIGH_PROBE_DTYPES="float32" limits the dtypes (default float32;float64)."""
import os
import sys
import time

import numpy as np

import numr_array_api.webgpu as xp
from numr_array_api import tuning
from numr_array_api._core.config import host_conversion
from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag

try:
    import cupy as cp
except Exception:  # noqa: BLE001
    cp = None

SIZES = [int(s) for s in sys.argv[1:]] or [512, 1024, 2048]
REPS = int(os.environ.get("EIGH_PROBE_REPS", "3"))
JACOBI = os.environ.get("EIGH_PROBE_JACOBI", "1") != "0"
DTYPES = [d for d in os.environ.get("EIGH_PROBE_DTYPES", "float32;float64").split(";") if d]


def variants():
    """[(label, {knob: value})] from EIGH_PROBE_VARIANTS (default: one, "default")."""
    out = []
    for v in os.environ.get("EIGH_PROBE_VARIANTS", "default").split(";"):
        v = v.strip()
        if not v:
            continue
        env = {}
        if v != "default":
            for kv in v.split(","):
                k, _, val = kv.strip().partition("=")
                k = k.strip()
                env[k if k.startswith("EIGH_") else "EIGH_" + k] = val.strip()
        out.append((v, env))
    return out


def best(fn, sync, reps=REPS):
    t0 = time.perf_counter()
    out = fn()
    sync()
    first = (time.perf_counter() - t0) * 1e3
    b = 1e30
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        sync()
        b = min(b, (time.perf_counter() - t) * 1e3)
    return first, b, out


def accuracy(a, out, vectors, dtype):
    n = a.shape[-1]
    eps = float(np.finfo(dtype).eps)
    ref = a.astype(np.float64)
    nrm = np.linalg.norm(ref, 2)
    wr = np.linalg.eigvalsh(ref)
    if vectors:
        w, v = (np.asarray(o.to_device("cpu")).astype(np.float64) for o in out)
    else:
        w, v = np.asarray(out.to_device("cpu")).astype(np.float64), None
    u = n * eps * nrm
    s = f"werr {np.abs(w - wr).max() / u:.3f}"
    if vectors:
        res = np.linalg.norm(ref @ v - v * w, 2) / u
        orth = np.linalg.norm(v.T @ v - np.eye(n), 2) / (n * eps)
        s += f" resid {res:.3f} orth {orth:.3f}"
    return s + " (x n eps ||A||)"


def main():
    rng = np.random.default_rng(0)
    print("adapter:", xp.__array_namespace_info__().devices())
    for n in SIZES:
        for dtype in DTYPES:
            a = rng.standard_normal((n, n))
            a = ((a + a.T) / 2).astype(dtype)
            with host_conversion("allow"):
                x = xp.asarray(a)
            for name, vectors in (("eigvalsh", False), ("eigh", True)):
                f = (lambda: xp.linalg.eigh(x)) if vectors else (lambda: xp.linalg.eigvalsh(x))
                vs = variants()
                paths = [("tridiag", venv, lab) for lab, venv in vs]
                # the Jacobi path: the tridiagonal one's threshold beyond n
                paths += [("jacobi", {"EIGH_TRIDIAG_MIN": n + 1}, "")] if JACOBI else []
                for path, venv, lab in paths:
                    before = dict(tridiag.CALLS)
                    try:
                        with tuning.override(**venv):
                            first, t, out = best(f, xp.synchronize,
                                                 1 if path == "jacobi" else REPS)
                            acc = accuracy(a, out, vectors, dtype)
                    except Exception as e:  # noqa: BLE001
                        first, t, acc = float("nan"), float("nan"), f"{type(e).__name__}: {e}"
                    fb = tridiag.CALLS["fallback"] - before["fallback"]
                    ran = tridiag.CALLS["tridiag"] - before["tridiag"]
                    print(f"{name:8s} n={n:5d} {dtype}: {path:7s} first {first:9.1f} ms, best "
                          f"{t:9.1f} ms  [{acc}] tridiag_calls={ran} fallbacks={fb}"
                          + (f"  {{{lab}}}" if lab else ""), flush=True)
                if cp is not None:
                    ca = cp.asarray(a)
                    cf = ((lambda: cp.linalg.eigh(ca)) if vectors
                          else (lambda: cp.linalg.eigvalsh(ca)))
                    _, t, _ = best(cf, cp.cuda.Device().synchronize)
                    print(f"{name:8s} n={n:5d} {dtype}: cupy    best {t:9.1f} ms", flush=True)


if __name__ == "__main__":
    main()
