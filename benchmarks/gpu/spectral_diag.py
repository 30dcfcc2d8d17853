#!/usr/bin/env python3
"""Diagnostics of the webgpu Jacobi eigh / svd on a GPU (float32 drift on NVIDIA; float32
SVD accuracy next to LAPACK's, which scikit-learn's float32 Ridge tests compare against).

    python benchmarks/gpu/spectral_diag.py [--quick] [--no-time]

Errors are printed in units of n eps ||A||_2 (the test file's bound is 10): per mode
("f32": the float32 kernels, tuning knob SPECTRAL_F32=f32; "f64": float32 inputs computed in
float64, the default where the adapter grants shader-f64) and path (default, or the
dispatch-per-round path forced). "shift" is the mean signed eigenvalue error: a systematic
drift (rotations that grow the columns) shows as shift ~ max error. Then scikit-learn's
Ridge(solver="svd") float32 case of test_ridge_per_target_alpha_array_api (F5), and times
of float32 eigh / svd per mode next to CuPy where importable.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")
os.environ.setdefault("SCIPY_ARRAY_API", "1")

from numr_array_api import tuning  # noqa: E402

def n2(x):
    return np.linalg.norm(x, 2, axis=(-2, -1))


def H(x):
    return np.conj(np.swapaxes(x, -1, -2))


def host(x):
    return np.asarray(x.to_device("cpu"))


def rand(rng, shape, dtype):
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def sym(rng, shape, dtype):
    a = rand(rng, shape, dtype)
    return ((a + H(a)) / 2).astype(dtype)


def eigh_row(xp, n, dtype):
    a = sym(np.random.default_rng(n), (n, n), dtype)
    a64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    unit = n * float(np.finfo(dtype).eps) * n2(a64)
    wr = np.linalg.eigvalsh(a64)
    wv = host(xp.linalg.eigvalsh(xp.asarray(a))).astype(np.float64)
    w, v = xp.linalg.eigh(xp.asarray(a))
    w, v = host(w).astype(np.float64), host(v).astype(a64.dtype)
    rec = n2(a64 - (v * w) @ H(v))
    orth = n2(H(v) @ v - np.eye(n)) * n2(a64)
    return (f"eigvalsh max {np.abs(wv - wr).max() / unit:6.2f} shift {(wv - wr).mean() / unit:+6.2f}"
            f" | eigh w {np.abs(w - wr).max() / unit:6.2f} shift {(w - wr).mean() / unit:+6.2f}"
            f" rec {rec / unit:6.2f} orth {orth / unit:6.2f}")


def svd_row(xp, shape, dtype):
    a = rand(np.random.default_rng(sum(shape)), shape, dtype)
    a64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    n = max(shape)
    eps = float(np.finfo(dtype).eps)
    sc = n2(a64)
    sr = np.linalg.svd(a64, compute_uv=False)
    u, s, vh = xp.linalg.svd(xp.asarray(a), full_matrices=False)
    u, s, vh = host(u).astype(a64.dtype), host(s).astype(np.float64), host(vh).astype(a64.dtype)
    k = s.shape[-1]
    rec = n2(a64 - (u * s) @ vh) / sc
    ou = n2(H(u) @ u - np.eye(k))
    ov = n2(vh @ H(vh) - np.eye(k))
    return (f"s max {np.abs(s - sr).max() / sc / (n * eps):6.2f} shift "
            f"{(s - sr).mean() / sc / (n * eps):+6.2f} rec {rec / (n * eps):6.2f} "
            f"orthU {ou / (n * eps):6.2f} orthV {ov / (n * eps):6.2f} (orthU {ou:.1e})")


def negligible_row(xp, dtype):
    """test_svd_negligible_columns_completed's matrices: orthogonality per (input, full)."""
    rng = np.random.default_rng(7)
    x, y, z = (rand(rng, (9,), "complex128" if dtype == "complex64" else "float64")
               for _ in range(3))
    a = np.stack([np.stack([x, y, 1e-9 * (x - 2 * y), 1e-12 * z, 1e-20 * x], axis=1),
                  np.stack([x, 1e-9 * z, y, 1e-9 * x, 0 * x], axis=1)]).astype(dtype)
    out = []
    for name, m in (("tall", a), ("wide", np.swapaxes(a, -1, -2).copy())):
        for full in (False, True):
            u, s, vh = xp.linalg.svd(xp.asarray(m), full_matrices=full)
            u, vh = host(u).astype(np.complex128), host(vh).astype(np.complex128)
            ou = n2(H(u) @ u - np.eye(u.shape[-1]))
            ov = n2(vh @ H(vh) - np.eye(vh.shape[-2]))
            out.append(f"{name}{'F' if full else ''} U {ou.max():.1e} V {ov.max():.1e}")
    return " | ".join(out)


