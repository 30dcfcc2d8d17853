"""Casts between all numr dtypes against NumPy's astype, and float16 rounding in detail."""

import warnings

import numpy as np
import pytest

from numr_array_api._core import dtypes as D

from .helpers import ALL, assert_same, rand


def _expected(src, dd):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return src.astype(dd.np)


def _in_range(a, sd, dd):
    """Data whose cast is specified: float -> int only for finite in-range values."""
    if sd.kind in "fc" and dd.kind in "iu":
        x = a.real if sd.kind == "c" else a
        x = np.where(np.isfinite(x), x, 0)
        info = np.iinfo(dd.np)
        x = np.clip(x, max(info.min, -6e4), min(info.max, 6e4))
        return x.astype(sd.np)
    return a


@pytest.mark.parametrize("sd", ALL, ids=lambda d: d.name)
def test_cast_matches_numpy(W, sd):
    rng = np.random.default_rng(3)
    base = rand(rng, sd, (4, 39))
    for dd in ALL:
        src = _in_range(base, sd, dd)
        s = W.from_numpy(src)[:, 1::3]  # strided: the cast reads the view directly
        r = W.to_numpy(W.astype(s, dd))
        assert_same(r, _expected(np.ascontiguousarray(src[:, 1::3]), dd))


@pytest.mark.parametrize("sd", [D.float16, D.float32, D.float64, D.complex64],
                         ids=lambda d: d.name)
def test_nan_inf_to_int_does_not_crash(W, sd):
    with np.errstate(over="ignore"):
        a = np.array([np.nan, np.inf, -np.inf, 1e30, -1e30, 3.7, -3.7]).astype(sd.np)
    s = W.from_numpy(a)
    for dd in [D.int8, D.uint8, D.int16, D.int32, D.uint32, D.int64, D.uint64]:
        r = W.to_numpy(W.astype(s, dd))
        assert r.dtype == dd.np and r.shape == a.shape
        assert r[5] == 3 and (dd.kind == "u" or r[6] == -3)  # truncation toward zero


def test_bool_from_nonzero(W):
    a = np.array([0.0, -0.0, np.nan, 1e-45, -np.inf, 2.0], np.float32)
    assert_same(W.to_numpy(W.astype(W.from_numpy(a), D.bool_)), a.astype(bool))
    c = np.array([0j, complex(0, -0.0), complex(0, 1), complex(np.nan, 0)], np.complex128)
    assert_same(W.to_numpy(W.astype(W.from_numpy(c), D.bool_)), c.astype(bool))


def test_float16_exhaustive(W):
    h = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    s = W.from_numpy(h)
    f = W.to_numpy(W.astype(s, D.float32))
    assert_same(f, h.astype(np.float32))
    # and back: every f16 value survives f32 -> f16 bit-exactly (NaN payloads included)
    back = W.to_numpy(W.astype(W.from_numpy(f), D.float16))
    assert back.view(np.uint16).tobytes() == h.astype(np.float32).astype(np.float16).view(
        np.uint16).tobytes()


def test_float16_rounding_from_f32_and_f64(W):
    rng = np.random.default_rng(4)
    bits = rng.integers(0, 1 << 32, 200_000, dtype=np.uint64).astype(np.uint32)
    f = bits.view(np.float32)
    f = f[~np.isnan(f)]
    with np.errstate(over="ignore"):
        e = f.astype(np.float16)
    assert_same(W.to_numpy(W.astype(W.from_numpy(f), D.float16)), e)
    # f64 values just off f16 rounding midpoints: double rounding through f32 would fail
    h = rng.integers(0, 0x7bff, 20_000).astype(np.uint16).view(np.float16).astype(np.float64)
    nxt = np.nextafter(h.astype(np.float16), np.float16(np.inf)).astype(np.float64)
    mid = (h + nxt) / 2
    d = np.concatenate([mid, np.nextafter(mid, 0), np.nextafter(mid, np.inf), -mid,
                        mid * (1 + 2.0 ** -30)])
    assert_same(W.to_numpy(W.astype(W.from_numpy(d), D.float16)), d.astype(np.float16))


def test_cast_same_dtype_copies(W):
    a = np.arange(5, dtype=np.int8)
    s = W.from_numpy(a)
    c = W.astype(s, D.int8)
    assert c.block is not s.block and np.array_equal(W.to_numpy(c), a)


def test_fill_every_dtype(W):
    for dt in ALL:
        for v in [0, 1, -1, 3.5, True, complex(1.5, -2)]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    e = np.full((5, 3), v).astype(dt.np)
                except (TypeError, OverflowError):
                    continue
            r = W.to_numpy(W.full((5, 3), v, dt))
            assert r.tobytes() == e.tobytes(), (dt, v)
    assert W.to_numpy(W.full((0, 4), 7, D.int8)).shape == (0, 4)
    assert W.to_numpy(W.full((), np.nan, D.float64)).shape == ()
