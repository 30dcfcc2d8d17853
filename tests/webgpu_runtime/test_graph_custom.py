"""Graph capture/replay and user WGSL kernels."""

import gc

import numpy as np
import pytest

from numr_array_api._core import dtypes as D
from numr_array_api._core.errors import InvalidArgument, ShapeMismatch
from numr_array_api.backends.webgpu import WgslCompileError

SCALE = """
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(0) @binding(2) var<uniform> p: vec4<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x < arrayLength(&y)) { y[g.x] = x[g.x] * p.x + p.y; }
}
"""


def _pipeline(W, x):
    """A little chain of runtime kernels and a custom one."""
    t = W.astype(x.transpose(), D.float64)[::-1]
    u = W.astype(t, D.float32)
    out = W.empty(u.shape, D.float32, client=u.client)
    W.custom_kernel(SCALE, "main", [u], [out], (-(-u.size // 64),),
                    params=np.array([2.0, 1.0, 0, 0], np.float32))
    return out, W.astype(out, D.int32)


def test_graph_replay_equals_eager(W, client):
    rng = np.random.default_rng(5)
    a0 = rng.standard_normal((6, 7)).astype(np.float32)
    g = W.capture_graph(lambda x: _pipeline(W, x), W.from_numpy(a0))
    assert g.num_dispatches == 4
    gc.collect()  # intermediates of the capture must stay pinned by the graph
    for _ in range(3):
        junk = [W.full((6, 7), 9.0, D.float32) for _ in range(8)]  # churn the pool
        a = rng.standard_normal((6, 7)).astype(np.float32)
        eager = [W.to_numpy(o) for o in _pipeline(W, W.from_numpy(a))]
        st = W.runtime_stats()
        outs = g(a)
        st2 = W.runtime_stats()
        # a replay renders nothing, compiles nothing, creates no bind groups, allocates nothing
        assert st2["pipelines"] == st["pipelines"]
        assert st2["bind_groups"]["misses"] == st["bind_groups"]["misses"]
        assert st2["memory"]["allocations"] == st["memory"]["allocations"]
        for o, e in zip(outs, eager):
            assert np.array_equal(W.to_numpy(o), e)
        del junk
    # storage inputs (including views) are copied into the graph's input buffer on the GPU
    a = rng.standard_normal((7, 6)).astype(np.float32)
    outs = g(W.from_numpy(a).transpose())
    e = [W.to_numpy(o) for o in _pipeline(W, W.from_numpy(np.ascontiguousarray(a.T)))]
    assert np.array_equal(W.to_numpy(outs[0]), e[0])


@pytest.mark.parametrize("chunk", [1, 3, 1 << 30])
def test_graph_replay_in_chunks(W, client, monkeypatch, chunk):
    # replays are submitted every `chunk` dispatches (GPUs) or whole (CPU adapters): the
    # results must not depend on where the submits fall
    monkeypatch.setattr(client.recorder, "replay_chunk", chunk)
    x0 = np.arange(12, dtype=np.float32)

    def chain(x):
        y = x
        for i in range(7):
            y = W.astype(W.astype(y, D.float64), D.float32)[::-1]
        return y

    g = W.capture_graph(chain, W.from_numpy(x0))
    before = client.recorder.submits
    for k in range(3):
        out = W.to_numpy(g(x0 + k))
        assert np.array_equal(out, (x0 + k)[::-1])
    if chunk == 1:
        assert client.recorder.submits - before >= 3 * g.num_dispatches


def test_graph_input_checks(W):
    g = W.capture_graph(lambda x: W.astype(x, D.float64), np.zeros(4, np.float32))
    with pytest.raises(ShapeMismatch):
        g(np.zeros(5, np.float32))
    with pytest.raises(TypeError):
        g(np.zeros(4, np.float64))
    with pytest.raises(InvalidArgument):
        g()
    assert np.array_equal(W.to_numpy(g(np.arange(4, dtype=np.float32))), np.arange(4.0))


def test_custom_kernel_and_errors(W, client):
    x = W.from_numpy(np.arange(100, dtype=np.float32))
    y = W.empty((100,), D.float32)
    W.custom_kernel(SCALE, "main", [x], [y], 2, params=np.array([3, -1, 0, 0], np.float32))
    assert np.array_equal(W.to_numpy(y), np.arange(100, dtype=np.float32) * 3 - 1)
    # a strided input is made contiguous first
    W.custom_kernel(SCALE, "main", [x[::2]], [y[:50]], 1, params=np.array([1, 0, 0, 0], np.float32))
    assert np.array_equal(W.to_numpy(y[:50]), np.arange(0, 100, 2, dtype=np.float32))
    with pytest.raises(InvalidArgument, match="read-only and writable"):
        W.custom_kernel(SCALE, "main", [x], [x], 2, params=np.zeros(4, np.float32))
    with pytest.raises(InvalidArgument):
        W.custom_kernel(SCALE, "main", [x], [y[1:]], 2, params=np.zeros(4, np.float32))
    with pytest.raises(WgslCompileError) as ei:
        W.custom_kernel(SCALE.replace("p.x + p.y", "p.x + q"), "main", [x], [y], 2,
                        params=np.zeros(4, np.float32))
    assert "y[g.x] = x[g.x] * p.x + q;" in ei.value.source_line
    # a layout mismatch (missing params binding) is rejected at pipeline creation
    with pytest.raises(InvalidArgument):
        W.custom_kernel(SCALE, "main", [x], [y], 2)
    # the client still works after rejected kernels
    assert np.array_equal(W.to_numpy(W.copy(x[:3])), np.arange(3, dtype=np.float32))


def test_raw_handle_and_capabilities(W, client):
    dev, q = W.raw_handle()
    assert dev is client.device and q is client.queue
    caps = W.capabilities()
    assert set(caps["features"]) == {"shader-f16", "shader-f64", "shader-int64", "subgroup",
                                    "timestamp-query", "immediates"}
    assert caps["limits"]["max-buffer-size"] == client.max_buffer
    f = caps["features"]
    assert ("float64" in caps["native_dtypes"]) == f["shader-f64"]
    assert ("complex128" in caps["native_dtypes"]) == f["shader-f64"]
    assert ("int64" in caps["native_dtypes"]) == f["shader-int64"]
    assert ("float16" in caps["native_dtypes"]) == f["shader-f16"]
    assert "float32" in caps["native_dtypes"] and len(caps["storable_dtypes"]) == 14
    assert W.get_client() is client  # one client per adapter
