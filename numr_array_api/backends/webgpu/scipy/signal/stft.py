"""stft and istft for webgpu arrays (SciPy's legacy short-time transforms).

stft: the signal extended at both ends (``boundary``) and zero-padded to whole segments
(``padded``), cut into segments by one gather, windowed and transformed (density.py's
segmentation). istft: the inverse transform of every segment, the window product, and the
overlap-add as a few shifted sums: with q = ceil(nperseg / hop), each frame splits into q
blocks of hop samples, block r of frame k lands on output block k + r, so the output is
the sum over r of the frames' r-th blocks shifted by r blocks. The window's own
overlap-added square (the normalisation) depends on the window only: the host computes it.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np

from ....._core import dtypes as D
from ....._core.errors import InvalidArgument
from . import _common as C
from .density import _segments, _window
from .filtering import _extend
from .spectral import detrend as _detrend

__all__ = ["stft", "istft"]

_BOUNDARIES = ("even", "odd", "constant", "zeros", None)


def stft(x, fs=1.0, window="hann_periodic", nperseg=256, noverlap=None, nfft=None,
         detrend=False, return_onesided=True, boundary="zeros", padded=True, axis=-1,
         scaling="spectrum"):
    if scaling == "psd":
        scaling = "density"
    elif scaling != "spectrum":
        raise InvalidArgument("scaling", f"stft: scaling={scaling!r} not in ['spectrum', "
                              "'psd']")
    if boundary not in _BOUNDARIES:
        raise InvalidArgument("boundary", f"stft: unknown boundary option '{boundary}', "
                              f"must be one of: {list(_BOUNDARIES)}")
    if callable(detrend):
        raise C.limitation("stft", "a callable detrend", "the segments are detrended on the "
                           "device: detrend='constant', 'linear' or False")
    xp, like = C.namespace(x)
    x = C.on_device(xp, x, like)
    if x.ndim == 0:
        raise InvalidArgument("x", "stft: x must be at least 1-D")
    axis = C.norm_axis(axis, x.ndim, "stft")
    if x.size == 0:
        empty = xp.zeros(x.shape, dtype=xp.float64, device=x.device)
        return empty, empty, empty
    xm = xp.moveaxis(x, axis, -1)
    n = xm.shape[-1]
    if nperseg is not None and operator.index(nperseg) < 1:
        raise InvalidArgument("nperseg", "stft: nperseg must be a positive integer")
    win, nperseg = _window(window, nperseg, n, "stft")
    nfft = nperseg if nfft is None else operator.index(nfft)
    if nfft < nperseg:
        raise InvalidArgument("nfft", "stft: nfft must be greater than or equal to nperseg")
    noverlap = nperseg // 2 if noverlap is None else operator.index(noverlap)
    if noverlap >= nperseg:
        raise InvalidArgument("noverlap", "stft: noverlap must be less than nperseg")
    hop = nperseg - noverlap
    cdt = D.complex64 if np.result_type(x.dtype.np, np.complex64) == np.complex64 \
        else D.complex128
    rdt = D.float32 if cdt == D.complex64 else D.float64
    onesided = return_onesided and not C.is_complex(x.dtype)
    if return_onesided and not onesided:
        warnings.warn("Input data is complex, switching to return_onesided=False",
                      stacklevel=3)
    half = nperseg // 2
    if boundary is not None and half >= 1:
        if boundary in ("even", "odd") and half > n - 1:
            raise InvalidArgument("x", f"stft: the extension length n ({half}) is too big. "
                                  f"It must not exceed x.shape[axis]-1, which is {n - 1}")
        if boundary == "zeros":
            z = xp.zeros(xm.shape[:-1] + (half,), dtype=xm.dtype, device=x.device)
            xm = xp.concat([z, xm, z], axis=-1)
        else:
            xm = _extend(xp, xm, half, boundary)
    if padded:
        nadd = (-(xm.shape[-1] - nperseg) % hop) % nperseg
        if nadd:
            z = xp.zeros(xm.shape[:-1] + (nadd,), dtype=xm.dtype, device=x.device)
            xm = xp.concat([xm, z], axis=-1)
    L = xm.shape[-1]
    nseg = (L - nperseg) // hop + 1
    seg = _segments(xp, xm, nperseg, hop, nseg)
    want = cdt if C.is_complex(x.dtype) else rdt
    seg = seg if seg.dtype == want else xp.astype(seg, want)
    if detrend:
        seg = _detrend(seg, axis=-1, type=detrend)
    seg = seg * xp.asarray(win.astype(rdt.np), device=x.device)
    S = xp.fft.rfft(seg, n=nfft) if onesided else xp.fft.fft(seg, n=nfft)
    scale = 1.0 / (fs * float((win * win).sum())) if scaling == "density" else \
        1.0 / float(win.sum()) ** 2
    S = S * float(np.sqrt(scale))
    S = S if S.dtype == cdt else xp.astype(S, cdt)
    times = np.arange(nperseg / 2, L - nperseg / 2 + 1, hop) / float(fs)
    if boundary is not None:
        times = times - (nperseg / 2) / fs
    freqs = np.fft.rfftfreq(nfft, 1 / fs) if onesided else np.fft.fftfreq(nfft, 1 / fs)
    S = xp.moveaxis(S, -1, -2)
    S = xp.moveaxis(S, -2, axis) if S.ndim > 2 else S
    return xp.asarray(freqs, device=x.device), xp.asarray(times, device=x.device), S


def istft(Zxx, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None,
          input_onesided=True, boundary=True, time_axis=-1, freq_axis=-2,
          scaling="spectrum"):
    xp, like = C.namespace(Zxx)
    Z = C.on_device(xp, Zxx, like)
    if Z.ndim < 2:
        raise InvalidArgument("Zxx", "istft: input stft must be at least 2d")
    fa = C.norm_axis(int(freq_axis), Z.ndim, "istft")
    ta = C.norm_axis(int(time_axis), Z.ndim, "istft")
    if fa == ta:
        raise InvalidArgument("time_axis", "istft: must specify differing time and "
                              "frequency axes")
    if scaling not in ("spectrum", "psd"):
        raise InvalidArgument("scaling", f"istft: scaling={scaling!r} not in ['spectrum', "
                              "'psd']")
    if not C.is_complex(Z.dtype):
        real = Z.dtype if Z.dtype in (D.float32, D.float64) else D.float64
        Z = xp.astype(Z, xp.complex64 if real == D.float32 else xp.complex128)
    nseg = Z.shape[ta]
    n_default = 2 * (Z.shape[fa] - 1) if input_onesided else Z.shape[fa]
    nperseg = n_default if nperseg is None else operator.index(nperseg)
    if nperseg < 1:
        raise InvalidArgument("nperseg", "istft: nperseg must be a positive integer")
    if nfft is None:
        nfft = nperseg if input_onesided and nperseg == n_default + 1 else n_default
    elif nfft < nperseg:
        raise InvalidArgument("nfft", "istft: nfft must be greater than or equal to nperseg")
    noverlap = nperseg // 2 if noverlap is None else operator.index(noverlap)
    if noverlap >= nperseg:
        raise InvalidArgument("noverlap", "istft: noverlap must be less than nperseg")
    hop = nperseg - noverlap
    outer = [i for i in range(Z.ndim) if i not in (fa, ta)]
    Z = xp.permute_dims(Z, tuple(outer) + (ta, fa))           # (..., segments, freqs)
    if isinstance(window, (str, tuple)):
        import scipy.signal
        get_window = getattr(scipy.signal.get_window, "__numr_routed__",
                             scipy.signal.get_window)
        win = np.asarray(get_window(window, nperseg), dtype=np.float64)
    else:
        win = np.asarray(C.host_coefficients(window, "window"), dtype=np.float64)
        if win.ndim != 1:
            raise InvalidArgument("window", "istft: window must be 1-D")
        if win.shape[0] != nperseg:
            raise InvalidArgument("window", f"istft: window must have length of {nperseg}")
    f = xp.fft
    frames = f.irfft(Z, n=nfft, axis=-1) if input_onesided else f.ifft(Z, n=nfft, axis=-1)
    frames = frames[..., :nperseg]
    rdt = D.float32 if frames.dtype in (D.float32, D.complex64) else D.float64
    gain = float(win.sum()) if scaling == "spectrum" else float(np.sqrt(fs * (win ** 2).sum()))
    frames = frames * xp.asarray((win * gain).astype(rdt.np), device=Z.device)
    out_len = nperseg + (nseg - 1) * hop
    x = _overlap_add(xp, frames, hop, out_len)
    norm = np.zeros(out_len)
    for k in range(nseg):
        norm[k * hop:k * hop + nperseg] += win ** 2
    if boundary:
        half = nperseg // 2
        x = x[..., half:-half] if half else x
        norm = norm[half:-half] if half else norm
    if np.sum(norm > 1e-10) != len(norm):
        warnings.warn("NOLA condition failed, STFT may not be invertible."
                      + (" Possibly due to missing boundary" if not boundary else ""),
                      stacklevel=3)
    x = x / xp.asarray(np.where(norm > 1e-10, norm, 1.0).astype(rdt.np), device=Z.device)
    if input_onesided and C.is_complex(x.dtype):
        x = xp.real(x)
    if x.ndim > 1 and ta != Z.ndim - 1:
        tpos = ta - 1 if fa < ta else ta
        x = xp.moveaxis(x, -1, tpos)
    times = np.arange(x.shape[0]) / float(fs)
    return xp.asarray(times, device=Z.device), x


def _overlap_add(xp, frames, hop, out_len):
    """sum_k frames[..., k, :] placed at k * hop (frames: (..., nseg, nperseg))."""
    lead = frames.shape[:-2]
    nseg, m = frames.shape[-2:]
    q = -(-m // hop)
    if q * hop > m:
        pad = xp.zeros(lead + (nseg, q * hop - m), dtype=frames.dtype, device=frames.device)
        frames = xp.concat([frames, pad], axis=-1)
    blocks = xp.reshape(frames, lead + (nseg, q, hop))
    total = None
    for r in range(q):
        part = blocks[..., r, :]                                 # (..., nseg, hop)
        pieces = []
        if r:
            pieces.append(xp.zeros(lead + (r, hop), dtype=frames.dtype, device=frames.device))
        pieces.append(part)
        if q - 1 - r:
            pieces.append(xp.zeros(lead + (q - 1 - r, hop), dtype=frames.dtype,
                                   device=frames.device))
        shifted = xp.concat(pieces, axis=-2) if len(pieces) > 1 else part
        total = shifted if total is None else total + shifted
    flat = xp.reshape(total, lead + ((nseg + q - 1) * hop,))
    return flat[..., :out_len]
