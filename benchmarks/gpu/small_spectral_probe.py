"""eigh / eigvalsh / svd / svdvals of stacks of small matrices on webgpu: the stacked
small-matrix kernels (ops/linalg_spectral/small.py) against the one-workgroup Jacobi path
and CuPy (if importable).

One line per (case, path): best time of REPS synchronised calls after a warm-up call
(which compiles), and the accuracy of the first 64 matrices against NumPy in float64
(worst eigenvalue / singular value error, reconstruction, orthogonality, in units of
n eps ||A||; the tests allow 10).

    python benchmarks/gpu/small_spectral_probe.py
    SMALL_PROBE_REPS=k           timed calls per case (default 5)
    SMALL_PROBE_CASES="100000x8,10000x32"  batch x n
    SMALL_PROBE_DTYPES="float32;float64"
    SMALL_PROBE_OPS="eigh;eigvalsh;svd;svdvals"
    SMALL_PROBE_VARIANTS="default;EIGH_WG=64;SVD_WG=128;NBUF=1;old"  paths to time side by
      side (',' between tuning knob settings; names without the SMALL_SPECTRAL_ prefix mean
      SMALL_SPECTRAL_<name>; "old" is the Jacobi path: SMALL_SPECTRAL_MIN beyond the batch;
      default "default;old")"""
import os
import time

import numpy as np

import numr_array_api.webgpu as xp
from numr_array_api import tuning
from numr_array_api._core.config import host_conversion
from numr_array_api.backends.webgpu.ops.linalg_spectral import small

try:
    import cupy as cp
except Exception:  # noqa: BLE001
    cp = None

REPS = int(os.environ.get("SMALL_PROBE_REPS", "5"))
CASES = [tuple(int(v) for v in c.split("x")) for c in
         os.environ.get("SMALL_PROBE_CASES", "100000x8,10000x32").split(",") if c]
DTYPES = [d for d in os.environ.get("SMALL_PROBE_DTYPES", "float32;float64").split(";") if d]
OPS = [o for o in os.environ.get("SMALL_PROBE_OPS", "eigh;eigvalsh;svd;svdvals").split(";")
       if o]
CHECK = 64


def variants(nb):
    """[(label, {knob: value})] from SMALL_PROBE_VARIANTS for stacks of ``nb`` matrices."""
    out = []
    for v in os.environ.get("SMALL_PROBE_VARIANTS", "default;old").split(";"):
        v = v.strip()
        if not v:
            continue
        env = {}
        if v == "old":
            env["SMALL_SPECTRAL_MIN"] = nb + 1
        elif v != "default":
            for kv in v.split(","):
                k, _, val = kv.strip().partition("=")
                k = k.strip()
                env[k if k.startswith("SMALL_SPECTRAL_") else "SMALL_SPECTRAL_" + k] = \
                    val.strip()
        out.append((v, env))
    return out


def best(fn, sync):
    out = fn()
    sync()
    b = 1e30
    for _ in range(REPS):
        t = time.perf_counter()
        out = fn()
        sync()
        b = min(b, time.perf_counter() - t)
    return b * 1e3, out


def _h(x):
    return np.asarray(x.to_device("cpu")).astype(np.float64)


def accuracy(op, a, out):
    a = a[:CHECK].astype(np.float64)
    n = a.shape[-1]
    eps = float(np.finfo(DT).eps)
    nrm = np.linalg.norm(a, 2, axis=(-2, -1))[:, None]
    u = n * eps
    if op in ("eigh", "eigvalsh"):
        w = _h(out[0] if op == "eigh" else out)[:CHECK]
        s = f"err {(np.abs(w - np.linalg.eigvalsh(a)) / nrm).max() / u:.2f}"
        if op == "eigh":
            v = _h(out[1])[:CHECK]
            rec = np.linalg.norm(a - (v * w[:, None, :]) @ np.swapaxes(v, -1, -2), 2,
                                 axis=(-2, -1))[:, None] / nrm
            orth = np.linalg.norm(np.swapaxes(v, -1, -2) @ v - np.eye(n), 2, axis=(-2, -1))
            s += f" rec {rec.max() / u:.2f} orth {orth.max() / u:.2f}"
        return s
    sv = _h(out[1] if op == "svd" else out)[:CHECK]
    s = f"err {(np.abs(sv - np.linalg.svd(a, compute_uv=False)) / nrm).max() / u:.2f}"
    if op == "svd":
        uu, vh = _h(out[0])[:CHECK], _h(out[2])[:CHECK]
        rec = np.linalg.norm(a - (uu * sv[:, None, :]) @ vh, 2, axis=(-2, -1))[:, None] / nrm
        ou = np.linalg.norm(np.swapaxes(uu, -1, -2) @ uu - np.eye(n), 2, axis=(-2, -1))
        ov = np.linalg.norm(vh @ np.swapaxes(vh, -1, -2) - np.eye(n), 2, axis=(-2, -1))
        s += f" rec {rec.max() / u:.2f} orthU {ou.max() / u:.2f} orthV {ov.max() / u:.2f}"
    return s


def numr_fn(op, x):
    return {"eigh": lambda: xp.linalg.eigh(x), "eigvalsh": lambda: xp.linalg.eigvalsh(x),
            "svd": lambda: xp.linalg.svd(x, full_matrices=False),
            "svdvals": lambda: xp.linalg.svdvals(x)}[op]


def cupy_fn(op, x):
    return {"eigh": lambda: cp.linalg.eigh(x), "eigvalsh": lambda: cp.linalg.eigvalsh(x),
            "svd": lambda: cp.linalg.svd(x, full_matrices=False),
            "svdvals": lambda: cp.linalg.svd(x, compute_uv=False)}[op]


DT = "float32"


def main():
    global DT
    rng = np.random.default_rng(0)
    print("adapter:", xp.__array_namespace_info__().devices(), flush=True)
    for nb, n in CASES:
        for dtype in DTYPES:
            DT = dtype
            g = rng.standard_normal((nb, n, n))
            sym = ((g + np.swapaxes(g, -1, -2)) / 2).astype(dtype)
            gen = g.astype(dtype)
            with host_conversion("allow"):
                xs, xg = xp.asarray(sym), xp.asarray(gen)
            for op in OPS:
                a, x = (sym, xs) if op.startswith("eig") else (gen, xg)
                times = {}
                for lab, env in variants(nb):
                    before = dict(small.CALLS)
                    try:
                        with tuning.override(**env):
                            t, out = best(numr_fn(op, x), xp.synchronize)
                            acc = accuracy(op, a, out)
                    except Exception as e:  # noqa: BLE001
                        t, acc = float("nan"), f"{type(e).__name__}: {e}"
                    times[lab] = t
                    ran = sum(small.CALLS.values()) - sum(before.values())
                    print(f"{op:8s} {nb:6d} x {n:2d}x{n:<2d} {dtype}: numr {lab:12s} "
                          f"{t:9.3f} ms  small_calls={ran:2d}  [{acc}]", flush=True)
                if cp is not None:
                    ca = cp.asarray(a)
                    try:
                        t, _ = best(cupy_fn(op, ca), cp.cuda.Device().synchronize)
                    except Exception as e:  # noqa: BLE001
                        t = float("nan")
                        print(f"  cupy failed: {type(e).__name__}: {e}")
                    rel = "  ".join(f"{k}/cupy {v / t:.2f}" for k, v in times.items())
                    print(f"{op:8s} {nb:6d} x {n:2d}x{n:<2d} {dtype}: cupy {'':12s} "
                          f"{t:9.3f} ms  ({rel})", flush=True)
                    del ca


if __name__ == "__main__":
    main()
