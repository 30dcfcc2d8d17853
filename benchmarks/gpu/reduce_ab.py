"""The sweep's reduction acceptance rows, recipes on / off (runtime/recipes.py), interleaved
with CuPy.

    python benchmarks/gpu/reduce_ab.py [--rounds 15] [--reps 20]

Each round times, in rotating order, CuPy, numr webgpu with recipes and numr webgpu
without (``client.recipes.enabled``), each a burst of ``reps`` queued calls and one
synchronize (the sweep's measure), and the host time of the burst's calls alone. Prints
per case the median and the worst round's CuPy time / numr time. Reports, never asserts.
"""
import argparse
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, __import__("os").path.dirname(__file__) + "/..")


def burst(fn, sync, reps):
    fn()
    sync()
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    h = time.perf_counter()
    sync()
    e = time.perf_counter()
    return (e - t) / reps, (h - t) / reps


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--mib", type=int, default=256)
    a = p.parse_args()
    import cupy as cp
    import numr_array_api.webgpu as xp
    from numr_array_api.backends.webgpu import get_client
    c = get_client()
    n = a.mib * (1 << 20) // 4
    side = int(np.sqrt(n))
    h32 = np.random.default_rng(0).random(n, dtype=np.float32)
    h64 = np.random.default_rng(1).random(n // 2)
    cases = [("sum f32", h32, lambda ns, x: ns.sum(x)),
             ("sum f64", h64, lambda ns, x: ns.sum(x)),
             ("mean f32", h32, lambda ns, x: ns.mean(x)),
             ("max(axis=1)", h32.reshape(side, side), lambda ns, x: ns.max(x, axis=1)),
             ("sum(axis=1)", h32.reshape(side, side), lambda ns, x: ns.sum(x, axis=1)),
             ("var(axis=0)", h32.reshape(side, side), lambda ns, x: ns.var(x, axis=0))]
    csync = cp.cuda.runtime.deviceSynchronize
    for name, h, f in cases:
        xc, xn = cp.asarray(h), xp.asarray(h)
        ref = float(np.asarray(f(np, h.astype(np.float64))).ravel()[0])
        got = float(np.asarray(f(xp, xn).to_device("cpu")).ravel()[0])
        runs = {"cupy": (lambda: f(cp, xc), csync),
                "rec": (lambda: f(xp, xn), c.synchronize),
                "norec": (lambda: f(xp, xn), c.synchronize)}
        res = {k: [] for k in runs}
        for r in range(a.rounds):
            order = list(runs)
            order = order[r % 3:] + order[:r % 3]
            for k in order:
                c.recipes.enabled = k != "norec"
                res[k].append(burst(*runs[k], a.reps))
        c.recipes.enabled = True
        cu = [t for t, _ in res["cupy"]]
        line = f"{name:12s} cupy {statistics.median(cu)*1e3:.4f} ms"
        for k in ("rec", "norec"):
            rat = [x / t for x, (t, _) in zip(cu, res[k])]
            hm = statistics.median(hh for _, hh in res[k]) * 1e6
            line += (f" | {k} {statistics.median(t for t, _ in res[k])*1e3:.4f} ms ratio med "
                     f"{statistics.median(rat):.2f} min {min(rat):.2f} max {max(rat):.2f} "
                     f"host {hm:.0f} us")
        print(line, f"| first elem rel err {abs(got - ref) / max(abs(ref), 1e-30):.1e}",
              flush=True)
        del xc, xn
        c.synchronize()
        cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
