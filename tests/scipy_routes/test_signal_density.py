"""numr_array_api.scipy.signal's csd, welch and periodogram equal SciPy's on NumPy, on every
backend, with no host copy of the data (the host-conversion policy is "raise" throughout)."""

import warnings

import numpy as np
import pytest

from numr_array_api.errors import BackendLimitation

ss = pytest.importorskip("scipy.signal")
ns = pytest.importorskip("numr_array_api.scipy.signal")

TOL = {np.float32: 1e-5, np.complex64: 1e-5, np.float64: 1e-12, np.complex128: 1e-12}
# few distinct FFT lengths (each compiles its plan once on lavapipe)
CASES = [dict(nperseg=64), dict(nperseg=64, noverlap=10, nfft=128),
         dict(window="hann", nperseg=128, detrend="linear"), dict(nperseg=64, average="median"),
         dict(nperseg=64, detrend=False, scaling="spectrum"),
         dict(nperseg=32, return_onesided=False), dict(window=np.hanning(64), fs=8.0)]


pytestmark = pytest.mark.usefixtures("no_host_copies")


def _check(got, ref):
    for g, r in zip(got, ref):
        g = np.asarray(g.to_device("cpu"))
        assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
        scale = max(float(np.abs(r).max()), 1e-30)
        np.testing.assert_allclose(g, r, rtol=0, atol=TOL[r.dtype.type] * scale)


def _signals(dtype):
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((2, 2, 600))
    if np.dtype(dtype).kind == "c":
        return (x + 1j * y).astype(dtype), (y - 1j * x).astype(dtype)
    return (x * 10).astype(dtype), (y * 10).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float64, np.int16])
def test_welch_and_csd_like_scipy(xp, dtype):
    if dtype == np.float64 and xp.float64 not in xp.__array_namespace_info__().dtypes().values():
        pytest.skip("no float64 on this device")
    x, y = _signals(dtype)
    for kw in CASES if dtype == np.float32 else CASES[:3]:
        _check(ns.welch(xp.asarray(x), **kw), ss.welch(x, **kw))
        _check(ns.csd(xp.asarray(x), xp.asarray(y), **kw), ss.csd(x, y, **kw))


def test_periodogram_like_scipy(xp):
    x = _signals(np.float32)[0][..., :512]
    for kw in (dict(), dict(nfft=512), dict(nfft=256), dict(window="hann"),
               dict(scaling="spectrum", detrend="linear"), dict(return_onesided=False)):
        _check(ns.periodogram(xp.asarray(x), **kw), ss.periodogram(x, **kw))


def test_axes_lengths_and_views(xp):
    x, y = _signals(np.float32)
    _check(ns.welch(xp.asarray(x.T.copy()), nperseg=100, axis=0),
           ss.welch(x.T.copy(), nperseg=100, axis=0))
    _check(ns.welch(xp.asarray(x)[0, ::2], nperseg=64), ss.welch(x[0, ::2], nperseg=64))
    _check(ns.csd(xp.asarray(x[0]), xp.asarray(y[0, :500]), nperseg=128),
           ss.csd(x[0], y[0, :500], nperseg=128))
    _check(ns.periodogram(xp.asarray(x[0, :300]), nfft=512),
           ss.periodogram(x[0, :300], nfft=512))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # nperseg > length: both warn
        _check(ns.welch(xp.asarray(x[0, :100])), ss.welch(x[0, :100]))


def test_limits_and_errors(xp):
    x = xp.asarray(np.ones(300, np.float32))
    with pytest.raises(ValueError):
        ns.welch(x, nperseg=64, noverlap=64)
    with pytest.raises(ValueError):
        ns.welch(x, nperseg=64, nfft=32)
    if xp.__name__.rsplit(".", 1)[-1] == "webgpu":
        with pytest.raises(BackendLimitation, match="welch.*detrend"):
            ns.welch(x, detrend=lambda d: d)


def test_coherence_like_scipy(xp):
    x, y = _signals(np.float32)
    for kw in CASES[:3]:
        _check(ns.coherence(xp.asarray(x), xp.asarray(y), **kw), ss.coherence(x, y, **kw))


@pytest.mark.filterwarnings("ignore:Input data is complex:UserWarning")
@pytest.mark.parametrize("mode", ["psd", "complex", "magnitude", "angle", "phase"])
def test_spectrogram_like_scipy(xp, mode):
    x, _ = _signals(np.float32)
    cases = [dict(), dict(nperseg=64, noverlap=10, nfft=128, axis=-1),
             dict(window="hann", nperseg=128, detrend="linear", scaling="spectrum"),
             dict(nperseg=32, return_onesided=False)]
    for kw in cases:
        got = ns.spectrogram(xp.asarray(x), mode=mode, **kw)
        ref = ss.spectrogram(x, mode=mode, **kw)
        if mode in ("angle", "phase"):
            # a bin on the negative real axis is at pi or -pi by the sign of a zero
            # imaginary part (unspecified): compare angles modulo 2 pi
            _check(got[:2], ref[:2])
            g = np.asarray(got[2].to_device("cpu"))
            assert g.shape == ref[2].shape and g.dtype == ref[2].dtype
            np.testing.assert_allclose(np.angle(np.exp(1j * (g - ref[2]))), 0, atol=1e-3)
        else:
            _check(got, ref)
    x3 = np.random.default_rng(5).standard_normal((2, 300, 3)).astype(np.float32)
    _check(ns.spectrogram(xp.asarray(x3), nperseg=64, axis=1, mode="psd" if mode != "phase"
                          else "magnitude"),
           ss.spectrogram(x3, nperseg=64, axis=1, mode="psd" if mode != "phase"
                          else "magnitude"))


@pytest.mark.filterwarnings("ignore:Input data is complex:UserWarning",
                            "ignore:NOLA condition failed:UserWarning")
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_stft_and_istft_like_scipy(xp, dtype):
    x, y = _signals(dtype)
    cases = [dict(nperseg=64), dict(nperseg=64, noverlap=10, nfft=128),
             dict(window="hann", nperseg=128, detrend="linear", boundary="even",
                  padded=False, scaling="psd"),
             dict(nperseg=32, return_onesided=False, boundary="odd"),
             dict(nperseg=64, boundary=None, noverlap=48)]
    for kw in cases:
        _check(ns.stft(xp.asarray(x), **kw), ss.stft(x, **kw))
        _, _, Z = ss.stft(x, **kw)
        inverse = {k: v for k, v in kw.items()
                   if k in ("nperseg", "noverlap", "nfft", "window", "scaling")}
        inverse["input_onesided"] = kw.get("return_onesided", True) and \
            np.dtype(dtype).kind != "c"
        inverse["boundary"] = kw.get("boundary", "zeros") is not None
        got, ref = ns.istft(xp.asarray(Z), **inverse), ss.istft(Z, **inverse)
        if not inverse["boundary"]:
            # the edges divide by the window's tiny first squares (ill-conditioned in
            # SciPy too): compare where every sample has a full overlap
            m = kw["nperseg"]
            got, ref = (got[0], got[1][..., m:-m]), (ref[0], ref[1][..., m:-m])
        _check(got, ref)
    _, _, Z = ss.stft(x.T.copy(), nperseg=64, axis=0)           # frequencies first
    _check(ns.istft(xp.asarray(Z), nperseg=64, time_axis=-1, freq_axis=0),
           ss.istft(Z, nperseg=64, time_axis=-1, freq_axis=0))
