"""numr_array_api.scipy.signal's convolutions equal SciPy's on NumPy, on every backend: cpu
through SciPy itself, webgpu through numr's direct kernel and the namespace's FFT, with no
host copy (the host-conversion policy is "raise" throughout)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from _support import SLOW
from numr_array_api.errors import BackendLimitation

ss = pytest.importorskip("scipy.signal")
ns = pytest.importorskip("numr_array_api.scipy.signal")

MODES = ("full", "same", "valid")
# (in1 shape, in2 shape): odd / even, kernel longer than the signal, one element, n-d,
# one last axis longer than a workgroup tile
SHAPES_1D = [((10,), (3,)), ((9,), (4,)), ((3,), (8,)), ((1,), (1,)), ((300,), (17,))]
SHAPES_ND = [((5, 6), (2, 3)), ((6, 4), (7, 5)), ((4, 5, 6), (3, 2, 2))]
TOL = {np.float32: 2e-5, np.float64: 1e-12, np.complex64: 2e-5, np.complex128: 1e-12}


pytestmark = pytest.mark.usefixtures("no_host_copies")


def _host(a):
    return np.asarray(a.to_device("cpu"))


def _has64(xp):
    return xp.float64 in xp.__array_namespace_info__().dtypes().values()


def _data(rng, shape, dtype):
    a = rng.standard_normal(shape) * 4
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def _check(got, ref, dtype=None):
    got = _host(got)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    if ref.size == 0:
        return
    if ref.dtype.kind in "iub":
        np.testing.assert_array_equal(got, ref)
        return
    tol = TOL.get(np.dtype(dtype or ref.dtype).type, 1e-3)
    scale = max(1.0, float(np.abs(ref).max()))
    np.testing.assert_allclose(got, ref, rtol=0, atol=tol * scale * 4)


def _same_outcome(fn, ref_fn):
    """Both raise ValueError (numr's InvalidArgument is one), or both return."""
    try:
        ref = ref_fn()
    except ValueError:
        with pytest.raises(ValueError):
            fn()
        return None, None
    return fn(), ref


def _grid(fname, method, dtype):
    """Every shape for float32 (and on the GPU machine's slow runs); a cover otherwise."""
    if dtype == np.float32 or SLOW:
        return SHAPES_1D + SHAPES_ND
    return [SHAPES_1D[1], SHAPES_1D[2], SHAPES_ND[1]]


@pytest.mark.parametrize("fname", ["convolve", "correlate"])
@pytest.mark.parametrize("method", ["direct", "fft", "auto"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int16])
def test_convolve_correlate_like_scipy(xp, fname, method, dtype):
    if dtype == np.float64 and not _has64(xp):
        pytest.skip("no float64 on this device")
    if method == "auto" and dtype != np.float32 and not SLOW:
        pytest.skip("auto picks one of the two methods tested beside it (NUMR_TEST_SLOW=1)")
    if method == "fft" and dtype == np.int16 and not SLOW:
        pytest.skip("integers through the FFT: test_integer_inputs_promote_as_scipy")
    rng = np.random.default_rng(0)
    for sa, sk in _grid(fname, method, dtype):
        a, k = _data(rng, sa, dtype), _data(rng, sk, dtype)
        for mode in MODES:
            got, ref = _same_outcome(
                lambda: getattr(ns, fname)(xp.asarray(a), xp.asarray(k), mode=mode,
                                           method=method),
                lambda: getattr(ss, fname)(a, k, mode=mode, method=method))
            if ref is not None:
                _check(got, ref, dtype)


@pytest.mark.parametrize("fname", ["convolve2d", "correlate2d"])
@pytest.mark.parametrize("boundary", ["fill", "wrap", "symm"])
def test_2d_boundaries_like_scipy(xp, fname, boundary):
    rng = np.random.default_rng(1)
    for sa, sk in [((5, 6), (2, 3)), ((6, 4), (7, 5)), ((9, 8), (4, 4)), ((3, 2), (7, 8))]:
        a = rng.standard_normal(sa).astype(np.float32)
        k = rng.standard_normal(sk).astype(np.float32)
        for mode in MODES:
            got, ref = _same_outcome(
                lambda: getattr(ns, fname)(xp.asarray(a), xp.asarray(k), mode=mode,
                                           boundary=boundary, fillvalue=1.5),
                lambda: getattr(ss, fname)(a, k, mode=mode, boundary=boundary,
                                           fillvalue=1.5))
            if ref is not None:
                _check(got, ref)


def test_2d_complex_and_integers_like_scipy(xp):
    rng = np.random.default_rng(2)
    a, k = _data(rng, (7, 6), np.complex64), _data(rng, (3, 2), np.complex64)
    for fname in ("convolve2d", "correlate2d"):
        _check(getattr(ns, fname)(xp.asarray(a), xp.asarray(k), mode="same"),
               getattr(ss, fname)(a, k, mode="same"))
    ai = rng.integers(-50, 50, (6, 5)).astype(np.int32)
    ki = rng.integers(-5, 5, (3, 3)).astype(np.int32)
    _check(ns.convolve2d(xp.asarray(ai), xp.asarray(ki), boundary="wrap"),
           ss.convolve2d(ai, ki, boundary="wrap"))


@pytest.mark.parametrize("fname", ["fftconvolve", "oaconvolve"])
def test_fft_convolutions_with_axes_like_scipy(xp, fname):
    rng = np.random.default_rng(3)
    cases = [((40,), (7,), None), ((4, 30), (1, 9), [1]), ((4, 30), (4, 9), -1),
             ((6, 5, 8), (6, 3, 1), (0, 1)), ((12, 10), (5, 3), None)]
    for dtype in (np.float32, np.complex64):
        for sa, sk, axes in cases:
            a, k = _data(rng, sa, dtype), _data(rng, sk, dtype)
            for mode in MODES:
                got, ref = _same_outcome(
                    lambda: getattr(ns, fname)(xp.asarray(a), xp.asarray(k), mode=mode,
                                               axes=axes),
                    lambda: getattr(ss, fname)(a, k, mode=mode, axes=axes))
                if ref is not None:
                    _check(got, ref, dtype)


def test_integer_inputs_promote_as_scipy(xp):
    a = np.arange(1, 12, dtype=np.int16)
    k = np.array([3, -1, 2], dtype=np.int16)
    _check(ns.fftconvolve(xp.asarray(a), xp.asarray(k)), ss.fftconvolve(a, k))
    _check(ns.convolve(xp.asarray(a), xp.asarray(k), method="fft"),
           ss.convolve(a, k, method="fft"))
    b = np.array([True, False, True, True])
    _check(ns.convolve(xp.asarray(b), xp.asarray(b[:2])), ss.convolve(b, b[:2]))


def test_views_as_input(xp):
    rng = np.random.default_rng(4)
    base = rng.standard_normal((8, 40)).astype(np.float32)
    kb = rng.standard_normal((6, 9)).astype(np.float32)
    xa, xk = xp.asarray(base), xp.asarray(kb)
    va, vk = xa[1::2, ::3], xp.flip(xk[::2, 1:], axis=1)
    a, k = base[1::2, ::3], kb[::2, 1:][:, ::-1]
    for method in ("direct", "fft"):
        _check(ns.correlate(va, vk, mode="same", method=method),
               ss.correlate(a, k, mode="same", method=method))
    _check(ns.convolve2d(va, vk, boundary="symm"), ss.convolve2d(a, k, boundary="symm"))
    # the inputs are left as they were
    np.testing.assert_array_equal(_host(xa), base)


def test_empty_inputs_like_scipy(xp):
    e, x = np.zeros(0, np.float32), np.ones(4, np.float32)
    for fname in ("fftconvolve", "oaconvolve"):
        _check(getattr(ns, fname)(xp.asarray(e), xp.asarray(x)), getattr(ss, fname)(e, x))
    for mode in MODES:
        for args in ((e, x), (x, e)):
            got, ref = _same_outcome(
                lambda: ns.convolve(*[xp.asarray(v) for v in args], mode=mode,
                                    method="direct"),
                lambda: ss.convolve(*args, mode=mode, method="direct"))
            if ref is not None:
                _check(got, ref)


def test_host_kernel_next_to_a_device_array(xp):
    a = np.linspace(0, 1, 50, dtype=np.float32)
    k = np.array([0.25, 0.5, 0.25], dtype=np.float32)
    got = ns.convolve(xp.asarray(a), k, mode="same")
    assert got.device == xp.asarray(a).device
    _check(got, ss.convolve(a, k, mode="same"))


def test_choose_conv_method_like_scipy(xp):
    for sa, sk in [((100,), (3,)), ((100000,), (1000,)), ((64, 64), (9, 9)), ((8, 8), (3, 3))]:
        a, k = np.ones(sa, np.float32), np.ones(sk, np.float32)
        for mode in MODES:
            assert ns.choose_conv_method(xp.asarray(a), xp.asarray(k), mode=mode) == \
                ss.choose_conv_method(a, k, mode=mode)


def test_bad_arguments_raise_value_errors(xp):
    a = xp.asarray(np.ones(5, np.float32))
    with pytest.raises(ValueError):
        ns.convolve(a, a, mode="bogus")
    with pytest.raises(ValueError):
        ns.convolve(a, a, method="bogus")
    with pytest.raises(ValueError):
        ns.convolve(a, xp.asarray(np.ones((2, 2), np.float32)))
    with pytest.raises(ValueError):
        ns.convolve2d(a, a)
    m = xp.asarray(np.ones((3, 3), np.float32))
    with pytest.raises(ValueError):
        ns.convolve2d(m, m, boundary="bogus")


def test_webgpu_limits_name_the_function_and_argument():
    wg = pytest.importorskip("numr_array_api.webgpu")
    if not wg.__array_namespace_info__().devices():
        pytest.skip("no webgpu device")
    a = wg.asarray(np.ones(8, np.float32))
    with pytest.raises(BackendLimitation, match="choose_conv_method.*measure"):
        ns.choose_conv_method(a, a, measure=True)
    with pytest.raises(BackendLimitation, match="find_peaks"):
        ns.find_peaks(a)


def test_implemented_and_all():
    assert "convolve" in ns.__all__ and "lfilter" in ns.__all__
    assert "implemented" in ns.__all__
    for name in ("convolve", "fftconvolve", "lfilter", "sosfilt", "hilbert"):
        assert ns.implemented(name, "webgpu")
        assert ns.implemented(name, "cpu")
    assert not ns.implemented("get_window", "webgpu")
    assert not ns.implemented("find_peaks", "webgpu")
    assert not ns.implemented("lfilter_zi", "cuda")      # SciPy's CuPy blocklist
    assert not ns.implemented("no_such_function", "cpu")
    # the public list and the webgpu package's table name the same functions
    from numr_array_api.backends.webgpu.scipy.signal import FUNCTIONS
    assert set(ns.WEBGPU) == set(FUNCTIONS)
    assert all(ns.implemented(name, "webgpu") for name in FUNCTIONS)
    # SciPy's signature is kept
    import inspect
    assert list(inspect.signature(ns.convolve).parameters) == \
        list(inspect.signature(ss.convolve).parameters)


@settings(deadline=None)
@given(na=st.lists(st.integers(1, 9), min_size=1, max_size=3),
       nk=st.lists(st.integers(1, 6), min_size=3, max_size=3),
       mode=st.sampled_from(MODES), fname=st.sampled_from(["convolve", "correlate"]),
       step=st.integers(1, 2), seed=st.integers(0, 2**16))
def test_direct_shapes_and_views_like_scipy(xp, na, nk, mode, fname, step, seed):
    """Random shapes, modes and strided views through the direct kernel."""
    rng = np.random.default_rng(seed)
    nk = nk[:len(na)]
    base = rng.standard_normal([n * step for n in na]).astype(np.float32)
    a = base[tuple(slice(None, None, step) for _ in na)]
    k = rng.standard_normal(nk).astype(np.float32)
    got, ref = _same_outcome(
        lambda: getattr(ns, fname)(xp.asarray(base)[tuple(slice(None, None, step)
                                                          for _ in na)],
                                   xp.asarray(k), mode=mode, method="direct"),
        lambda: getattr(ss, fname)(a, k, mode=mode, method="direct"))
    if ref is not None:
        _check(got, ref, np.float32)
