"""Streams: pipelined device-to-host copies, synchronize, raw handles, devices."""

import numpy as np
import pytest

import numr_array_api.cpu as cpu

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint16", "int64", "complex64",
                                   "bool"])
def test_pipelined_copy_bytes(cx, dtype):
    rng = np.random.default_rng(1)
    host = (rng.standard_normal((37, 129)) * 50).astype(dtype)
    x = cx.asarray(host)
    y = x * 2 if dtype != "bool" else ~x
    out = cx.copy_from_device_pipelined(y)
    expect = host * 2 if dtype != "bool" else ~host
    assert out.dtype == expect.dtype and out.shape == expect.shape
    assert out.tobytes() == expect.tobytes()


def test_pipelined_copy_non_contiguous_and_0d(cx):
    host = np.arange(120, dtype=np.int32).reshape(4, 5, 6)
    x = cx.asarray(host)
    t = cx.permute_dims(x, (2, 0, 1))[::2]
    assert cx.copy_from_device_pipelined(t).tobytes() == \
        np.ascontiguousarray(host.transpose(2, 0, 1)[::2]).tobytes()
    s = cx.sum(x)
    assert cx.copy_from_device_pipelined(s).item() == host.sum()


def test_pipelined_copy_overlaps_compute(cx):
    a = cx.ones((2048, 2048), dtype=cx.float32)
    src = cx.arange(1 << 20, dtype=cx.float32)
    pending = cx.copy_from_device_pipelined(src, wait=False)
    for _ in range(5):  # queued on the compute stream while the copy runs
        a = a @ a * (1.0 / 2048)
    host = pending.wait()
    assert pending.ready()
    np.testing.assert_array_equal(host, np.arange(1 << 20, dtype=np.float32))
    cx.synchronize()
    assert float(a[0, 0]) == pytest.approx(1.0)


def test_pipelined_copy_into_out(cx):
    import cupyx
    x = cx.linspace(0, 1, 1000, dtype=cx.float64)
    buf = cupyx.empty_pinned((1000,), dtype=np.float64)
    r = cx.copy_from_device_pipelined(x, out=buf)
    assert r is buf
    np.testing.assert_array_equal(buf, np.linspace(0, 1, 1000))


def test_raw_handle_and_synchronize(cx):
    import cupy
    h = cx.raw_handle()
    assert h.device == "cuda:0" and h.stream_ptr != 0 and h.copy_stream_ptr != h.stream_ptr
    with cupy.cuda.Stream():
        pass  # leaving a stream block resets CuPy's current stream to the legacy stream
    cx.zeros(10)  # numr puts its compute stream back
    assert cupy.cuda.get_current_stream().ptr == h.stream_ptr
    cx.synchronize()


def test_to_device_round_trip(cx, n_devices):
    host = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = cx.asarray(host)
    assert x.device == "cuda:0"
    c = x.to_device("cpu")
    assert c.__class__.__module__ == "numr_array_api.cpu"
    np.testing.assert_array_equal(np.asarray(c), host)
    back = c.to_device("cuda:0")
    assert back.device == "cuda:0"
    np.testing.assert_array_equal(back.to_device("cpu"), host)
    for i in range(1, n_devices):
        y = x.to_device(f"cuda:{i}")
        assert y.device == f"cuda:{i}"
        z = (y + 1).to_device("cuda:0")
        np.testing.assert_array_equal(np.asarray(z.to_device("cpu")), host + 1)
    with pytest.raises(Exception):
        x.to_device(f"cuda:{n_devices}")


def test_info_devices(cx, n_devices):
    info = cx.__array_namespace_info__()
    assert info.devices() == tuple(f"cuda:{i}" for i in range(n_devices))
    assert info.default_device() == "cuda:0"
    assert cx.asarray(cpu.asarray([1, 2])).device == "cuda:0"


def test_fills_keep_negative_zero(cx):
    for dt in (cx.float32, cx.float64):
        for v in (-0.0, 0.0, 1.5, -2.0):
            h = np.asarray(cx.full((3,), v, dtype=dt).to_device("cpu"))
            assert np.all(h == v) and np.all(np.signbit(h) == np.signbit(v)), (dt, v)
        h = np.asarray(cx.asarray(-0.0, dtype=dt).to_device("cpu"))
        assert np.signbit(h)
    z = np.asarray(cx.full((2,), complex(-0.0, 0.0), dtype=cx.complex128).to_device("cpu"))
    assert np.all(np.signbit(z.real)) and not np.any(np.signbit(z.imag))
    big = cx.full((2,), 2**64 - 1, dtype=cx.uint64)
    assert int(big[0]) == 2**64 - 1
    assert not bool(cx.any(cx.zeros((5,), dtype=cx.bool)))


def test_pipelined_copy_bad_wait_starts_no_copy(cx):
    # a non-bool 'wait' used to raise after the copy had started; the dropped copy kept
    # writing into pinned memory the next upload's staging reused (wrong data, then a
    # poisoned context): refused before anything is enqueued
    from numr_array_api.errors import NumrError
    x = cx.asarray(np.array([0.5, -1e300, 3.0]))
    with pytest.raises(NumrError, match="'wait' must be a bool"):
        cx.copy_from_device_pipelined(x, wait=cx.ones((2, 3)))
    assert float(cx.sum(cx.asarray([1.0, 2.0, 3.0], dtype=cx.float32) * 2)) == 12.0


def test_pipelined_copy_dropped_unwaited_leaves_staging_intact(cx):
    big = cx.arange(1 << 22, dtype=cx.float32)
    for i in range(20):
        cx.copy_from_device_pipelined(big, wait=False)  # dropped at once, still in flight
        host = np.arange(1000, dtype=np.float32) + i
        back = np.asarray(cx.asarray(host).to_device("cpu"))
        np.testing.assert_array_equal(back, host)
