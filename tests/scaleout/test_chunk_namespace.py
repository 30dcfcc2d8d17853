"""The Cubed chunk namespaces (numr_array_api.distributed.cpu / .cuda / .webgpu): numr's
namespaces plus the NumPy behaviour Cubed's chunk functions use, computed on the device."""

import importlib
import pickle
import warnings

import numpy as np
import pytest

from _support import get_dtype, to_numpy
from numr_array_api._core.errors import DTypeMismatch


@pytest.fixture(scope="module")
def cx(xp):
    """The chunk namespace over the same backend as ``xp``."""
    return importlib.import_module(xp.__name__.replace("numr_array_api.",
                                                       "numr_array_api.distributed."))


@pytest.fixture(autouse=True)
def _no_host_round_trip():
    from numr_array_api.backends.webgpu.ops.host_fallback import HostFallbackWarning
    with warnings.catch_warnings():
        warnings.simplefilter("error", HostFallbackWarning)
        yield


INT_FLOAT = [("int64", "float64"), ("int32", "float32"), ("int8", "float32"),
             ("uint8", "float64"), ("bool", "float32"), ("int16", "complex64"),
             ("uint64", "int64"), ("bool", "int8")]


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide", "less", "equal"])
@pytest.mark.parametrize("n1,n2", INT_FLOAT)
def test_mixed_kinds_promote_as_numpy(cx, op, n1, n2):
    get_dtype(cx, n1)
    get_dtype(cx, n2)
    a = np.array([3, 0, 1], dtype=n1)
    b = np.array([2, 5, 1], dtype=n2)
    if op == "less" and "complex" in n2:
        pytest.skip("complex numbers have no order")
    for x1, x2 in ((a, b), (b, a)):
        ref = getattr(np, op)(x1, x2)
        got = getattr(cx, op)(cx.asarray(x1), cx.asarray(x2))
        assert np.dtype(got.dtype) == ref.dtype, (op, n1, n2)
        np.testing.assert_allclose(to_numpy(got), ref, rtol=1e-6)


def test_mixed_kinds_through_operators(cx):
    f = get_dtype(cx, "float64")
    n = cx.asarray([2, 4], dtype=cx.int64)
    mu = cx.asarray([0.5, 0.25], dtype=f)
    for got, ref in ((n * mu, [1.0, 1.0]), (mu / n, [0.25, 0.0625]), (n - 0.5, [1.5, 3.5]),
                     (1.5 * n, [3.0, 6.0]), (mu + n, [2.5, 4.25])):
        assert got.dtype is f
        np.testing.assert_array_equal(to_numpy(got), ref)
    assert to_numpy(n < mu).tolist() == [False, False]


def test_python_scalars_follow_nep50(cx):
    f = get_dtype(cx, "float64")
    i = cx.asarray([1, 2], dtype=cx.int8)
    assert (i + 0.5).dtype is f  # NumPy: int array with a Python float -> float64
    b = cx.asarray([True, False])
    assert (b + 1).dtype is cx.__array_namespace_info__().default_dtypes()["integral"]
    assert (i + 1).dtype is cx.int8  # the standard's rule where it has one


@pytest.mark.strict_semantics
def test_strict_namespace_is_untouched(xp, cx):
    with pytest.raises(DTypeMismatch):
        xp.asarray([1, 2]) * xp.asarray([1.5, 2.5])
    with pytest.raises(DTypeMismatch):
        xp.asarray([1, 2]) - 0.5
    assert cx.asarray([1.0]).__array_namespace__() is cx


def test_mean_with_dtype(cx):
    f = get_dtype(cx, "float64")
    x = cx.asarray(np.array([1.0, 2.0, 2**25], dtype=np.float32))
    m = cx.mean(x, dtype=f)
    assert m.dtype is f
    assert float(to_numpy(m)) == (3.0 + 2**25) / 3
    assert cx.mean(cx.asarray([1, 2, 4]), dtype=np.dtype("float64")).dtype is f


def test_prod_and_sum_of_a_shape(cx):
    p = cx.prod((3, 4, 5), dtype=cx.int64)
    assert p.dtype is cx.int64 and int(to_numpy(p)) == 60
    assert int(to_numpy(cx.prod((), dtype=cx.int64))) == 1
    assert int(to_numpy(cx.sum([1, 2, 3], dtype=cx.int64))) == 6


def test_take_with_a_python_int(cx):
    x = cx.reshape(cx.arange(12), (3, 4))
    np.testing.assert_array_equal(to_numpy(cx.take(x, 1, axis=1)), [1, 5, 9])
    np.testing.assert_array_equal(to_numpy(cx.take(x, -1, axis=0)), [8, 9, 10, 11])
    assert int(to_numpy(cx.take(cx.arange(5), 3))) == 3
    np.testing.assert_array_equal(to_numpy(cx.take(x, cx.asarray([0, 2]), axis=0)),
                                  [[0, 1, 2, 3], [8, 9, 10, 11]])


def test_full_bool_with_int_fill(cx):
    np.testing.assert_array_equal(to_numpy(cx.full((2,), 0, dtype=cx.bool)), [False, False])
    np.testing.assert_array_equal(to_numpy(cx.full((2,), 1, dtype=np.dtype(bool))),
                                  [True, True])
    like = cx.full_like(cx.asarray([True, False]), 1)
    assert like.dtype is cx.bool and to_numpy(like).all()


def test_nansum_is_exported(cx):
    f = get_dtype(cx, "float32")
    x = cx.asarray([1.0, float("nan"), 2.0], dtype=f)
    assert float(to_numpy(cx.nansum(x))) == 3.0
    assert float(to_numpy(cx.nanmean(x))) == 1.5


def test_cubed_device_placeholder(cx):
    """Cubed arrays report device "cpu" whatever their chunks' namespace: the info API
    answers for the default device."""
    info = cx.__array_namespace_info__()
    assert info.default_dtypes(device="cpu") == info.default_dtypes()
    assert info.dtypes(device="cpu", kind="real floating") == info.dtypes(kind="real floating")


def test_functions_pickle_by_name(xp, cx):
    """Cubed ships chunk functions to Dask workers with (cloud)pickle: they must travel by
    name, so the worker finds the same function in its own import of the namespace."""
    import cloudpickle

    for ns in (xp, cx):
        for name in ("add", "sum", "squeeze", "matmul", "astype", "__array_namespace_info__"):
            f = getattr(ns, name)
            for dumps in (pickle.dumps, cloudpickle.dumps):
                data = dumps(f)
                assert len(data) < 200, (ns.__name__, name, len(data))
                assert pickle.loads(data) is f
        assert pickle.loads(pickle.dumps(ns.linalg.qr)) is ns.linalg.qr
    assert pickle.loads(pickle.dumps(cx.nansum)) is cx.nansum


def test_chunks_convert_to_numpy_without_the_host_policy(xp, cx):
    """Cubed stores each chunk with np.asarray: designed, so the chunk namespace does not
    apply the implicit host-conversion policy (the strict namespace still does)."""
    import numr_array_api as numr
    from numr_array_api._core.errors import HostTransferError

    with numr.host_conversion("raise"):
        np.testing.assert_array_equal(np.asarray(cx.asarray([1.0, 2.0])), [1.0, 2.0])
        if xp.__name__ != "numr_array_api.cpu":
            with pytest.raises(HostTransferError):
                np.asarray(xp.asarray([1.0, 2.0]))
