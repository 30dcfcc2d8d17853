"""Per-op cost of the runtime: ``python -m numr_array_api.backends.webgpu.runtime.bench``.

Prints microseconds per small op for eager chains (Python recording alone, and end to end
with submits and device execution), for graph replays, and host round trips.
"""

import time

import numpy as np

from ...._core import dtypes as D


def _chain(W, x, n):
    y = x
    for _ in range(n):
        y = W.astype(y, D.float32)
    return y


def main(n=2000, size=1000):
    import numr_array_api.backends.webgpu as W

    c = W.get_client()
    x = W.from_numpy(np.arange(size, dtype=np.float32))
    _chain(W, x, 300)
    c.synchronize()
    out = {}
    thr = c.recorder.threshold
    c.recorder.threshold = 10 ** 9  # isolate Python-side recording from submits
    t0 = time.perf_counter()
    y = _chain(W, x, n)
    t1 = time.perf_counter()
    c.synchronize()
    t2 = time.perf_counter()
    c.recorder.threshold = thr
    out["eager_record_us"] = (t1 - t0) / n * 1e6
    out["eager_submit_and_execute_us"] = (t2 - t1) / n * 1e6
    s0 = c.recorder.submits
    t0 = time.perf_counter()
    y = _chain(W, x, n)
    c.synchronize()
    out["eager_end_to_end_us"] = (time.perf_counter() - t0) / n * 1e6
    out["eager_submits_per_op"] = (c.recorder.submits - s0) / n
    g = W.capture_graph(lambda a: _chain(W, a, 100), x)
    g(x)
    c.synchronize()
    reps = max(1, n // 100)
    c.recorder.threshold = 10 ** 9
    t0 = time.perf_counter()
    for _ in range(reps):
        g(x)
    t1 = time.perf_counter()
    c.synchronize()
    c.recorder.threshold = thr
    out["replay_record_us"] = (t1 - t0) / (reps * 100) * 1e6
    t0 = time.perf_counter()
    for _ in range(reps):
        g(x)
    c.synchronize()
    out["replay_end_to_end_us"] = (time.perf_counter() - t0) / (reps * 100) * 1e6
    a = np.arange(size, dtype=np.float32)
    t0 = time.perf_counter()
    for _ in range(100):
        W.from_numpy(a)
    out["from_numpy_4KB_us"] = (time.perf_counter() - t0) / 100 * 1e6
    c.synchronize()
    t0 = time.perf_counter()
    for _ in range(100):
        W.to_numpy(x)
    out["to_numpy_4KB_us"] = (time.perf_counter() - t0) / 100 * 1e6
    t0 = time.perf_counter()
    for _ in range(100):
        c.synchronize()
    out["synchronize_idle_us"] = (time.perf_counter() - t0) / 100 * 1e6
    assert np.array_equal(W.to_numpy(y), a)
    out["device"] = f"{c.info['name']} ({c.info['backend']})"
    return out


if __name__ == "__main__":
    for k, v in main().items():
        print(f"{k:32s} {v:.1f}" if isinstance(v, float) else f"{k:32s} {v}")
