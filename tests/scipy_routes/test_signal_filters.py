"""numr_array_api.scipy.signal's recursive filters (the GPU scan on webgpu), their initial
states, the forward-backward filters, detrend and hilbert equal SciPy's on NumPy, with no
host copy of the data (the host-conversion policy is "raise" throughout)."""

import numpy as np
import pytest

from numr_array_api.errors import BackendLimitation

ss = pytest.importorskip("scipy.signal")
ns = pytest.importorskip("numr_array_api.scipy.signal")

# relative to the result's magnitude; the scan's rounding grows with the conditioning of the
# powers of the state matrix (these Butterworth designs: well-conditioned)
TOL = {np.float32: 5e-5, np.float64: 1e-11}
# lengths: below one block, several blocks with a partial last one (blocks are 2048)
SHAPES = [((300,), -1), ((3, 4500), 1), ((2100, 2), 0), ((2, 3, 70), 1)]


pytestmark = pytest.mark.usefixtures("no_host_copies")


def _host(a):
    return np.asarray(a.to_device("cpu"))


def _dtypes(xp):
    has64 = xp.float64 in xp.__array_namespace_info__().dtypes().values()
    return (np.float32, np.float64) if has64 else (np.float32,)


def _check(got, ref, dtype):
    if isinstance(ref, tuple):
        assert isinstance(got, tuple) and len(got) == len(ref)
        for g, r in zip(got, ref):
            _check(g, r, dtype)
        return
    got = _host(got)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    if ref.size:
        scale = max(1.0, float(np.abs(ref).max()))
        np.testing.assert_allclose(got, ref, rtol=0, atol=TOL[dtype] * scale)


def _state_shape(shape, axis, n):
    s = list(shape)
    s[axis] = n
    return tuple(s)


def test_lfilter_batched_with_and_without_zi(xp):
    rng = np.random.default_rng(0)
    for dtype in _dtypes(xp):
        b, a = (c.astype(dtype) for c in ss.butter(4, 0.2))
        for shape, axis in SHAPES:
            x = rng.standard_normal(shape).astype(dtype)
            _check(ns.lfilter(b, a, xp.asarray(x), axis=axis), ss.lfilter(b, a, x, axis=axis),
                   dtype)
            zi = rng.standard_normal(_state_shape(shape, axis, 4)).astype(dtype)
            _check(ns.lfilter(b, a, xp.asarray(x), axis=axis, zi=xp.asarray(zi)),
                   ss.lfilter(b, a, x, axis=axis, zi=zi), dtype)


def test_lfilter_orders_coefficients_and_promotion(xp):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 2500)).astype(np.float32)
    # unnormalised a[0], numerator longer than denominator (orders 2 and 4, compiled by
    # the tests beside this one), and one float64 promotion (list coefficients)
    for b, a in [([2.0, 1.0, 0.5], [4.0, -1.0]), ([1.0, 2.0, 3.0, 2.0, 1.0], [1.0, -0.5])]:
        b, a = np.array(b, np.float32), np.array(a, np.float32)
        _check(ns.lfilter(b, a, xp.asarray(x)), ss.lfilter(b, a, x), np.float32)
    if np.float64 in _dtypes(xp):
        _check(ns.lfilter([0.5, 0.2], [1.0, -0.9], xp.asarray(x)),
               ss.lfilter([0.5, 0.2], [1.0, -0.9], x), np.float64)
    b32, a32 = np.array([0.2, 0.3, 0.1], np.float32), np.array([1.0, -0.4], np.float32)
    xi = rng.integers(-9, 9, (40,)).astype(np.int16)
    _check(ns.lfilter(b32, a32, xp.asarray(xi)), ss.lfilter(b32, a32, xi), np.float32)
    # numerator only (the direct kernel), and with a state (the scan, order 4)
    taps = ss.firwin(31, 0.3).astype(np.float32)
    _check(ns.lfilter(taps, np.float32(2.0), xp.asarray(x)),
           ss.lfilter(taps, np.float32(2.0), x), np.float32)
    _check(ns.lfilter(taps, np.float32(2.0), xp.asarray(x.T), axis=0),
           ss.lfilter(taps, np.float32(2.0), x.T, axis=0), np.float32)
    short = taps[:5]
    zi = np.ones((2, 4), np.float32)
    _check(ns.lfilter(short, np.ones(1, np.float32), xp.asarray(x), zi=xp.asarray(zi)),
           ss.lfilter(short, np.ones(1, np.float32), x, zi=zi), np.float32)


