"""csd, welch, periodogram, coherence and spectrogram for webgpu arrays: Welch's averaged
periodograms and the short-time spectra they average.

The segments are one gather (``take`` with host-computed indices) into a (..., segments,
nperseg) array, then detrend (spectral.py), the window product, the namespace's FFT, the
cross product and the mean (or median) over segments, all on the device. The window and the
frequencies are small host arrays (SciPy's get_window / fftfreq), uploaded.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np

from ....._core import dtypes as D
from ....._core.errors import InvalidArgument
from . import _common as C
from .spectral import detrend as _detrend

__all__ = ["csd", "welch", "periodogram", "coherence", "spectrogram"]

_SCALINGS = ("density", "spectrum")


def _scipy(name):
    import scipy.signal
    f = getattr(scipy.signal, name)
    return getattr(f, "__numr_routed__", f)


def _window(window, nperseg, n, fname):
    if isinstance(window, (str, tuple)):
        nperseg = 256 if nperseg is None else operator.index(nperseg)
        if nperseg < 1:
            raise InvalidArgument("nperseg", f"{fname}: nperseg={nperseg} is not a positive "
                                  "integer")
        if n < nperseg:
            warnings.warn(f"nperseg={nperseg} is greater than signal length {n}, using "
                          f"nperseg = {n}", stacklevel=4)
            nperseg = n
        return np.asarray(_scipy("get_window")(window, nperseg), dtype=np.float64), nperseg
    win = np.asarray(C.host_coefficients(window, "window"), dtype=np.float64)
    if win.ndim != 1:
        raise InvalidArgument("window", f"{fname}: window must be 1-D")
    nperseg = win.shape[0] if nperseg is None else operator.index(nperseg)
    if nperseg != win.shape[0]:
        raise InvalidArgument("nperseg", f"{fname}: nperseg={nperseg} does not equal "
                              f"len(win)={win.shape[0]}")
    return win, nperseg


def _segments(xp, xm, nperseg, hop, nseg):
    idx = (np.arange(nseg)[:, None] * hop + np.arange(nperseg)[None, :]).ravel()
    seg = xp.take(xm, xp.asarray(idx.astype(np.int32), device=xm.device), axis=-1)
    return xp.reshape(seg, xm.shape[:-1] + (nseg, nperseg))


def _median(xp, v, axis):
    s = xp.sort(v, axis=axis)
    n = v.shape[axis]
    lo = xp.take(s, xp.asarray([(n - 1) // 2, n // 2], device=v.device), axis=axis)
    return xp.mean(lo, axis=axis)


def _csd(fname, x, y, same, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
         scaling, axis, average):
    xp, like = C.namespace(x, y)
    x = C.on_device(xp, x, like)
    y = x if same else C.on_device(xp, y, like)
    if scaling not in _SCALINGS:
        raise InvalidArgument("scaling", f"{fname}: unknown scaling {scaling!r}")
    if average not in ("mean", "median"):
        raise InvalidArgument("average", f"{fname}: average must be 'median' or 'mean', got "
                              f"{average!r}")
    if callable(detrend):
        raise C.limitation(fname, "a callable detrend", "the segments are detrended on the "
                           "device: detrend='constant', 'linear' or False")
    if x.ndim == 0 or y.ndim == 0:
        raise InvalidArgument("x", f"{fname}: x and y must be at least 1-D")
    yaxis = C.norm_axis(axis, y.ndim, fname)
    axis = C.norm_axis(axis, x.ndim, fname)
    xm = xp.moveaxis(x, axis, -1)
    ym = xm if same else xp.moveaxis(y, yaxis, -1)
    if xm.size == 0 or ym.size == 0:
        shape = x.shape if same else xp.broadcast_shapes(xm.shape[:-1], ym.shape[:-1]) + (
            min(xm.shape[-1], ym.shape[-1]),)
        empty = xp.zeros(shape, dtype=xp.float64, device=x.device)
        return empty, empty
    cplx = C.is_complex(x.dtype) or C.is_complex(y.dtype)
    out_np = np.result_type(x.dtype.np, y.dtype.np, np.complex64)
    cdt = D.complex64 if out_np == np.complex64 else D.complex128
    rdt = D.float32 if cdt == D.complex64 else D.float64
    n = max(xm.shape[-1], ym.shape[-1])
    win, nperseg = _window(window, nperseg, n, fname)
    nfft = nperseg if nfft is None else operator.index(nfft)
    if nfft < nperseg:
        raise InvalidArgument("nfft", f"{fname}: nfft={nfft} must be greater than or equal "
                              f"to nperseg={nperseg}")
    noverlap = nperseg // 2 if noverlap is None else operator.index(noverlap)
    if noverlap >= nperseg:
        raise InvalidArgument("noverlap", f"{fname}: noverlap={noverlap} must be less than "
                              f"nperseg={nperseg}")
    if C.is_complex(x.dtype):
        return_onesided = False
    elif return_onesided and C.is_complex(y.dtype):
        raise C.limitation(fname, "complex y beside real x and return_onesided=True",
                           "SciPy's one-sided transform of complex data is not reproduced")
    hop = nperseg - noverlap
    nseg = (n - noverlap) // hop
    if nseg < 1:
        raise C.limitation(fname, f"nperseg={nperseg} longer than the signal ({n})",
                           "give a window no longer than the signal")

    def prepared(v):
        if v.shape[-1] < n:                  # the shorter signal is zero-padded
            pad = xp.zeros(v.shape[:-1] + (n - v.shape[-1],), dtype=v.dtype, device=v.device)
            v = xp.concat([v, pad], axis=-1)
        seg = _segments(xp, v, nperseg, hop, nseg)
        want = cdt if C.is_complex(v.dtype) else rdt
        seg = seg if seg.dtype == want else xp.astype(seg, want)
        if detrend:
            seg = _detrend(seg, axis=-1, type=detrend)
        seg = seg * xp.asarray(win.astype(rdt.np), device=v.device)
        f = xp.fft
        return f.rfft(seg, n=nfft) if return_onesided else f.fft(seg, n=nfft)

    X = prepared(xm)
    Y = X if same else prepared(ym)
    scale = 1.0 / (fs * float((win * win).sum())) if scaling == "density" else \
        1.0 / float(win.sum()) ** 2
    P = xp.conj(X) * Y
    if not C.is_complex(P.dtype):
        P = xp.astype(P, cdt)
    w = np.full(P.shape[-1], scale)
    if return_onesided:
        w[1:-1 if nfft % 2 == 0 else None] *= 2
    P = P * xp.asarray(w.astype(rdt.np), device=x.device)
    if P.shape[-2] > 1:
        if average == "median":
            bias = float(_median_bias(P.shape[-2]))
            if cplx or not same:
                P = xp.astype(_median(xp, xp.real(P), -2), cdt) + \
                    xp.astype(_median(xp, xp.imag(P), -2), cdt) * 1j
            else:
                P = xp.astype(_median(xp, xp.real(P), -2), cdt)
            P = P / bias
        else:
            P = xp.mean(P, axis=-2)
    else:
        P = xp.reshape(P, P.shape[:-2] + (P.shape[-1],))
    freqs = np.fft.rfftfreq(nfft, 1 / fs) if return_onesided else np.fft.fftfreq(nfft, 1 / fs)
    P = xp.moveaxis(P, -1, axis) if P.ndim > 1 else P
    return xp.asarray(freqs, device=x.device), P


def _median_bias(n):
    ii_2 = 2 * np.arange(1.0, (n - 1) // 2 + 1)
    return 1 + np.sum(1.0 / (ii_2 + 1) - 1.0 / ii_2)


def csd(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
        detrend="constant", return_onesided=True, scaling="density", axis=-1,
        average="mean"):
    return _csd("csd", x, y, y is x, fs, window, nperseg, noverlap, nfft, detrend,
                return_onesided, scaling, axis, average)


def welch(x, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
          detrend="constant", return_onesided=True, scaling="density", axis=-1,
          average="mean"):
    xp, _ = C.namespace(x)
    f, P = _csd("welch", x, x, True, fs, window, nperseg, noverlap, nfft, detrend,
                return_onesided, scaling, axis, average)
    return f, (xp.real(P) if C.is_complex(P.dtype) else P)


def periodogram(x, fs=1.0, window="boxcar", nfft=None, detrend="constant",
                return_onesided=True, scaling="density", axis=-1):
    xp, like = C.namespace(x)
    x = C.on_device(xp, x, like)
    if x.size == 0:
        empty = xp.zeros(x.shape, dtype=xp.float64, device=x.device)
        return empty, empty
    if window is None:
        window = "boxcar"
    axis = C.norm_axis(axis, x.ndim, "periodogram")
    n = x.shape[axis]
    if nfft is None or nfft == n:
        nperseg = n
    elif nfft > n:
        nperseg = n
    else:
        sl = [slice(None)] * x.ndim
        sl[axis] = slice(0, nfft)
        x = x[tuple(sl)]
        nperseg, nfft = nfft, None
    if hasattr(window, "shape") and np.size(C.host_coefficients(window, "window")) != nperseg:
        raise InvalidArgument("window", "periodogram: the size of the window must be the "
                              "same size of the input on the specified axis")
    return welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=0, nfft=nfft,
                 detrend=detrend, return_onesided=return_onesided, scaling=scaling,
                 axis=axis)


def coherence(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
              detrend="constant", axis=-1):
    xp, _ = C.namespace(x, y)
    kw = dict(fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
              detrend=detrend, axis=axis)
    freqs, pxx = welch(x, **kw)
    _, pyy = welch(y, **kw)
    _, pxy = csd(x, y, **kw)
    return freqs, xp.abs(pxy) ** 2 / pxx / pyy


_SPECTROGRAM_MODES = ("psd", "complex", "magnitude", "angle", "phase")


def spectrogram(x, fs=1.0, window=("tukey_periodic", 0.25), nperseg=None, noverlap=None,
                nfft=None, detrend="constant", return_onesided=True, scaling="density",
                axis=-1, mode="psd"):
    if mode not in _SPECTROGRAM_MODES:
        raise InvalidArgument("mode", f"spectrogram: unknown value for mode {mode}, must be "
                              f"one of {list(_SPECTROGRAM_MODES)}")
    if scaling not in _SCALINGS:
        raise InvalidArgument("scaling", f"spectrogram: unknown scaling {scaling!r}")
    if callable(detrend):
        raise C.limitation("spectrogram", "a callable detrend", "the segments are detrended "
                           "on the device: detrend='constant', 'linear' or False")
    xp, like = C.namespace(x)
    x = C.on_device(xp, x, like)
    if x.ndim == 0:
        raise InvalidArgument("x", "spectrogram: x must be at least 1-D")
    axis = C.norm_axis(axis, x.ndim, "spectrogram")
    if x.size == 0:
        empty = xp.zeros(x.shape, dtype=xp.float64, device=x.device)
        return empty, empty, empty
    xm = xp.moveaxis(x, axis, -1)
    n = xm.shape[-1]
    if not isinstance(window, (str, tuple)) and \
            np.asarray(C.host_coefficients(window, "window")).shape[-1] > n:
        raise InvalidArgument("window", "spectrogram: window is longer than input signal")
    win, nperseg = _window(window, nperseg, n, "spectrogram")
    nfft = nperseg if nfft is None else operator.index(nfft)
    if nfft < nperseg:
        raise InvalidArgument("nfft", "spectrogram: nfft must be greater than or equal to "
                              "nperseg")
    noverlap = nperseg // 8 if noverlap is None else operator.index(noverlap)
    if noverlap >= nperseg:
        raise InvalidArgument("noverlap", "spectrogram: noverlap must be less than nperseg")
    cdt = D.complex64 if np.result_type(x.dtype.np, np.complex64) == np.complex64 \
        else D.complex128
    rdt = D.float32 if cdt == D.complex64 else D.float64
    onesided = return_onesided and not C.is_complex(x.dtype)
    if return_onesided and not onesided:
        warnings.warn("Input data is complex, switching to return_onesided=False",
                      stacklevel=3)
    hop = nperseg - noverlap
    nseg = (n - nperseg) // hop + 1
    seg = _segments(xp, xm, nperseg, hop, nseg)
    want = cdt if C.is_complex(x.dtype) else rdt
    seg = seg if seg.dtype == want else xp.astype(seg, want)
    if detrend:
        seg = _detrend(seg, axis=-1, type=detrend)
    seg = seg * xp.asarray(win.astype(rdt.np), device=x.device)
    S = xp.fft.rfft(seg, n=nfft) if onesided else xp.fft.fft(seg, n=nfft)
    scale = 1.0 / (fs * float((win * win).sum())) if scaling == "density" else \
        1.0 / float(win.sum()) ** 2
    if mode == "psd":
        P = xp.real(S) ** 2 + xp.imag(S) ** 2
        w = np.full(P.shape[-1], scale)
        if onesided:
            w[1:None if nfft % 2 else -1] *= 2
        out = P * xp.asarray(w.astype(rdt.np), device=x.device)
    else:
        S = S * float(np.sqrt(scale))
        if mode == "complex":
            out = S if S.dtype == cdt else xp.astype(S, cdt)
        elif mode == "magnitude":
            out = xp.abs(S)
        else:
            im = xp.imag(S)
            if not C.is_complex(x.dtype):
                # the DC and Nyquist bins of a real signal are real: their rounding residue
                # would put a negative bin's angle at -pi instead of NumPy's pi
                keep = np.ones(S.shape[-1])
                keep[0] = 0
                if nfft % 2 == 0:
                    keep[nfft // 2] = 0
                im = im * xp.asarray(keep.astype(rdt.np), device=x.device)
            # + 0.0 turns -0 into +0 (atan2 reads the sign of zero)
            out = xp.atan2(im + 0.0, xp.real(S))
            if mode == "phase":
                out = _unwrap_last(xp, out)
    times = np.arange(nperseg / 2, n - nperseg / 2 + 1, hop) / float(fs)
    freqs = np.fft.rfftfreq(nfft, 1 / fs) if onesided else np.fft.fftfreq(nfft, 1 / fs)
    # (..., segments, frequencies) -> frequencies where the axis was, segments last
    out = xp.moveaxis(out, -1, -2)
    out = xp.moveaxis(out, -2, axis) if out.ndim > 2 else out
    return (xp.asarray(freqs, device=x.device), xp.asarray(times, device=x.device), out)


def _unwrap_last(xp, p):
    """NumPy's unwrap along the last axis (jumps above pi become their 2 pi complement)."""
    d = xp.diff(p, axis=-1)
    dmod = xp.remainder(d + np.pi, 2 * np.pi) - np.pi
    dmod = xp.where((dmod == -np.pi) & (d > 0), xp.full_like(dmod, np.pi), dmod)
    corr = xp.where(xp.abs(d) < np.pi, xp.zeros_like(d), dmod - d)
    zero = xp.zeros(p.shape[:-1] + (1,), dtype=p.dtype, device=p.device)
    return p + xp.concat([zero, xp.cumulative_sum(corr, axis=-1)], axis=-1)
