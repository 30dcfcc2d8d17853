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
    rec = c.recorder
    flush, spent = rec.flush, [0.0]

    def timed_flush(*a, **k):  # submits are device-side work on a CPU adapter
        t = time.perf_counter()
        flush(*a, **k)
        spent[0] += time.perf_counter() - t

    rec.flush = timed_flush
    try:
        s0 = rec.submits
        t0 = time.perf_counter()
        y = _chain(W, x, n)
        c.synchronize()
        total = time.perf_counter() - t0
        out["eager_end_to_end_us"] = total / n * 1e6
        out["eager_record_us (excl. submits)"] = (total - spent[0]) / n * 1e6
        out["eager_dispatches_per_submit"] = n / max(1, rec.submits - s0)
        g = W.capture_graph(lambda a: _chain(W, a, 100), x)
        g(x)
        c.synchronize()
        reps = max(1, n // 100)
        spent[0] = 0.0
        t0 = time.perf_counter()
        for _ in range(reps):
            g(x)
        c.synchronize()
        total = time.perf_counter() - t0
        out["replay_end_to_end_us"] = total / (reps * 100) * 1e6
        out["replay_record_us (excl. submits)"] = (total - spent[0]) / (reps * 100) * 1e6
    finally:
        rec.flush = flush
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