def test_sosfilt_batched_with_zi(xp):
    rng = np.random.default_rng(2)
    for dtype in _dtypes(xp):
        sos = ss.butter(6, 0.1, output="sos").astype(dtype)
        for shape, axis in SHAPES[:3]:
            x = rng.standard_normal(shape).astype(dtype)
            _check(ns.sosfilt(sos, xp.asarray(x), axis=axis), ss.sosfilt(sos, x, axis=axis),
                   dtype)
            zi = rng.standard_normal((3,) + _state_shape(shape, axis, 2)).astype(dtype)
            _check(ns.sosfilt(sos, xp.asarray(x), axis=axis, zi=xp.asarray(zi)),
                   ss.sosfilt(sos, x, axis=axis, zi=zi), dtype)


def test_filtfilt_and_sosfiltfilt(xp):
    rng = np.random.default_rng(3)
    for dtype in _dtypes(xp):
        b, a = (c.astype(dtype) for c in ss.butter(3, 0.25))
        sos = ss.butter(5, 0.15, output="sos").astype(dtype)
        for shape, axis in SHAPES[:3]:
            x = rng.standard_normal(shape).astype(dtype)
            for padtype in ("odd", "even", "constant", None) if axis == -1 else ("odd",):
                _check(ns.filtfilt(b, a, xp.asarray(x), axis=axis, padtype=padtype),
                       ss.filtfilt(b, a, x, axis=axis, padtype=padtype), dtype)
            _check(ns.sosfiltfilt(sos, xp.asarray(x), axis=axis, padlen=7),
                   ss.sosfiltfilt(sos, x, axis=axis, padlen=7), dtype)
            _check(ns.sosfiltfilt(sos, xp.asarray(x), axis=axis),
                   ss.sosfiltfilt(sos, x, axis=axis), dtype)


def test_initial_states_like_scipy(xp):
    b, a = ss.butter(4, 0.3)
    sos = ss.butter(4, 0.3, output="sos")
    _check(ns.lfilter_zi(xp.asarray(b), xp.asarray(a)), ss.lfilter_zi(b, a), np.float64)
    _check(ns.sosfilt_zi(xp.asarray(sos)), ss.sosfilt_zi(sos), np.float64)


def test_views_and_inputs_left_alone(xp):
    rng = np.random.default_rng(4)
    base = rng.standard_normal((6, 3000)).astype(np.float32)
    xa = xp.asarray(base)
    b, a = (c.astype(np.float32) for c in ss.butter(2, 0.3))
    _check(ns.lfilter(b, a, xa[::2, 1::2], axis=1), ss.lfilter(b, a, base[::2, 1::2], axis=1),
           np.float32)
    _check(ns.lfilter(b, a, xp.flip(xa, axis=1)[1:4]),
           ss.lfilter(b, a, base[:, ::-1][1:4]), np.float32)
    np.testing.assert_array_equal(_host(xa), base)


def test_empty_signal(xp):
    b, a = ss.butter(2, 0.3)
    x = np.zeros((3, 0))
    _check(ns.lfilter(b, a, xp.asarray(x)), ss.lfilter(b, a, x), np.float64)
    _check(ns.lfilter(b, a, xp.asarray(x), axis=0), ss.lfilter(b, a, x, axis=0), np.float64)


def test_detrend_hilbert_and_hilbert2(xp):
    rng = np.random.default_rng(5)
    for dtype in _dtypes(xp) + (np.int32,):
        x = (rng.standard_normal((4, 37)) * 5 + np.arange(37)).astype(dtype)
        tol_dtype = np.float32 if dtype == np.float32 else np.float64
        for axis in (0, -1):
            for kind in ("linear", "constant"):
                _check(ns.detrend(xp.asarray(x), axis=axis, type=kind),
                       ss.detrend(x, axis=axis, type=kind), tol_dtype)
            for n in (None, 40):
                _check(ns.hilbert(xp.asarray(x), N=n, axis=axis),
                       ss.hilbert(x, N=n, axis=axis), tol_dtype)
        for n, axes in ((None, (-2, -1)), ((5, 40), (0, 1)), (8, (1, 0))):
            _check(ns.hilbert2(xp.asarray(x), n, axes=axes), ss.hilbert2(x, n, axes=axes),
                   tol_dtype)


