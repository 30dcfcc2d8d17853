"""Reductions on the GPU (ops/reduction.py) against NumPy: every dtype kind (packed sub-word
ones included), 0-d, empty axes, keepdims, strided / flipped views, NaN cases, first-index
argmax/argmin, cumulative sums/products, and no host round trip."""

import warnings

import numpy as np
import pytest

from _support import random_array

ALL = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
       "float16", "float32", "float64", "complex64", "complex128")
REAL = tuple(d for d in ALL if d not in ("bool", "complex64", "complex128"))
FLOATS = ("float16", "float32", "float64")
SHAPES = [(), (1,), (7,), (3, 5), (2, 3, 4), (4, 1, 6), (2, 0, 3), (1030,), (3, 600)]


@pytest.fixture(autouse=True)
def _no_fallback(wx):
    with warnings.catch_warnings():
        warnings.simplefilter("error", wx.HostFallbackWarning)
        yield


def host(x):
    return x._ctx.be.to_numpy(x._data)


_data = random_array


def _axes(shape):
    nd = len(shape)
    yield None
    for a in range(nd):
        yield a
    if nd >= 2:
        yield (0, nd - 1)
        yield tuple(range(1, nd))


def _tol(dt):
    return {"float16": 1e-2, "float32": 2e-5, "complex64": 2e-5}.get(str(dt), 1e-12)


