"""Manipulation functions against NumPy."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from _support import (assert_equal, broadcastable_shapes, dtype_names, get_dtype, np_arrays,
                      shapes, to_numpy)

NAMES = ["float64", "int32", "bool", "complex64", "uint8", "float32"]


def _draw(data, min_dims=0, max_dims=3, name=None):
    name = name or data.draw(st.sampled_from(NAMES), label="dtype")
    return data.draw(np_arrays(name, shapes(min_dims=min_dims, max_dims=max_dims)), label="x")


def _axis(data, ndim, allow_none=True):
    if ndim == 0:
        return None
    choices = st.integers(-ndim, ndim - 1)
    return data.draw(st.one_of(st.none(), choices) if allow_none else choices, label="axis")


@given(data=st.data())
def test_broadcast_to_and_arrays(xp, data):
    sh = data.draw(broadcastable_shapes(num_shapes=3))
    arrays = [data.draw(np_arrays("float64", s)) for s in sh.input_shapes]
    outs = xp.broadcast_arrays(*[xp.asarray(a) for a in arrays])
    refs = np.broadcast_arrays(*arrays)
    for o, r in zip(outs, refs):
        assert_equal(o, r, dtype="float64")
    assert xp.broadcast_shapes(*sh.input_shapes) == sh.result_shape
    assert_equal(xp.broadcast_to(xp.asarray(arrays[0]), sh.result_shape),
                 np.broadcast_to(arrays[0], sh.result_shape))


@given(data=st.data())
def test_concat(xp, data):
    a = _draw(data, min_dims=1)
    get_dtype(xp, a.dtype.name)
    ax = _axis(data, a.ndim, allow_none=False)
    n = data.draw(st.integers(0, 3))
    b_shape = list(a.shape)
    b_shape[ax] = n
    b = data.draw(np_arrays(a.dtype.name, tuple(b_shape)))
    assert_equal(xp.concat([xp.asarray(a), xp.asarray(b)], axis=ax),
                 np.concatenate([a, b], axis=ax), dtype=a.dtype.name)
    assert_equal(xp.concat((xp.asarray(a), xp.asarray(b)), axis=None),
                 np.concatenate([a.ravel(), b.ravel()]))


@pytest.mark.strict_semantics
def test_concat_promotes(xp):
    out = xp.concat([xp.asarray([1], dtype=xp.int8), xp.asarray([300], dtype=xp.int16)])
    assert_equal(out, np.asarray([1, 300], np.int16), dtype="int16")
    with pytest.raises(TypeError):
        xp.concat([xp.asarray([1], dtype=xp.int8), xp.asarray([1.0])])


@given(data=st.data())
def test_stack_unstack(xp, data):
    a = _draw(data)
    get_dtype(xp, a.dtype.name)
    b = data.draw(np_arrays(a.dtype.name, a.shape))
    ax = data.draw(st.integers(-a.ndim - 1, a.ndim))
    out = xp.stack([xp.asarray(a), xp.asarray(b)], axis=ax)
    assert_equal(out, np.stack([a, b], axis=ax), dtype=a.dtype.name)
    if a.ndim >= 1:
        ax2 = _axis(data, a.ndim, allow_none=False)
        parts = xp.unstack(xp.asarray(a), axis=ax2)
        refs = [np.take(a, i, axis=ax2) for i in range(a.shape[ax2])]
        assert len(parts) == len(refs)
        for p, r in zip(parts, refs):
            assert_equal(p, r)


@given(data=st.data())
def test_expand_squeeze(xp, data):
    a = _draw(data, name=data.draw(dtype_names(xp, ("bool", "numeric")), label="dtype"))
    get_dtype(xp, a.dtype.name)
    ax = data.draw(st.integers(-a.ndim - 1, a.ndim))
    e = xp.expand_dims(xp.asarray(a), axis=ax)
    assert_equal(e, np.expand_dims(a, ax), dtype=a.dtype.name)
    assert_equal(xp.squeeze(e, axis=ax), a)
    # 2025.12: expand_dims with a tuple of axes
    e2 = xp.expand_dims(xp.asarray(a), axis=(0, -1))
    assert_equal(e2, np.expand_dims(a, (0, -1)))
    assert_equal(xp.squeeze(e2, axis=(0, -1)), a)


@given(data=st.data())
def test_flip_roll(xp, data):
    a = _draw(data)
    get_dtype(xp, a.dtype.name)
    x = xp.asarray(a)
    ax = _axis(data, a.ndim)
    assert_equal(xp.flip(x, axis=ax), np.flip(a, axis=ax), dtype=a.dtype.name)
    shift = data.draw(st.integers(-7, 7))
    assert_equal(xp.roll(x, shift, axis=ax), np.roll(a, shift, axis=ax))
    if a.ndim >= 2:
        assert_equal(xp.roll(x, (1, -2), axis=(0, 1)), np.roll(a, (1, -2), axis=(0, 1)))
        assert_equal(xp.flip(x, axis=(0, -1)), np.flip(a, axis=(0, -1)))


@given(data=st.data())
def test_permute_moveaxis(xp, data):
    a = _draw(data, max_dims=4)
    get_dtype(xp, a.dtype.name)
    x = xp.asarray(a)
    perm = data.draw(st.permutations(range(a.ndim)))
    assert_equal(xp.permute_dims(x, tuple(perm)), np.transpose(a, perm), dtype=a.dtype.name)
    if a.ndim >= 1:
        s = data.draw(st.integers(-a.ndim, a.ndim - 1))
        d = data.draw(st.integers(-a.ndim, a.ndim - 1))
        assert_equal(xp.moveaxis(x, s, d), np.moveaxis(a, s, d))
    if a.ndim >= 2:
        assert_equal(xp.moveaxis(x, (0, 1), (-1, 0)), np.moveaxis(a, (0, 1), (-1, 0)))


@given(data=st.data())
def test_reshape(xp, data):
    a = _draw(data, max_dims=4)
    get_dtype(xp, a.dtype.name)
    x = xp.asarray(a)
    flat = xp.reshape(x, (-1,))
    assert_equal(flat, a.reshape(-1), dtype=a.dtype.name)
    target = data.draw(st.sampled_from([(a.size,), (1, a.size), (a.size, 1), ()]
                                       if a.size == 1 else [(a.size,), (1, a.size), (-1, 1)]))
    assert_equal(xp.reshape(x, target), a.reshape(target))
    if a.size and a.size % 2 == 0:
        assert_equal(xp.reshape(x, (2, -1)), a.reshape(2, -1))


def test_reshape_copy_semantics(xp):
    x = xp.asarray(np.arange(6.0))
    y = xp.reshape(x, (2, 3), copy=True)
    y[0, 0] = 100.0
    assert float(x[0]) == 0.0
    with pytest.raises(ValueError):
        xp.reshape(x, (4, -1))
    with pytest.raises(ValueError):
        xp.reshape(x, (-1, -1))


@given(data=st.data())
def test_repeat_tile(xp, data):
    a = _draw(data, max_dims=3)
    get_dtype(xp, a.dtype.name)
    x = xp.asarray(a)
    r = data.draw(st.integers(0, 3))
    assert_equal(xp.repeat(x, r), np.repeat(a, r), dtype=a.dtype.name)
    if a.ndim >= 1:
        ax = _axis(data, a.ndim, allow_none=False)
        reps = data.draw(np_arrays("int64", (a.shape[ax],), min_value=0, max_value=3))
        assert_equal(xp.repeat(x, xp.asarray(reps), axis=ax), np.repeat(a, reps, axis=ax))
    t = tuple(data.draw(st.lists(st.integers(0, 3), min_size=0, max_size=4)))
    assert_equal(xp.tile(x, t), np.tile(a, t), dtype=a.dtype.name)


def test_views_do_not_leak_writes_between_results(xp):
    """Functions that make new arrays never alias their input: a later write to the input
    leaves them as computed; a view-returning function (flip) shows either the old or the
    new value, never anything else."""
    a = np.arange(6.0).reshape(2, 3)
    x = xp.asarray(a)
    made = {"roll": (xp.roll(x, 1), np.roll(a, 1)),
            "concat": (xp.concat([x, x]), np.concatenate([a, a])),
            "stack": (xp.stack([x, x]), np.stack([a, a])),
            "tile": (xp.tile(x, (2,)), np.tile(a, (2,))),
            "repeat": (xp.repeat(x, 2, axis=0), np.repeat(a, 2, axis=0)),
            "astype": (xp.astype(x, xp.float32), a.astype(np.float32)),
            "copy": (xp.asarray(x, copy=True), a.copy())}
    f = xp.flip(x, axis=0)
    x[0, 0] = 50.0
    for name, (got, want) in made.items():
        np.testing.assert_array_equal(to_numpy(got), want, err_msg=name)
    after = a.copy()
    after[0, 0] = 50.0
    fh = to_numpy(f)
    assert np.array_equal(fh, np.flip(a, 0)) or np.array_equal(fh, np.flip(after, 0)), fh
    np.testing.assert_array_equal(to_numpy(x), after)
