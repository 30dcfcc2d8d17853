#!/usr/bin/env python3
"""GPU time per kernel of chosen webgpu calls (runtime/profile.py: timestamp queries).

    python benchmarks/gpu_profile.py --case qr:2048:float32 --case eigh:512:float64 \
        [--case sum:67108864:float32] [--by label] [--top 25]

A case is ``fn:n:dtype``: a ``linalg`` function on an n x n input, or a whole-array
reduction (sum, max, mean) of n elements. eigh / eigvalsh take a random symmetric matrix,
``eigh+cov`` a covariance G G^T / n + I (clustered low eigenvalues, which inverse iteration
handles one after another), cholesky that covariance, solve 64 right-hand sides (one for
stacks); ``BATCHxN`` is a stack, e.g. ``cholesky:10000x32:float32``.
Each case runs twice unprofiled (compiles, captured graphs, recipes), then once
profiled; the table groups dispatches by kernel class (``--by label``: by full variant).
Reports, never asserts.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


def _input(fn, spec, dtype, rng):
    if fn in ("sum", "max", "mean"):
        return (rng.random(int(spec)).astype(dtype),)
    batch, n = ((int(spec.split("x")[0]),), int(spec.split("x")[1])) if "x" in spec \
        else ((), int(spec))
    g = rng.standard_normal(batch + (n, n))
    if fn in ("eigh", "eigvalsh"):   # the semicircle spectrum of webgpu_linalg_spectral.py
        return (((g + np.swapaxes(g, -1, -2)) / 2).astype(dtype),)
    if fn in ("cholesky", "eigh+cov", "eigvalsh+cov"):   # a covariance: clustered spectrum
        return ((g @ np.swapaxes(g, -1, -2) / n + np.eye(n)).astype(dtype),)
    a = (g + np.sqrt(n) * np.eye(n)).astype(dtype)   # (np.sqrt: a float64 scalar)
    if fn == "solve":   # 64 right-hand sides; one a matrix of a stack
        return a, rng.standard_normal(batch + (n, 1 if batch else 64)).astype(dtype)
    return (a,)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--case", action="append", required=True)
    p.add_argument("--by", choices=("class", "label"), default="class")
    p.add_argument("--top", type=int, default=25)
    a = p.parse_args()
    import numr_array_api.webgpu as xp
    from numr_array_api.backends.webgpu import get_client
    from numr_array_api.backends.webgpu.runtime.profile import profile
    c = get_client()
    print(f"[profile] {c.info.get('name', '?')} ({c.info.get('backend', '?')})")
    rng = np.random.default_rng(0)
    key = (lambda lab: lab) if a.by == "label" else None
    for case in a.case:
        fn, spec, dtype = case.split(":")
        args = [xp.asarray(h) for h in _input(fn, spec, dtype, rng)]
        f = getattr(xp, fn) if fn in ("sum", "max", "mean") else \
            getattr(xp.linalg, fn.split("+")[0])
        for _ in range(2):
            f(*args)
        c.synchronize()
        with profile(c) as prof:
            f(*args)
        print(f"== {case}")
        print(prof.report(key=key, top=a.top), flush=True)


if __name__ == "__main__":
    main()
