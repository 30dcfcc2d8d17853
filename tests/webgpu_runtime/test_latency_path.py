"""The latency of one small call: the native calls of a tiny op + synchronize and of a
scalar read are counted (a regression adds calls; the bounds are the measured counts), the
small-read staging ring is reused and bounded, every wait strategy gives the same results,
and scalar reads from 8 threads at once are right."""

import threading

import numpy as np
import pytest

from numr_array_api.backends.webgpu.runtime.native_calls import POLL, count_native_calls, steady

# wgpu-native calls besides polls, measured on lavapipe (a CPU adapter also marks each
# submit for its interruptible waits: one wgpuQueueOnSubmittedWorkDone more than a GPU):
# x + 1: encoder, pass, pipeline, bind group, immediates, dispatch; synchronize: pass end,
# finish, submit, three releases, the progress mark and the synchronize marker
TINY_OP_AND_SYNC = 14
# sum (encoder, pass, two dispatches of 4 calls), pass end, the copy into staging, finish,
# submit, three releases, the progress mark, map, mapped range, unmap
SCALAR_READ = 21
pytestmark = pytest.mark.usefixtures("eager")  # counts of the eager path


@pytest.fixture(scope="module")
def xp():
    import numr_array_api.webgpu as xp
    if not xp.__array_namespace_info__().devices():
        pytest.skip("no WebGPU adapter")
    return xp


def _client(xp, x):
    return xp._backend._client(x.device)


def _warm(fn, times=6):
    # outputs alternate between pooled buffers (a read's mirror keeps the last one): every
    # bind group they need is cached after a few calls
    for _ in range(times):
        fn()


def test_tiny_op_and_synchronize_native_calls(xp):
    x = xp.asarray(np.arange(1000, dtype=np.float32))
    out = [None]

    def op():
        out[0] = None   # the output's buffer goes back to the pool and is taken again
        out[0] = x + 1
        xp.synchronize()

    _warm(op)
    with count_native_calls() as calls:
        op()
    assert steady(calls) <= TINY_OP_AND_SYNC, dict(calls)
    assert calls[POLL] >= 1
    # synchronize waits on a queue marker: no fence copy, no mapping
    for name in ("wgpuCommandEncoderCopyBufferToBuffer", "wgpuBufferMapAsync",
                 "wgpuDeviceCreateBindGroup", "wgpuDeviceCreateBuffer"):
        assert calls[name] == 0, dict(calls)
    np.testing.assert_array_equal(out[0]._ctx.be.to_numpy(out[0]._data),
                                  np.arange(1000, dtype=np.float32) + 1)


def test_scalar_read_native_calls(xp):
    host = (np.arange(1 << 18) % 7).astype(np.float32)   # 1 MiB, an exact sum
    x = xp.asarray(host)
    _warm(lambda: float(xp.sum(x)))
    with count_native_calls() as calls:
        v = float(xp.sum(x))
    assert v == float(host.sum(dtype=np.float64))
    assert steady(calls) <= SCALAR_READ, dict(calls)
    # the staging buffer comes from the ring: nothing created, one copy, one map
    assert calls["wgpuDeviceCreateBuffer"] == 0, dict(calls)
    assert calls["wgpuCommandEncoderCopyBufferToBuffer"] == 1
    assert calls["wgpuBufferMapAsync"] == 1 and calls["wgpuQueueSubmit"] == 1


def test_counting_is_undone(xp):
    from wgpu.backends.wgpu_native import _api, _ffi
    from numr_array_api.backends.webgpu.runtime import mapping, submit
    lib, libf = _ffi.lib, _api.libf
    with count_native_calls():
        assert submit._lib is not lib and submit._libf is not libf and mapping.lib is not lib
    assert submit._lib is lib and submit._libf is libf and mapping.lib is lib
    assert _ffi.lib is lib and _api.libf is libf


