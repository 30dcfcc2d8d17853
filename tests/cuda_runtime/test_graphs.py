"""CUDA graph capture: replay equals eager, in-place input updates, capture rules."""

import numpy as np
import pytest

from numr_array_api.backends.cuda_runtime.graphs import CaptureError
from numr_array_api.ext import random as qrandom

pytestmark = pytest.mark.gpu


def chain(cx, x, w, n=100):
    y = x
    for i in range(n):
        k = i % 4
        if k == 0:
            y = y * 0.5 + 1.0
        elif k == 1:
            y = cx.sin(y)
        elif k == 2:
            y = y * w - cx.mean(w)
        else:
            y = cx.exp(-cx.abs(y))
    return y


def test_replay_equals_eager(cx):
    rng = np.random.default_rng(0)
    x = cx.asarray(rng.standard_normal((64, 64)).astype(np.float32))
    w = cx.asarray((rng.standard_normal((64, 64)) / 8).astype(np.float32))
    eager = np.asarray(chain(cx, x, w).to_device("cpu"))
    g = cx.capture_graph(chain, cx, x, w)
    out = g.replay(sync=True)
    np.testing.assert_allclose(np.asarray(out.to_device("cpu")), eager, rtol=1e-6, atol=1e-6)
    # new inputs, written in place, then replay
    new = rng.standard_normal((64, 64)).astype(np.float32)
    x[...] = cx.asarray(new)
    g.replay()
    expect = np.asarray(chain(cx, cx.asarray(new), w).to_device("cpu"))
    np.testing.assert_allclose(np.asarray(g.result.to_device("cpu")), expect, rtol=1e-6,
                               atol=1e-6)
    assert g.nbytes > 0 and cx.memory_stats()["graph_bytes"] >= g.nbytes


def test_cublas_in_capture_is_a_clear_error(cx):
    # CuPy refuses cuBLAS calls while a stream is capturing (documented in docs/cuda.md)
    a = cx.ones((8, 8), dtype=cx.float32)
    with pytest.raises(CaptureError, match="cuBLAS"):
        cx.capture_graph(lambda a: a @ a, a)
    assert float(cx.sum(a @ a)) == 8.0 * 64


def test_replay_many_times_and_reductions(cx):
    x = cx.arange(1000, dtype=cx.float64)

    def f(x):
        return cx.sum(x * x), cx.cumulative_sum(x), cx.max(x)

    g = cx.capture_graph(f, x)
    for i in range(3):
        x += 1
        s, c, m = g.replay()
        h = np.arange(1000, dtype=np.float64) + i + 1
        assert float(s) == (h * h).sum()
        np.testing.assert_array_equal(np.asarray(c.to_device("cpu")), np.cumsum(h))
        assert float(m) == h.max()


def test_host_to_device_copy_in_capture_raises(cx):
    x = cx.ones(4)

    def f(x):
        return x + cx.asarray(np.arange(4.0))

    with pytest.raises(CaptureError, match="host-to-device"):
        cx.capture_graph(f, x, warmup=False)
    assert float(cx.sum(x + 1)) == 8.0  # the stream is usable afterwards


def test_device_to_host_sync_in_capture_raises(cx):
    x = cx.ones(4)
    with pytest.raises(CaptureError):
        cx.capture_graph(lambda x: float(cx.sum(x)), x, warmup=False)
    assert float(cx.sum(x)) == 4.0


def test_sobol_warmup_rule(cx):
    d = 7
    with pytest.raises(CaptureError, match="warmup_sobol"):
        cx.capture_graph(lambda: qrandom.sobol(64, d, device="cuda:0"), device="cuda:0",
                         warmup=False)
    cx.warmup_sobol(d)
    g = cx.capture_graph(lambda: qrandom.sobol(64, d, skip=3, device="cuda:0",
                                               dtype=cx.float64), device="cuda:0")
    out = g.replay(sync=True)
    ref = qrandom.sobol(64, d, skip=3)  # cpu
    np.testing.assert_array_equal(np.asarray(out.to_device("cpu")), np.asarray(ref))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("bits", [32, 30, 10])
def test_cuda_sobol_matches_cpu(cx, dtype, bits):
    n = min(1000, 2 ** bits - 5)
    out = qrandom.sobol(n, 11, skip=5, bits=bits, dtype=getattr(cx, dtype), device="cuda:0")
    ref = qrandom.sobol(n, 11, skip=5, bits=bits, dtype=getattr(__import__(
        "numr_array_api.cpu", fromlist=["x"]), dtype))
    assert out.device == "cuda:0"
    np.testing.assert_array_equal(np.asarray(out.to_device("cpu")), np.asarray(ref))
    sc = qrandom.sobol(100, 3, scramble=True, seed=5, dtype=getattr(cx, dtype), device="cuda:0")
    sr = qrandom.sobol(100, 3, scramble=True, seed=5, dtype=getattr(
        __import__("numr_array_api.cpu", fromlist=["x"]), dtype))
    np.testing.assert_array_equal(np.asarray(sc.to_device("cpu")), np.asarray(sr))


def test_nested_capture_refused(cx):
    x = cx.ones(3)

    def outer(x):
        return cx.capture_graph(lambda y: y + 1, x, warmup=False)

    with pytest.raises(CaptureError, match="nested"):
        cx.capture_graph(outer, x, warmup=False)
