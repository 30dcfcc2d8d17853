"""SciPy's own functions routed to numr (numr_array_api.scipy.enable()), run by
test_routing.py in a fresh interpreter with SCIPY_ARRAY_API=1 (SciPy reads it at import)."""

import numpy as np
import pytest

import numr_array_api as numr
import numr_array_api.scipy as nsp
from numr_array_api.errors import BackendLimitation, BackendUnavailable

scipy = pytest.importorskip("scipy")
from scipy import ndimage, signal, special  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def _routes():
    nsp.enable()
    yield
    nsp.disable()


def _host(a):
    return np.asarray(a.to_device("cpu"))


def _device_backend(xp):
    return xp.__name__.rsplit(".", 1)[-1] != "cpu"


def test_special_runs_on_the_arrays_device(xp):
    a = np.linspace(-3, 3, 101, dtype=np.float32)
    with numr.host_conversion("raise"):
        got = special.erf(xp.asarray(a))
    assert got.__array_namespace__() is xp
    np.testing.assert_allclose(_host(got), special.erf(a), rtol=2e-6, atol=1e-7)


def test_ndimage_filter_runs_on_the_arrays_device(xp):
    a = np.arange(64, dtype=np.float32).reshape(8, 8) ** 1.5
    with numr.host_conversion("raise"):
        got = ndimage.uniform_filter(xp.asarray(a), 3, mode="reflect")
    assert got.__array_namespace__() is xp
    np.testing.assert_allclose(_host(got), ndimage.uniform_filter(a, 3), rtol=1e-5)


def test_signal_convolution_runs_on_the_arrays_device(xp):
    rng = np.random.default_rng(0)
    a, k = rng.standard_normal(200).astype(np.float32), rng.standard_normal(9).astype(np.float32)
    with numr.host_conversion("raise"):
        got = signal.fftconvolve(xp.asarray(a), xp.asarray(k))
    np.testing.assert_allclose(_host(got), signal.fftconvolve(a, k), rtol=1e-4, atol=1e-4)


def test_an_output_array_is_always_written(xp):
    """SciPy's own code (a function numr may not cover) writes a host copy of output=; the
    route copies the result into the device array, so it is never left unwritten."""
    a = np.arange(30, dtype=np.float64).reshape(5, 6) ** 1.3
    ref = ndimage.shift(a, (0.5, -1.25), order=1, mode="nearest")
    out = xp.zeros((5, 6), dtype=xp.float32)
    with numr.host_conversion("allow"):
        r = ndimage.shift(xp.asarray(a), (0.5, -1.25), order=1, mode="nearest", output=out)
    np.testing.assert_allclose(_host(out), ref.astype(np.float32), rtol=1e-6, atol=1e-6)
    assert r is None or r is out or _host(r).shape == ref.shape


def test_an_output_array_only_parameter_is_written(xp):
    """vectorized_filter's output= takes an array, not a dtype: SciPy's result is cast into
    the device array (numr cpu arrays take SciPy's own path, which this is not about)."""
    if xp.__name__.endswith(".cpu"):
        pytest.skip("cpu arrays are not routed through the write-back")
    a = np.arange(20.0).reshape(4, 5) ** 1.5
    out = xp.zeros((4, 5), dtype=xp.float32)
    with numr.host_conversion("allow"):
        r = ndimage.vectorized_filter(xp.asarray(a), xp.mean, size=3, output=out)
    ref = ndimage.vectorized_filter(a, np.mean, size=3)
    np.testing.assert_allclose(_host(out), ref.astype(np.float32), rtol=1e-6)
    assert r is out


def test_an_output_count_return_keeps_scipys_meaning(xp):
    a = np.array([[1, 1, 0, 0], [0, 0, 0, 1], [1, 0, 1, 1]], dtype=np.int32)
    ref_labels, ref_n = ndimage.label(a)
    out = xp.zeros(a.shape, dtype=xp.int32)
    with numr.host_conversion("allow"):
        n = ndimage.label(xp.asarray(a), output=out)
    assert int(n) == ref_n
    np.testing.assert_array_equal(_host(out), ref_labels)


def test_an_output_it_cannot_write_is_refused(xp):
    if not _device_backend(xp):
        pytest.skip("cpu arrays are the host memory SciPy writes")
    a = np.ones((6, 6), dtype=np.float64)
    a[2:4, 2:4] = 0
    dist = xp.zeros((6, 6), dtype=xp.float64)
    from numr_array_api.scipy import ndimage as nnd
    be = xp.__name__.rsplit(".", 1)[-1]
    if nnd.implemented("distance_transform_edt", be):
        pytest.skip("numr computes it on this backend")
    with numr.host_conversion("allow"), pytest.raises(BackendLimitation, match="distances="):
        ndimage.distance_transform_edt(xp.asarray(a), distances=dist)


def test_numpy_arrays_keep_scipys_path():
    a = np.linspace(0, 1, 11)
    assert isinstance(special.erf(a), np.ndarray)
    assert isinstance(ndimage.uniform_filter(a, 3), np.ndarray)


def test_disable_restores_scipys_functions():
    routed = ndimage.uniform_filter
    assert hasattr(routed, "__numr_routed__")
    nsp.disable()
    try:
        assert ndimage.uniform_filter is routed.__numr_routed__
        assert not hasattr(signal.convolve, "__numr_routed__")
    finally:
        nsp.enable()


def test_an_unsupported_scipy_release_is_refused(monkeypatch):
    nsp.disable()
    try:
        monkeypatch.setattr(scipy, "__version__", "1.99.0")
        with pytest.raises(BackendUnavailable, match="1.99"):
            nsp.enable()
        assert not nsp.enabled()
    finally:
        monkeypatch.undo()
        nsp.enable()
