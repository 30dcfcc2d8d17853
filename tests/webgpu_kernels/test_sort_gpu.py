"""Sorting, searching and set functions on the GPU (ops/sorting/, primitives/radix.py,
primitives/keys.py) against NumPy / numr's cpu backend: every dtype, NaN / inf / -0.0,
stability with many equal keys in both directions, row lengths around powers of two,
axis != -1, strided views, outputs beyond one storage binding, and no host round trip.

NUMR_TEST_SLOW=1 adds the long rows (2^20 + 3 descending, 2^24 + 5 elements).
"""

import os
import warnings

import numpy as np
import pytest

from numr_array_api._core.errors import BackendLimitation
from numr_array_api.backends.webgpu.ops.host_fallback import HostFallbackWarning, HostReadWarning

SLOW = os.environ.get("NUMR_TEST_SLOW") == "1"
REAL = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
        "float16", "float32", "float64")
ALL = REAL + ("complex64", "complex128")


@pytest.fixture
def wx(wgpu_xp):
    # every function here runs on the GPU: no host round trip may warn; nonzero / unique
    # read one count to size their output (HostReadWarning, a different class)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HostFallbackWarning)
        warnings.simplefilter("ignore", HostReadWarning)
        yield wgpu_xp


def _dtype(wx, name):
    if not hasattr(wx, name):
        pytest.skip(f"{name} not exposed")
    return getattr(wx, name)


def host(x):
    return x._ctx.be.to_numpy(x._data)


