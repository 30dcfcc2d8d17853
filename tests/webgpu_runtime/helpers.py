import numpy as np

from numr_array_api._core import dtypes as D

SPECIAL_F = [np.nan, np.inf, -np.inf, -0.0, 0.0, -np.nan]


def rand(rng, dt, shape):
    n = int(np.prod(shape))
    if dt.kind == "b":
        a = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt.np)
        a = rng.integers(info.min, info.max, n, dtype=dt.np, endpoint=True)
    elif dt.kind == "f":
        a = (rng.standard_normal(n) * 100).astype(dt.np)
        k = min(len(SPECIAL_F), n)
        a[:k] = np.array(SPECIAL_F[:k], dt.np)
        if n > 8:
            a[7] = np.finfo(dt.np).tiny / 4  # a subnormal
    else:
        a = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt.np)
        if n > 3:
            a[0] = complex(np.nan, 1.0)
            a[1] = complex(-0.0, np.inf)
            a[2] = complex(1.5, -0.0)
    if n > 1:
        rng.shuffle(a)
    return a.reshape(shape)


def assert_same(r, e):
    """Equal dtype, shape and values; NaN matches NaN; the sign of zeros must match."""
    assert r.dtype == e.dtype and r.shape == e.shape, (r.dtype, r.shape, e.dtype, e.shape)
    if e.dtype.kind in "fc":
        parts = [(r.real, e.real), (r.imag, e.imag)] if e.dtype.kind == "c" else [(r, e)]
        for x, y in parts:
            both_nan = np.isnan(x) & np.isnan(y)
            ok = both_nan | ((x == y) & (np.signbit(x) == np.signbit(y)))
            assert ok.all(), (x[~ok][:5], y[~ok][:5])
    else:
        assert np.array_equal(r, e), (r, e)


ALL = list(D.ALL_DTYPES)
