"""Early-submission policy A/B in one process, interleaved.

Separate processes on the H100 disagreed by 20-40 % (benchmarks/gpu/runs/2026-11-26-24.sh), so the
settings alternate here round after round on the same arrays: the recorder's byte threshold
(``recorder.submit_bytes``: the SUBMIT_BYTES knob) and its first step after a wait
(``recorder.ramp_first``: SUBMIT_FIRST). Per case and setting: the median over rounds of the
time per call (``reps`` calls queued, one synchronize) and of the host's share; CuPy
alongside."""

import statistics
import sys
import time

import numpy as np

import numr_array_api.webgpu as W

# (label, recorder.submit_bytes, recorder.ramp_first); benchmarks/gpu/runs/2026-11-26-25.sh
# compared fixed thresholds, runs/2026-11-26-34.sh the ramp (64 MiB after each wait,
# doubling to 1 GiB)
SETTINGS = [("64M", 64 << 20, 64 << 20), ("1G", 1 << 30, 1 << 30), ("ramp", 1 << 30, 64 << 20)]
if "--fixed" in sys.argv:
    SETTINGS = [("64M", 64 << 20, 64 << 20), ("256M", 256 << 20, 256 << 20),
                ("1G", 1 << 30, 1 << 30), ("4G", 4 << 30, 4 << 30)]
REPS = int(next((a.split("=")[1] for a in sys.argv if a.startswith("--reps=")), "0"))


def per_call(fn, sync, reps):
    fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    th = time.perf_counter()
    sync()
    return (time.perf_counter() - t0) / reps, (th - t0) / reps


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 5
    rng = np.random.default_rng(0)
    n = (256 << 20) // 4
    a = rng.standard_normal(n, dtype=np.float32)
    m = a.reshape(8192, n // 8192)
    c = (rng.standard_normal(1 << 22) + 1j * rng.standard_normal(1 << 22)).astype(np.complex64)
    cb = c.reshape(4096, 1024)
    x, xm, xc, xcb = W.asarray(a), W.asarray(m), W.asarray(c), W.asarray(cb)
    cases = [("sum", lambda ns, v: ns.sum(v[0]), 20),
             ("max(axis=1)", lambda ns, v: ns.max(v[1], axis=1), 20),
             ("var(axis=0)", lambda ns, v: ns.var(v[1], axis=0), 10),
             ("cumulative_sum", lambda ns, v: ns.cumulative_sum(v[0]), 10),
             ("x + x", lambda ns, v: v[0] + v[0], 20),
             ("fft 2^22", lambda ns, v: ns.fft.fft(v[2]), 20),
             ("fft 4096x1024", lambda ns, v: ns.fft.fft(v[3], axis=-1), 20)]
    try:
        import cupy as cp
        cv = [cp.asarray(a), cp.asarray(m), cp.asarray(c), cp.asarray(cb)]
        csync = cp.cuda.get_current_stream().synchronize
    except Exception as exc:  # noqa: BLE001
        print(f"no cupy: {exc}")
        cp = None
    rec = x._data.client.recorder
    wv = [x, xm, xc, xcb]
    for name, f, reps in cases:
        reps = REPS or reps
        res = {s[0]: [] for s in SETTINGS}
        hs = {s[0]: [] for s in SETTINGS}
        cps = []
        for _ in range(rounds):
            if cp is not None:
                cps.append(per_call(lambda: f(cp, cv), csync, reps)[0])
            for label, sb, first in SETTINGS:
                rec.submit_bytes = sb
                rec.ramp_first = rec.ramp = first
                t, h = per_call(lambda: f(W, wv), W.synchronize, reps)
                res[label].append(t)
                hs[label].append(h)
        cpm = statistics.median(cps) if cps else float("nan")
        line = f"{name:15s} cupy {cpm * 1e6:8.1f} us"
        for label, *_ in SETTINGS:
            t = statistics.median(res[label])
            h = statistics.median(hs[label])
            line += f" | {label} {t * 1e6:7.1f} us r={cpm / t:4.2f} h={h * 1e6:5.1f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
