"""Statistical reductions against NumPy (float64 references): accumulator dtypes, axis
tuples, keepdims, correction, empty reductions, NaN propagation."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from _support import assert_close, assert_equal, get_dtype, np_arrays, shapes, to_numpy

NUMERIC = ["float64", "float32", "int8", "int32", "int64", "uint8", "uint32", "bool",
           "complex64", "complex128"]


def _acc_dtype(xp, name):
    """The standard's default accumulator: integers widen to the default integer of their
    signedness (uint: the unsigned integer of the same width), bool -> default integer,
    floating dtypes keep their precision."""
    dint = xp.__array_namespace_info__().default_dtypes()["integral"].name
    k = np.dtype(name).kind
    if k == "b":
        return dint
    if k == "i":
        return name if np.dtype(name).itemsize >= np.dtype(dint).itemsize else dint
    if k == "u":
        u = "uint" + dint[3:]
        return name if np.dtype(name).itemsize >= np.dtype(u).itemsize else u
    return name


def _axes(data, ndim):
    if ndim == 0:
        return data.draw(st.sampled_from([None, ()]))
    single = st.integers(-ndim, ndim - 1)
    tup = st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim).map(tuple)
    return data.draw(st.one_of(st.none(), single, tup), label="axis")


def _np_axis(axis):
    return axis


def _tolerance(name, a, axis):
    """atol for a float reduction: eps * n * max|x| (summation error bound)."""
    k = np.dtype(name).kind
    if k not in "fc":
        return None
    eps = np.finfo(name).eps
    n = a.size if axis is None else int(np.prod([a.shape[i] for i in
                                                 ((axis,) if isinstance(axis, int) else axis)]))
    m = float(np.max(np.abs(a))) if a.size else 0.0
    return 4 * eps * max(n, 1) * max(m, 1.0)


@pytest.mark.parametrize("fname", ["sum", "prod"])
@given(data=st.data())
def test_sum_prod(xp, fname, data):
    name = data.draw(st.sampled_from(NUMERIC), label="dtype")
    get_dtype(xp, name)
    lim = 100 if fname == "sum" else 2
    kw = {} if name == "bool" else dict(min_value=-lim if name[0] != "u" else 0,
                                        max_value=lim)
    a = data.draw(np_arrays(name, shapes(max_side=4), **kw), label="x")
    axis = _axes(data, a.ndim)
    keep = data.draw(st.booleans(), label="keepdims")
    x = xp.asarray(a)
    acc = _acc_dtype(xp, name)
    npf = getattr(np, fname)
    if np.dtype(name).kind in "fc":
        ref = npf(a.astype(np.complex128 if name[0] == "c" else np.float64), axis=axis,
                  keepdims=keep)
        atol = _tolerance(name, a, axis) * (1 if fname == "sum" else 50)
        assert_close(getattr(xp, fname)(x, axis=axis, keepdims=keep), ref, dtype=acc,
                     atol=atol, rtol=1e-5 if name in ("float32", "complex64") else 1e-12)
    else:
        ref = npf(a, axis=axis, keepdims=keep, dtype=acc)
        assert_equal(getattr(xp, fname)(x, axis=axis, keepdims=keep), ref, dtype=acc)
    # an explicit dtype
    if name != "bool" and np.dtype(name).kind in "iu":
        out = getattr(xp, fname)(x, axis=axis, dtype=xp.float64)
        assert_close(out, npf(a.astype(np.float64), axis=axis), dtype="float64")


def test_sum_accumulator_dtypes(xp):
    dint = xp.__array_namespace_info__().default_dtypes()["integral"]
    assert xp.sum(xp.asarray([True, True])).dtype == dint
    assert int(xp.sum(xp.asarray([True, True, False]))) == 2
    x8 = xp.asarray(np.full(300, 100, dtype=np.int8))
    assert int(xp.sum(x8)) == 30000  # no int8 overflow
    u8 = xp.asarray(np.full(300, 200, dtype=np.uint8))
    assert int(xp.sum(u8)) == 60000 and xp.sum(u8).dtype.name.startswith("uint")
    f32 = get_dtype(xp, "float32")
    assert xp.sum(xp.ones((3,), dtype=f32)).dtype == f32
    assert xp.prod(xp.ones((3,), dtype=f32)).dtype == f32
    assert xp.sum(xp.ones((3,), dtype=xp.int32), dtype=xp.int16).dtype == xp.int16


def test_empty_reductions(xp):
    e = xp.zeros((0, 3))
    assert_equal(xp.sum(e), np.asarray(0.0))
    assert_equal(xp.prod(e), np.asarray(1.0))
    assert_equal(xp.sum(e, axis=0), np.zeros(3))
    assert_equal(xp.sum(e, axis=1), np.zeros(0))
    m = to_numpy(xp.mean(e))
    assert np.isnan(m)
    with pytest.raises(ValueError):
        xp.max(e)
    with pytest.raises(ValueError):
        xp.min(e, axis=0)
    assert xp.max(e, axis=1).shape == (0,)


@pytest.mark.parametrize("fname", ["max", "min"])
@given(data=st.data())
def test_max_min(xp, fname, data):
    name = data.draw(st.sampled_from(["float64", "float32", "int8", "uint16", "int64"]))
    get_dtype(xp, name)
    a = data.draw(np_arrays(name, shapes(min_side=1, max_side=4)))
    axis = _axes(data, a.ndim)
    keep = data.draw(st.booleans())
    ref = getattr(np, fname)(a, axis=axis, keepdims=keep)
    assert_equal(getattr(xp, fname)(xp.asarray(a), axis=axis, keepdims=keep), ref,
                 dtype=name)


def test_max_min_propagate_nan(xp):
    x = xp.asarray([[1.0, float("nan")], [2.0, 3.0]])
    assert np.isnan(to_numpy(xp.max(x)))
    assert_equal(xp.min(x, axis=1), np.asarray([np.nan, 2.0]))
    assert_equal(xp.max(x, axis=0), np.asarray([2.0, np.nan]))


@given(data=st.data())
def test_mean(xp, data):
    name = data.draw(st.sampled_from(["float64", "float32", "complex128"]))
    get_dtype(xp, name)
    a = data.draw(np_arrays(name, shapes(min_side=1, max_side=4), min_value=-100,
                            max_value=100))
    axis = _axes(data, a.ndim)
    keep = data.draw(st.booleans())
    ref = np.mean(a.astype(np.complex128 if name[0] == "c" else np.float64), axis=axis,
                  keepdims=keep)
    assert_close(xp.mean(xp.asarray(a), axis=axis, keepdims=keep), ref, dtype=name,
                 atol=_tolerance(name, a, axis), rtol=1e-5 if name == "float32" else 1e-12)


@pytest.mark.parametrize("fname", ["var", "std"])
@given(data=st.data())
def test_var_std(xp, fname, data):
    name = data.draw(st.sampled_from(["float64", "float32"]))
    get_dtype(xp, name)
    a = data.draw(np_arrays(name, shapes(min_side=2, max_side=4), min_value=-10,
                            max_value=10))
    axis = _axes(data, a.ndim)
    n = a.size if axis is None else int(np.prod([a.shape[i] for i in
                                                 ((axis,) if isinstance(axis, int) else axis)]))
    correction = data.draw(st.sampled_from([0, 1, 0.5, 0.0, 1.0]))
    if n - correction <= 0:
        correction = 0
    keep = data.draw(st.booleans())
    ref = getattr(np, fname)(a.astype(np.float64), axis=axis, ddof=correction, keepdims=keep)
    out = getattr(xp, fname)(xp.asarray(a), axis=axis, correction=correction, keepdims=keep)
    tol = 1e-4 if name == "float32" else 1e-10
    assert_close(out, ref, dtype=name, rtol=tol, atol=tol * 100)


@pytest.mark.strict_semantics
def test_var_known_values(xp):
    x = xp.asarray([1.0, 2.0, 3.0, 4.0])
    assert float(xp.var(x)) == 1.25
    assert abs(float(xp.var(x, correction=1)) - 5.0 / 3.0) < 1e-15
    assert abs(float(xp.std(x, correction=1)) - (5.0 / 3.0) ** 0.5) < 1e-15
    with pytest.raises(TypeError):
        xp.var(xp.asarray([1, 2]))


@pytest.mark.parametrize("fname", ["cumulative_sum", "cumulative_prod"])
@given(data=st.data())
def test_cumulative(xp, fname, data):
    name = data.draw(st.sampled_from(["float64", "int32", "uint8", "bool", "float32", "int64"]))
    get_dtype(xp, name)
    kw = {} if name == "bool" else dict(min_value=0 if name[0] == "u" else -3, max_value=3)
    a = data.draw(np_arrays(name, shapes(min_dims=1, max_side=4), **kw))
    ax = data.draw(st.integers(-a.ndim, a.ndim - 1)) if a.ndim > 1 else \
        data.draw(st.sampled_from([None, 0, -1]))
    inc = data.draw(st.booleans())
    acc = _acc_dtype(xp, name)
    npf = np.cumsum if fname == "cumulative_sum" else np.cumprod
    axis = 0 if ax is None else ax
    ref = npf(a.astype(acc if np.dtype(name).kind not in "fc" else np.float64), axis=axis)
    if inc:
        init_shape = list(a.shape)
        init_shape[axis] = 1
        ref = np.concatenate([np.full(init_shape, 0 if fname == "cumulative_sum" else 1,
                                      ref.dtype), ref], axis=axis)
    out = getattr(xp, fname)(xp.asarray(a), axis=ax, include_initial=inc)
    if np.dtype(name).kind in "fc":
        assert_close(out, ref, dtype=name, rtol=1e-5, atol=1e-4)
    else:
        assert_equal(out, ref, dtype=acc)


def test_cumulative_needs_axis(xp):
    with pytest.raises(ValueError):
        xp.cumulative_sum(xp.zeros((2, 2)))
