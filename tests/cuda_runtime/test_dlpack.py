"""DLPack zero-copy with CuPy and PyTorch, both ways; host producers."""

import numpy as np
import pytest

pytestmark = pytest.mark.gpu


def _ptr_cupy(a):
    return a.data.ptr


def test_cupy_to_numr_zero_copy(cx):
    import cupy
    c = cupy.arange(10, dtype=cupy.float32)
    x = cx.from_dlpack(c)
    assert x.device == "cuda:0" and x._data.data.ptr == c.data.ptr
    c[0] = 42
    assert float(x[0]) == 42.0
    y = cx.asarray(c)  # asarray of a device array is zero-copy too
    assert y._data.data.ptr == c.data.ptr


def test_numr_to_cupy_zero_copy(cx):
    import cupy
    x = cx.arange(6, dtype=cx.int64)
    c = cupy.from_dlpack(x)
    assert c.data.ptr == x._data.data.ptr
    np.testing.assert_array_equal(c.get(), np.arange(6))


def test_torch_both_ways(cx):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA")
    t = torch.arange(12, dtype=torch.float64, device="cuda:0").reshape(3, 4)
    x = cx.from_dlpack(t)
    assert x.shape == (3, 4) and x.dtype == cx.float64
    assert x._data.data.ptr == t.data_ptr()
    t2 = torch.from_dlpack(x)
    assert t2.data_ptr() == t.data_ptr()
    t2.mul_(2)
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")),
                                  2 * np.arange(12.0).reshape(3, 4))
    xb = cx.asarray(torch.ones(3, dtype=torch.bool, device="cuda:0"))
    assert xb.dtype == cx.bool and bool(cx.all(xb))


def test_host_producer_and_dlpack_device(cx):
    x = cx.from_dlpack(np.arange(5.0))
    assert x.device == "cuda:0"
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), np.arange(5.0))
    assert x.__dlpack_device__() == (2, 0)
    with pytest.raises(ValueError):
        cx.from_dlpack(np.arange(3.0), copy=False)


def test_dunder_dlpack_arguments(cx):
    import cupy
    x = cx.arange(4, dtype=cx.float32)
    for kw in ({}, {"copy": True}, {"copy": None}, {"copy": False}, {"max_version": (1, 0)},
               {"max_version": (0, 0)}, {"dl_device": (2, 0)}):
        c = cupy.from_dlpack(_Capsule(x, kw))
        np.testing.assert_array_equal(c.get(), np.arange(4.0))
        if kw.get("copy"):
            assert c.data.ptr != x._data.data.ptr
    for kw in ({"dl_device": (1, 0)}, {"dl_device": (1, 0), "copy": True},
               {"dl_device": (1, 0), "copy": None, "max_version": (1, 0)}):
        h = np.from_dlpack(_Capsule(x, kw, device=(1, 0)))
        np.testing.assert_array_equal(h, np.arange(4.0))
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(1, 0), copy=False)
    y = cx.from_dlpack(x, copy=True)
    assert y._data.data.ptr != x._data.data.ptr and bool(cx.all(y == x))


class _Capsule:
    """Producer forwarding fixed __dlpack__ keywords (exercises the exporter's branches)."""

    def __init__(self, x, kw, device=None):
        self.x, self.kw, self.device = x, kw, device

    def __dlpack__(self, **consumer_kw):
        kw = dict(self.kw)
        if "stream" in consumer_kw and self.device is None:
            kw["stream"] = consumer_kw["stream"]
        return self.x.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.device or self.x.__dlpack_device__()
