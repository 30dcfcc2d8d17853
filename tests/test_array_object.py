"""Array object: attributes, T / mT, Python scalar conversion, DLPack, to_device, namespace."""

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, strategies as st

from _support import assert_equal, get_dtype, np_arrays, shapes, to_numpy


@given(data=st.data())
def test_attributes(xp, data):
    name = data.draw(st.sampled_from(["float64", "float32", "int16", "bool", "complex64"]))
    d = get_dtype(xp, name)
    a = data.draw(np_arrays(name, shapes(max_dims=4)))
    x = xp.asarray(a)
    assert x.dtype == d
    assert x.shape == a.shape and isinstance(x.shape, tuple)
    assert all(type(s) is int for s in x.shape)
    assert x.ndim == a.ndim and type(x.ndim) is int
    assert x.size == a.size
    assert x.device == xp.__array_namespace_info__().default_device()
    assert type(x).__module__ == xp.__name__
    assert isinstance(x, xp.Array)
    if a.ndim == 2:
        assert_equal(x.T, a.T, dtype=name)
    if a.ndim >= 2:
        assert_equal(x.mT, np.swapaxes(a, -1, -2), dtype=name)


def test_T_requires_2d(xp):
    with pytest.raises(ValueError):
        xp.asarray([1.0, 2.0]).T
    with pytest.raises(ValueError):
        xp.zeros((2, 2, 2)).T
    with pytest.raises(ValueError):
        xp.asarray([1.0]).mT


def test_scalar_conversions(xp):
    f = xp.asarray(2.5)
    i = xp.asarray(7, dtype=xp.int16)
    b = xp.asarray(True)
    assert float(f) == 2.5 and type(float(f)) is float
    assert int(i) == 7 and type(int(i)) is int
    assert bool(b) is True and bool(xp.asarray(0.0)) is False
    assert complex(f) == 2.5 + 0j
    assert int(f) == 2  # int() of a real floating array truncates like Python's
    assert float(i) == 7.0
    assert float(b) == 1.0
    assert [10, 20, 30, 40, 50, 60, 70, 80][i] == 80  # __index__
    assert i.__index__() == 7
    with pytest.raises(TypeError):
        f.__index__()  # only integer arrays are indices
    with pytest.raises(TypeError):
        b.__index__()
    z = xp.asarray(np.complex128(1 + 2j))
    assert complex(z) == 1 + 2j
    with pytest.raises(TypeError):
        float(z)
    with pytest.raises(TypeError):
        int(z)
    assert bool(z) is True


@pytest.mark.parametrize("conv", [bool, float, int, complex])
def test_scalar_conversion_needs_0d(xp, conv):
    for shape in ((2,), (1,), (0,), (1, 1)):
        with pytest.raises((TypeError, ValueError)):
            conv(xp.ones(shape))


def test_int_of_nonfinite(xp):
    with pytest.raises((OverflowError, ValueError)):
        int(xp.asarray(float("inf")))
    with pytest.raises(ValueError):
        int(xp.asarray(float("nan")))


def test_len_iter(xp):
    x = xp.asarray(np.arange(6.0).reshape(3, 2))
    assert len(x) == 3
    rows = list(x)
    assert len(rows) == 3 and rows[1].shape == (2,)
    assert_equal(rows[2], np.asarray([4.0, 5.0]))
    with pytest.raises(TypeError):
        len(xp.asarray(1.0))


@given(data=st.data())
def test_dlpack_roundtrip(xp, data, backend_name):
    name = data.draw(st.sampled_from(["float64", "float32", "int32", "uint8", "bool",
                                      "complex128"]))
    get_dtype(xp, name)
    a = data.draw(np_arrays(name, shapes()))
    x = xp.asarray(a)
    dev_type, _ = x.__dlpack_device__()
    if backend_name != "cpu":
        pytest.skip("numpy.from_dlpack needs a host array")
    assert dev_type == 1  # kDLCPU
    y = np.from_dlpack(x)
    np.testing.assert_array_equal(y, a)
    assert y.dtype == a.dtype
    if a.size:
        assert np.shares_memory(y, to_numpy(x))
    back = xp.from_dlpack(a.copy())
    assert_equal(back, a, dtype=name)
    back2 = xp.from_dlpack(x)
    assert_equal(back2, a, dtype=name)


