"""NumPy dtype interop of the strict namespaces: ``np.dtype(xp.float32)`` is NumPy's float32,
and a NumPy dtype instance is accepted wherever a dtype argument is (Cubed and Zarr hand
dtypes around normalised by ``np.dtype``). Strings and other objects are still refused."""

import numpy as np
import pytest

from _support import get_dtype, to_numpy

NAMES = ("bool", "int8", "uint16", "int32", "int64", "uint64", "float32", "float64",
         "complex64", "complex128")


@pytest.mark.parametrize("name", NAMES)
def test_np_dtype_of_numr_dtype(xp, name):
    d = getattr(xp, name)
    assert np.dtype(d) == np.dtype(name)
    assert np.dtype(name) == d  # NumPy compares through the same protocol
    assert np.zeros(2, dtype=d).dtype == np.dtype(name)


@pytest.mark.parametrize("name", NAMES)
def test_numpy_dtype_arguments(xp, name):
    d = get_dtype(xp, name)
    nd = np.dtype(name)
    assert xp.zeros((2,), dtype=nd).dtype is d
    assert xp.asarray([1, 0], dtype=nd).dtype is d
    assert xp.astype(xp.asarray([1, 0]), nd).dtype is d
    assert xp.isdtype(nd, "bool" if name == "bool" else "numeric") is True
    assert xp.can_cast(nd, d) is True
    assert xp.result_type(nd, d) is d


def test_numpy_dtype_arguments_in_reductions(xp):
    f = get_dtype(xp, "float64")
    x = xp.asarray(np.array([1.5, 2.5, 2**24], dtype=np.float32))
    s = xp.sum(x, dtype=np.dtype("float64"))
    assert s.dtype is f and float(to_numpy(s)) == 4.0 + 2**24
    assert xp.cumulative_sum(x, dtype=np.dtype("float64")).dtype is f
    assert xp.finfo(np.dtype("float32")).bits == 32
    assert xp.iinfo(np.dtype("int16")).max == 2**15 - 1


def test_non_native_byte_order_means_the_same_type(xp):
    assert xp.zeros((1,), dtype=np.dtype(">f4")).dtype is xp.float32


@pytest.mark.parametrize("bad", ["float32", np.float32, np.dtype("U3"), np.dtype("M8[s]"),
                                 np.dtype([("a", "f4")]), 3])
@pytest.mark.strict_semantics
def test_other_dtype_objects_are_refused(xp, bad):
    with pytest.raises(TypeError):
        xp.zeros((2,), dtype=bad)
    with pytest.raises(TypeError):
        xp.astype(xp.zeros((2,)), bad)
    with pytest.raises(TypeError):
        xp.isdtype(bad, "numeric")
