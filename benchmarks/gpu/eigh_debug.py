"""The tridiagonal eigh's cluster modes and shift cap on the device, per
variant: cluster sizes, mode, residual and orthogonality (n eps) against NumPy.

    python benchmarks/gpu/eigh_debug.py "default;SERIAL_MAX=0" [dtypes] [input regex]
(';' between variants, ',' between tuning knob settings EIGH_<name>=value)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import numr_array_api.webgpu as xp  # noqa: E402
from numr_array_api import tuning  # noqa: E402
from numr_array_api._core.config import host_conversion  # noqa: E402
from numr_array_api.backends.webgpu.ops.linalg_spectral import clusters, tridiag  # noqa: E402

tridiag.ORTH_TOL = 1e30     # see the raw result, no fallback
SIZES = []
_plan = tridiag.plan


def spy(cs, serial=False):
    SIZES.append(cs.to_numpy().max(axis=0).tolist())
    return _plan(cs, serial)


tridiag.plan = spy


def orth(n):
    q, r = np.linalg.qr(RNG.standard_normal((n, n)))
    return q * np.sign(np.diag(r))


def inputs():
    global RNG
    RNG = np.random.default_rng(2)
    n = 100
    RNG.permutation(np.repeat([-2.0, 0.0, 1.0, 5.0], n // 4))   # test_repeated's draws
    lam = np.concatenate([1 + 1e-5 * RNG.standard_normal(n // 2),
                          -1 + 1e-5 * RNG.standard_normal(n - n // 2)])
    q = orth(n)
    a = (q * lam) @ q.T
    yield "two_clusters(rng2)", (a + a.T) / 2
    RNG = np.random.default_rng(12)
    for n in (65, 130):
        lam = np.concatenate([1 + 1e-5 * RNG.standard_normal(n // 2),
                              -1 + 1e-5 * RNG.standard_normal(n - n // 2)])
        q = orth(n)
        a = (q * lam) @ q.T
        yield f"tight_clusters{n}", (a + a.T) / 2
    RNG = np.random.default_rng(1)
    n = 128
    lam = np.logspace(0, -6, n) * RNG.choice([-1.0, 1.0], n)
    q = orth(n)
    a = (q * lam) @ q.T
    yield "ill128", (a + a.T) / 2
    rng = np.random.default_rng(0)
    for n in (512, 2048):
        g = rng.standard_normal((n, n))
        yield f"rand{n}", (g + g.T) / 2
        yield f"cov{n}", g @ g.T / n + np.eye(n)


VARIANTS = [v.split(",") if v != "default" else [] for v in sys.argv[1].split(";")]
DTYPES = sys.argv[2].split(",") if len(sys.argv) > 2 else ["float32", "float64"]
MATCH = sys.argv[3] if len(sys.argv) > 3 else ""
with host_conversion("allow"):
    for name, a in inputs():
        if MATCH and not __import__("re").search(MATCH, name):
            continue
        for dt in DTYPES:
            eps = np.finfo(dt).eps
            n = a.shape[0]
            for var in VARIANTS:
                knobs = dict(kv.split("=") for kv in var)
                SIZES.clear()
                before = dict(tridiag.CALLS)
                with tuning.override(**{"EIGH_" + k: v for k, v in knobs.items()}):
                    w, v = xp.linalg.eigh(xp.asarray(a.astype(dt)))
                w = np.asarray(w.to_device("cpu"), dtype=np.float64)
                v = np.asarray(v.to_device("cpu"), dtype=np.float64)
                nr = np.linalg.norm(a, 2)
                res = np.linalg.norm(a @ v - v * w, 2) / nr / (n * eps)
                o = np.linalg.norm(v.T @ v - np.eye(n), 2) / (n * eps)
                par = tridiag.CALLS["parallel"] - before["parallel"]
                print(f"{name:18s} {dt:8s} {','.join(var) or 'default':28s} sizes {SIZES} "
                      f"par {par} res {res:9.3f} orth {o:9.3f}", flush=True)
