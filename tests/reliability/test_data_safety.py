"""Data safety: no copy that aliases its source, no write through a broadcast view or any
view of a read-only array, no custom-kernel write past an output view, one validation of
hostile arguments and one rule for NumPy operands on every backend.

Every test runs on every available backend (the ``xp`` fixture) and compares with NumPy's
behaviour where NumPy defines one.
"""

import copy
import operator

import numpy as np
import pytest

from numr_array_api.errors import InvalidArgument, InvalidType, NumrError


def _host(x):
    return np.from_dlpack(x.to_device("cpu")) if str(x.device) != "cpu" else np.asarray(x)


# ---- copies -------------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["copy", "deepcopy"])
def test_copy_is_independent(xp, how):
    a = xp.asarray([1.0, 2.0, 3.0])
    y = getattr(copy, how)(a)
    assert y is not a
    y[0] = 100.0
    assert float(a[0]) == 1.0 and float(y[0]) == 100.0


@pytest.mark.parametrize("how", ["copy", "deepcopy"])
def test_copy_of_a_broadcast_view_is_writable(xp, how):
    a = xp.asarray([1.0, 2.0, 3.0])
    y = getattr(copy, how)(xp.broadcast_to(a, (2, 3)))
    y[0, 0] = 9.0
    np.testing.assert_array_equal(_host(y), [[9.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
    np.testing.assert_array_equal(_host(a), [1.0, 2.0, 3.0])


# ---- read-only views ----------------------------------------------------------------------


# view-returning functions applied to the read-only array B (a broadcast of a), and
# broadcasts that repeat no dimension
VIEWS = {
    "broadcast_to (3,)": lambda xp, a, B: xp.broadcast_to(a, (3,)),
    "broadcast_to (1, 3)[0]": lambda xp, a, B: xp.broadcast_to(a, (1, 3))[0],
    "squeeze of broadcast_to (1, 3)": lambda xp, a, B: xp.squeeze(xp.broadcast_to(a, (1, 3)),
                                                                  axis=0),
    "reshape of broadcast_to (1, 3)": lambda xp, a, B: xp.reshape(xp.broadcast_to(a, (1, 3)),
                                                                  (3,)),
    "broadcast_to (4, 3)": lambda xp, a, B: B,
    "slice": lambda xp, a, B: B[1:3],
    "int index": lambda xp, a, B: B[2],
    "tuple key": lambda xp, a, B: B[(1, slice(None))],
    "ellipsis": lambda xp, a, B: B[..., 1:],
    "reshape (4, 3)": lambda xp, a, B: xp.reshape(B, (4, 3)),
    "reshape (2, 2, 3)": lambda xp, a, B: xp.reshape(B, (2, 2, 3)),
    "reshape (12,), a copy on some backends": lambda xp, a, B: xp.reshape(B, (12,)),
    "squeeze": lambda xp, a, B: xp.squeeze(xp.expand_dims(B, axis=0), axis=0),
    "expand_dims": lambda xp, a, B: xp.expand_dims(B, axis=0),
    "permute_dims": lambda xp, a, B: xp.permute_dims(B, (1, 0)),
    "moveaxis": lambda xp, a, B: xp.moveaxis(B, 0, 1),
    "mT": lambda xp, a, B: B.mT,
    "T": lambda xp, a, B: B.T,
    "matrix_transpose": lambda xp, a, B: xp.matrix_transpose(B),
    "flip of a view": lambda xp, a, B: xp.flip(B[1:]),
    "unstack": lambda xp, a, B: xp.unstack(B)[1],
    "broadcast_arrays": lambda xp, a, B: xp.broadcast_arrays(B, a)[1],
    "broadcast_arrays of read-only arrays": lambda xp, a, B: xp.broadcast_arrays(B, B)[0],
    "broadcast_to of a read-only array": lambda xp, a, B: xp.broadcast_to(B, (2, 4, 3)),
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_views_of_read_only_arrays_refuse_writes(xp, name):
    a = xp.asarray([1.0, 2.0, 3.0])
    v = VIEWS[name](xp, a, xp.broadcast_to(a, (4, 3)))
    key = (0,) * v.ndim
    with pytest.raises(InvalidArgument, match="read-only"):
        v[key] = 42.0
    with pytest.raises(InvalidArgument, match="read-only"):
        v[...] = 42.0
    with pytest.raises(InvalidArgument, match="read-only"):
        v += 1.0
    np.testing.assert_array_equal(_host(a), [1.0, 2.0, 3.0])
    # reads still work, and a copy is writable
    c = xp.asarray(v, copy=True)
    c[key] = 42.0
    np.testing.assert_array_equal(_host(a), [1.0, 2.0, 3.0])


def test_views_of_writable_arrays_stay_writable(xp):
    a = xp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    xp.reshape(a, (3, 2))[0, 0] = 7.0
    a[1][0] = 8.0
    xp.permute_dims(a, (1, 0))[2, 1] = 9.0
    np.testing.assert_array_equal(_host(a), [[7.0, 2.0, 3.0], [8.0, 5.0, 9.0]])


# ---- hostile arguments ----------------------------------------------------------------------
FLAG_CALLS = {
    "sum keepdims": lambda xp, x, v: xp.sum(x, keepdims=v),
    "max keepdims": lambda xp, x, v: xp.max(x, keepdims=v),
    "asarray copy": lambda xp, x, v: xp.asarray(x, copy=v),
    "astype copy": lambda xp, x, v: xp.astype(x, x.dtype, copy=v),
    "reshape copy": lambda xp, x, v: xp.reshape(x, (-1,), copy=v),
    "from_dlpack copy": lambda xp, x, v: xp.from_dlpack(x, copy=v),
    "sort descending": lambda xp, x, v: xp.sort(x, descending=v),
    "argsort stable": lambda xp, x, v: xp.argsort(x, stable=v),
    "cumulative_sum include_initial": lambda xp, x, v: xp.cumulative_sum(
        x, axis=0, include_initial=v),
    "isin invert": lambda xp, x, v: xp.isin(x, x, invert=v),
    "linspace endpoint": lambda xp, x, v: xp.linspace(0.0, 1.0, 5, endpoint=v),
}


@pytest.mark.parametrize("value", ["abc", [1], float("nan"), 1, np.float64(0.0)],
                         ids=["str", "list", "nan", "int", "np-float"])
@pytest.mark.parametrize("call", list(FLAG_CALLS))
def test_bool_flags_refuse_non_bools(xp, call, value):
    x = xp.asarray([3.0, 1.0, 2.0])
    with pytest.raises(InvalidType, match="must be True"):
        FLAG_CALLS[call](xp, x, value)


def test_bool_flags_accept_numpy_bools(xp):
    x = xp.asarray([[3.0, 1.0, 2.0]])
    assert xp.sum(x, axis=1, keepdims=np.True_).shape == (1, 1)
    assert xp.sort(x, descending=np.False_).shape == (1, 3)


HOSTILE = {
    "linspace start None": (lambda xp, x: xp.linspace(None, 1.0, 5), InvalidType),
    "linspace stop None": (lambda xp, x: xp.linspace(0.0, None, 5), InvalidType),
    "arange None": (lambda xp, x: xp.arange(None), InvalidType),
    "var correction nan": (lambda xp, x: xp.var(x, correction=float("nan")), InvalidArgument),
    "std correction inf": (lambda xp, x: xp.std(x, correction=float("inf")), InvalidArgument),
    "std correction -1": (lambda xp, x: xp.std(x, correction=-1), InvalidArgument),
    "broadcast_shapes negative": (lambda xp, x: xp.broadcast_shapes((-1, 3)), InvalidArgument),
    "reshape None": (lambda xp, x: xp.reshape(x, None), InvalidType),
    "vecdot axis None": (lambda xp, x: xp.vecdot(x, x, axis=None), InvalidType),
    "sum axis array": (lambda xp, x: xp.sum(x, axis=xp.asarray(0)), InvalidType),
    "take axis array": (lambda xp, x: xp.take(x, xp.asarray([0]), axis=xp.asarray(0)),
                        InvalidType),
    "from_dlpack copy str": (lambda xp, x: xp.from_dlpack(x, copy="abc"), InvalidType),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_arguments_raise_numr_errors(xp, case):
    fn, exc = HOSTILE[case]
    x = xp.asarray([1.0, 2.0, 3.0])
    with pytest.raises(exc) as info:
        fn(xp, x)
    assert isinstance(info.value, NumrError)
    # the message names what was wrong, not Python's internals
    assert "NoneType' object" not in str(info.value)
    assert "only integer arrays can be used as an index" not in str(info.value)


@pytest.mark.parametrize("offset", [2**62, -2**62, 2**70, 3, -2, 4])
def test_trace_offset_beyond_the_matrix(xp, offset):
    a = np.arange(12.0).reshape(3, 4)
    got = float(xp.linalg.trace(xp.asarray(a), offset=offset))
    ref = float(np.trace(a, offset=max(-3, min(offset, 4))))
    assert got == ref


# ---- NumPy operands ---------------------------------------------------------------------------
OPS = ["__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__",
       "__matmul__", "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__", "__and__",
       "__or__"]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("order", ["numr-numpy", "numpy-numr"])
def test_numpy_array_operands_are_refused_in_both_orders(xp, op, order):
    if op in ("__and__", "__or__"):
        x, n = xp.asarray([[True, False], [False, True]]), np.asarray([[True, True], [False, False]])
    else:
        x, n = xp.asarray([[1.0, 2.0], [3.0, 4.0]]), np.asarray([[1.0, 2.0], [3.0, 4.0]])
    f = getattr(operator, op)
    args = (x, n) if order == "numr-numpy" else (n, x)
    with pytest.raises(InvalidType, match="NumPy array|must be an array"):
        f(*args)


def test_numpy_scalars_still_combine(xp):
    x = xp.asarray([1.0, 2.0])
    for r in (np.float64(2.0) * x, x * np.float64(2.0), np.asarray(2.0) * x):
        assert r.__class__ is x.__class__
        np.testing.assert_array_equal(_host(r), [2.0, 4.0])


# ---- custom kernels bind exactly the output view ------------------------------------------------
_FILL = """
@group(0) @binding(0) var<storage, read_write> b: array<f32>;
@compute @workgroup_size(1) fn main() {
    for (var i = 0u; i < arrayLength(&b); i++) { b[i] = 7.0; }
}
"""


@pytest.mark.parametrize("lo,hi", [(0, 1), (8, 9), (8, 11), (0, 12), (64, 65)])
def test_custom_kernel_writes_only_its_output_view(xp, lo, hi):
    if xp.__name__.rsplit(".", 1)[-1] != "webgpu":
        pytest.skip("WGSL custom kernels are the webgpu namespace's")
    x = xp.zeros(80, dtype=xp.float32)
    out = x[lo:hi]
    align = out._data.client.storage_align
    if (lo * 4) % align:
        # outputs start at the adapter's storage offset alignment, or are refused
        with pytest.raises(InvalidArgument, match="start at a multiple"):
            xp.custom_kernel(_FILL, "main", [], [out._data], 1)
        hi = lo  # nothing written
    else:
        xp.custom_kernel(_FILL, "main", [], [out._data], 1)
    ref = np.zeros(80, np.float32)
    ref[lo:hi] = 7.0
    np.testing.assert_array_equal(_host(x), ref)


def test_custom_kernel_refuses_what_it_cannot_bind_exactly(xp):
    if xp.__name__.rsplit(".", 1)[-1] != "webgpu":
        pytest.skip("WGSL custom kernels are the webgpu namespace's")
    u = xp.zeros(8, dtype=xp.uint8)
    with pytest.raises(InvalidArgument, match="whole number of 4-byte words"):
        xp.custom_kernel(_FILL, "main", [], [u[0:1]._data], 1)
    np.testing.assert_array_equal(_host(u), np.zeros(8, np.uint8))
    x = xp.zeros(4, dtype=xp.float32)
    with pytest.raises(InvalidType, match="overrides"):
        xp.custom_kernel(_FILL, "main", [], [x._data], 1, overrides="abc")