def _close(r, e, dt=None):
    e = np.asarray(e)
    assert r.shape == e.shape, (r.shape, e.shape)
    assert r.dtype == e.dtype, (r.dtype, e.dtype)
    if e.dtype.kind in "fc":
        np.testing.assert_allclose(r, e, rtol=_tol(dt or e.dtype), atol=_tol(dt or e.dtype),
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(r, e)


@pytest.mark.parametrize("dt", ALL)
def test_sum_prod(wx, dt):
    rng = np.random.default_rng(1)
    for shape in SHAPES:
        a = _data(rng, shape, dt)
        x = wx.asarray(a)
        for ax in _axes(shape):
            for kd in (False, True):
                r = host(wx.sum(x, axis=ax, keepdims=kd))
                acc = np.dtype(str(r.dtype))
                _close(r, np.sum(a, axis=ax, keepdims=kd, dtype=acc), dt)
                if np.prod(shape) <= 64 or dt == "bool":
                    pa = a if dt.startswith(("float", "complex")) or dt == "bool" else a % 3
                    r = host(wx.prod(wx.asarray(pa), axis=ax, keepdims=kd))
                    _close(r, np.prod(pa, axis=ax, keepdims=kd, dtype=r.dtype), dt)


def test_sum_dtype_wraps(wx):
    a = np.arange(200, dtype=np.int8)
    x = wx.asarray(a)
    _close(host(wx.sum(x, dtype=wx.int8)), a.sum(dtype=np.int8))
    _close(host(wx.prod(x[1:9], dtype=wx.int8)), a[1:9].prod(dtype=np.int8))
    _close(host(wx.sum(x, dtype=wx.float32)), a.sum(dtype=np.float32))


@pytest.mark.parametrize("dt", REAL)
def test_max_min(wx, dt):
    rng = np.random.default_rng(2)
    for shape in SHAPES:
        if 0 in shape:
            continue
        a = _data(rng, shape, dt)
        x = wx.asarray(a)
        for ax in _axes(shape):
            for f in ("max", "min"):
                _close(host(getattr(wx, f)(x, axis=ax, keepdims=True)),
                       getattr(np, f)(a, axis=ax, keepdims=True))


@pytest.mark.parametrize("dt", FLOATS)
def test_nan_propagation(wx, dt):
    a = np.arange(24, dtype=dt).reshape(4, 6)
    a[1, 2] = np.nan
    a[3, 0] = np.nan
    a[3, 4] = np.nan
    a[0, :] = -np.inf
    x = wx.asarray(a)
    for ax in (None, 0, 1):
        for f in ("max", "min", "argmax", "argmin"):
            r = host(getattr(wx, f)(x, axis=ax))
            e = getattr(np, f)(a, axis=ax)
            if f.startswith("arg"):
                np.testing.assert_array_equal(r, e)  # the first NaN
            else:
                _close(r, e)
        _close(host(wx.sum(x, axis=ax)), np.sum(a, axis=ax))
        _close(host(wx.mean(x, axis=ax)), np.mean(a, axis=ax))


@pytest.mark.parametrize("dt", REAL)
def test_argmax_argmin_first_index(wx, dt):
    rng = np.random.default_rng(3)
    for shape in [(), (5,), (3, 7), (2, 3, 4), (700,), (2, 1100)]:
        a = (_data(rng, shape, dt) % 4).astype(dt) if dt != "float16" else \
            np.round(_data(rng, shape, dt))
        x = wx.asarray(a)
        for ax in [None] + list(range(len(shape))):
            for kd in (False, True):
                for f in ("argmax", "argmin"):
                    r = host(getattr(wx, f)(x, axis=ax, keepdims=kd))
                    np.testing.assert_array_equal(r, getattr(np, f)(a, axis=ax, keepdims=kd))
                    assert r.dtype == np.int64 or r.dtype == np.int32


@pytest.mark.parametrize("dt", FLOATS + ("complex64", "complex128"))
def test_mean(wx, dt):
    rng = np.random.default_rng(4)
    for shape in SHAPES:
        a = _data(rng, shape, dt)
        x = wx.asarray(a)
        for ax in _axes(shape):
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                e = np.mean(a, axis=ax, keepdims=True)
            _close(host(wx.mean(x, axis=ax, keepdims=True)), e.astype(dt), dt)


@pytest.mark.parametrize("dt", FLOATS)
def test_var_std(wx, dt):
    rng = np.random.default_rng(5)
    for shape in SHAPES:
        a = (_data(rng, shape, dt) + 100).astype(dt)  # offset: tests the two-pass accuracy
        x = wx.asarray(a)
        for ax in _axes(shape):
            m = a.size if ax is None else int(np.prod([a.shape[i] for i in np.atleast_1d(ax)]))
            for corr in (0, 1, 0.5, 0.3):
                if m - corr <= 0:
                    continue
                for f in ("var", "std"):
                    r = host(getattr(wx, f)(x, axis=ax, correction=corr))
                    e = getattr(np, f)(a.astype(np.float64), axis=ax, ddof=corr).astype(dt)
                    tol = 2e-2 if dt == "float16" else (1e-4 if dt == "float32" else 1e-10)
                    assert r.dtype == e.dtype
                    np.testing.assert_allclose(r, e, rtol=tol, atol=tol)


@pytest.mark.parametrize("dt", ALL)
def test_all_any_count_nonzero(wx, dt):
    rng = np.random.default_rng(6)
    for shape in SHAPES:
        a = _data(rng, shape, dt)
        if dt != "bool":
            a = (a * (rng.random(shape) > 0.3)).astype(dt)
        x = wx.asarray(a)
        for ax in _axes(shape):
            for kd in (False, True):
                _close(host(wx.all(x, axis=ax, keepdims=kd)), np.all(a, axis=ax, keepdims=kd))
                _close(host(wx.any(x, axis=ax, keepdims=kd)), np.any(a, axis=ax, keepdims=kd))
                r = host(wx.count_nonzero(x, axis=ax, keepdims=kd))
                e = np.count_nonzero(a, axis=ax, keepdims=kd)
                np.testing.assert_array_equal(r, e)


def test_nan_is_nonzero(wx):
    a = np.array([0.0, np.nan, -0.0, 1.0], np.float32)
    x = wx.asarray(a)
    assert int(host(wx.count_nonzero(x))) == 2
    assert bool(host(wx.any(x[:3])))
    assert not bool(host(wx.all(x)))


def test_strided_views(wx):
    a = np.arange(2 * 6 * 5, dtype=np.float32).reshape(2, 6, 5)
    x = wx.asarray(a)
    v, e = x[::-1, 1::2, ::-2], a[::-1, 1::2, ::-2]
    for ax in _axes(e.shape):
        _close(host(wx.sum(v, axis=ax)), e.sum(axis=ax))
        _close(host(wx.max(v, axis=ax)), e.max(axis=ax))
    pv = wx.permute_dims(x, (2, 0, 1))
    _close(host(wx.prod(pv[:, :, :2], axis=(0, 2))), np.transpose(a, (2, 0, 1))[:, :, :2]
           .prod(axis=(0, 2)))
    _close(host(wx.argmax(pv, axis=1)), np.argmax(np.transpose(a, (2, 0, 1)), axis=1))


def test_empty(wx):
    x = wx.zeros((3, 0, 2), dtype=wx.float32)
    _close(host(wx.sum(x, axis=1)), np.zeros((3, 2), np.float32))
    _close(host(wx.prod(x, axis=(0, 1))), np.ones((2,), np.float32))
    _close(host(wx.sum(x)), np.float32(0))
    assert np.isnan(host(wx.mean(x)))
    _close(host(wx.all(x, axis=1)), np.ones((3, 2), bool))
    _close(host(wx.any(x, axis=1)), np.zeros((3, 2), bool))
    _close(host(wx.sum(x, axis=2)), np.zeros((3, 0), np.float32))
    with pytest.raises(Exception):
        wx.max(x, axis=1)


def test_long_reduction(wx):
    a = np.random.default_rng(7).random(300_001).astype(np.float32)
    x = wx.asarray(a)
    np.testing.assert_allclose(host(wx.sum(x)), a.astype(np.float64).sum(), rtol=1e-6)
    assert int(host(wx.argmax(x))) == int(a.argmax())


@pytest.mark.parametrize("dt", ALL)
def test_cumulative(wx, dt):
    rng = np.random.default_rng(8)
    for shape in [(0,), (1,), (9,), (3, 5), (2, 3, 4), (2, 0, 3)]:
        a = _data(rng, shape, dt)
        if dt.startswith(("float", "complex")):
            a = (a * 0.5 + 1).astype(dt)
        x = wx.asarray(a)
        for ax in range(len(shape)):
            for inc in (False, True):
                for name, f, init in (("sum", np.cumsum, 0), ("prod", np.cumprod, 1)):
                    r = host(getattr(wx, "cumulative_" + name)(x, axis=ax,
                                                               include_initial=inc))
                    e = f(a, axis=ax, dtype=r.dtype)
                    if inc:
                        s = list(e.shape)
                        s[ax] = 1
                        e = np.concatenate([np.full(s, init, r.dtype), e], axis=ax)
                    _close(r, e, dt)


def test_cumulative_dtype_and_flip(wx):
    a = np.arange(1, 40, dtype=np.int16).reshape(3, 13)
    x = wx.asarray(a)
    _close(host(wx.cumulative_sum(x[:, ::-1], axis=1, dtype=wx.int8)),
           np.cumsum(a[:, ::-1], axis=1, dtype=np.int8))
    _close(host(wx.cumulative_prod(x, axis=0, dtype=wx.float64)),
           np.cumprod(a, axis=0, dtype=np.float64))


@pytest.mark.parametrize("dt", ("bool", "int8", "uint16", "int32", "float16", "float32",
                                "float64", "complex64"))
def test_long_reductions_two_pass(wx, dt):
    # m >= 2^15 with few outputs: chunked first pass, second pass over the partials
    rng = np.random.default_rng(9)
    a = _data(rng, (3, 70001), dt)
    a[1, 50000] = a[1, 3]
    x = wx.asarray(a)
    for ax in (None, 1):
        for kd in (False, True):
            if dt != "bool":
                r = host(wx.sum(x, axis=ax, keepdims=kd))
                e = np.sum(a.astype(np.complex128 if dt.startswith("complex") else
                                    np.float64 if dt.startswith("float") else r.dtype),
                           axis=ax, keepdims=kd).astype(r.dtype)
                tol = {"float16": 1e-2, "float32": 1e-5, "complex64": 1e-5}.get(dt, 1e-12)
                np.testing.assert_allclose(r, e, rtol=tol, atol=tol)
            if not dt.startswith("complex") and dt != "bool":
                _close(host(wx.max(x, axis=ax, keepdims=kd)), np.max(a, axis=ax, keepdims=kd))
                _close(host(wx.min(x, axis=ax, keepdims=kd)), np.min(a, axis=ax, keepdims=kd))
                np.testing.assert_array_equal(host(wx.argmax(x, axis=ax, keepdims=kd)),
                                              np.argmax(a, axis=ax, keepdims=kd))
            if dt.startswith(("float", "complex")):
                r = host(wx.mean(x, axis=ax, keepdims=kd))
                e = np.mean(a.astype(np.complex128 if dt.startswith("complex") else
                                     np.float64), axis=ax, keepdims=kd).astype(dt)
                np.testing.assert_allclose(r, e, rtol=2e-3 if dt == "float16" else 1e-5)
            _close(host(wx.all(x, axis=ax, keepdims=kd)), np.all(a, axis=ax, keepdims=kd))
            _close(host(wx.any(x, axis=ax, keepdims=kd)), np.any(a, axis=ax, keepdims=kd))
            np.testing.assert_array_equal(host(wx.count_nonzero(x, axis=ax, keepdims=kd)),
                                          np.count_nonzero(a, axis=ax, keepdims=kd))
    if dt.startswith("float"):
        b = a.copy()
        b[2, 60000] = np.nan
        y = wx.asarray(b)
        _close(host(wx.max(y, axis=1)), np.max(b, axis=1))
        assert np.isnan(host(wx.min(y)))


def test_var_correction_at_least_extent(wx):
    a = np.array([[1.0, 2.0, 4.0], [3.0, 3.0, 3.0]], np.float32)
    x = wx.asarray(a)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for corr in (3, 4, 2.5):
            for f in ("var", "std"):
                e = getattr(np, f)(a, axis=1, ddof=corr)
                _close(host(getattr(wx, f)(x, axis=1, correction=corr)), e)
        _close(host(wx.var(wx.zeros((2, 0), dtype=wx.float32), axis=1)),
               np.var(np.zeros((2, 0), np.float32), axis=1))


@pytest.mark.parametrize("dt", ("bool", "int8", "int32", "uint64", "float16", "float32",
                                "float64", "complex64"))
def test_long_cumulative_chunked(wx, dt):
    # long lines: chunk totals, their scan, then every chunk scanned from its offset
    rng = np.random.default_rng(10)
    for shape, ax in (((40000,), 0), ((2, 33000), 1), ((33001, 2), 0)):
        a = _data(rng, shape, dt)
        x = wx.asarray(a)
        for inc in (False, True):
            r = host(wx.cumulative_sum(x, axis=ax, include_initial=inc))
            wide = (np.complex128 if dt.startswith("complex") else
                    np.float64 if dt.startswith("float") else r.dtype)
            e = np.cumsum(a.astype(wide), axis=ax)
            if inc:
                s = list(e.shape)
                s[ax] = 1
                e = np.concatenate([np.zeros(s, e.dtype), e], axis=ax)
            if r.dtype.kind in "fc":
                scale = np.abs(a.astype(wide)).sum() if a.size else 1
                np.testing.assert_allclose(r, e.astype(r.dtype), rtol=0,
                                           atol=float(scale) * (1e-2 if dt == "float16"
                                                                else 1e-6))
            else:
                np.testing.assert_array_equal(r, e.astype(r.dtype))
        if dt in ("int8", "int32", "uint64"):
            b = (a % 3 == 0).astype(dt) + 1
            b[::7] = 1
            r = host(wx.cumulative_prod(wx.asarray(b), axis=ax, include_initial=True))
            e = np.cumprod(b, axis=ax, dtype=r.dtype)
            s = list(e.shape)
            s[ax] = 1
            np.testing.assert_array_equal(r, np.concatenate([np.ones(s, e.dtype), e], axis=ax))