def ridge_row(xp):
    """sklearn test_ridge_per_target_alpha_array_api, float32 (F5)."""
    from sklearn import config_context
    from sklearn.datasets import make_regression
    from sklearn.linear_model import Ridge
    X, y = make_regression(n_targets=3, n_features=10, random_state=0)
    Xn, yn = X.astype("float32"), y.astype("float32")
    alphas = np.asarray([1e-2, 0.1, 1.0], dtype="float32")
    ref = Ridge(alpha=alphas, solver="svd").fit(Xn, yn).predict(Xn)
    with config_context(array_api_dispatch=True):
        p = host(Ridge(alpha=alphas, solver="svd").fit(xp.asarray(Xn), xp.asarray(yn))
                 .predict(xp.asarray(Xn)))
    allowed = np.finfo(np.float32).eps * 1000 + 1e-7 * np.abs(ref)
    d = np.abs(p - ref)
    return (f"ridge F5: max|numr - numpy32| {d.max():.2e} (allowed {allowed.min():.2e}.."
            f"{allowed.max():.2e}) elements over {int((d > allowed).sum())} -> "
            f"{'PASS' if not (d > allowed).any() else 'FAIL'}")


def timings(xp, mixin):
    import contextlib
    cp = None
    with contextlib.suppress(Exception):
        import cupy as cp
        cp.cuda.runtime.getDeviceCount()
    rng = np.random.default_rng(0)
    cases = [("eigh", (512, 512)), ("svd", (512, 512)), ("eigh", (10000, 32, 32)),
             ("svd", (10000, 32, 32)), ("eigh", (1000, 48, 48)), ("svd", (1000, 48, 48)),
             ("eigh", (1000, 56, 56)),
             ("svd", (200, 12))]
    for op, shape in cases:
        a = rng.standard_normal(shape).astype(np.float32)
        if op == "eigh":
            a = (a + np.swapaxes(a, -1, -2)) / 2
        row = [f"{op} float32 {'x'.join(map(str, shape)):>12}"]
        for mode in (False, True):
            tuning.force(SPECTRAL_F32="f64" if mode else "f32")
            x = xp.asarray(a)
            f = (lambda: xp.linalg.eigh(x)) if op == "eigh" else \
                (lambda: xp.linalg.svd(x, full_matrices=False))
            r = f()
            host(r[0])
            best = 1e9
            for _ in range(2):
                t0 = time.perf_counter()
                r = f()
                host(r[0])
                best = min(best, time.perf_counter() - t0)
            row.append(f"{'f64' if mode else 'f32'} {best * 1e3:8.2f} ms")
        if cp is not None:
            xc = cp.asarray(a)
            g = (lambda: cp.linalg.eigh(xc)) if op == "eigh" else \
                (lambda: cp.linalg.svd(xc, full_matrices=False))
            g()
            cp.cuda.Device().synchronize()
            best = 1e9
            for _ in range(3):
                t0 = time.perf_counter()
                g()
                cp.cuda.Device().synchronize()
                best = min(best, time.perf_counter() - t0)
            row.append(f"cupy {best * 1e3:8.2f} ms")
        print(" | ".join(row), flush=True)
    tuning.force(SPECTRAL_F32=None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="n <= 100 only (lavapipe)")
    ap.add_argument("--no-time", action="store_true")
    ap.add_argument("--time-only", action="store_true")
    ap.add_argument("--modes", default="f32,f64")
    args = ap.parse_args()
    from numr_array_api._core.config import host_conversion
    host_conversion("allow").__enter__()
    import numr_array_api.webgpu as xp
    from numr_array_api.backends.webgpu.ops.linalg_spectral import mixin
    print("adapter:", getattr(xp, "__name__", "webgpu"), flush=True)
    sizes = (40, 100) if args.quick else (128, 200)
    shapes = [(40, 30)] if args.quick else [(200, 150)]
    for mode in ([] if args.time_only else args.modes.split(",")):
        tuning.force(SPECTRAL_F32=mode)
        for rounds in ((None, True) if args.quick else (None,)):
            mixin.ROUNDS = rounds
            path = "rounds" if rounds else "default"
            for dtype in ("float32", "complex64"):
                for n in sizes:
                    print(f"[{mode} {path:7}] eigh {dtype:9} n={n:3}: {eigh_row(xp, n, dtype)}",
                          flush=True)
                for shape in shapes:
                    print(f"[{mode} {path:7}] svd  {dtype:9} {shape}: {svd_row(xp, shape, dtype)}",
                          flush=True)
                print(f"[{mode} {path:7}] negligible {dtype}: {negligible_row(xp, dtype)}",
                      flush=True)
        mixin.ROUNDS = None
        try:
            print(f"[{mode}] {ridge_row(xp)}", flush=True)
        except ImportError as e:
            print(f"[{mode}] ridge skipped: {e}")
    tuning.force(SPECTRAL_F32=None)
    if not args.no_time:
        timings(xp, mixin)
    print("DIAG-DONE")


if __name__ == "__main__":
    main()