def test_bad_arguments_raise_value_errors(xp):
    x = xp.asarray(np.ones(50))
    with pytest.raises(ValueError):
        ns.lfilter([1.0], [0.0, 1.0], x)
    with pytest.raises(ValueError):
        ns.sosfilt(np.ones((2, 5)), x)
    with pytest.raises(ValueError):
        ns.lfilter([1.0, 1.0], [1.0, 0.5], x, zi=xp.asarray(np.ones(3)))
    with pytest.raises(ValueError):
        ns.filtfilt([1.0, 1.0], [1.0, 0.5], xp.asarray(np.ones(4)))


def test_webgpu_limits_name_the_function_and_argument():
    wg = pytest.importorskip("numr_array_api.webgpu")
    if not wg.__array_namespace_info__().devices():
        pytest.skip("no webgpu device")
    x = wg.asarray(np.ones(64, np.float32))
    with pytest.raises(BackendLimitation, match="lfilter.*complex coefficients"):
        ns.lfilter([1.0 + 1j], [1.0, 0.5], x)
    with pytest.raises(BackendLimitation, match="lfilter.*order 200"):
        ns.lfilter(np.ones(201), np.r_[1.0, np.zeros(200)] + 0.001, x)
    with pytest.raises(BackendLimitation, match="filtfilt.*gust"):
        ns.filtfilt([1.0], [1.0, 0.5], x, method="gust")
    with pytest.raises(BackendLimitation, match="detrend.*bp"):
        ns.detrend(x, bp=[10])


def test_cpu_arrays_run_scipy_itself():
    import numr_array_api.cpu as cp
    b, a = ss.butter(3, 0.2)
    x = np.random.default_rng(6).standard_normal(100)
    y = ns.lfilter(b, a, cp.asarray(x))
    assert y.__array_namespace__() is cp
    np.testing.assert_array_equal(np.asarray(y), ss.lfilter(b, a, x))


def test_ill_conditioned_filters_stay_as_accurate_as_scipy(xp):
    """Narrow high-order filters in (b, a) form: the companion matrix's powers cancel over
    many digits. float32 must stay within twice SciPy's own float32 error (both measured
    against float64 on the same rounded coefficients); float64 within 1e-8 relative."""
    x = np.random.default_rng(7).random((2, 6000))
    for n, cut in ((4, 0.02), (6, 0.05)):
        b, a = ss.butter(n, cut)
        for dtype in _dtypes(xp):
            bb, aa, xx = b.astype(dtype), a.astype(dtype), x.astype(dtype)
            truth = ss.lfilter(bb.astype(np.float64), aa.astype(np.float64),
                               xx.astype(np.float64))
            got = _host(ns.lfilter(bb, aa, xp.asarray(xx)))
            scale = np.abs(truth).max()
            err = np.abs(got - truth).max() / scale
            if dtype == np.float32:
                own = np.abs(ss.lfilter(bb, aa, xx) - truth).max() / scale
                assert err <= 2 * own + 1e-6, (n, cut, err, own)
            else:
                assert err <= 1e-8, (n, cut, err)


def test_complex_data_with_real_coefficients(xp):
    rng = np.random.default_rng(8)
    x = (rng.standard_normal((2, 2500)) + 1j * rng.standard_normal((2, 2500)))
    for cdtype, fdtype in ((np.complex64, np.float32), (np.complex64, np.float64)):
        if fdtype == np.float64 and np.float64 not in _dtypes(xp):
            continue
        xx = x.astype(cdtype)
        b, a = (c.astype(fdtype) for c in ss.butter(3, 0.2))
        sos = ss.butter(4, 0.1, output="sos").astype(fdtype)
        zi = (rng.standard_normal((2, 3)) + 1j).astype(cdtype)
        _check(ns.lfilter(b, a, xp.asarray(xx), zi=xp.asarray(zi)),
               ss.lfilter(b, a, xx, zi=zi), np.float32)
        _check(ns.sosfilt(sos, xp.asarray(xx)), ss.sosfilt(sos, xx), np.float32)
        _check(ns.filtfilt(b, a, xp.asarray(xx)), ss.filtfilt(b, a, xx), np.float32)
        _check(ns.sosfiltfilt(sos, xp.asarray(xx)), ss.sosfiltfilt(sos, xx), np.float32)


