"""GPU kernels of manipulation, indexing and matmul (ops/manipulation.py, ops/indexing.py,
ops/matmul.py): results against NumPy on random shapes, views (transposed, negative steps,
broadcast), every dtype kind (packed sub-word and 16-byte ones included), and no host
round trip (HostFallbackWarning is an error here, except for the listed data-dependent
reads: the mask count of x[mask] and array repeats)."""

import warnings

import numpy as np
import pytest

from numr_array_api.backends.webgpu.ops.host_fallback import HostFallbackWarning, HostReadWarning

ALL = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
       "float16", "float32", "float64", "complex64", "complex128")
NUMERIC = tuple(d for d in ALL if d != "bool")
TOL = {"float16": 3e-2, "float32": 1e-4, "float64": 1e-10, "complex64": 1e-4,
       "complex128": 1e-10}


def host(x):
    return x._ctx.be.to_numpy(x._data)


def rand(rng, shape, dtype):
    d = np.dtype(dtype)
    if d.kind == "b":
        return rng.random(shape) < 0.5
    if d.kind in "iu":
        info = np.iinfo(d)
        return rng.integers(max(info.min, -100), min(info.max, 100), shape, endpoint=True,
                            dtype=np.int64).astype(d)
    x = rng.standard_normal(shape) * 4
    if d.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(d)


