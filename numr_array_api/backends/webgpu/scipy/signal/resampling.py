"""upfirdn, resample_poly, decimate and resample for webgpu arrays.

upfirdn is zero insertion (a stack and a reshape), the full FIR convolution along the axis
(the direct kernel) and a strided slice; resample_poly and decimate compose it, or the
recursive filters, with FIR / IIR designs made on the host (SciPy's own firwin / cheby1 on
a few numbers); resample works in the frequency domain through the namespace's FFT, its
spectral window (if any) computed on the host and uploaded.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from ....._core import dtypes as D
from ....._core.errors import InvalidArgument
from . import _common as C
from .direct import correlate_rows

__all__ = ["upfirdn", "resample_poly", "decimate", "resample"]


def _scipy(name):
    import scipy.signal
    f = getattr(scipy.signal, name)
    return getattr(f, "__numr_routed__", f)


def _positive_int(v, name, fname):
    try:
        i = operator.index(v) if not isinstance(v, float) else int(v)
    except TypeError:
        raise InvalidArgument(name, f"{fname}: {name} must be an integer") from None
    if i != v:
        raise InvalidArgument(name, f"{fname}: {name} must be an integer")
    if i < 1:
        raise InvalidArgument(name, f"{fname}: {name} must be >= 1")
    return i


def _fir_full(xp, xm, h):
    """The full convolution of every row of ``xm`` (axis last) with the host FIR ``h``."""
    nh = h.shape[0]
    L = xm.shape[-1]
    lead = xm.shape[:-1]
    rows = math.prod(lead)
    dt = xm.dtype
    xs = xm._data.contiguous().reshape((rows, L))
    k = xp.asarray(np.ascontiguousarray(h[::-1]).astype(dt.np).reshape(1, nh),
                   device=xm.device)
    fill = xp.zeros((1,), dtype=dt, device=xm.device)
    out = correlate_rows(xs, k._data, L + nh - 1, 1 - nh, "fill", fill._data)
    return xm._ctx.wrap(out.reshape(lead + (L + nh - 1,)))


def _upfirdn_last(xp, xm, h, up, down):
    L = xm.shape[-1]
    if up > 1:
        zeros = xp.zeros(xm.shape, dtype=xm.dtype, device=xm.device)
        xu = xp.stack([xm] + [zeros] * (up - 1), axis=-1)
        xm = xp.reshape(xu, xm.shape[:-1] + (L * up,))[..., :(L - 1) * up + 1]
    y = _fir_full(xp, xm, h)
    need = ((L - 1) * up + h.shape[0] - 1) // down + 1
    return y[..., ::down][..., :need] if down > 1 else y[..., :need]


def upfirdn(h, x, up=1, down=1, axis=-1, mode="constant", cval=0):
    xp, like = C.namespace(x, h)
    hh = np.asarray(C.host_coefficients(h, "h"))
    if hh.ndim != 1 or hh.size == 0:
        raise InvalidArgument("h", "upfirdn: h must be 1-D with non-zero length")
    up = _positive_int(up, "up", "upfirdn")
    down = _positive_int(down, "down", "upfirdn")
    if mode != "constant" or cval != 0:
        raise C.limitation("upfirdn", f"mode={mode!r}, cval={cval!r}", "the webgpu upfirdn "
                           "extends the signal with zeros only (mode='constant', cval=0)")
    x = C.on_device(xp, x, like)
    if x.ndim == 0:
        raise InvalidArgument("x", "upfirdn: x must be at least 1-D")
    axis = C.norm_axis(axis, x.ndim, "upfirdn")
    rt = np.result_type(hh.dtype, x.dtype.np, np.float32)
    if rt.kind not in "fc":
        raise InvalidArgument("x", f"upfirdn: unsupported dtype {rt}")
    dt = _dtype_of(xp, rt)
    xm = xp.moveaxis(x, axis, -1)
    xm = xm if xm.dtype == dt else xp.astype(xm, dt)
    if xm.shape[-1] == 0:
        raise InvalidArgument("x", "upfirdn: x must have non-zero length along axis")
    return xp.moveaxis(_upfirdn_last(xp, xm, hh.astype(rt), up, down), -1, axis)


def _dtype_of(xp, npdt):
    return {np.dtype(np.float32): xp.float32, np.dtype(np.float64): xp.float64,
            np.dtype(np.complex64): xp.complex64,
            np.dtype(np.complex128): xp.complex128}[np.dtype(npdt)]


_STAT_PADS = ("mean", "minimum", "maximum")


def resample_poly(x, up, down, axis=0, window=("kaiser", 5.0), padtype="constant",
                  cval=None):
    xp, like = C.namespace(x, window if not isinstance(window, (str, tuple)) else None)
    up = _positive_int(up, "up", "resample_poly")
    down = _positive_int(down, "down", "resample_poly")
    if cval is not None and padtype != "constant":
        raise InvalidArgument("cval", f"resample_poly: cval has no effect when padtype is "
                              f"{padtype!r}")
    if padtype not in ("constant",) + _STAT_PADS or (cval not in (None, 0)):
        raise C.limitation("resample_poly", f"padtype={padtype!r}, cval={cval!r}",
                           "webgpu pads with zeros or the mean / minimum / maximum")
    x = C.on_device(xp, x, like)
    if padtype in ("minimum", "maximum") and C.is_complex(x.dtype):
        raise C.limitation("resample_poly", f"padtype={padtype!r} on complex data", "the "
                           "namespace orders real values only")
    axis = C.norm_axis(axis, x.ndim, "resample_poly")
    g = math.gcd(up, down)
    up, down = up // g, down // g
    if up == down == 1:
        return xp.asarray(x, copy=True)
    xm = xp.moveaxis(x, axis, -1)
    n_in = xm.shape[-1]
    n_out = n_in * up
    n_out = n_out // down + bool(n_out % down)
    if isinstance(window, (str, tuple)):
        max_rate = max(up, down)
        half_len = 10 * max_rate
        h = np.asarray(_scipy("firwin")(2 * half_len + 1, 1.0 / max_rate, window=window))
        if x.dtype in (D.float32, D.complex64):
            h = h.astype(np.float32)
    else:
        h = np.array(C.host_coefficients(window, "window"), copy=True)
        if h.ndim != 1:
            raise InvalidArgument("window", "resample_poly: window must be 1-D")
        half_len = (h.size - 1) // 2
    h = h * up
    n_pre_pad = down - half_len % down
    n_pre_remove = (half_len + n_pre_pad) // down
    # the zero padding after the filter that makes the kept part complete
    n_post_pad = 0
    while ((n_in - 1) * up + h.size + n_pre_pad + n_post_pad - 1) // down + 1 < \
            n_out + n_pre_remove:
        n_post_pad += 1
    h = np.concatenate([np.zeros(n_pre_pad, h.dtype), h, np.zeros(n_post_pad, h.dtype)])
    rt = np.result_type(h.dtype, xm.dtype.np, np.float32)
    dt = _dtype_of(xp, rt)
    xm = xm if xm.dtype == dt else xp.astype(xm, dt)
    background = None
    if padtype in _STAT_PADS:
        f = {"mean": xp.mean, "minimum": xp.min, "maximum": xp.max}[padtype]
        background = f(xm, axis=-1, keepdims=True)
        xm = xm - background
    y = _upfirdn_last(xp, xm, h.astype(rt), up, down)[..., n_pre_remove:n_pre_remove + n_out]
    if background is not None:
        y = y + background
    return xp.moveaxis(y, -1, axis)


def decimate(x, q, n=None, ftype="iir", axis=-1, zero_phase=True):
    xp, like = C.namespace(x)
    x = C.on_device(xp, x, like)
    q = operator.index(q)
    if n is not None:
        n = operator.index(n)
    if ftype not in ("fir", "iir"):
        if isinstance(ftype, str):
            raise InvalidArgument("ftype", "decimate: invalid ftype")
        raise C.limitation("decimate", "an LTI system as ftype", "webgpu decimates with "
                           "ftype='fir' or 'iir'")
    rt = x.dtype if x.dtype in (D.float32, D.float64, D.complex64, D.complex128) \
        else D.float64
    axis = C.norm_axis(axis, x.ndim, "decimate")
    if ftype == "fir":
        n = 20 * q if n is None else n
        b = np.asarray(_scipy("firwin")(n + 1, 1.0 / q, window="hamming"), dtype=rt.np)
        if zero_phase:
            return resample_poly(x, 1, q, axis=axis, window=b)
        n_out = x.shape[axis] // q + bool(x.shape[axis] % q)
        y = upfirdn(b, xp.astype(x, rt) if x.dtype != rt else x, up=1, down=q, axis=axis)
        sl = [slice(None)] * x.ndim
        sl[axis] = slice(None, n_out)
        return y[tuple(sl)]
    from .filtering import sosfilt, sosfiltfilt
    sos = np.asarray(_scipy("cheby1")(8 if n is None else n, 0.05, 0.8 / q, output="sos"),
                     dtype=rt.np)
    xr = x if x.dtype == rt else xp.astype(x, rt)
    y = sosfiltfilt(sos, xr, axis=axis) if zero_phase else sosfilt(sos, xr, axis=axis)
    sl = [slice(None)] * x.ndim
    sl[axis] = slice(None, None, q)
    return y[tuple(sl)]


def resample(x, num, t=None, axis=0, window=None, domain="time"):
    if domain not in ("time", "freq"):
        raise InvalidArgument("domain", f"resample: domain={domain!r} not in "
                              "('time', 'freq')")
    xp, like = C.namespace(x, t)
    x = C.on_device(xp, x, like)
    num = operator.index(num)
    if num < 1:
        raise InvalidArgument("num", "resample: num must be positive")
    axis = C.norm_axis(axis, x.ndim, "resample")
    xm = xp.moveaxis(x, axis, -1)
    n_x = xm.shape[-1]
    s_fac = n_x / num
    m = min(num, n_x)
    m2 = m // 2 + 1
    W = _window(window, n_x)
    f = xp.fft
    cplx = C.is_complex(xm.dtype)
    dt = C.float_result(xp, xm.dtype)
    xm = xm if xm.dtype == dt else xp.astype(xm, dt)
    real = xp.float32 if dt in (D.float32, D.complex64) else xp.float64
    if domain == "time" and not cplx:
        X = f.rfft(xm)
        scale = np.ones(m2)
        if W is not None:
            n_X = X.shape[-1]
            W = W.astype(np.float64)
            W[1:n_X] += W[::-1][:n_X - 1]
            W[1:n_X] /= 2
            scale = W[:m2].copy()
        if m % 2 == 0 and num != n_x:
            scale[m // 2] *= 2 if num < n_x else 0.5
        X = X[..., :m2] * xp.asarray((scale / s_fac).astype(real.np), device=x.device)
        y = f.irfft(X, n=num)
    else:
        X = f.fft(xm) if domain == "time" else xm
        if not C.is_complex(X.dtype):
            X = xp.astype(X, xp.complex64 if X.dtype == D.float32 else xp.complex128)
        if W is not None:
            # SciPy's product promotes (a float64 window makes complex64 data complex128)
            X = X * xp.asarray(W, device=x.device)
        y = f.ifft(_spectrum(xp, X, n_x, num, m, m2) / s_fac, n=num)
    y = xp.moveaxis(y, -1, axis)
    if t is None:
        return y
    tt = C.on_device(xp, t, like)
    return y, tt[0] + (tt[1] - tt[0]) * s_fac * xp.arange(num, device=x.device)


def _window(window, n):
    if window is None:
        return None
    if callable(window):
        return np.asarray(window(np.fft.fftfreq(n)), dtype=np.float64)
    if hasattr(window, "shape"):
        w = np.array(C.host_coefficients(window, "window"))
        if w.shape != (n,):
            raise InvalidArgument("window", f"resample: window.shape={w.shape} != ({n},), "
                                  "i.e., window length is not equal to number of frequency "
                                  "bins")
        return w
    return np.fft.fftshift(_scipy("get_window")(window, n))


def _spectrum(xp, X, n_x, num, m, m2):
    """The two-sided spectrum of length ``num`` kept from the length-``n_x`` one."""
    lead = X.shape[:-1]
    head = X[..., :m2]
    tail = X[..., n_x - (m - m2):] if m2 < m else None
    gap = num - m
    if m % 2 == 0 and num < n_x:            # two bins fold into the unpaired one
        head = xp.concat([head[..., :m2 - 1],
                          head[..., m2 - 1:] + X[..., n_x - m // 2:n_x - m // 2 + 1]], axis=-1)
    parts = [head]
    if m % 2 == 0 and n_x < num:            # the unpaired bin splits into a pair
        half = head[..., m2 - 1:] / 2
        parts = [head[..., :m2 - 1], half]
        if gap - 1 > 0:
            parts.append(xp.zeros(lead + (gap - 1,), dtype=X.dtype, device=X.device))
        parts.append(half)
    elif gap > 0:
        parts.append(xp.zeros(lead + (gap,), dtype=X.dtype, device=X.device))
    if tail is not None:
        parts.append(tail)
    return xp.concat(parts, axis=-1) if len(parts) > 1 else parts[0]
