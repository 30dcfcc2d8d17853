"""Where the host time of a replayed eigvalsh (tridiagonal path) goes: cProfile of
repeated calls, top functions by own time (native wgpu calls show as cffi builtins).

    python benchmarks/gpu/trd_host.py [n] [dtype]
Reports, never asserts."""

import cProfile
import pstats
import sys
import time

import numpy as np

import numr_array_api.webgpu as xp
from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 512
    dtype = sys.argv[2] if len(sys.argv) > 2 else "float64"
    be = xp._backend
    a = np.random.default_rng(0).standard_normal((1, n, n))
    x = xp.asarray((a + np.swapaxes(a, 1, 2)).astype(dtype))._data
    for _ in range(3):
        tridiag.eigh(be, x.copy(), False)
    xp.synchronize()
    reps = 5
    pr = cProfile.Profile()
    t = time.perf_counter()
    pr.enable()
    for _ in range(reps):
        tridiag.eigh(be, x.copy(), False)
    pr.disable()
    xp.synchronize()
    print(f"eigvalsh {n} {dtype}: {(time.perf_counter() - t) / reps * 1e3:.2f} ms a call "
          "(profiled)", flush=True)
    pstats.Stats(pr).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
