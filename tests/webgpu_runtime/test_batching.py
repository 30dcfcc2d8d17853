"""Batched submission, bind-group and staging reuse, pipeline cache, compile errors."""

import gc

import numpy as np
import pytest

from numr_array_api._core import dtypes as D
from numr_array_api._core.errors import InvalidArgument
from numr_array_api.backends.webgpu import WgslCompileError


def test_many_ops_few_submits(W, client):
    # free buffers left by earlier tests (or by their garbage, collected mid-loop) would
    # each be drawn once, with a new bind group: start from an empty pool
    gc.collect()
    W.empty_cache()
    x = W.from_numpy(np.arange(100, dtype=np.float32))
    W.astype(x, D.float32)  # compile outside the measured window
    client.synchronize()
    st0 = W.runtime_stats()
    y = x
    for _ in range(300):
        y = W.astype(y, D.float32)
    st1 = W.runtime_stats()
    n_disp = st1["submission"]["dispatches"] - st0["submission"]["dispatches"]
    n_sub = st1["submission"]["submits"] - st0["submission"]["submits"]
    assert n_disp == 300
    assert n_sub <= 300 // client.recorder.threshold
    assert np.array_equal(W.to_numpy(y), np.arange(100, dtype=np.float32))
    st2 = W.runtime_stats()
    assert st2["submission"]["submits"] == st1["submission"]["submits"] + 1  # the read-back
    # chained ops ping-pong between a few pooled buffers: bind groups are reused
    assert st1["bind_groups"]["hits"] - st0["bind_groups"]["hits"] >= 290
    assert st1["pipelines"]["misses"] == st0["pipelines"]["misses"]


def test_synchronize_after_a_read_submits_nothing(W, client):
    x = W.from_numpy(np.arange(64, dtype=np.float32))
    y = W.astype(x, D.float64)
    W.to_numpy(y)  # waited for every submission
    s0 = W.runtime_stats()["submission"]
    client.synchronize()
    s1 = W.runtime_stats()["submission"]
    assert s1["submits"] == s0["submits"] and s1["skipped_waits"] == s0["skipped_waits"] + 1
    # recorded work after the read is waited for again, and its result is there
    z = W.astype(y, D.float32)
    client.synchronize()
    s2 = W.runtime_stats()["submission"]
    assert s2["submits"] == s1["submits"] + 1 and s2["skipped_waits"] == s1["skipped_waits"]
    assert np.array_equal(W.to_numpy(z), np.arange(64, dtype=np.float32))


def test_read_backs_reuse_staging(W, client):
    x = W.from_numpy(np.arange(10, dtype=np.int32))
    W.to_numpy(x)
    h = client.staging.hits
    for _ in range(5):
        W.to_numpy(x)
    assert client.staging.hits == h + 5


def test_pipeline_cache_hits(W, client):
    x = W.from_numpy(np.arange(30, dtype=np.int16).reshape(5, 6))
    W.astype(x.transpose(), D.float64)
    st0 = client.pipelines.stats()
    for _ in range(5):
        W.astype(x.transpose(), D.float64)
    st1 = client.pipelines.stats()
    assert st1["hits"] == st0["hits"] + 5 and st1["misses"] == st0["misses"]
    assert st1["compile_time_s"] > 0


def test_compile_error_names_the_source_line(W, client):
    src = "fn f() -> u32 {\n  return 1u;\n}\nfn g() -> f32 {\n  let x: i32 = 1.5;\n  return 0.0;\n}\n"
    with pytest.raises(WgslCompileError) as ei:
        client.pipelines.get(source=src, entry="g", bindings=())
    e = ei.value
    assert isinstance(e, InvalidArgument)
    assert e.line == 5 and "let x: i32 = 1.5;" in e.source_line
    assert "let x: i32 = 1.5;" in str(e)


def test_high_rank_views_use_the_uniform_ring(W, client):
    # 15 non-mergeable dims need 33 param words: more than immediates hold on lavapipe
    a = np.arange(2 ** 16, dtype=np.uint8).reshape((2,) * 16)
    v = a[(slice(None, None, -1),) * 15 + (0,)]
    s = W.from_numpy(a)[(slice(None, None, -1),) * 15 + (0,)]
    assert np.array_equal(W.to_numpy(s), v)
    assert np.array_equal(W.to_numpy(W.astype(s, D.float32)), v.astype(np.float32))