def test_dlpack_copy_and_max_version(xp, backend_name):
    if backend_name != "cpu":
        pytest.skip("host DLPack only")
    x = xp.asarray(np.arange(4.0))
    cap = x.__dlpack__(max_version=(1, 0))
    assert cap is not None
    y = np.from_dlpack(x, copy=True)
    y[0] = 99.0
    assert float(x[0]) == 0.0


def test_to_device(xp):
    x = xp.asarray([1.0, 2.0])
    y = x.to_device(x.device)
    assert_equal(y, np.asarray([1.0, 2.0]))
    h = x.to_device("cpu")
    assert np.asarray(h).tolist() == [1.0, 2.0]
    assert str(h.device) == "cpu"
    with pytest.raises(ValueError):
        x.to_device("nonsense")


def test_to_device_cpu_is_identity_on_cpu(xp, backend_name):
    if backend_name != "cpu":
        pytest.skip("cpu only")
    x = xp.asarray([1.0])
    assert x.to_device("cpu") is x
    with pytest.raises(ValueError):
        x.to_device("cpu", stream=1)


def test_array_namespace(xp):
    x = xp.asarray([1.0])
    assert x.__array_namespace__() is xp
    assert x.__array_namespace__(api_version="2025.12") is xp
    assert x.__array_namespace__(api_version="2024.12") is xp
    with pytest.raises(ValueError, match="api_version"):
        x.__array_namespace__(api_version="1999.01")
    import array_api_compat
    assert array_api_compat.array_namespace(x) is xp


def test_numpy_asarray_zero_copy_on_cpu(xp, backend_name):
    if backend_name != "cpu":
        pytest.skip("zero-copy host access is a cpu property")
    x = xp.asarray(np.arange(5.0))
    h = np.asarray(x)
    assert np.shares_memory(h, np.asarray(x))
    h2 = np.asarray(x)
    h2[0] = 17.0
    assert float(x[0]) == 17.0
    assert np.asarray(x, dtype=np.float32).dtype == np.float32
    assert not np.shares_memory(np.asarray(x).copy(), h)


def test_repr(xp):
    x = xp.asarray(np.asarray([1.5, 2.0], dtype=np.float32)) if "float32" in \
        xp.__array_namespace_info__().dtypes() else xp.asarray([1.5, 2.0])
    r = repr(x)
    assert r.startswith("Array(") and "1.5" in r and x.dtype.name in r
    assert "Array(" in str(xp.asarray(3))
    assert "int" in repr(xp.asarray([1, 2]))


def test_unhashable_and_copy_pickle(xp):
    x = xp.asarray([1.0, 2.0])
    with pytest.raises(TypeError):
        hash(x)
    d = copy.deepcopy(x)
    d[0] = 5.0
    assert float(x[0]) == 1.0
    p = pickle.loads(pickle.dumps(x))
    assert_equal(p, np.asarray([1.0, 2.0]))
    assert type(p) is type(x)


def test_array_constructor_rejected(xp):
    with pytest.raises(TypeError):
        xp.Array()


def test_numpy_ufunc_does_not_swallow(xp):
    """A NumPy ufunc of a numr array and scalars is the namespace's function (the result
    stays a numr array on x's device); only a NumPy array operand makes it NumPy's."""
    x = xp.asarray([1.0, 2.0])
    r = np.add(x, 1.0)
    assert r.__class__ is x.__class__ and r.device == x.device
    assert_equal(r, np.asarray([2.0, 3.0]))
    r = np.float32(3.0) - x
    assert r.__class__ is x.__class__ and r.device == x.device
    assert_equal(r, np.asarray([2.0, 1.0]))
