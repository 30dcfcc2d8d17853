"""Time of each phase of the tridiagonal eigh path (tridiag.py) on webgpu, synchronised
after each: symmetrise, tridiagonalise, eigenvalues, eigenvectors (bisection + inverse
iteration), back-transformation, orthogonality check. Best of 3 after a warm-up.

    python benchmarks/gpu/eigh_phases_2.py [n ...]   (default 512 2048)
Reports, never asserts."""

import sys
import time

import numpy as np

import numr_array_api.webgpu as xp
from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [512, 2048]
    rng = np.random.default_rng(0)
    for n in sizes:
        for dtype in ("float32", "float64"):
            a = rng.standard_normal((1, n, n))
            a = (a + np.swapaxes(a, 1, 2)).astype(dtype)
            x = xp.asarray(a)
            data = x._data
            be = xp._backend
            best = {}
            for rep in range(4):
                t = {}
                s = time.perf_counter()
                h = tridiag._symmetric(be, data)
                xp.synchronize()
                t["symmetrise"] = time.perf_counter() - s
                s = time.perf_counter()
                d, e, tau, ref = tridiag.tridiagonalize(be, h)
                xp.synchronize()
                t["tridiagonalise"] = time.perf_counter() - s
                s = time.perf_counter()
                tridiag.eigenvalues(data.client, d, e)
                xp.synchronize()
                t["eigenvalues"] = time.perf_counter() - s
                s = time.perf_counter()
                w, z = tridiag.eigenvectors(data.client, d, e)
                xp.synchronize()
                t["eigenvectors"] = time.perf_counter() - s
                s = time.perf_counter()
                dev = tridiag._orth_dev(be, z)
                xp.synchronize()
                t["check"] = time.perf_counter() - s
                s = time.perf_counter()
                tridiag.back_transform(be, ref, tau, z)
                xp.synchronize()
                t["back-transform"] = time.perf_counter() - s
                if rep:
                    for k, v in t.items():
                        best[k] = min(best.get(k, 1e9), v)
            total = sum(best.values())
            print(f"n={n} {dtype}: " + "  ".join(f"{k} {v * 1e3:.2f}" for k, v in best.items())
                  + f"  | sum {total * 1e3:.2f} ms", flush=True)


if __name__ == "__main__":
    main()