def test_staging_ring_reuses_its_buffers(xp):
    x = xp.asarray(np.arange(100, dtype=np.int32))
    client = _client(xp, x)
    staging = client.staging
    float(xp.max(x))
    ring = {id(b) for b in staging.buffers()}
    misses, hits = staging.misses, staging.hits
    for i in range(20):
        assert int(xp.max(x + i)) == 99 + i   # a new value each time: a real read
    assert staging.misses == misses and staging.hits == hits + 20
    assert {id(b) for b in staging.buffers()} == ring
    small = staging._free.get(staging.SMALL, [])
    assert 1 <= len(small) <= staging.RING


def test_staging_is_bounded(xp, monkeypatch):
    client = _client(xp, xp.asarray(np.zeros(1, np.float32)))
    staging = client.staging
    client.empty_cache()
    monkeypatch.setattr(type(staging), "MAX_FREE_BYTES", 48 << 10)
    destroyed = staging.destroyed
    for n in (3000, 5000, 9000, 17000, 33000):   # 12 .. 132 KB: one class each
        host = np.arange(n, dtype=np.float32)
        np.testing.assert_array_equal(_round_trip(xp, host), host)
        assert staging.nbytes() <= 48 << 10
        assert all(len(lst) <= staging.PER_CLASS for s, lst in staging._free.items()
                   if s != staging.SMALL)
    assert staging.destroyed > destroyed   # the largest did not fit: given back
    client.empty_cache()
    assert staging.nbytes() == 0


def _round_trip(xp, host):
    x = xp.asarray(host)
    return x._ctx.be.to_numpy(x._data)


@pytest.mark.parametrize("mode", ["spin", "yield", "block"])
def test_every_wait_strategy_gives_the_same_results(xp, mode):
    from numr_array_api import tuning
    host = np.arange(5000, dtype=np.float32) % 13
    x = xp.asarray(host)
    with tuning.override(MAP_WAIT=mode, MAP_SPIN_US=300):
        client = _client(xp, x)
        y = x * 2
        xp.synchronize()
        assert client.maps.poll_wait == mode
        assert float(xp.sum(y)) == float((host * 2).sum())
        np.testing.assert_array_equal(y._ctx.be.to_numpy(y._data), host * 2)
    xp.synchronize()
    assert client.maps.active == {}


def test_synchronize_after_an_early_submit_submits_nothing_more(xp):
    x = xp.asarray(np.arange(64, dtype=np.float32))
    client = _client(xp, x)
    y = x + 3
    client.flush()   # submitted, not waited for
    rec = client.recorder
    submits, skipped = rec.submits, rec.skipped_waits
    xp.synchronize()
    assert rec.submits == submits and rec.skipped_waits == skipped   # waited, no submit
    assert client.maps.active == {}
    np.testing.assert_array_equal(y._ctx.be.to_numpy(y._data), np.arange(64) + 3.0)


def test_concurrent_scalar_reads_from_8_threads(xp):
    arrays = [(np.arange(4096) % (i + 3)).astype(np.float32) for i in range(8)]
    dev = [xp.asarray(a) for a in arrays]
    want = [float(a.sum(dtype=np.float64)) for a in arrays]
    got = [[] for _ in arrays]
    errors = []
    start = threading.Barrier(8)

    def worker(i):
        try:
            start.wait()
            for k in range(6):
                got[i].append(float(xp.sum(dev[i] + k)) - 4096 * k)
                if k % 2:
                    xp.synchronize()
        except BaseException as exc:   # reported below: a thread's failure must fail
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert got == [[w] * 6 for w in want]
    assert _client(xp, dev[0]).maps.active == {}


def test_an_invalid_copy_raises_at_the_submit_and_the_recorder_recovers(xp):
    """Pass end and copies are raw native calls: wgpu reports their errors at the encoder's
    finish, which still raises numr's error."""
    from numr_array_api._core.errors import InvalidArgument
    x = xp.asarray(np.arange(16, dtype=np.float32))
    client = _client(xp, x)
    rec = client.recorder
    y = x * 2
    buf = y._data.block.buffer
    with pytest.raises(InvalidArgument, match="same buffer"):
        rec.flush(copies=((buf, 0, buf, 0, 4),))
    assert rec.cpass is None and rec.encoder is None
    z = x + 1
    np.testing.assert_array_equal(z._ctx.be.to_numpy(z._data), np.arange(16) + 1.0)
