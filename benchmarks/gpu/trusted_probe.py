"""The raw WGSL read probe of reduce_variants.py compiled with wgpu's runtime checks (index
clamps, loop counters) and without them (wgpuDeviceCreateShaderModuleTrusted, checks=0),
interleaved in one process, next to cupy.sum (is the "read ceiling" of 0.85 of CuPy a
property of the checks?)."""

import statistics
import sys
import time

import numpy as np

sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__file__)))
from reduce_variants import _PROBE  # noqa: E402

import numr_array_api.webgpu as W  # noqa: E402
from numr_array_api.backends.webgpu.runtime.custom import _bind  # noqa: E402


def src(u, wg=256):
    return (_PROBE.replace("@WG@", str(wg)).replace("@U@", f"{u}u")
            .replace("@DECL@", "\n".join(f"  var a{j} = vec4<f32>(0.0);" for j in range(u)))
            .replace("@LOADS@", "\n".join(f"    let x{j} = src[i + {j}u * T];" for j in range(u)))
            .replace("@ADDS@", "\n".join(f"    a{j} += x{j};" for j in range(u)))
            .replace("@SUM@", " + ".join(f"a{j}" for j in range(u))))


def main():
    n = (int(sys.argv[1]) if len(sys.argv) > 1 else 256) * (1 << 20) // 4
    a = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    x = W.asarray(a)
    client = x._data.client
    reps, rounds = 20, 7
    res = {}
    try:
        import cupy as cp
        xc = cp.asarray(a)
        cs = cp.cuda.get_current_stream().synchronize
    except Exception:  # noqa: BLE001
        cp = None
    for u in (1, 4):
        for g in (4096, 16384, 65535):
            dst = W.zeros(g * 256, dtype=W.float32)
            bind = [_bind(x._data, False)[1], _bind(dst._data, True)[1]]
            for checks in (None, 0):
                pipe = client.pipelines.get(src(u), "main", ("read", "rw"), checks=checks,
                                            label=f"probe{u}")
                res[(u, g, checks)] = (pipe, bind, [])
    cps = []
    for _ in range(rounds):
        if cp is not None:
            cp.sum(xc)
            cs()
            t0 = time.perf_counter()
            for _ in range(reps):
                cp.sum(xc)
            cs()
            cps.append((time.perf_counter() - t0) / reps)
        for (u, g, checks), (pipe, bind, ts) in res.items():
            client.launch(pipe, bind, b"", (g, 1, 1))
            W.synchronize()
            t0 = time.perf_counter()
            for _ in range(reps):
                client.launch(pipe, bind, b"", (g, 1, 1))
            W.synchronize()
            ts.append((time.perf_counter() - t0) / reps)
    c = statistics.median(cps) if cps else float("nan")
    print(f"cupy.sum {c * 1e6:.1f} us {a.nbytes / c / 1e12:.2f} TB/s")
    for (u, g, checks), (_, _, ts) in res.items():
        t = statistics.median(ts)
        print(f"probe U={u} G={g:6d} checks={'default' if checks is None else checks}: "
              f"{t * 1e6:7.1f} us {a.nbytes / t / 1e12:.2f} TB/s  cupy/probe {c / t:.2f}")


if __name__ == "__main__":
    main()
