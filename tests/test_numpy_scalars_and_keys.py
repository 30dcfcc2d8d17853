"""NumPy scalars as operands / values and NumPy index arrays, and the webgpu write rules for
broadcast and empty arrays.

scikit-learn and SciPy hand NumPy scalars (np.float64 from a host computation, np.int64 from
a NumPy argmax) and NumPy index arrays to array-API code; numr treats NumPy scalars as the
Python scalar of their kind and uploads NumPy index arrays to the indexed array's device.
"""

import numpy as np
import pytest

from numr_array_api._core.errors import InvalidArgument, InvalidIndex, NumrError

from _support import to_numpy as host


@pytest.mark.parametrize("scalar", [np.float64(0.5), np.float32(0.5), np.float16(0.5)])
def test_mask_assign_numpy_float(xp, scalar):
    a = xp.asarray([1.0, 2.0, 3.0])
    a[a > 1] = scalar
    np.testing.assert_array_equal(host(a), [1.0, 0.5, 0.5])


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide", "maximum"])
@pytest.mark.parametrize("scalar", [np.float64(2.0), np.float32(2.0), np.int64(2),
                                    np.int8(2), np.bool_(True)])
def test_binary_with_numpy_scalar(xp, op, scalar):
    a = xp.asarray([1.0, -3.0, 4.5], dtype=xp.float32)
    ref = getattr(np, op)(np.asarray([1.0, -3.0, 4.5], np.float32), np.float32(scalar.item()))
    for r in (getattr(xp, op)(a, scalar), getattr(xp, op)(scalar, a)):
        assert r.dtype == xp.float32  # weak scalar: the array's dtype decides
    np.testing.assert_allclose(host(getattr(xp, op)(a, scalar)), ref, rtol=1e-6)
    ref_r = getattr(np, op)(np.float32(scalar.item()), np.asarray([1.0, -3.0, 4.5], np.float32))
    np.testing.assert_allclose(host(getattr(xp, op)(scalar, a)), ref_r, rtol=1e-6)


def test_operators_with_numpy_scalars(xp):
    a = xp.asarray([1, 2, 3], dtype=xp.int32)
    np.testing.assert_array_equal(host(a + np.int64(1)), [2, 3, 4])
    np.testing.assert_array_equal(host(np.int64(1) + a), [2, 3, 4])  # NumPy defers to us
    np.testing.assert_array_equal(host(np.int16(10) - a), [9, 8, 7])
    assert (a * np.int64(2)).dtype == xp.int32
    b = xp.asarray([1.0, 2.0])
    b += np.float64(1.5)
    np.testing.assert_array_equal(host(b), [2.5, 3.5])
    np.testing.assert_array_equal(host(b < np.float32(3.0)), [True, False])


@pytest.mark.strict_semantics
def test_numpy_scalar_rules_kept(xp):
    a = xp.asarray([1, 2], dtype=xp.int8)
    with pytest.raises(NumrError):  # a float scalar cannot meet an integer array
        a + np.float64(1.5)
    with pytest.raises(OverflowError):  # out of range for int8, as a Python int would be
        a + np.int64(1000)
    with pytest.raises(TypeError):  # not a NumPy scalar of a numeric kind
        a + np.datetime64("2020-01-01")


def test_where_clip_searchsorted_with_numpy_scalars(xp):
    a = xp.asarray([0.0, 1.0, 2.0, 3.0])
    np.testing.assert_array_equal(host(xp.where(a > 1, a, np.float64(-1))), [-1, -1, 2, 3])
    np.testing.assert_array_equal(host(xp.clip(a, np.float64(0.5), np.float32(2.5))),
                                  [0.5, 1.0, 2.0, 2.5])
    assert int(xp.searchsorted(a, np.float64(1.5))) == 2


@pytest.mark.parametrize("idx", [np.int64(1), np.int32(-2), np.uint8(1)])
def test_numpy_integer_scalar_index(xp, idx):
    b = xp.zeros((3, 2))
    b[idx, 0] = 1
    ref = np.zeros((3, 2))
    ref[idx, 0] = 1
    np.testing.assert_array_equal(host(b), ref)
    np.testing.assert_array_equal(host(b[idx]), ref[idx])
    np.testing.assert_array_equal(host(b[1:, idx if idx < 2 and idx >= -2 else 0]),
                                  ref[1:, idx if idx < 2 and idx >= -2 else 0])


@pytest.mark.strict_semantics
def test_numpy_index_arrays(xp):
    ref = np.arange(12.0).reshape(4, 3)
    x = xp.asarray(ref)
    for key in (np.asarray([0, 2]), np.asarray([3, -1], dtype=np.int32)):
        got = x[key, ...]
        assert got.device == x.device
        np.testing.assert_array_equal(host(got), ref[key, ...])
    mask = np.asarray([True, False, True, False])
    np.testing.assert_array_equal(host(x[mask]), ref[mask])
    y = xp.asarray(ref)
    y[np.asarray([1, 3]), ...] = -1.0
    r2 = ref.copy()
    r2[np.asarray([1, 3]), ...] = -1.0
    np.testing.assert_array_equal(host(y), r2)
    with pytest.raises(InvalidIndex):
        x[np.asarray([0.0, 1.0])]
    with pytest.raises(InvalidIndex):
        x[np.asarray([0, 9]), ...]
    with pytest.raises(InvalidIndex):  # a bool scalar is not an index, NumPy's or Python's
        x[np.bool_(True)]


