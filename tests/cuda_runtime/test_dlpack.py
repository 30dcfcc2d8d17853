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
