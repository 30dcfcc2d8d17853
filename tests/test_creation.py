"""Creation functions against NumPy."""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from _support import (ALL_DTYPE_NAMES, assert_close, assert_equal, get_dtype, np_arrays,
                      shapes, to_numpy)


@given(shape=shapes(), data=st.data())
def test_zeros_ones_empty_full(xp, shape, data):
    name = data.draw(st.sampled_from(["float64", "float32", "int32", "uint8", "bool",
                                      "complex64"]))
    d = get_dtype(xp, name)
    assert_equal(xp.zeros(shape, dtype=d), np.zeros(shape, name), dtype=name)
    assert_equal(xp.ones(shape, dtype=d), np.ones(shape, name), dtype=name)
    e = xp.empty(shape, dtype=d)
    assert e.shape == shape and e.dtype == d
    fill = {"b": True, "i": -3, "u": 7, "f": 2.5, "c": 1 - 2j}[np.dtype(name).kind]
    assert_equal(xp.full(shape, fill, dtype=d), np.full(shape, fill, name), dtype=name)
    x = xp.asarray(np.ones(shape, name))
    assert_equal(xp.zeros_like(x), np.zeros(shape, name), dtype=name)
    assert_equal(xp.ones_like(x), np.ones(shape, name), dtype=name)
    assert_equal(xp.full_like(x, fill), np.full(shape, fill, name), dtype=name)
    assert xp.empty_like(x).shape == shape


def test_default_dtypes_of_creation(xp):
    dd = xp.__array_namespace_info__().default_dtypes()
    assert xp.zeros(3).dtype == dd["real floating"]
    assert xp.ones((2, 2)).shape == (2, 2)
    assert xp.full((2,), 1).dtype == dd["integral"]
    assert xp.full((2,), 1.0).dtype == dd["real floating"]
    assert xp.full((2,), True).dtype == xp.bool
    assert xp.full((2,), 1j).dtype == dd["complex floating"]
    assert xp.zeros_like(xp.asarray([1], dtype=xp.int8), dtype=xp.int16).dtype == xp.int16


@pytest.mark.parametrize("args,kw", [((5,), {}), ((2, 10), {}), ((10, 2, -3), {}),
                                     ((0.0, 1.0, 0.1), {}), ((1, 2, 0.25), {}), ((3, 3), {}),
                                     ((5, 0, 1), {}), ((-2.5, 2.5, 0.5), {}),
                                     ((0, 10, 3), {"dtype": "int8"}),
                                     ((0.0, 1.0, 0.3), {"dtype": "float32"})])
def test_arange(xp, args, kw):
    if "dtype" in kw:
        kw = {"dtype": get_dtype(xp, kw["dtype"])}
    out = xp.arange(*args, **kw)
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (args + (1,))[:3]
    n = max(0, math.ceil((stop - start) / step))  # the standard's length
    assert out.shape == (n,)
    ref = np.asarray([start + i * step for i in range(n)])
    if "dtype" in kw:
        assert out.dtype == kw["dtype"]
    elif all(type(a) is int for a in args):
        assert out.dtype == xp.__array_namespace_info__().default_dtypes()["integral"]
    else:
        assert out.dtype == xp.__array_namespace_info__().default_dtypes()["real floating"]
    assert_close(out, ref, rtol=1e-6, atol=1e-6)


def test_arange_invalid(xp):
    with pytest.raises(ValueError):
        xp.arange(0, 10, 0)
    with pytest.raises(TypeError):
        xp.arange("3")


@given(num=st.integers(0, 20), endpoint=st.booleans(),
       start=st.floats(-100, 100), stop=st.floats(-100, 100))
def test_linspace(xp, num, endpoint, start, stop):
    out = xp.linspace(start, stop, num, endpoint=endpoint)
    assert_close(out, np.linspace(start, stop, num, endpoint=endpoint), dtype="float64",
                 rtol=1e-12, atol=1e-12)
    if num >= 1:
        assert float(out[0]) == start
    if num >= 2 and endpoint:
        assert float(out[-1]) == stop


def test_linspace_complex_and_dtype(xp):
    out = xp.linspace(0j, 1 + 1j, 3)
    assert_close(out, np.linspace(0j, 1 + 1j, 3), dtype="complex128")
    f = get_dtype(xp, "float32")
    assert xp.linspace(0, 1, 4, dtype=f).dtype == f
    # integer dtypes: NumPy's (and array-api-strict's) rounded-down points (SciPy uses them);
    # bool stays refused
    assert xp.linspace(0, 9, 4, dtype=xp.int32).dtype == xp.int32
    with pytest.raises(TypeError):
        xp.linspace(0, 1, 4, dtype=xp.bool)
    with pytest.raises(ValueError):
        xp.linspace(0, 1, -1)


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 5, 1), (4, 2, -1), (0, 3, 0), (3, 3, 5),
                                   (1, 1, 0)])
def test_eye(xp, n, m, k):
    assert_equal(xp.eye(n, m, k=k), np.eye(n, m, k=k), dtype="float64")
    assert_equal(xp.eye(n, m, k=k, dtype=xp.int8), np.eye(n, m, k=k, dtype=np.int8))