def test_uniform_params_path_in_subprocess():
    from .conftest import run_py
    code = """
import numpy as np
import numr_array_api.backends.webgpu as W
from numr_array_api._core import dtypes as D
c = W.get_client()
assert c.capabilities()['params'] == 'uniform'
a = np.arange(300, dtype=np.int8).reshape(10, 30)
x = W.from_numpy(a)
y = x
for _ in range(2000):  # more than the ring holds before a flush
    y = W.astype(y[::-1, ::-1], D.int8)
assert np.array_equal(W.to_numpy(y), a)
assert np.array_equal(W.to_numpy(W.astype(x.transpose(), D.float16)), a.T.astype(np.float16))
assert np.array_equal(W.to_numpy(W.full((3, 3), 7, D.uint16)), np.full((3, 3), 7, np.uint16))
print("OK")
"""
    r = run_py(code, {"NUMR_TUNING": "PARAMS=uniform"})
    assert r.returncode == 0 and "OK" in r.stdout, r.stderr[-3000:]


def test_large_dispatches_submit_early_on_gpus(W, client, monkeypatch):
    # a batch binding submit_bytes is submitted at once so the GPU starts while the host
    # records (CPU adapters default to never: their "GPU" is the host's own cores)
    rec = client.recorder
    cpu = str(client.info.get("type", "")).lower().replace(" ", "") == "cpu"
    assert (rec.submit_bytes >= 1 << 62) == cpu or rec.submit_bytes > 0
    x = W.from_numpy(np.arange(1 << 16, dtype=np.float32))  # 256 KiB
    W.astype(x, D.float32)
    client.synchronize()
    monkeypatch.setattr(rec, "submit_bytes", 1 << 20)
    s0 = rec.submits
    y = x
    for _ in range(8):  # 512 KiB bound per dispatch: a submit every second one
        y = W.astype(y, D.float32)
    assert rec.submits - s0 >= 3
    assert rec.pending_bytes < 1 << 20
    assert np.array_equal(W.to_numpy(y), np.arange(1 << 16, dtype=np.float32))


def test_early_submit_threshold_ramps_up_after_each_wait(W, client, monkeypatch):
    """After the host waits, the first early submit comes at ramp_first bytes and each
    one doubles the threshold up to submit_bytes (few submits for a long stream, an
    immediate start after a read); a read-back restarts the ramp."""
    rec = client.recorder
    cpu = str(client.info.get("type", "")).lower().replace(" ", "") == "cpu"
    if cpu:
        assert rec.ramp_first >= 1 << 62  # never early on CPU adapters
    x = W.from_numpy(np.arange(1 << 16, dtype=np.float32))  # 256 KiB: 512 KiB bound a cast
    W.astype(x, D.float32)
    client.synchronize()
    monkeypatch.setattr(rec, "submit_bytes", 8 << 20)
    monkeypatch.setattr(rec, "ramp_first", 1 << 20)
    monkeypatch.setattr(rec, "threshold", 1 << 20)
    rec.idle()
    s0 = rec.submits
    y = x
    counts = []
    for _ in range(30):  # submits after 2, 2 + 4, 2 + 4 + 8, 2 + 4 + 8 + 16 casts
        y = W.astype(y, D.float32)
        counts.append(rec.submits - s0)
    assert [i + 1 for i in range(30) if counts[i] > (counts[i - 1] if i else 0)] == \
        [2, 6, 14, 30]
    assert rec.ramp == 8 << 20
    assert np.array_equal(W.to_numpy(y), np.arange(1 << 16, dtype=np.float32))
    assert rec.ramp == 1 << 20  # the read waited: back to the first step


def test_replayed_recipes_submit_early_by_bytes(W, client, monkeypatch):
    """A stream of one-dispatch recipe replays (a queued big reduction) counts its bound
    bytes towards the early submit as dispatches do: without it, nothing reached the GPU
    until REPLAY_CHUNK replays were recorded, and the GPU idled while the host recorded."""
    import numr_array_api.webgpu as xp
    rec = client.recorder
    x = xp.asarray(np.ones(1 << 18, np.float32))  # 1 MiB
    with xp.fusion(False):
        float(xp.max(x))
        float(xp.max(x))  # captured; the next calls replay
        r0 = client.recipes.replays
        monkeypatch.setattr(rec, "submit_bytes", 2 << 20)
        monkeypatch.setattr(rec, "ramp_first", 2 << 20)
        monkeypatch.setattr(rec, "threshold", 1 << 20)
        monkeypatch.setattr(rec, "replay_chunk", 1 << 20)
        rec.idle()
        s0 = rec.submits
        outs = [xp.max(x) for _ in range(8)]
        assert client.recipes.replays - r0 == 8
        assert rec.submits - s0 >= 3
        assert [float(o) for o in outs] == [1.0] * 8