def same(actual, expected, tol=None):
    a = host(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape and a.dtype == e.dtype, (a.shape, e.shape, a.dtype, e.dtype)
    if tol:
        assert np.allclose(a, e, rtol=tol, atol=tol), np.abs(a - e).max()
    else:
        assert np.array_equal(a, e, equal_nan=True), (a, e)


@pytest.fixture
def strict():
    with warnings.catch_warnings():
        warnings.simplefilter("error", HostFallbackWarning)
        yield


def _supported(wx, name):
    if name == "float16":  # an extension dtype: not in the info API's table
        return hasattr(wx, "float16")
    return getattr(wx, name) in wx.__array_namespace_info__().dtypes().values()


@pytest.fixture(params=ALL)
def dtype(request, wx):
    if not _supported(wx, request.param):
        pytest.skip(f"{request.param} not granted by the adapter")
    return request.param


@pytest.mark.parametrize("seed", range(3))
def test_manipulation(wx, dtype, seed, strict):
    rng = np.random.default_rng(seed)
    shape = tuple(rng.integers(0 if seed == 2 else 1, 5, 3))
    a, b = rand(rng, shape, dtype), rand(rng, shape[:1] + (2,) + shape[2:], dtype)
    A, B = wx.asarray(a), wx.asarray(b)
    same(wx.concat([A, B], axis=1), np.concatenate([a, b], 1))
    same(wx.concat([A[:, ::-1], B], axis=1), np.concatenate([a[:, ::-1], b], 1))
    same(wx.concat([A, B], axis=None), np.concatenate([a, b], None))
    same(wx.stack([A, A[::-1], wx.permute_dims(A, (0, 1, 2))], axis=2),
         np.stack([a, a[::-1], a], 2))
    same(wx.roll(A, (2, -1, 5), axis=(1, 2, 1)), np.roll(a, (2, -1, 5), axis=(1, 2, 1)))
    same(wx.roll(A, 7), np.roll(a, 7))
    same(wx.repeat(A, 3, axis=1), np.repeat(a, 3, axis=1))
    same(wx.repeat(A, 2), np.repeat(a, 2))
    same(wx.tile(A, (2, 1, 3)), np.tile(a, (2, 1, 3)))
    same(wx.tile(A.mT, (2, 2, 1, 3)), np.tile(np.swapaxes(a, -1, -2), (2, 2, 1, 3)))
    same(wx.tile(A[0, 0], (3,)), np.tile(a[0, 0], (3,)))
    for i, u in enumerate(wx.unstack(A, axis=1)):
        same(u, a[:, i])
    z = wx.asarray(a[0, 0, 0]) if a.size else wx.asarray(np.zeros((), dtype))
    same(wx.stack([z, z]), np.stack([host(z), host(z)]))


def test_repeat_array_reads_repeats(wx):
    from numr_array_api.backends.webgpu.ops.host_fallback import _warned
    _warned.discard("repeat (array repeats)")  # the warning is once per process; earlier tests may have used it
    a = np.arange(12.0).reshape(3, 4)
    with pytest.warns(HostReadWarning, match="reads the repeats"):
        r = wx.repeat(wx.asarray(a), wx.asarray([1, 0, 2, 3]), axis=1)
    same(r, np.repeat(a, [1, 0, 2, 3], axis=1))


@pytest.mark.parametrize("seed", range(3))
def test_integer_array_indexing(wx, dtype, seed, strict):
    rng = np.random.default_rng(seed)
    a = rand(rng, (4, 5, 6), dtype)
    A = wx.asarray(a)
    i1, i2 = rng.integers(-4, 4, 5), rng.integers(-5, 5, (3, 1))
    I1, I2 = wx.asarray(i1), wx.asarray(i2)
    same(A[I1], a[i1])
    same(A[:, I2, ::-2], a[:, i2, ::-2])
    same(A[I1, :, I2], a[i1, :, i2])              # separated: broadcast dims go first
    same(A[1, :, I1], a[1, :, i1])                # an int counts as an advanced index
    same(A[None, I1, I2], a[None, i1, i2])
    same(A.mT[::-1][I1], np.swapaxes(a, -1, -2)[::-1][i1])
    same(A[wx.asarray(np.array([0, 3, 2], np.uint8))], a[np.array([0, 3, 2])])
    same(A[wx.asarray(np.array(2))], a[2])
    same(A[wx.asarray(np.zeros((0,), np.int64))], a[np.zeros((0,), np.int64)])
    same(wx.take(A, wx.asarray([2, 0, -1, 5]), axis=2), np.take(a, [2, 0, -1, 5], axis=2))
    idx = rng.integers(-5, 5, (4, 3, 6))
    same(wx.take_along_axis(A, wx.asarray(idx), axis=1),
         np.take_along_axis(a, idx % 5, axis=1))
    idx = rng.integers(0, 6, (1, 5, 2))
    same(wx.take_along_axis(A, wx.asarray(idx), axis=-1),
         np.take_along_axis(a, np.broadcast_to(idx, (4, 5, 2)), axis=-1))


@pytest.mark.parametrize("seed", range(2))
def test_integer_array_setitem(wx, dtype, seed, strict):
    rng = np.random.default_rng(seed)
    a = rand(rng, (4, 5, 6), dtype)
    b, B = a.copy(), wx.asarray(a)
    v = rand(rng, (4, 3, 6), dtype)
    B[:, wx.asarray([0, 2, -1])] = wx.asarray(v)
    b[:, [0, 2, -1]] = v
    same(B, b)
    B[wx.asarray([1, 3]), 2] = wx.asarray(v[0, 0])   # value broadcast
    b[[1, 3], 2] = v[0, 0]
    same(B, b)
    view = B.mT[::-1]                                # writes through a strided view
    view[wx.asarray([0, 3])] = wx.asarray(v[1, 1, 1])
    np.swapaxes(b, -1, -2)[::-1][[0, 3]] = v[1, 1, 1]
    same(B, b)


@pytest.mark.parametrize("dtype", ["float32", "int8", "bool", "uint16", "complex64"])
def test_boolean_mask(wx, dtype):
    rng = np.random.default_rng(5)
    a = rand(rng, (4, 5, 6), dtype)
    A = wx.asarray(a)
    m, m2, m3 = rng.random((4, 5, 6)) < 0.4, rng.random(5) < 0.5, rng.random((4, 5)) < 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HostReadWarning)  # the listed count read
        same(A[wx.asarray(m)], a[m])
        same(A[:, wx.asarray(m2)], a[:, m2])
        same(A[1, wx.asarray(m2), ::2], a[1, m2, ::2])
        same(A[wx.asarray(np.True_)], a[np.True_])
        same(A[wx.asarray(np.zeros((4, 5, 6), bool))], a[np.zeros((4, 5, 6), bool)])
        k = rng.integers(0, 6, int(m3.sum()))
        same(A[wx.asarray(m3), wx.asarray(k)], a[m3, k])
    with warnings.catch_warnings():
        warnings.simplefilter("error", HostFallbackWarning)  # setitem reads nothing
        warnings.simplefilter("error", HostReadWarning)
        b = a.copy()
        A[wx.asarray(m)] = wx.asarray(a[0, 0, 0])
        b[m] = a[0, 0, 0]
        same(A, b)
        vv = rand(rng, (4, int(m2.sum()), 6), dtype)
        A[:, wx.asarray(m2)] = wx.asarray(vv)
        b[:, m2] = vv
        same(A, b)
        vv = rand(rng, (int(m.sum()),), dtype)
        A[wx.asarray(m)] = wx.asarray(vv)
        b[m] = vv
        same(A, b)
        A[::-1, 1][wx.asarray(m[:, 0])] = wx.asarray(a[1, 1, 1])
        b[::-1, 1][m[:, 0]] = a[1, 1, 1]
        same(A, b)


