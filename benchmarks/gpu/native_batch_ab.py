"""Batches on native handles against wgpu-py's objects (runtime/submit.py ``_open_pass``;
``Recorder.native_batches``), interleaved in one process, beside CuPy: small stacked
linalg calls (host-bound: one batch and one status read a call), a tiny op and its read,
eigh 512 (a ~17-batch call).

    python benchmarks/gpu/native_batch_ab.py [--rounds 3] [--reps 200]
Prints the best time a call per mode and round (ms) and numr / CuPy; reports, never
asserts."""

import argparse
import time

import numpy as np

import numr_array_api.webgpu as xp


def _best(fn, reps, sync):
    fn()
    sync()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(reps):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t) / reps)
    return best * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=200)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    spd = rng.standard_normal((10000, 32, 32)) * 0.1 + 32 * np.eye(32)
    spd = (spd + np.swapaxes(spd, -1, -2)) / 2
    sym = rng.standard_normal((512, 512))
    host = {
        "inv 100000x8x8 f32": ("inv", [rng.standard_normal((100000, 8, 8)) + 3 * np.eye(8)],
                               np.float32, 1),
        "solve 100000x8x8 f32": ("solve", [rng.standard_normal((100000, 8, 8)) + 3 * np.eye(8),
                                           rng.standard_normal((100000, 8, 1))], np.float32, 1),
        "cholesky 10000x32x32 f32": ("cholesky", [spd], np.float32, 1),
        "eigh 512 f64": ("eigh", [sym + sym.T], np.float64, 20),
    }
    try:
        import cupy as cp
    except Exception:  # noqa: BLE001
        cp = None
    rec = xp._backend.client.recorder if hasattr(xp._backend, "client") else None
    if rec is None:
        from numr_array_api.backends.webgpu import get_client
        rec = get_client().recorder
    tiny = xp.asarray(np.ones(8, np.float32))
    cases = {name: (getattr(xp.linalg, fn), [xp.asarray(h.astype(dt)) for h in hs], div)
             for name, (fn, hs, dt, div) in host.items()}
    cases["a + 1, read 8 floats"] = (lambda a: (a + 1).to_device("cpu"), [tiny], 1)
    for name, (fn, args_, div) in cases.items():
        reps = max(3, args.reps // div)
        line = f"{name:26s}"
        ref = None
        if cp is not None and name in host:
            f, hs, dt, _ = host[name]
            ca = [cp.asarray(h.astype(dt)) for h in hs]
            ref = _best(lambda: getattr(cp.linalg, f)(*ca), reps,
                        cp.cuda.Device().synchronize)
            line += f" cupy {ref:.3f} |"
        for r in range(args.rounds):
            for mode in (True, False):
                rec.native_batches = mode
                t = _best(lambda: fn(*args_), reps, xp.synchronize)
                tag = "native" if mode else "objects"
                line += f" {tag} {t:.3f}" + (f" ({t / ref:.2f}x)" if ref else "")
            line += " |"
        rec.native_batches = True
        print(line, flush=True)


if __name__ == "__main__":
    main()
