"""Where the per-column time of the wide tridiagonalisation goes: eigvalsh through
tridiag.eigh (recipes replayed, as a user's repeated call) with TrdUpdSpec and / or
TrdSymv2Spec emptied (each returns at once: the results are garbage, only the time
counts). One variant a process (compiled kernels are cached by spec).

    python benchmarks/gpu/trd_empty.py VARIANT [n ...]   VARIANT: none, upd, symv, both
The call's own time (recording and submitting: the host) is printed beside the total.
Reports, never asserts."""

import sys
import time

import numpy as np

from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag, trd_chain as tc


def _empty(tpl):
    src = tpl.text if hasattr(tpl, "text") else tpl.template
    cut = "if (b >= ${nbat}) { return; }"
    assert cut in src
    return type(tpl)(src.replace(cut, cut + "\n  if (${n} > 0u) { return; }", 1), "empty")


def main():
    var = sys.argv[1]
    sizes = [int(s) for s in sys.argv[2:]] or [512, 2048]
    if var in ("upd", "both"):
        tc.UPD = _empty(tc.UPD)
    if var in ("symv", "both"):
        tc.SYMV = _empty(tc.SYMV)
    import numr_array_api.webgpu as xp
    be = xp._backend
    rng = np.random.default_rng(0)
    for n in sizes:
        for dtype in ("float32", "float64"):
            a = rng.standard_normal((1, n, n))
            x = xp.asarray((a + np.swapaxes(a, 1, 2)).astype(dtype))._data
            best, host = 1e9, 1e9
            for rep in range(6):
                h = x.copy()
                xp.synchronize()
                s = time.perf_counter()
                tridiag.eigh(be, h, False)
                r = time.perf_counter()
                xp.synchronize()
                if rep:
                    best = min(best, time.perf_counter() - s)
                    host = min(host, r - s)
            print(f"{var:5s} n={n} {dtype}: eigvalsh (tridiagonal path) {best * 1e3:.2f} ms "
                  f"(the call returned after {host * 1e3:.2f} ms), "
                  f"{best / (2 * n) * 1e6:.2f} us a column dispatch", flush=True)


if __name__ == "__main__":
    main()