def test_numpy_dtype_interop(xp):
    assert np.dtype(xp.float64) == np.float64
    assert np.asarray([1.0]).astype(xp.float32).dtype == np.float32


def test_empty_array_is_writable(xp):
    a = xp.zeros((1, 3, 0))
    a[xp.isnan(a)] = 0.0
    a[...] = 1.0
    assert a.shape == (1, 3, 0)
    s = xp.sum(xp.zeros((2, 0)), axis=1)
    s[s == 0] = 1.0
    np.testing.assert_array_equal(host(s), [1.0, 1.0])


def test_broadcast_view_refuses_writes(xp):
    s = xp.asarray([1.0, 5.0])
    b = xp.broadcast_to(s, (2, 2))
    for write in (lambda: b.__setitem__((0, 0), 9.0),
                  lambda: b.__setitem__(0, xp.asarray([7.0, 7.0])),
                  lambda: b.__setitem__(b > 2, 0.0),
                  lambda: b[1].__setitem__(0, 3.0),          # a view of a broadcast view
                  lambda: b.__iadd__(1.0)):
        with pytest.raises((InvalidArgument, ValueError)):
            write()
    np.testing.assert_array_equal(host(s), [1.0, 5.0])  # the source is untouched
    c = xp.asarray(b, copy=True)  # a copy is writable
    c[0, 0] = 9.0
    np.testing.assert_array_equal(host(c), [[9.0, 5.0], [1.0, 5.0]])
    e = xp.expand_dims(s, axis=0)  # a size-1 new axis is not a broadcast: writable
    e[0, 1] = 4.0
    np.testing.assert_array_equal(host(s), [1.0, 4.0])


def test_setitem_keeps_backend_errors_that_are_not_shapes(xp, monkeypatch):
    """A backend failure inside __setitem__ (e.g. a device validation error) surfaces as
    itself, not relabelled as a shape mismatch of the value."""
    from numr_array_api._core.errors import DeviceMismatch, ShapeMismatch
    a = xp.zeros((3,))
    be = a._ctx.be

    def fail(*args):
        raise DeviceMismatch("arrays are on webgpu:0 and webgpu:1")

    monkeypatch.setitem(vars(be), "setitem", fail)  # shadows the (locked) method
    with pytest.raises(DeviceMismatch) as info:
        a[a > 1] = 0.0
    assert not isinstance(info.value, ShapeMismatch)


def test_numpy_ufuncs_see_numr_arrays_as_host_arrays():
    """NumPy ufuncs called on cpu numr arrays alone convert them (as they do
    array-api-strict's) and return NumPy arrays (SciPy's np-only paths call np.isfinite on
    whatever they are given, and ndarray methods on the result); NumPy-scalar arithmetic
    stays in numr; a NumPy array and a numr array together are refused, in either order
    (docs/reliability.md). Device namespaces: test_numpy_ufuncs_run_on_the_device."""
    import numr_array_api.cpu as xp
    from numr_array_api.errors import InvalidType
    a = xp.asarray([1.0, np.inf, np.nan])
    r = np.isfinite(a)
    assert isinstance(r, np.ndarray)
    np.testing.assert_array_equal(r, [True, False, False])
    with pytest.raises(InvalidType):
        np.asarray([1.0, 2.0, 3.0]) + a
    assert (np.float64(1.0) + a).__class__ is a.__class__
    assert (np.int32(2) * a).__class__ is a.__class__
    out = np.empty(3)
    np.add(a, 1.0, out=out)
    np.testing.assert_array_equal(out, [2.0, np.inf, np.nan])
    with pytest.raises(TypeError):  # NumPy cannot write into a numr array
        np.add(np.ones(3), 1.0, out=a)


def test_numpy_scalar_compared_with_a_0d_array(xp):
    # scipy's test__broadcast_concatenate: `a[i, j] == c[i, j]` with a NumPy array `a` and a
    # numr array `c`; NumPy passes its scalar as a 0-d ndarray into __array_ufunc__
    c = xp.asarray([0.25, 0.5], dtype=xp.float64)
    a = np.asarray([0.25, 0.75])
    assert bool(a[0] == c[0]) and not bool(a[1] == c[1])
    r = np.equal(np.asarray(0.5), c[1])
    assert r.__class__ is c.__class__ and bool(r)
    assert bool(np.float64(1.0) + c[1] == 1.5)


def test_numpy_ufuncs_run_on_the_device(xp):
    """On a device namespace a NumPy ufunc that is a namespace function (np.abs, np.exp,
    np.maximum) runs that function on the array's device (NEP 13, as CuPy serves them:
    xarray's np.abs(da)); other ufuncs are refused (no implicit host round trip)."""
    if xp.__name__.endswith(".cpu"):
        pytest.skip("cpu: NumPy ufuncs return NumPy arrays (the test above)")
    a = xp.asarray([1.0, -2.0, np.nan])
    for got, want in ((np.abs(a), [1.0, 2.0, np.nan]), (np.maximum(a, 0.5), [1.0, 0.5, np.nan]),
                      (np.isnan(a), [False, False, True])):
        assert got.__class__ is a.__class__ and got.device == a.device
        np.testing.assert_array_equal(np.asarray(got.to_device("cpu")), want)
    with pytest.raises(TypeError):
        np.fmod(a, 2.0)
