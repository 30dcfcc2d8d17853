"""argmax, argmin, count_nonzero, nonzero, searchsorted, where."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from _support import assert_equal, broadcastable_shapes, get_dtype, np_arrays, shapes

REAL = ["float64", "float32", "int8", "uint16", "int64"]


def _index_dtype(xp):
    return xp.__array_namespace_info__().default_dtypes()["indexing"].name


@given(data=st.data())
def test_argmax_argmin(xp, data):
    name = data.draw(st.sampled_from(REAL))
    get_dtype(xp, name)
    a = data.draw(np_arrays(name, shapes(min_dims=0, max_dims=3, min_side=1),
                            min_value=-5, max_value=5))  # small range: many ties
    x = xp.asarray(a)
    idt = _index_dtype(xp)
    keep = data.draw(st.booleans())
    assert_equal(xp.argmax(x), np.asarray(np.argmax(a)), dtype=idt)
    assert_equal(xp.argmin(x), np.asarray(np.argmin(a)), dtype=idt)
    if a.ndim:
        ax = data.draw(st.integers(-a.ndim, a.ndim - 1))
        assert_equal(xp.argmax(x, axis=ax, keepdims=keep),
                     np.argmax(a, axis=ax, keepdims=keep), dtype=idt)
        assert_equal(xp.argmin(x, axis=ax, keepdims=keep),
                     np.argmin(a, axis=ax, keepdims=keep), dtype=idt)
    assert xp.argmax(x, keepdims=True).shape == (1,) * a.ndim


def test_argmax_nan_first_occurrence(xp):
    x = xp.asarray([1.0, float("nan"), 3.0, float("nan")])
    assert int(xp.argmax(x)) == 1 and int(xp.argmin(x)) == 1
    with pytest.raises(ValueError):
        xp.argmax(xp.asarray(np.zeros((0,))))


@given(data=st.data())
def test_count_nonzero(xp, data):
    name = data.draw(st.sampled_from(REAL + ["bool", "complex64"]))
    get_dtype(xp, name)
    a = data.draw(np_arrays(name, shapes(), **({} if name in ("bool",) else
                                               dict(min_value=0, max_value=2))))
    x = xp.asarray(a)
    idt = xp.__array_namespace_info__().default_dtypes()["integral"].name
    out = xp.count_nonzero(x)
    assert_equal(out, np.asarray(np.count_nonzero(a)), dtype=idt)
    if a.ndim:
        ax = data.draw(st.integers(-a.ndim, a.ndim - 1))
        keep = data.draw(st.booleans())
        assert_equal(xp.count_nonzero(x, axis=ax, keepdims=keep),
                     np.count_nonzero(a, axis=ax, keepdims=keep), dtype=idt)


@given(data=st.data())
def test_nonzero(xp, data):
    name = data.draw(st.sampled_from(["float64", "int32", "bool"]))
    a = data.draw(np_arrays(name, shapes(min_dims=1), **({} if name == "bool" else
                                                         dict(min_value=0, max_value=2))))
    out = xp.nonzero(xp.asarray(a))
    ref = np.nonzero(a)
    assert isinstance(out, tuple) and len(out) == len(ref)
    for o, r in zip(out, ref):
        assert_equal(o, r, dtype=_index_dtype(xp))
    with pytest.raises(ValueError):
        xp.nonzero(xp.asarray(1.0))


@given(data=st.data())
def test_searchsorted(xp, data):
    name = data.draw(st.sampled_from(["float64", "int32", "float32"]))
    get_dtype(xp, name)
    a = np.sort(data.draw(np_arrays(name, shapes(min_dims=1, max_dims=1), min_value=-5,
                                    max_value=5)))
    v = data.draw(np_arrays(name, shapes(max_dims=2), min_value=-6, max_value=6))
    side = data.draw(st.sampled_from(["left", "right"]))
    out = xp.searchsorted(xp.asarray(a), xp.asarray(v), side=side)
    assert_equal(out, np.searchsorted(a, v, side=side), dtype=_index_dtype(xp))
    # with a sorter on an unsorted array
    perm = data.draw(st.permutations(range(a.size)))
    u = a[np.asarray(perm, dtype=np.int64)]
    sorter = np.argsort(u, kind="stable")
    out2 = xp.searchsorted(xp.asarray(u), xp.asarray(v), side=side, sorter=xp.asarray(sorter))
    assert_equal(out2, np.searchsorted(u, v, side=side, sorter=sorter))


def test_searchsorted_scalar_and_nan(xp):
    a = xp.asarray([1.0, 2.0, float("nan")])
    assert int(xp.searchsorted(a, 2.0)) == 1
    assert int(xp.searchsorted(a, 2.0, side="right")) == 2
    assert int(xp.searchsorted(a, xp.asarray(float("nan")))) == 2  # NaN sorts last


@given(data=st.data())
def test_where(xp, data):
    name = data.draw(st.sampled_from(["float64", "int16", "bool", "complex128", "uint8"]))
    get_dtype(xp, name)
    sh = data.draw(broadcastable_shapes(num_shapes=3)).input_shapes
    c = data.draw(np_arrays("bool", sh[0]))
    a = data.draw(np_arrays(name, sh[1]))
    b = data.draw(np_arrays(name, sh[2]))
    out = xp.where(xp.asarray(c), xp.asarray(a), xp.asarray(b))
    assert_equal(out, np.where(c, a, b), dtype=name)


@pytest.mark.strict_semantics
def test_where_scalars_and_promotion(xp):
    c = xp.asarray([True, False, True])
    x = xp.asarray([1.0, 2.0, 3.0])
    assert_equal(xp.where(c, x, 0.0), np.asarray([1.0, 0.0, 3.0]))
    assert_equal(xp.where(c, -1.0, x), np.asarray([-1.0, 2.0, -1.0]))
    i8 = xp.asarray([1, 2, 3], dtype=xp.int8)
    i16 = xp.asarray([4, 5, 6], dtype=xp.int16)
    assert_equal(xp.where(c, i8, i16), np.asarray([1, 5, 3], np.int16), dtype="int16")
    with pytest.raises(TypeError):
        xp.where(c, i8, x)
    with pytest.raises(TypeError):
        xp.where(c, 1.0, 2.0)
