"""numr_array_api.scipy.signal's upfirdn, resample_poly, decimate, resample, wiener and
savgol_filter equal SciPy's on NumPy, on every backend, with no host copy of the data (the
host-conversion policy is "raise" throughout)."""

import numpy as np
import pytest

from numr_array_api.errors import BackendLimitation

ss = pytest.importorskip("scipy.signal")
ns = pytest.importorskip("numr_array_api.scipy.signal")

TOL = {np.float32: 2e-5, np.float64: 1e-10, np.complex64: 2e-5, np.complex128: 1e-10}


pytestmark = pytest.mark.usefixtures("no_host_copies")


def _host(a):
    return np.asarray(a.to_device("cpu"))


def _has64(xp):
    return xp.float64 in xp.__array_namespace_info__().dtypes().values()


def _check(got, ref, data_dtype=None):
    """``data_dtype``: the precision the data carried (a float64 window promotes complex64
    data to a complex128 result that still holds complex64 rounding)."""
    if isinstance(ref, tuple):
        for g, r in zip(got, ref):
            _check(g, r, data_dtype)
        return
    got = _host(got)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    if ref.size:
        scale = max(1.0, float(np.nanmax(np.abs(ref))))
        tol = TOL[np.dtype(data_dtype or ref.dtype).type]
        np.testing.assert_allclose(got, ref, rtol=0, atol=tol * scale * 4)


def _data(rng, shape, dtype):
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float64])
def test_upfirdn_and_resample_poly(xp, dtype):
    if dtype == np.float64 and not _has64(xp):
        pytest.skip("no float64 on this device")
    rng = np.random.default_rng(0)
    x = _data(rng, (3, 41), dtype)
    for nh in (1, 4, 7):
        h = rng.standard_normal(nh).astype(np.float32)
        for up, down in ((1, 1), (3, 2), (2, 3), (1, 5)):
            _check(ns.upfirdn(h, xp.asarray(x), up, down), ss.upfirdn(h, x, up, down))
    _check(ns.upfirdn([1.0, 0.5], xp.asarray(x.T), 2, 1, axis=0),
           ss.upfirdn([1.0, 0.5], x.T, 2, 1, axis=0))
    pads = ("constant", "mean") + (("maximum",) if np.dtype(dtype).kind == "f" else ())
    for up, down in ((3, 2), (1, 4)):
        for padtype in pads:
            _check(ns.resample_poly(xp.asarray(x), up, down, axis=1, padtype=padtype),
                   ss.resample_poly(x, up, down, axis=1, padtype=padtype))
        _check(ns.resample_poly(xp.asarray(x), up, down, axis=-1, window=np.hanning(9)),
               ss.resample_poly(x, up, down, axis=-1, window=np.hanning(9)))


def test_decimate(xp):
    rng = np.random.default_rng(1)
    for dtype in (np.float32, np.float64) if _has64(xp) else (np.float32,):
        x = rng.standard_normal((2, 300)).astype(dtype)
        for q, ftype, zero_phase in ((2, "iir", True), (3, "iir", False), (3, "fir", True),
                                     (2, "fir", False)):
            got = ns.decimate(xp.asarray(x), q, ftype=ftype, zero_phase=zero_phase)
            ref = ss.decimate(x, q, ftype=ftype, zero_phase=zero_phase)
            if dtype == np.float32:     # SciPy's own float32 IIR rounding, cheby1 order 8
                np.testing.assert_allclose(_host(got), ref, rtol=0, atol=2e-4)
                assert _host(got).dtype == ref.dtype
            else:
                _check(got, ref)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_resample(xp, dtype):
    rng = np.random.default_rng(2)
    x = _data(rng, (3, 40), dtype)
    for num in (20, 40, 64, 25, 81):
        for window in (None, "hann"):
            if window and not _has64(xp):
                continue
            _check(ns.resample(xp.asarray(x), num, axis=1, window=window),
                   ss.resample(x, num, axis=1, window=window), dtype)
    t = np.arange(40) * 0.5
    _check(ns.resample(xp.asarray(x.T), 30, t=t), ss.resample(x.T, 30, t=t))
    if np.dtype(dtype).kind == "c":
        _check(ns.resample(xp.asarray(x), 30, axis=1, domain="freq"),
               ss.resample(x, 30, axis=1, domain="freq"))


def test_wiener(xp):
    if not _has64(xp):
        pytest.skip("wiener's box sums are float64 (SciPy's ones kernel)")
    rng = np.random.default_rng(3)
    for dtype in (np.float32, np.float64, np.int16):
        x = (rng.standard_normal((6, 33)) * 3).astype(dtype)
        for mysize, noise in ((None, None), (3, 0.5), ((3, 5), None)):
            _check(ns.wiener(xp.asarray(x), mysize, noise), ss.wiener(x, mysize, noise))


def test_savgol_filter_every_mode(xp):
    rng = np.random.default_rng(4)
    for dtype in (np.float32, np.float64) if _has64(xp) else (np.float32,):
        x = (rng.standard_normal((3, 30)) * 3).astype(dtype)
        for wl, po in ((5, 2), (4, 2), (9, 3)):
            for mode in ("interp", "mirror", "constant", "nearest", "wrap"):
                for deriv, axis in ((0, -1), (1, 0)):
                    kw = dict(deriv=deriv, delta=0.5, axis=axis, mode=mode, cval=1.5)
                    if mode == "interp" and wl > x.shape[axis]:
                        with pytest.raises(ValueError):
                            ns.savgol_filter(xp.asarray(x), wl, po, **kw)
                        continue
                    got = ns.savgol_filter(xp.asarray(x), wl, po, **kw)
                    ref = ss.savgol_filter(x, wl, po, **kw)
                    np.testing.assert_allclose(_host(got), ref, rtol=0,
                                               atol=50 * TOL[dtype] * np.abs(ref).max())
                    assert _host(got).dtype == ref.dtype


def test_limits_raise_backend_limitation():
    wg = pytest.importorskip("numr_array_api.webgpu")
    if not wg.__array_namespace_info__().devices():
        pytest.skip("no webgpu device")
    x = wg.asarray(np.ones(64, np.float32))
    with pytest.raises(BackendLimitation, match="upfirdn.*mode"):
        ns.upfirdn([1.0], x, mode="wrap")
    with pytest.raises(BackendLimitation, match="resample_poly.*padtype"):
        ns.resample_poly(x, 2, 1, padtype="median")
    with pytest.raises(BackendLimitation, match="decimate.*LTI"):
        ns.decimate(x, 2, ftype=ss.dlti([1.0], [1.0, -0.5]))
