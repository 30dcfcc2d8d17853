"""capture_graph at the namespace level: functions of webgpu arrays, replayed with new data."""

import numpy as np
import pytest

xw = pytest.importorskip("numr_array_api.webgpu")
if not xw.__array_namespace_info__().devices():
    pytest.skip("no WebGPU adapter", allow_module_level=True)


def test_replay_equals_eager_with_new_inputs():
    def f(a, b):
        return xw.exp(a) * b + 1.0, xw.sum(a * b)

    rng = np.random.default_rng(0)
    a0, b0 = (rng.random(64).astype(np.float32) for _ in range(2))
    g = xw.capture_graph(f, xw.asarray(a0), xw.asarray(b0))
    assert g.num_dispatches > 0
    for _ in range(3):
        a, b = (rng.random(64).astype(np.float32) for _ in range(2))
        want = [np.asarray(r.to_device("cpu")) for r in f(xw.asarray(a), xw.asarray(b))]
        got = g(xw.asarray(a), b)  # webgpu arrays and NumPy arrays are both accepted
        assert all(type(r) is type(xw.asarray(a)) for r in got)
        for w, r in zip(want, got):
            np.testing.assert_allclose(np.asarray(r.to_device("cpu")), w, rtol=1e-6)


def test_replay_rejects_other_shapes():
    g = xw.capture_graph(lambda a: a + 1.0, xw.ones(8, dtype=xw.float32))
    with pytest.raises(ValueError):
        g(xw.ones(9, dtype=xw.float32))
