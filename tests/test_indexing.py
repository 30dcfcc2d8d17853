"""Indexing: basic, negative steps, Ellipsis, None, integer arrays, boolean masks, setitem,
take / take_along_axis."""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

from _support import assert_equal, get_dtype, np_arrays, shapes, to_numpy

NAMES = ["float64", "int16", "bool", "complex128", "float32", "uint32"]


def _arr(data, min_dims=0, max_dims=4):
    name = data.draw(st.sampled_from(NAMES), label="dtype")
    return data.draw(np_arrays(name, shapes(min_dims=min_dims, max_dims=max_dims,
                                            max_side=5)), label="x")


@given(data=st.data())
def test_basic_indexing(xp, data):
    a = _arr(data)
    get_dtype(xp, a.dtype.name)
    key = data.draw(hnp.basic_indices(a.shape, min_dims=0, allow_newaxis=True,
                                      allow_ellipsis=True), label="key")
    x = xp.asarray(a)
    assert_equal(x[key], np.asarray(a[key]), dtype=a.dtype.name, ctx=f"x[{key!r}]")


@pytest.mark.parametrize("key", [
    (slice(None, None, -1),), (slice(None, None, -2), Ellipsis), (Ellipsis, slice(3, 0, -1)),
    (None, 1, Ellipsis, None), (slice(-1, -4, -1), slice(None, None, -3)), (-1, -1),
    (slice(10, None, -1),), (slice(-100, 100, 2),), (Ellipsis,), (), (slice(2, 2),),
    (None,), (0, None, slice(1, None))])
def test_basic_indexing_cases(xp, key):
    a = np.arange(4 * 5, dtype=np.float64).reshape(4, 5)
    assert_equal(xp.asarray(a)[key], np.asarray(a[key]), ctx=f"x[{key!r}]")


def test_zero_d_indexing(xp):
    x = xp.asarray(3.5)
    assert float(x[()]) == 3.5 and x[()].shape == ()
    assert x[...].shape == ()
    assert x[None].shape == (1,)
    with pytest.raises(IndexError):
        x[0]


@given(data=st.data())
def test_integer_array_indexing(xp, data):
    a = _arr(data, min_dims=1, max_dims=3)
    get_dtype(xp, a.dtype.name)
    x = xp.asarray(a)
    if a.shape[0] == 0:
        return
    idx = data.draw(np_arrays("int64", shapes(max_dims=2, max_side=4),
                              min_value=-a.shape[0], max_value=a.shape[0] - 1), label="idx")
    assert_equal(x[xp.asarray(idx)], a[idx], dtype=a.dtype.name)
    if a.ndim >= 2 and a.shape[1]:
        j = data.draw(np_arrays("int32", idx.shape, min_value=0, max_value=a.shape[1] - 1))
        assert_equal(x[xp.asarray(idx), xp.asarray(j)], a[idx, j])
        # integer array mixed with a slice and an int
        assert_equal(x[xp.asarray(idx), 0], a[idx, 0])
        assert_equal(x[:, xp.asarray(j.ravel())], a[:, j.ravel()])


@given(data=st.data())
def test_boolean_mask_indexing(xp, data):
    a = _arr(data, min_dims=0, max_dims=3)
    get_dtype(xp, a.dtype.name)
    x = xp.asarray(a)
    k = data.draw(st.integers(0, a.ndim))
    mask = data.draw(np_arrays("bool", a.shape[:k]), label="mask")
    assert_equal(x[xp.asarray(mask)], a[mask], dtype=a.dtype.name)
    if a.ndim >= 1 and k >= 1:
        assert_equal(x[xp.asarray(mask), ...], a[mask, ...])
    full = a != a.flat[0] if a.size else np.zeros(a.shape, bool)
    assert_equal(x[xp.asarray(full)], a[full])


@st.composite
def _shapes_broadcasting_to(draw, target):
    """Shapes that broadcast *to* ``target`` (a suffix of it, some sizes replaced by 1)."""
    n = draw(st.integers(0, len(target)))
    suffix = target[len(target) - n:]
    return tuple(draw(st.sampled_from([s, 1])) for s in suffix)


def _check_setitem(xp, data, a, key):
    target = a[key]
    vshape = data.draw(_shapes_broadcasting_to(np.shape(target)), label="vshape")
    v = data.draw(np_arrays(a.dtype.name, vshape), label="value")
    x = xp.asarray(a.copy())
    x[key] = xp.asarray(v)
    ref = a.copy()
    ref[key] = v
    assert_equal(x, ref, dtype=a.dtype.name)


@given(data=st.data())
def test_setitem_slices_and_broadcast(xp, data):
    a = _arr(data, min_dims=1, max_dims=3)
    get_dtype(xp, a.dtype.name)
    # Ellipsis keys: test_setitem_with_ellipsis (a known library bug, kept separate)
    key = data.draw(hnp.basic_indices(a.shape, min_dims=0, allow_ellipsis=False), label="key")
    _check_setitem(xp, data, a, key)


@given(data=st.data())
def test_setitem_with_ellipsis_slices_only(xp, data):
    a = _arr(data, min_dims=1, max_dims=3)
    get_dtype(xp, a.dtype.name)
    key = data.draw(hnp.basic_indices(a.shape, min_dims=0, allow_ellipsis=True), label="key")
    if any(type(k) is int for k in (key if isinstance(key, tuple) else (key,))) and \
            Ellipsis in (key if isinstance(key, tuple) else (key,)):
        key = tuple(slice(None) if type(k) is int else k for k in key)
    _check_setitem(xp, data, a, key)


