"""all, any, diff."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from _support import assert_equal, get_dtype, np_arrays, shapes


@pytest.mark.parametrize("fname", ["all", "any"])
@given(data=st.data())
def test_all_any(xp, fname, data):
    name = data.draw(st.sampled_from(["bool", "float64", "int8", "complex64", "uint32"]))
    get_dtype(xp, name)
    kw = {} if name == "bool" else dict(min_value=0, max_value=1)
    a = data.draw(np_arrays(name, shapes(), **kw))
    axis = None
    if a.ndim:
        axis = data.draw(st.one_of(st.none(), st.integers(-a.ndim, a.ndim - 1),
                                   st.lists(st.integers(0, a.ndim - 1), unique=True).map(tuple)))
    keep = data.draw(st.booleans())
    out = getattr(xp, fname)(xp.asarray(a), axis=axis, keepdims=keep)
    assert_equal(out, getattr(np, fname)(a, axis=axis, keepdims=keep), dtype="bool")


def test_all_any_nan_and_empty(xp):
    x = xp.asarray([float("nan"), 0.0])
    assert bool(xp.any(x)) is True and bool(xp.all(x)) is False
    e = xp.zeros((0,))
    assert bool(xp.all(e)) is True and bool(xp.any(e)) is False


@given(data=st.data())
def test_diff(xp, data):
    name = data.draw(st.sampled_from(["float64", "int32", "float32", "int64"]))
    get_dtype(xp, name)
    a = data.draw(np_arrays(name, shapes(min_dims=1, max_side=5), min_value=-100,
                            max_value=100))
    ax = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = data.draw(st.integers(0, 3))
    kw, np_kw = {}, {}
    if data.draw(st.booleans()):
        pshape = list(a.shape)
        pshape[ax] = data.draw(st.integers(0, 2))
        p = data.draw(np_arrays(name, tuple(pshape), min_value=-100, max_value=100))
        kw["prepend"], np_kw["prepend"] = xp.asarray(p), p
    if data.draw(st.booleans()):
        kw["append"] = 1 if name[0] == "i" else 1.5  # a Python scalar takes x's dtype
        np_kw["append"] = np.asarray(kw["append"], dtype=name)
    out = xp.diff(xp.asarray(a), axis=ax, n=n, **kw)
    assert_equal(out, np.diff(a, axis=ax, n=n, **np_kw), dtype=name)


def test_diff_invalid(xp):
    with pytest.raises(ValueError):
        xp.diff(xp.asarray(1.0))
    with pytest.raises(ValueError):
        xp.diff(xp.asarray([1.0, 2.0]), n=-1)
    with pytest.raises(ValueError):
        xp.diff(xp.zeros((2, 3)), axis=1, prepend=xp.zeros((3, 1)))
