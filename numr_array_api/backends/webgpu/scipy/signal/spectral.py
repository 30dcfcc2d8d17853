"""detrend, hilbert, hilbert2 and vectorstrength for webgpu arrays: a few namespace calls
each (reductions, the FFT, elementwise functions), so the data stays on the device."""

from __future__ import annotations

import numpy as np

from ....._core import dtypes as D
from ....._core.errors import InvalidArgument
from . import _common as C

__all__ = ["detrend", "hilbert", "hilbert2", "vectorstrength"]


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    xp, like = C.namespace(data)
    x = C.on_device(xp, data, like)
    if type not in ("linear", "l", "constant", "c"):
        raise InvalidArgument("type", "detrend: trend type must be 'linear' or 'constant'")
    if not (np.ndim(bp) == 0 and bp == 0):
        raise C.limitation("detrend", "breakpoints (bp)", "piecewise-linear trends are not "
                           "implemented for webgpu arrays; bp=0 is")
    # SciPy's dtype: float32 / float64 / complex kept, everything else float64
    dt = x.dtype if x.dtype in (D.float32, D.float64, D.complex64, D.complex128) else D.float64
    x = x if x.dtype == dt else xp.astype(x, dt)
    if x.ndim == 0:
        raise InvalidArgument("data", "detrend: data must be at least 1-D")
    axis = C.norm_axis(axis, x.ndim, "detrend")
    if type in ("constant", "c"):
        return x - xp.mean(x, axis=axis, keepdims=True)
    n = x.shape[axis]
    if n == 0:
        return x
    # least-squares line through (t, x) with t centred: slope = sum(t x) / sum(t^2)
    real = D.float32 if dt in (D.float32, D.complex64) else D.float64
    t = xp.arange(n, dtype=real, device=x.device) - (n - 1) / 2
    shape = [1] * x.ndim
    shape[axis] = n
    t = xp.reshape(t, tuple(shape))
    mean = xp.mean(x, axis=axis, keepdims=True)
    denom = float(np.sum((np.arange(n) - (n - 1) / 2) ** 2)) or 1.0
    slope = xp.sum(x * t, axis=axis, keepdims=True) / denom
    return x - mean - slope * t


def hilbert(x, N=None, axis=-1):
    xp, like = C.namespace(x)
    x = C.on_device(xp, x, like)
    if C.is_complex(x.dtype):
        raise InvalidArgument("x", "hilbert: x must be real")
    if x.ndim == 0:
        raise InvalidArgument("x", "hilbert: x must be at least 1-D")
    axis = C.norm_axis(axis, x.ndim, "hilbert")
    if N is None:
        N = x.shape[axis]
    if N <= 0:
        raise InvalidArgument("N", "hilbert: N must be positive")
    dt = C.float_result(xp, x.dtype)
    x = x if x.dtype == dt else xp.astype(x, dt)
    Xf = xp.fft.fft(x, n=N, axis=axis)
    # the analytic signal's spectrum: DC (and Nyquist) once, positive frequencies twice
    h = np.zeros(N)
    h[0] = 1
    if N % 2 == 0:
        h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[1:(N + 1) // 2] = 2
    shape = [1] * x.ndim
    shape[axis] = N
    hd = xp.reshape(xp.asarray(h.astype(dt.np), device=x.device), tuple(shape))
    return xp.fft.ifft(Xf * hd, axis=axis)


def hilbert2(x, N=None, axes=(-2, -1)):
    xp, like = C.namespace(x)
    x = C.on_device(xp, x, like)
    if x.ndim < 2:
        x = xp.reshape(x, (1,) * (2 - x.ndim) + x.shape)
    if C.is_complex(x.dtype):
        raise InvalidArgument("x", "hilbert2: x must be real")
    if len(axes) != 2:
        raise InvalidArgument("axes", "hilbert2: axes must be a tuple of length 2")
    ax = tuple(C.norm_axis(a, x.ndim, "hilbert2") for a in axes)
    if ax[0] == ax[1]:
        raise InvalidArgument("axes", "hilbert2: axes must contain 2 distinct axes")
    if N is None:
        N = (x.shape[ax[0]], x.shape[ax[1]])
    elif np.ndim(N) == 0:
        if N <= 0:
            raise InvalidArgument("N", "hilbert2: N must be positive")
        N = (int(N), int(N))
    elif len(N) != 2 or any(n <= 0 for n in N):
        raise InvalidArgument("N", "hilbert2: when given as a tuple, N must hold exactly two "
                              "positive integers")
    dt = C.float_result(xp, x.dtype)
    x = x if x.dtype == dt else xp.astype(x, dt)
    Xf = xp.fft.fftn(x, s=list(N), axes=list(ax))
    # per axis: DC once, the positive half twice, the rest (Nyquist included) dropped
    for a, n in zip(ax, N):
        h = np.zeros(n)
        h[0] = 1
        h[1:(n + 1) // 2] = 2
        shape = [1] * x.ndim
        shape[a] = n
        Xf = Xf * xp.reshape(xp.asarray(h.astype(dt.np), device=x.device), tuple(shape))
    return xp.fft.ifftn(Xf, axes=list(ax))


def vectorstrength(events, period):
    xp, like = C.namespace(events, period)
    ev = C.on_device(xp, events, like)
    per = np.asarray(C.host_coefficients(period, "period"))
    if per.dtype.kind in "biu":
        per = per.astype(np.float64)
    if ev.ndim > 1:
        raise InvalidArgument("events", "vectorstrength: events cannot have dimensions more "
                              "than 1")
    if per.ndim > 1:
        raise InvalidArgument("period", "vectorstrength: period cannot have dimensions more "
                              "than 1")
    if (per <= 0).any():
        raise InvalidArgument("period", "vectorstrength: periods must be positive")
    scalar = per.ndim == 0
    rdt = D.float32 if per.dtype == np.float32 else D.float64
    ev = xp.reshape(ev if ev.dtype == rdt else xp.astype(ev, rdt), (1, -1))
    w = xp.asarray(np.reshape(np.pi / per, (-1, 1)).astype(rdt.np), device=ev.device)
    phase = 2 * (w * ev)                    # (periods, events)
    mc, ms = xp.mean(xp.cos(phase), axis=1), xp.mean(xp.sin(phase), axis=1)
    strength = xp.sqrt(mc * mc + ms * ms)
    angle = xp.atan2(ms, mc)
    return (strength[0], angle[0]) if scalar else (strength, angle)