def test_setitem_with_ellipsis(xp):
    x = xp.zeros((1, 3))
    x[..., 2] = 1.0
    assert_equal(x, np.asarray([[0.0, 0.0, 1.0]]))
    y = xp.zeros((0, 1))
    y[..., 0] = 1.0
    assert y.shape == (0, 1)
    z = xp.zeros((2, 3))
    z[..., -1, xp.asarray([0])] = 5.0  # non-basic key with Ellipsis
    ref = np.zeros((2, 3))
    ref[..., -1, [0]] = 5.0
    assert_equal(z, ref)


@pytest.mark.parametrize("name", ["float64", "int32", "bool", "complex64"])
def test_setitem_scalars_and_promotion(xp, name):
    d = get_dtype(xp, name)
    a = np.zeros((3, 4), dtype=name)
    x = xp.asarray(a.copy())
    v = {"float64": 2.5, "int32": 7, "bool": True, "complex64": 1 - 1j}[name]
    x[1] = v
    x[..., -1] = v
    a[1] = v
    a[..., -1] = v
    assert_equal(x, a, dtype=name)
    # a 0-d array value
    x[0, 0] = xp.asarray(v, dtype=d)
    a[0, 0] = v
    assert_equal(x, a)
    if name == "float64":
        x[2, :2] = xp.asarray([1.5, 2.5], dtype=get_dtype(xp, "float32"))  # promotes to self
        a[2, :2] = [1.5, 2.5]
        assert_equal(x, a)


@given(data=st.data())
def test_setitem_integer_array_and_mask(xp, data):
    a = data.draw(np_arrays("float64", shapes(min_dims=1, max_dims=3, min_side=1)))
    x = xp.asarray(a.copy())
    ref = a.copy()
    idx = data.draw(st.lists(st.integers(-a.shape[0], a.shape[0] - 1), min_size=1, max_size=4,
                             unique_by=lambda i: i % a.shape[0]))
    x[xp.asarray(np.asarray(idx))] = -1.0
    ref[np.asarray(idx)] = -1.0
    assert_equal(x, ref)
    mask = data.draw(np_arrays("bool", a.shape))
    x[xp.asarray(mask)] = 9.0
    ref[mask] = 9.0
    assert_equal(x, ref)
    vals = data.draw(np_arrays("float64", (int(mask.sum()),)))
    x[xp.asarray(mask)] = xp.asarray(vals)
    ref[mask] = vals
    assert_equal(x, ref)


def test_setitem_views_write_through(xp):
    x = xp.asarray(np.zeros((3, 3)))
    x[::2, 1:] = 1.0
    ref = np.zeros((3, 3))
    ref[::2, 1:] = 1.0
    assert_equal(x, ref)
    x[::-1, 0] = xp.asarray([1.0, 2.0, 3.0])
    ref[::-1, 0] = [1.0, 2.0, 3.0]
    assert_equal(x, ref)


@pytest.mark.parametrize("key", [(3,), (-4,), (0, 5), (slice(None), 5), (0, 0, 0)])
def test_out_of_range(xp, key):
    x = xp.asarray(np.zeros((3, 5)))
    with pytest.raises(IndexError):
        x[key]
    with pytest.raises(IndexError):
        x[key] = 1.0


@pytest.mark.parametrize("key", [1.5, "a", (Ellipsis, Ellipsis), True, [0, 1], slice(0, 1, 0),
                                 slice(1.0, 2)])
@pytest.mark.strict_semantics
def test_invalid_keys(xp, key):
    x = xp.asarray(np.zeros((3, 5)))
    with pytest.raises(IndexError):
        x[key]


def test_invalid_index_array_dtype(xp):
    x = xp.asarray(np.zeros(3))
    with pytest.raises(IndexError):
        x[xp.asarray([0.0, 1.0])]


@pytest.mark.strict_semantics
def test_setitem_lossy_value_rejected(xp):
    x = xp.asarray([1, 2, 3])
    with pytest.raises(TypeError):
        x[0] = 1.5
    with pytest.raises(TypeError):
        x[0] = xp.asarray(1.5)


@given(data=st.data())
def test_take(xp, data):
    a = _arr(data, min_dims=1, max_dims=3)
    get_dtype(xp, a.dtype.name)
    ax = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[ax]
    if n == 0:
        return
    idx = data.draw(np_arrays("int64", (data.draw(st.integers(0, 5)),), min_value=-n,
                              max_value=n - 1))
    out = xp.take(xp.asarray(a), xp.asarray(idx), axis=ax)
    assert_equal(out, np.take(a, idx, axis=ax), dtype=a.dtype.name)
    if a.ndim == 1:
        assert_equal(xp.take(xp.asarray(a), xp.asarray(idx)), np.take(a, idx))


@given(data=st.data())
def test_take_along_axis(xp, data):
    a = data.draw(np_arrays("float64", shapes(min_dims=1, max_dims=3, min_side=1)))
    ax = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[ax]
    ishape = list(a.shape)
    ishape[ax] = data.draw(st.integers(0, 4))
    idx = data.draw(np_arrays("int64", tuple(ishape), min_value=0, max_value=n - 1))
    out = xp.take_along_axis(xp.asarray(a), xp.asarray(idx), axis=ax)
    assert_equal(out, np.take_along_axis(a, idx, axis=ax), dtype="float64")
    # with argsort: the standard use
    s = xp.take_along_axis(xp.asarray(a), xp.argsort(xp.asarray(a), axis=ax), axis=ax)
    assert_equal(s, np.sort(a, axis=ax))