def test_float32_block_states_without_shader_f64(xp, monkeypatch):
    """Adapters without shader-f64 combine block states in float32 (in the eigenbasis)."""
    if xp.__name__.rsplit(".", 1)[-1] != "webgpu":
        pytest.skip("the block-state dtype is a webgpu kernel choice")
    from numr_array_api.backends.webgpu.scipy.signal import filtering
    monkeypatch.setattr(filtering, "state_dtype", lambda dtype, caps: dtype)
    rng = np.random.default_rng(9)
    x = rng.standard_normal((2, 5000)).astype(np.float32)
    b, a = (c.astype(np.float32) for c in ss.butter(4, 0.2))
    zi = rng.standard_normal((2, 4)).astype(np.float32)
    _check(ns.lfilter(b, a, xp.asarray(x), zi=xp.asarray(zi)), ss.lfilter(b, a, x, zi=zi),
           np.float32)


def test_rows_run_in_groups_that_fit_one_binding(xp, monkeypatch):
    """Arrays larger than one storage binding (128 MiB on lavapipe) filter in row groups:
    the same path, shown here with a small binding limit."""
    if xp.__name__.rsplit(".", 1)[-1] != "webgpu":
        pytest.skip("storage bindings are webgpu's")
    x = np.random.default_rng(10).standard_normal((8, 5000)).astype(np.float32)
    xd = xp.asarray(x)
    monkeypatch.setattr(xd._data.client, "max_binding", 3 * 5000 * 4 + 64)
    b, a = (c.astype(np.float32) for c in ss.butter(2, 0.3))
    zi = np.ones((8, 2), np.float32)
    _check(ns.lfilter(b, a, xd, zi=xp.asarray(zi)), ss.lfilter(b, a, x, zi=zi), np.float32)
    taps = ss.firwin(15, 0.3).astype(np.float32)        # the direct kernel, in row groups
    _check(ns.lfilter(taps, np.float32(1.0), xd), ss.lfilter(taps, np.float32(1.0), x),
           np.float32)


def test_deconvolve_like_scipy(xp):
    rng = np.random.default_rng(11)
    den = np.array([1.0, 0.5, 0.25])
    for dtype in _dtypes(xp):
        sig = (np.convolve(den, rng.standard_normal(50)) +
               rng.standard_normal(52) * 1e-3).astype(dtype)
        _check(ns.deconvolve(xp.asarray(sig), den), ss.deconvolve(sig, den), np.float64)
    quot, rem = ns.deconvolve(xp.asarray(np.ones(2)), np.ones(3))
    assert quot == [] and _host(rem).tolist() == [1.0, 1.0]
    with pytest.raises(ValueError):
        ns.deconvolve(xp.asarray(np.ones((2, 2))), [1.0])


def test_lfiltic_like_scipy(xp):
    rng = np.random.default_rng(12)
    for dtype in _dtypes(xp):
        for b, a in (ss.butter(3, 0.2), ([1, 2, 3, 4, 5], [2.0, 0.5]), ([1.0], [1, 0.3, 0.2])):
            b, a = np.asarray(b, dtype), np.asarray(a, dtype)
            for ny, nx in ((3, None), (1, 7)):        # short y / x are zero-padded
                y = rng.standard_normal(ny).astype(dtype)
                x = None if nx is None else rng.standard_normal(nx).astype(dtype)
                got = ns.lfiltic(b, a, xp.asarray(y), None if x is None else xp.asarray(x))
                _check(got, ss.lfiltic(b, a, y, x), dtype)


def test_vectorstrength_like_scipy(xp):
    events = np.sort(np.random.default_rng(13).random(200) * 10)
    for period in (0.5, np.array([0.3, 0.5, 1.0]), np.float32(0.7)):
        for dtype in _dtypes(xp):
            e = events.astype(dtype)
            ref = tuple(np.asarray(r) for r in ss.vectorstrength(e, period))
            got = ns.vectorstrength(xp.asarray(e), period)
            _check(got, ref, np.float32)
    with pytest.raises(ValueError):
        ns.vectorstrength(xp.asarray(events), -1.0)