def data(rng, shape, name, spread=4):
    """Values with many ties; floats also carry NaN, +-inf and -0.0 / +0.0."""
    d = np.dtype(name)
    if d.kind == "b":
        return rng.random(shape) < 0.5
    if d.kind in "iu":
        lo = 0 if d.kind == "u" else -spread
        a = rng.integers(lo, spread, shape).astype(d)
        n = a.size
        if n > 4:   # extremes of the type
            info = np.iinfo(d)
            a.flat[1], a.flat[n // 2], a.flat[n - 2] = info.min, info.max, info.max
        return a
    a = rng.integers(-spread, spread, shape).astype(np.float64) / 2
    if d.kind == "c":
        a = a + 1j * (rng.integers(-2, 2, shape) / 2)
    a = a.astype(d)
    flat = a.reshape(-1)
    specials = [np.nan, -0.0, 0.0, np.inf, -np.inf]
    if d.kind == "c":
        specials += [complex(np.nan, 1), complex(1, np.nan), complex(-0.0, 0.0)]
    for k, v in enumerate(specials):
        flat[k * 7 % max(flat.size, 1)::13] = v if flat.size else 0
    return a


def ref_argsort(a, axis, descending):
    """numr cpu's semantics: stable both ways, descending the exact reverse of ascending
    with ties in their original order (NaNs first)."""
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    n = a.shape[axis]
    return np.flip(n - 1 - np.argsort(np.flip(a, axis), axis=axis, kind="stable"), axis)


def check_sort(wx, a, x, axis=-1):
    for desc in (False, True):
        ref = ref_argsort(a, axis, desc)
        got = host(wx.argsort(x, axis=axis, descending=desc))
        assert got.dtype == np.int64 or got.dtype == np.int32
        np.testing.assert_array_equal(got, ref, err_msg=f"argsort desc={desc}")
        s = host(wx.sort(x, axis=axis, descending=desc))
        e = np.take_along_axis(a, ref, axis)
        assert s.dtype == a.dtype
        # bitwise: -0.0 and +0.0 keep their original order and signs
        assert np.array_equal(s.view(np.uint8), e.view(np.uint8)), f"sort desc={desc}"


@pytest.mark.parametrize("name", REAL)
@pytest.mark.parametrize("n", [0, 1, 2, 31, 33, 255, 257, 2047, 2049, 5000])
def test_sort_every_dtype_and_length(wx, name, n):
    _dtype(wx, name)
    rng = np.random.default_rng(n)
    a = data(rng, (n,), name)
    check_sort(wx, a, wx.asarray(a))


@pytest.fixture(params=["rowsort", "radix", "radix-gather"])
def path(request, monkeypatch):
    """Rows short enough for workgroup memory sort there; "radix" forces every row through
    the radix passes (row-number passes included), "radix-gather" also without carried
    keys (each pass gathers its keys from the source through the positions)."""
    from numr_array_api.backends.webgpu.primitives import radix
    if request.param != "rowsort":
        monkeypatch.setattr(radix, "row_capacity", lambda kt, caps: 1)
    if request.param == "radix-gather":
        monkeypatch.setattr(radix, "CARRY", False)
    return request.param


@pytest.mark.parametrize("path", ["rowsort", "radix"], indirect=True)
@pytest.mark.parametrize("name", ["float32", "int64", "uint8", "float64", "float16"])
def test_sort_rows_axes_and_views(wx, name, path):
    _dtype(wx, name)
    rng = np.random.default_rng(1)
    a = data(rng, (6, 7, 9), name)
    x = wx.asarray(a)
    for axis in (0, 1, 2, -1):
        check_sort(wx, a, x, axis)
    # strided / reversed / transposed views: sorted without a copy of the data first
    check_sort(wx, a[::2, ::-1, 1::3], x[::2, ::-1, 1::3], 1)
    check_sort(wx, np.swapaxes(a, 0, 2)[::-1], wx.permute_dims(x, (2, 1, 0))[::-1], 0)
    # many rows (row passes of the radix sort), rows beyond 256 and 65536
    b = data(rng, (1000, 37), name)
    check_sort(wx, b, wx.asarray(b))
    c = data(rng, (70000, 3), name)
    check_sort(wx, c, wx.asarray(c))


def test_stability_many_equal_keys(wx, path):
    rng = np.random.default_rng(2)
    for name in ("int32", "float32", "bool", "int64"):
        a = data(rng, (20000,), name, spread=2)
        check_sort(wx, a, wx.asarray(a))
        b = data(rng, (3, 300, 7), name, spread=2)
        check_sort(wx, b[::-1, ::2], wx.asarray(b)[::-1, ::2], 1)


def test_long_row(wx):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((1 << 20) + 3).astype(np.float32)
    a[::1000] = np.nan
    a[5::999] = -0.0
    got = host(wx.argsort(wx.asarray(a), descending=SLOW))
    np.testing.assert_array_equal(got, ref_argsort(a, -1, SLOW))


@pytest.mark.skipif(not SLOW, reason="NUMR_TEST_SLOW=1: 2^24 + 5 elements")
def test_past_2_24_elements(wx):
    rng = np.random.default_rng(4)
    a = rng.integers(0, 256, (1 << 24) + 5).astype(np.uint8)
    np.testing.assert_array_equal(host(wx.argsort(wx.asarray(a))),
                                  np.argsort(a, kind="stable"))
    b = rng.integers(-1000, 1000, (1 << 24) + 5).astype(np.int32)
    np.testing.assert_array_equal(host(wx.sort(wx.asarray(b), descending=True)),
                                  np.sort(b)[::-1])


def test_outputs_beyond_one_binding(wx, small_limits):
    rng = np.random.default_rng(5)
    a = rng.integers(-50, 50, 200_000).astype(np.int64)   # 1.6 MB of indices / values
    with small_limits(binding=1 << 20, segment=4 << 20):
        x = wx.asarray(a)
        # 100k int64 indices (800 KB) and values of a strided view: windows of the outputs
        np.testing.assert_array_equal(host(wx.argsort(x[::2])),
                                      np.argsort(a[::2], kind="stable"))
        np.testing.assert_array_equal(host(wx.sort(x[::2], descending=True)),
                                      np.sort(a[::2])[::-1])
        # data beyond one binding: the slab passes (test_sort_big.py)
        np.testing.assert_array_equal(host(wx.argsort(x)), np.argsort(a, kind="stable"))


def test_beyond_one_binding_other_functions(wx, small_limits):
    """Needles, isin's x1 and nonzero's input beyond one binding are walked in windows;
    what must fit one binding (the sorted side, unique's data) raises BackendLimitation."""
    rng = np.random.default_rng(11)
    v = rng.integers(-1000, 1000, 400_000).astype(np.int32)          # 1.6 MB
    s = np.sort(rng.integers(-900, 900, 5000).astype(np.int32))
    with small_limits(binding=1 << 20, segment=4 << 20):
        V, S = wx.asarray(v), wx.asarray(s)
        np.testing.assert_array_equal(host(wx.searchsorted(S, V, side="right")),
                                      np.searchsorted(s, v, side="right"))
        np.testing.assert_array_equal(host(wx.isin(V, S)), np.isin(v, s))
        for g, r in zip(wx.nonzero(V > 900), np.nonzero(v > 900)):
            np.testing.assert_array_equal(host(g), r)
        with pytest.raises(BackendLimitation):
            wx.unique_values(V)
        with pytest.raises(BackendLimitation):
            wx.searchsorted(wx.asarray(np.sort(v[:300_000])), S)


@pytest.mark.parametrize("name", ["int8", "uint16", "int32", "uint64", "int64", "float16",
                                  "float32", "float64"])
def test_searchsorted(wx, name):
    _dtype(wx, name)
    rng = np.random.default_rng(6)
    base = data(rng, (301,), name)
    s = np.sort(base, kind="stable")
    v = data(rng, (4, 50), name, spread=6)
    S, V = wx.asarray(s), wx.asarray(v)
    for side in ("left", "right"):
        np.testing.assert_array_equal(host(wx.searchsorted(S, V, side=side)),
                                      np.searchsorted(s, v, side=side))
        perm = np.argsort(base, kind="stable")
        np.testing.assert_array_equal(
            host(wx.searchsorted(wx.asarray(base), V, side=side, sorter=wx.asarray(perm))),
            np.searchsorted(base, v, side=side, sorter=perm))
        # a reversed view of a descending array is ascending: strided sorted input
        d = wx.asarray(s[::-1].copy())[::-1]
        np.testing.assert_array_equal(host(wx.searchsorted(d, V, side=side)),
                                      np.searchsorted(s, v, side=side))
    np.testing.assert_array_equal(host(wx.searchsorted(S, V[0, 3])),
                                  np.searchsorted(s, v[0, 3]))
    # needles through strides, reversed and broadcast (no copy), and through a copy
    for view in (lambda z: z[1, ::-3], lambda z: z[:, 7:8].T, lambda z: z[::2, ::5]):
        np.testing.assert_array_equal(host(wx.searchsorted(S, view(V))),
                                      np.searchsorted(s, view(v)))
    bc = wx.broadcast_to(V[2:3, 4:5], (3, 6))
    np.testing.assert_array_equal(host(wx.searchsorted(S, bc)),
                                  np.searchsorted(s, np.broadcast_to(v[2:3, 4:5], (3, 6))))
    assert host(wx.searchsorted(S[:0], V)).tolist() == np.zeros((4, 50), int).tolist()


@pytest.mark.parametrize("name", ALL)
def test_unique_all_variants(wx, name):
    """Against NumPy 2's own unique_* (each NaN distinct, sorted values, first-occurrence
    indices, inverse of the input's shape); index arrays compared by value (numr's default
    index dtype may differ from NumPy's intp)."""
    _dtype(wx, name)
    rng = np.random.default_rng(7)
    for shape in [(0,), (1,), (3, 5), (2, 3, 70), (3000,)]:
        a = data(rng, shape, name)
        x = wx.asarray(a)
        for fn in ("unique_all", "unique_counts", "unique_inverse"):
            got, ref = getattr(wx, fn)(x), getattr(np, fn)(a)
            out = {}
            for field, g, r in zip(ref._fields, got, ref):
                g, r = host(g), np.asarray(r)
                assert g.shape == r.shape, (fn, field, g.shape, r.shape)
                out[field] = g
                if field in ("values", "counts"):
                    assert g.dtype == r.dtype or field == "counts", (fn, g.dtype, r.dtype)
                    assert np.array_equal(g, r, equal_nan=True), (fn, field, g, r)
            # which NaN slot a NaN maps to is open: check what the indices mean instead
            vals = out["values"]
            if "inverse_indices" in out:
                assert np.array_equal(vals[out["inverse_indices"]], a, equal_nan=True), fn
            if "indices" in out:
                assert np.array_equal(a.reshape(-1)[out["indices"]], vals, equal_nan=True), fn
        # NumPy's unique_values may come in any order (the standard leaves it open)
        v = host(wx.unique_values(x))
        assert np.array_equal(np.sort(v), np.sort(np.unique_values(a)), equal_nan=True)


@pytest.mark.parametrize("name", ALL)
def test_isin(wx, name):
    _dtype(wx, name)
    rng = np.random.default_rng(8)
    a = data(rng, (5, 41), name, spread=8)
    b = data(rng, (33,), name, spread=4)
    x, y = wx.asarray(a), wx.asarray(b)
    for inv in (False, True):
        np.testing.assert_array_equal(host(wx.isin(x, y, invert=inv)),
                                      np.isin(a, b, invert=inv))
        np.testing.assert_array_equal(host(wx.isin(x[:, ::-3], y[1::2], invert=inv)),
                                      np.isin(a[:, ::-3], b[1::2], invert=inv))
        np.testing.assert_array_equal(host(wx.isin(x[3, ::-1], y, invert=inv)),
                                      np.isin(a[3, ::-1], b, invert=inv))
    np.testing.assert_array_equal(host(wx.isin(x, y[:0])), np.zeros(a.shape, bool))


def test_isin_mixed_dtypes(wx):
    a = np.array([1, 2, 300, -5], np.int16)
    b = np.array([2, -5, 44], np.int8)
    np.testing.assert_array_equal(host(wx.isin(wx.asarray(a), wx.asarray(b))), np.isin(a, b))


@pytest.mark.parametrize("name", ALL)
def test_nonzero(wx, name):
    _dtype(wx, name)
    rng = np.random.default_rng(9)
    a = data(rng, (4, 5, 33), name, spread=2)
    x = wx.asarray(a)
    for g, r in zip(wx.nonzero(x), np.nonzero(a)):
        np.testing.assert_array_equal(host(g), r)
    for g, r in zip(wx.nonzero(x[::-1, 1::2]), np.nonzero(a[::-1, 1::2])):
        np.testing.assert_array_equal(host(g), r)
    z = np.zeros(7, a.dtype)
    assert host(wx.nonzero(wx.asarray(z))[0]).size == 0


@pytest.mark.parametrize("name", ["bool", "int8", "uint32", "float32", "float64",
                                  "complex64"])
def test_diff(wx, name):
    _dtype(wx, name)
    rng = np.random.default_rng(10)
    a = data(rng, (4, 9), name)
    x = wx.asarray(a)
    with np.errstate(all="ignore"):
        for axis in (0, 1):
            for n in (0, 1, 2, 3):
                r = np.diff(a, n=n, axis=axis)
                g = host(wx.diff(x, n=n, axis=axis))
                assert g.dtype == r.dtype and np.array_equal(g, r, equal_nan=True)
        p = data(rng, (4, 2), name)
        r = np.diff(a, n=2, axis=1, prepend=p, append=a[:, :1])
        g = host(wx.diff(x, n=2, axis=1, prepend=wx.asarray(p), append=x[:, :1]))
        assert np.array_equal(g, r, equal_nan=True)
        r = np.diff(a[::-1], axis=0, append=a[:1, :])
        g = host(wx.diff(x[::-1], axis=0, append=x[:1, :]))
        assert np.array_equal(g, r, equal_nan=True)


def test_count_nonzero_on_views(wx):
    a = np.arange(-20, 40, dtype=np.float32).reshape(6, 10)
    a[2, 3] = np.nan
    x = wx.asarray(a)
    assert int(host(wx.count_nonzero(x[::-2, 1::3]))) == np.count_nonzero(a[::-2, 1::3])
