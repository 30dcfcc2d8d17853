"""numr_array_api.scipy.signal's waveforms (sawtooth, square, chirp, gausspulse, sweep_poly)
on time arrays equal SciPy's on NumPy, dtypes included, with no host copy of the data."""

import numpy as np
import pytest


ss = pytest.importorskip("scipy.signal")
ns = pytest.importorskip("numr_array_api.scipy.signal")


pytestmark = pytest.mark.usefixtures("no_host_copies")


def _check(got, ref, tol):
    if isinstance(ref, tuple):
        assert len(got) == len(ref)
        for g, r in zip(got, ref):
            _check(g, r, tol)
        return
    got = np.asarray(got.to_device("cpu"))
    assert got.shape == ref.shape and got.dtype == ref.dtype, (got.dtype, ref.dtype)
    np.testing.assert_allclose(got, ref, rtol=0, atol=tol, equal_nan=True)


def _has64(xp):
    return xp.float64 in xp.__array_namespace_info__().dtypes().values()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_waveforms_like_scipy(xp, dtype):
    if not _has64(xp):
        pytest.skip("SciPy's waveforms are float64")
    t = np.linspace(-3, 20, 301).astype(dtype)
    for w in (0, 0.3, 1, 1.5):
        ref = ss.sawtooth(t, w)   # float64 (SciPy 1.17) or t's float32 (1.18)
        _check(ns.sawtooth(xp.asarray(t), w), ref, 1e-12 if ref.dtype == np.float64 else 2e-6)
        _check(ns.square(xp.asarray(t), w), ss.square(t, w), 1e-12)
    widths = np.linspace(-0.2, 1.2, 301)
    ref = ss.sawtooth(t, widths)
    _check(ns.sawtooth(xp.asarray(t), xp.asarray(widths)), ref,
           1e-12 if ref.dtype == np.float64 else 2e-6)
    tp = np.abs(t).astype(dtype) + 1
    tol = 2e-4 if dtype == np.float32 else 1e-9      # float32 phases of up to ~100 rad
    for method in ("linear", "quadratic", "logarithmic", "hyperbolic"):
        for vertex_zero in (True, False):
            _check(ns.chirp(xp.asarray(tp), 6, 10, 1, method, phi=30, vertex_zero=vertex_zero),
                   ss.chirp(tp, 6, 10, 1, method, phi=30, vertex_zero=vertex_zero), tol)
    ts = (t * 1e-3).astype(dtype) if dtype != np.int32 else t
    for retquad, retenv in ((False, False), (True, True)):
        # the carrier's cosine is float32 for float32 t (a float64 result, float32 digits)
        _check(ns.gausspulse(xp.asarray(ts), fc=500, retquad=retquad, retenv=retenv),
               ss.gausspulse(ts, fc=500, retquad=retquad, retenv=retenv),
               1e-6 if dtype == np.float32 else 1e-9)
    poly = [0.025, -0.36, 1.25, 2.0]
    _check(ns.sweep_poly(xp.asarray(t), poly, phi=10), ss.sweep_poly(t, poly, phi=10), 1e-8)


def test_complex_chirp_and_errors(xp):
    if not _has64(xp):
        pytest.skip("SciPy's waveforms are float64")
    t = np.linspace(0, 10, 101)
    _check(ns.chirp(xp.asarray(t), 6, 10, 1, complex=True),
           ss.chirp(t, 6, 10, 1, complex=True), 1e-9)
    with pytest.raises(ValueError):
        ns.chirp(xp.asarray(t), 6, 10, 1, method="bogus")
    with pytest.raises(ValueError):
        ns.chirp(xp.asarray(t), -1, 10, 1, method="logarithmic")
    with pytest.raises(ValueError):
        ns.gausspulse(xp.asarray(t), fc=-1)