def test_large_mask_scan(wx):
    rng = np.random.default_rng(1)
    m = rng.random(3 * 1024 * 1024 + 11) < 0.3     # three scan levels
    x = np.arange(m.size, dtype=np.int32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HostReadWarning)
        same(wx.asarray(x)[wx.asarray(m)], x[m])


def test_out_of_range_array_indices(wx, strict):
    a = np.arange(12.0).reshape(3, 4)
    A = wx.asarray(a)
    same(A[wx.asarray([2, -3, 1])], a[[2, -3, 1]])
    for key, bad in (([5, 1], "5"), ([-4], "-4"), ([[0], [3]], "3")):
        with pytest.raises(IndexError, match=bad):
            A[wx.asarray(key)]
    with pytest.raises(IndexError, match="7"):
        wx.take(A, wx.asarray([0, 7]), axis=1)
    with pytest.raises(IndexError, match="9"):
        wx.take_along_axis(A, wx.asarray([[9], [0], [1]]), axis=1)
    with pytest.raises(IndexError, match="5"):
        A[wx.asarray([5, 0])] = 7.0
    same(A, a)                      # nothing written by the failed assignment


@pytest.mark.parametrize("dtype", NUMERIC)
def test_matmul(wx, dtype, strict):
    if not _supported(wx, dtype):
        pytest.skip(f"{dtype} not granted")
    rng = np.random.default_rng(0)
    tol = TOL.get(dtype)
    cases = [((70, 33), (33, 65)), ((2, 1, 5, 7), (3, 7, 4)), ((7,), (7, 9)), ((5, 7), (7,)),
             ((7,), (7,)), ((0, 3), (3, 4)), ((3, 0), (0, 4)), ((2, 3, 4), (4, 0))]
    for sa, sb in cases:
        a, b = rand(rng, sa, dtype), rand(rng, sb, dtype)
        with np.errstate(all="ignore"):
            ref = a @ b
        same(wx.asarray(a) @ wx.asarray(b), ref, tol)
    a, b = rand(rng, (40, 30), dtype), rand(rng, (50, 40), dtype)
    with np.errstate(all="ignore"):
        same(wx.asarray(a).mT[::-1] @ wx.asarray(b).mT, a.T[::-1] @ b.T, tol)
        a, b = rand(rng, (3, 4, 5), dtype), rand(rng, (4, 3, 6), dtype)
        same(wx.tensordot(wx.asarray(a), wx.asarray(b), axes=((0, 1), (1, 0))),
             np.tensordot(a, b, axes=((0, 1), (1, 0))), tol)
        same(wx.tensordot(wx.asarray(a), wx.asarray(a), axes=0), np.tensordot(a, a, 0), tol)
        same(wx.tensordot(wx.asarray(a), wx.asarray(b[:, :, :5].transpose(2, 0, 1)), axes=1),
             np.tensordot(a, b[:, :, :5].transpose(2, 0, 1), axes=1), tol)
        a, b = rand(rng, (3, 4, 5), dtype), rand(rng, (4, 5), dtype)
        same(wx.vecdot(wx.asarray(a), wx.asarray(b)), (np.conj(a) * b).sum(-1).astype(dtype),
             tol)
        same(wx.vecdot(wx.asarray(a), wx.asarray(b[:, :1]), axis=-2),
             (np.conj(a) * b[:, :1]).sum(1).astype(dtype), tol)