@given(data=st.data())
def test_tril_triu(xp, data):
    a = data.draw(np_arrays("float64", shapes(min_dims=2, max_dims=4)))
    k = data.draw(st.integers(-3, 3))
    x = xp.asarray(a)
    assert_equal(xp.tril(x, k=k), np.tril(a, k=k), dtype="float64")
    assert_equal(xp.triu(x, k=k), np.triu(a, k=k), dtype="float64")
    with pytest.raises(ValueError):
        xp.tril(xp.asarray([1.0, 2.0]))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid(xp, indexing):
    a, b, c = np.arange(3.0), np.arange(4.0) * 2, np.arange(2.0) - 1
    outs = xp.meshgrid(xp.asarray(a), xp.asarray(b), xp.asarray(c), indexing=indexing)
    refs = np.meshgrid(a, b, c, indexing=indexing)
    assert len(outs) == 3
    for o, r in zip(outs, refs):
        assert_equal(o, r, dtype="float64")
    with pytest.raises(ValueError):
        xp.meshgrid(xp.asarray(a), indexing="yx")


@given(data=st.data())
def test_asarray_from_numpy_and_lists(xp, data):
    name = data.draw(st.sampled_from(list(ALL_DTYPE_NAMES)))
    get_dtype(xp, name)
    a = data.draw(np_arrays(name, shapes()))
    x = xp.asarray(a)
    assert_equal(x, a, dtype=name)
    if a.size or a.ndim <= 1:  # nested lists cannot describe (0, 3)-like empty shapes
        assert_equal(xp.asarray(a.tolist(), dtype=getattr(xp, name)), a, dtype=name)


def test_asarray_python_objects(xp):
    dd = xp.__array_namespace_info__().default_dtypes()
    assert xp.asarray([1, 2, 3]).dtype == dd["integral"]
    assert xp.asarray([1.0, 2]).dtype == dd["real floating"]
    assert xp.asarray([[True, False]]).dtype == xp.bool
    assert xp.asarray(3.5).shape == ()
    assert_equal(xp.asarray([[1, 2], [3, 4]]), np.asarray([[1, 2], [3, 4]]))
    x = xp.asarray([1.0, 2.0])
    assert xp.asarray(x) is x or bool(xp.all(xp.asarray(x) == x))
    y = xp.asarray(x, copy=True)
    y[0] = 9.0
    assert float(x[0]) == 1.0
    assert xp.asarray(x, dtype=get_dtype(xp, "float32")).dtype == xp.float32
    with pytest.raises(ValueError):
        xp.asarray(x, dtype=xp.float32, copy=False)
    with pytest.raises(OverflowError):
        xp.asarray(2 ** 70)


def test_asarray_copy_false_shares(xp, backend_name):
    if backend_name != "cpu":
        pytest.skip("host memory sharing is a cpu property")
    a = np.arange(4.0)
    x = xp.asarray(a, copy=False)
    a[0] = 42.0
    assert float(x[0]) == 42.0


def test_linspace_is_bit_identical_to_numpy(xp):
    # histogram bin edges (SciPy's cumfreq / relfreq, float32): one ulp moves a value that
    # sits on an edge into the next bin; CuPy's own linspace differs from NumPy's at times
    from _support import to_numpy
    rng = np.random.default_rng(11)
    for _ in range(200):
        a, b = (rng.standard_normal(2) * 10.0 ** rng.integers(-3, 4, 2)).astype(np.float32)
        num = int(rng.integers(0, 40))
        endpoint = bool(rng.integers(0, 2))
        for name in ("float32", "float64"):
            if not hasattr(xp, name) or name not in xp.__array_namespace_info__().dtypes():
                continue
            got = to_numpy(xp.linspace(float(a), float(b), num, endpoint=endpoint,
                                       dtype=getattr(xp, name)))
            want = np.linspace(float(a), float(b), num, endpoint=endpoint, dtype=name)
            assert np.array_equal(got, want), (a, b, num, endpoint, name, got, want)


def test_linspace_with_float32_bounds_computes_in_float32_as_numpy(xp):
    # NumPy computes in the bounds' dtype when they are float32 scalars / 0-d arrays (NEP 50;
    # SciPy's histograms pass such bounds and compare bin edges with np.histogram's)
    from _support import to_numpy
    rng = np.random.default_rng(12)
    f32 = get_dtype(xp, "float32")
    for i in range(120):
        a, b = np.sort(rng.random(2)).astype(np.float32) * np.float32(10.0 ** (i % 5 - 2))
        num = int(rng.integers(1, 30))
        endpoint = bool(rng.integers(0, 2))
        want = np.linspace(a, b, num, endpoint=endpoint, dtype=np.float32)
        assert want.dtype == np.float32
        for lo, hi in ((a, b), (xp.asarray(a, dtype=f32), xp.asarray(b, dtype=f32)),
                       (a, float(b))):
            got = to_numpy(xp.linspace(lo, hi, num, endpoint=endpoint, dtype=f32))
            assert np.array_equal(got, want), (a, b, num, endpoint, got, want)
    # the work dtype differs from float64's: the check above can fail
    a, b = np.float32(0.1), np.float32(0.7)
    assert not np.array_equal(np.linspace(a, b, 13, dtype=np.float32),
                              np.linspace(float(a), float(b), 13, dtype=np.float32))
